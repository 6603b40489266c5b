// Work-group collective functions (__opencl_c_work_group_collective_functions):
// work_group_reduce/scan_inclusive/scan_exclusive add/min/max, broadcast in
// 1, 2 and 3 dimensions, any and all, for every type the spec allows, over
// uniform and non-uniform work-groups, checked against host references.
#include "cl_test.h"
#include "group_reference.h"
#include "test_kernels.h"

using namespace cltest;
using namespace cltest::groups;

namespace {

class WorkGroupFunctionsTest : public GroupCollectiveTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_bool>(device(), CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT))
      GTEST_SKIP() << "the device has no work-group collective functions";
  }

  Program buildFor(const char *type) { return buildCollectives(type); }

  template <class T> void checkCollectives() {
    if (std::is_same_v<T, cl_double> && !deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG))
      GTEST_SKIP() << "no fp64";
    Program program = buildFor(clTypeName<T>());
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "collectives");
    for (const Range &range : rangesFor(k)) {
      const size_t n = range.count();
      std::vector<T> in = randomValues<T>(n, n * 31 + range.dims);
      Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), in.data());
      Mem output = buffer(CL_MEM_WRITE_ONLY, kSlots * n * sizeof(T));
      setArgs(k, input.get(), output.get());
      ASSERT_TRUE(run(k, range));
      std::vector<T> actual = read<T>(output, kSlots * n);

      Partition partition = workGroups(range);
      std::vector<Place> all = places(range);
      // The broadcast source: (3 * group id + 1) mod the group's size, per
      // dimension (group_collectives.cl), as a local linear id.
      std::vector<size_t> sources(partition.size());
      for (size_t group = 0; group < partition.size(); ++group) {
        const Place &first = all[partition[group].front()];
        Triple size;
        for (unsigned d = 0; d < 3; ++d)
          size[d] = std::min(range.local[d], range.global[d] - first.groupId[d] * range.local[d]);
        Triple source;
        for (unsigned d = 0; d < 3; ++d)
          source[d] = (first.groupId[d] * 3 + 1) % size[d];
        sources[group] = (source[2] * size[1] + source[1]) * size[0] + source[0];
      }
      std::vector<T> expected = expectedCollectives(partition, in, sources);
      expectSameCollectives(expected, actual, n, std::string(clTypeName<T>()) + " " + range.describe());
      if (HasFatalFailure())
        return;
    }
  }

  template <class T> void checkRepeated() {
    if (std::is_same_v<T, cl_double> && !deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG))
      GTEST_SKIP() << "no fp64";
    Program program = buildFor(clTypeName<T>());
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "repeated");
    for (const Range &range : rangesFor(k)) {
      const size_t n = range.count();
      std::vector<T> in = randomValues<T>(n, n + 7, /*small=*/true);
      Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), in.data());
      Mem output = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T));
      setArgs(k, input.get(), output.get());
      ASSERT_TRUE(run(k, range));
      std::vector<T> actual = read<T>(output, n);
      Partition partition = workGroups(range);
      std::vector<T> expected = expectedRepeated(partition, partition, in);
      for (size_t g = 0; g < n; ++g)
        ASSERT_EQ(expected[g], actual[g]) << clTypeName<T>() << " " << range.describe() << " at " << g;
    }
  }
};

} // namespace

TEST_P(WorkGroupFunctionsTest, Int) { checkCollectives<cl_int>(); }
TEST_P(WorkGroupFunctionsTest, UInt) { checkCollectives<cl_uint>(); }
TEST_P(WorkGroupFunctionsTest, Long) { checkCollectives<cl_long>(); }
TEST_P(WorkGroupFunctionsTest, ULong) { checkCollectives<cl_ulong>(); }
TEST_P(WorkGroupFunctionsTest, Float) { checkCollectives<cl_float>(); }
TEST_P(WorkGroupFunctionsTest, Double) { checkCollectives<cl_double>(); }

TEST_P(WorkGroupFunctionsTest, AnyAll) {
  Program program = buildFor("int");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "votes");
  for (const Range &range : rangesFor(k)) {
    const size_t n = range.count();
    Partition partition = workGroups(range);
    std::vector<cl_int> in = votePredicates(partition, n);
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), in.data());
    Mem output = buffer(CL_MEM_WRITE_ONLY, 2 * n * sizeof(cl_int));
    setArgs(k, input.get(), output.get());
    ASSERT_TRUE(run(k, range));
    expectVotes(partition, in, read<cl_int>(output, 2 * n), range.describe());
    if (HasFatalFailure())
      return;
  }
}

// Collectives in a loop, between the kernel's own barriers and next to its
// __local array: the scratch they share must be reusable call after call.
TEST_P(WorkGroupFunctionsTest, RepeatedWithLocalMemoryInt) { checkRepeated<cl_int>(); }
TEST_P(WorkGroupFunctionsTest, RepeatedWithLocalMemoryDouble) { checkRepeated<cl_double>(); }

// A kernel that needs most of the __local memory can still use collectives.
TEST_P(WorkGroupFunctionsTest, FitsNextToLargeLocalArrays) {
  cl_ulong localMemSize = deviceInfo<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE);
  // Leave a quarter of the device's __local memory to the implementation.
  size_t elements = static_cast<size_t>(localMemSize / 4 * 3 / sizeof(cl_long));
  std::string source = "kernel void big(global long *out) {\n"
                       "  local long big[" +
                       std::to_string(elements) +
                       "];\n"
                       "  size_t l = get_local_id(0);\n"
                       "  for (size_t i = l; i < " +
                       std::to_string(elements) +
                       "; i += get_local_size(0)) big[i] = (long)i;\n"
                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                       "  out[get_global_id(0)] = work_group_reduce_add(big[" +
                       std::to_string(elements - 1) + " - l]);\n}\n";
  Program program = build(source, clStdOption(device()));
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "big");
  cl_ulong kernelLocal = 0;
  ASSERT_CL(
      clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof(kernelLocal), &kernelLocal, nullptr));
  EXPECT_GE(kernelLocal, elements * sizeof(cl_long));
  EXPECT_LE(kernelLocal, localMemSize);
  size_t limit = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr));
  size_t local = std::min<size_t>(256, limit);
  size_t global = local * 2;
  Mem output = buffer(CL_MEM_WRITE_ONLY, global * sizeof(cl_long));
  setArgs(k, output.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_long> out = read<cl_long>(output, global);
  cl_long expected = 0;
  for (size_t l = 0; l < local; ++l)
    expected += static_cast<cl_long>(elements - 1 - l);
  for (size_t g = 0; g < global; ++g)
    ASSERT_EQ(expected, out[g]) << g;
}

CLTEST_INSTANTIATE(WorkGroupFunctionsTest);
