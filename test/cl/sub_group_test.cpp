// Sub-groups (cl_khr_subgroups / __opencl_c_subgroups): the device facts,
// clGetKernelSubGroupInfo(KHR) with its errors, the sub-group mapping the
// get_sub_group_* builtins report, and the sub_group_ collectives for every
// type, checked against host references over the reported mapping.
#include "cl_test.h"
#include "group_reference.h"
#include "test_kernels.h"

#include <map>
#include <set>

using namespace cltest;
using namespace cltest::groups;

namespace {

constexpr size_t kIdFields = 6; // see sub_group_ids in group_collectives.cl

bool supportsSubGroups(cl_device_id device) { return deviceInfo<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0; }

class SubGroupTest : public GroupCollectiveTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!supportsSubGroups(device()))
      GTEST_SKIP() << "the device has no sub-groups";
  }

  Program buildFor(const char *type) { return buildCollectives(type, "-DSUB_GROUP"); }

  size_t kernelSubGroupInfo(cl_kernel k, cl_kernel_sub_group_info param, const Range &range) {
    size_t value = 0;
    EXPECT_CL(clGetKernelSubGroupInfo(k, device(), param, range.dims * sizeof(size_t), range.local.data(),
                                      sizeof(value), &value, nullptr));
    return value;
  }

  /// Runs sub_group_ids over `range`, checks the mapping it reports and
  /// returns the sub-groups, each ordered by sub-group local id.
  Partition subGroups(const Range &range) {
    if (!idsProgram_)
      idsProgram_ = buildFor("int");
    if (!idsProgram_)
      return {};
    Kernel k = kernel(idsProgram_, "sub_group_ids");
    const size_t n = range.count();
    Mem output = buffer(CL_MEM_WRITE_ONLY, n * kIdFields * sizeof(cl_uint));
    setArgs(k, output.get());
    if (!run(k, range))
      return {};
    std::vector<cl_uint> ids = read<cl_uint>(output, n * kIdFields);
    const size_t maxSize = kernelSubGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, range);
    const size_t enqueuedCount = kernelSubGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, range);
    const bool wholeWorkGroup = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_NUM_SUB_GROUPS) == 1;

    std::vector<Place> all = places(range);
    Partition groups = workGroups(range);
    Partition result;
    for (const auto &members : groups) {
      const cl_uint *first = &ids[members.front() * kIdFields];
      const cl_uint count = first[2];
      EXPECT_GE(count, 1u);
      EXPECT_EQ(first[3], enqueuedCount) << "get_enqueued_num_sub_groups, " << range.describe();
      EXPECT_EQ(first[1], maxSize) << "get_max_sub_group_size, " << range.describe();
      if (members.size() == range.localCount())
        EXPECT_EQ(count, enqueuedCount) << "get_num_sub_groups of a uniform group, " << range.describe();
      std::map<cl_uint, std::vector<size_t>> byId;
      for (size_t g : members) {
        const cl_uint *item = &ids[g * kIdFields];
        EXPECT_EQ(item[1], first[1]) << range.describe();
        EXPECT_EQ(item[2], count) << range.describe();
        EXPECT_EQ(item[3], first[3]) << range.describe();
        EXPECT_LT(item[4], count) << "get_sub_group_id, " << range.describe();
        EXPECT_LT(item[5], item[0]) << "get_sub_group_local_id, " << range.describe();
        EXPECT_LE(item[0], item[1]) << "get_sub_group_size, " << range.describe();
        if (wholeWorkGroup) {
          EXPECT_EQ(item[0], members.size()) << range.describe();
          EXPECT_EQ(item[5], all[g].localLinear) << range.describe();
        }
        auto &subGroup = byId[item[4]];
        if (subGroup.size() <= item[5])
          subGroup.resize(item[5] + 1, SIZE_MAX);
        EXPECT_EQ(subGroup[item[5]], SIZE_MAX) << "two work-items with one sub-group local id, " << range.describe();
        subGroup[item[5]] = g;
      }
      EXPECT_EQ(byId.size(), count) << range.describe();
      cl_uint fullSize = ids[byId.begin()->second.front() * kIdFields];
      for (auto &[id, subGroup] : byId) {
        cl_uint size = ids[subGroup.front() * kIdFields];
        EXPECT_EQ(subGroup.size(), size) << "sub-group " << id << ", " << range.describe();
        EXPECT_TRUE(std::find(subGroup.begin(), subGroup.end(), SIZE_MAX) == subGroup.end()) << range.describe();
        // All sub-groups but the last have the same size.
        if (id + 1 < count)
          EXPECT_EQ(size, fullSize) << range.describe();
        else
          EXPECT_LE(size, fullSize) << range.describe();
        result.push_back(subGroup);
      }
    }
    return result;
  }

  Program idsProgram_; ///< sub_group_ids, built on first use

  /// Runs `k(in, out)` over `range` on one long per work-item; the output,
  /// empty when the launch failed.
  std::vector<cl_long> runOnLongs(cl_kernel k, const Range &range, std::vector<cl_long> &in) {
    const size_t n = range.count();
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_long), in.data());
    Mem output = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_long));
    setArgs(k, input.get(), output.get());
    if (!run(k, range))
      return {};
    return read<cl_long>(output, n);
  }

  template <class T> void checkCollectives() {
    if (std::is_same_v<T, cl_double> && !deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG))
      GTEST_SKIP() << "no fp64";
    Program program = buildFor(clTypeName<T>());
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "collectives");
    for (const Range &range : rangesFor(k)) {
      Partition partition = subGroups(range);
      ASSERT_FALSE(HasFailure());
      const size_t n = range.count();
      std::vector<T> in = randomValues<T>(n, n * 17 + range.dims);
      Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), in.data());
      Mem output = buffer(CL_MEM_WRITE_ONLY, kSlots * n * sizeof(T));
      setArgs(k, input.get(), output.get());
      ASSERT_TRUE(run(k, range));
      std::vector<T> actual = read<T>(output, kSlots * n);

      std::vector<Place> all = places(range);
      std::vector<size_t> sources(partition.size());
      for (size_t group = 0; group < partition.size(); ++group)
        sources[group] = (all[partition[group].front()].groupId[0] * 7 + 3) % partition[group].size();
      std::vector<T> expected = expectedCollectives(partition, in, sources);
      expectSameCollectives(expected, actual, n, std::string(clTypeName<T>()) + " " + range.describe());
      if (HasFatalFailure())
        return;
    }
  }
};

} // namespace

TEST_P(SubGroupTest, DeviceFacts) {
  cl_uint maxNum = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_NUM_SUB_GROUPS);
  size_t maxWorkGroup = deviceInfo<size_t>(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(maxNum, 1u);
  EXPECT_LE(maxNum, maxWorkGroup);
  bool feature = false;
  for (const cl_name_version &entry : deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES))
    feature |= std::string(entry.name) == "__opencl_c_subgroups";
  EXPECT_TRUE(feature);
  cl_bool forwardProgress = CL_FALSE;
  EXPECT_CL(clGetDeviceInfo(device(), CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(forwardProgress),
                            &forwardProgress, nullptr));
  // The extension (unlike the OpenCL 3.0 feature) requires independent
  // forward progress of sub-groups.
  if (deviceHasExtension(device(), "cl_khr_subgroups"))
    EXPECT_EQ(forwardProgress, CL_TRUE);
  // The work-group size multiple is a SIMD width, not a sub-group count.
  size_t multiple = deviceInfo<size_t>(device(), CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
  EXPECT_GE(multiple, 1u);
  EXPECT_LE(multiple, maxWorkGroup);
}

TEST_P(SubGroupTest, MappingMatchesQueries) {
  Program program = buildFor("int");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "sub_group_ids");
  for (const Range &range : rangesFor(k)) {
    subGroups(range);
    if (HasFailure())
      return;
  }
}

TEST_P(SubGroupTest, Int) { checkCollectives<cl_int>(); }
TEST_P(SubGroupTest, UInt) { checkCollectives<cl_uint>(); }
TEST_P(SubGroupTest, Long) { checkCollectives<cl_long>(); }
TEST_P(SubGroupTest, ULong) { checkCollectives<cl_ulong>(); }
TEST_P(SubGroupTest, Float) { checkCollectives<cl_float>(); }
TEST_P(SubGroupTest, Double) { checkCollectives<cl_double>(); }

TEST_P(SubGroupTest, AnyAll) {
  Program program = buildFor("int");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "votes");
  for (const Range &range : rangesFor(k)) {
    Partition partition = subGroups(range);
    ASSERT_FALSE(HasFailure());
    const size_t n = range.count();
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

TEST_P(SubGroupTest, RepeatedWithLocalMemory) {
  Program program = buildFor("long");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "repeated");
  for (const Range &range : rangesFor(k)) {
    Partition partition = subGroups(range);
    ASSERT_FALSE(HasFailure());
    const size_t n = range.count();
    std::vector<cl_long> in = randomValues<cl_long>(n, n + 3, /*small=*/true);
    std::vector<cl_long> actual = runOnLongs(k, range, in);
    ASSERT_EQ(actual.size(), n);
    std::vector<cl_long> expected = expectedRepeated(partition, workGroups(range), in);
    for (size_t g = 0; g < n; ++g)
      ASSERT_EQ(expected[g], actual[g]) << range.describe() << " at " << g;
  }
}

// Sub-group barriers and collectives that only some sub-groups of a
// work-group reach, followed by work-group barriers.
TEST_P(SubGroupTest, BarriersAndCollectivesInCodeThatDiffersBetweenSubGroups) {
  Program program = buildFor("long");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "divergent");
  for (const Range &range : rangesFor(k)) {
    Partition partition = subGroups(range);
    ASSERT_FALSE(HasFailure());
    const size_t n = range.count();
    std::vector<cl_long> in = randomValues<cl_long>(n, n + 11, /*small=*/true);
    std::vector<cl_long> actual = runOnLongs(k, range, in);
    ASSERT_EQ(actual.size(), n);

    // The partition lists each work-group's sub-groups in order of id.
    std::vector<Place> all = places(range);
    std::vector<cl_long> joined(n);
    size_t id = 0;
    for (size_t i = 0; i < partition.size(); ++i) {
      const auto &members = partition[i];
      id = i > 0 && all[partition[i - 1].front()].workGroup == all[members.front()].workGroup ? id + 1 : 0;
      cl_long sum = 0;
      for (size_t g : members)
        sum += in[g];
      cl_long scan = 0;
      for (size_t s = 0; s < members.size(); ++s) {
        scan += in[members[s]];
        joined[members[s]] = id % 2 == 0 ? in[members[members.size() - 1 - s]] + sum : scan * 3;
      }
    }
    for (const auto &members : workGroups(range))
      for (size_t l = 0; l < members.size(); ++l)
        ASSERT_EQ(actual[members[l]], joined[members[members.size() - 1 - l]])
            << range.describe() << " at local linear id " << l;
  }
}

// Collectives in the regions between work-group barriers, at every test
// range: whole sub-groups (the host's vector forms of the regions) and
// partial ones (its rounds), against a reference computed here.
TEST_P(SubGroupTest, CollectivesBetweenWorkGroupBarriers) {
  Program program = buildFor("long");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "between_barriers");
  for (const Range &range : rangesFor(k)) {
    Partition partition = subGroups(range);
    ASSERT_FALSE(HasFailure());
    const size_t n = range.count();
    std::vector<cl_long> x = randomValues<cl_long>(n, n + 29, /*small=*/true);
    std::vector<cl_long> actual = runOnLongs(k, range, x);
    ASSERT_EQ(actual.size(), n);

    // Per sub-group: the minimum, the scans, and (per round) the maximum,
    // the first member's value and whether any value is positive.
    std::vector<cl_long> low(n), before(n), inclusive(n), y(n), tile(n);
    for (const auto &members : partition) {
      cl_long least = x[members.front()], sum = 0;
      for (size_t g : members) {
        least = std::min(least, x[g]);
        before[g] = sum;
        sum += x[g];
        inclusive[g] = sum;
      }
      for (size_t g : members)
        low[g] = least;
    }
    const Partition groups = workGroups(range);
    for (const auto &members : groups)
      for (size_t l = 0; l < members.size(); ++l)
        y[members[l]] = x[members[members.size() - 1 - l]];
    for (cl_long r = 0; r < 2; ++r) {
      std::vector<cl_long> top(n), first(n), any(n);
      for (const auto &members : partition) {
        cl_long most = y[members.front()] + r, positive = 0;
        for (size_t g : members) {
          most = std::max(most, y[g] + r);
          positive |= y[g] > 0;
        }
        for (size_t g : members) {
          top[g] = most;
          first[g] = y[members.front()];
          any[g] = positive;
        }
      }
      for (size_t g = 0; g < n; ++g)
        tile[g] = top[g] - low[g] + before[g];
      for (const auto &members : groups)
        for (size_t l = 0; l < members.size(); ++l) {
          size_t g = members[l];
          y[g] = tile[members[(l + 1) % members.size()]] + first[g] + any[g];
        }
    }
    for (size_t g = 0; g < n; ++g)
      ASSERT_EQ(y[g] + inclusive[g], actual[g]) << range.describe() << " at global linear id " << g;
  }
}

// clGetKernelSubGroupInfo and its KHR alias: answers and every error.
TEST_P(SubGroupTest, KernelSubGroupInfo) {
  Program program = buildFor("int");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "sub_group_ids");
  size_t maxWorkGroup = 0;
  ASSERT_CL(
      clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(maxWorkGroup), &maxWorkGroup, nullptr));
  cl_uint deviceMaxNum = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_NUM_SUB_GROUPS);

  size_t local[3] = {maxWorkGroup, 1, 1};
  size_t size = 0, ret = 0;
  for (cl_uint dims = 1; dims <= 3; ++dims) {
    ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, dims * sizeof(size_t),
                                      local, sizeof(size), &size, &ret));
    EXPECT_EQ(ret, sizeof(size_t));
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, maxWorkGroup);
    size_t count = 0;
    ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, dims * sizeof(size_t), local,
                                      sizeof(count), &count, &ret));
    EXPECT_EQ(count, (maxWorkGroup + size - 1) / size);
    EXPECT_LE(count, deviceMaxNum);
  }
  // One work-item is one sub-group of one.
  size_t one = 1;
  ASSERT_CL(clGetKernelSubGroupInfo(k, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(one), &one,
                                    sizeof(size), &size, nullptr));
  EXPECT_EQ(size, 1u);
  // The KHR entry point (through the extension function address) agrees.
  auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platformUnderTest(), "clGetKernelSubGroupInfoKHR"));
  if (deviceHasExtension(device(), "cl_khr_subgroups")) {
    ASSERT_NE(khr, nullptr);
    size_t khrSize = 0;
    ASSERT_CL(khr(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof(size_t), local, sizeof(khrSize),
                  &khrSize, nullptr));
    size_t coreSize = 0;
    ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), local,
                                      sizeof(coreSize), &coreSize, nullptr));
    EXPECT_EQ(khrSize, coreSize);
  }

  // CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_COMPILE_NUM_SUB_GROUPS.
  size_t maxNum = 0;
  ASSERT_CL(
      clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof(maxNum), &maxNum, &ret));
  EXPECT_EQ(ret, sizeof(size_t));
  EXPECT_GE(maxNum, 1u);
  EXPECT_LE(maxNum, deviceMaxNum);
  size_t compileNum = 99;
  ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr, sizeof(compileNum),
                                    &compileNum, nullptr));
  EXPECT_EQ(compileNum, 0u);

  // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: every count up to the maximum
  // gives a 1-D size with exactly that many sub-groups; more gives zeros.
  for (size_t count = 1; count <= maxNum; ++count) {
    for (size_t dims = 1; dims <= 3; ++dims) {
      size_t result[3] = {7, 7, 7};
      ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(count), &count,
                                        dims * sizeof(size_t), result, &ret));
      EXPECT_EQ(ret, dims * sizeof(size_t));
      ASSERT_GE(result[0], 1u) << count;
      ASSERT_LE(result[0], maxWorkGroup);
      for (size_t d = 1; d < dims; ++d)
        EXPECT_EQ(result[d], 1u);
      size_t got = 0;
      ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(size_t), result,
                                        sizeof(got), &got, nullptr));
      EXPECT_EQ(got, count);
    }
  }
  size_t tooMany = maxWorkGroup + 1;
  size_t zeros[3] = {7, 7, 7};
  ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(tooMany), &tooMany,
                                    sizeof(zeros), zeros, nullptr));
  EXPECT_EQ(zeros[0], 0u);
  EXPECT_EQ(zeros[1], 0u);
  EXPECT_EQ(zeros[2], 0u);

  // Errors.
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clGetKernelSubGroupInfo(nullptr, device(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                                           sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clGetKernelSubGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, sizeof(size), &size,
                                        nullptr)); // not a sub-group query
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                          sizeof(size_t), nullptr, sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, local,
                                                          sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                                          sizeof(size_t) + 1, local, sizeof(size), &size, nullptr));
  size_t four[4] = {1, 1, 1, 1};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                          sizeof(four), four, sizeof(size), &size, nullptr));
  size_t zero[2] = {4, 0};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                          sizeof(zero), zero, sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                                          sizeof(size_t), nullptr, sizeof(zeros), zeros, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                                          sizeof(cl_uint), &one, sizeof(zeros), zeros, nullptr));
  // Room for the result that is too small or not whole dimensions.
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                                          sizeof(cl_uint), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                                          sizeof(one), &one, sizeof(size_t) + 4, zeros, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                                          sizeof(one), &one, 4 * sizeof(size_t), four, nullptr));
  // A size query without a result buffer still reports the size.
  ret = 0;
  ASSERT_CL(clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, 0, nullptr, &ret));
  EXPECT_EQ(ret, sizeof(size_t));
}

// A kernel object that is not associated with the device named.
TEST_P(SubGroupTest, KernelSubGroupInfoRejectsOtherDevices) {
  Program program = buildFor("int");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "sub_group_ids");
  size_t size = 0, one = 1;
  for (cl_device_id other : devicesUnderTest()) {
    if (other == device())
      continue;
    EXPECT_CL_ERR(CL_INVALID_DEVICE, clGetKernelSubGroupInfo(k, other, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                             sizeof(one), &one, sizeof(size), &size, nullptr));
  }
  // The context's device list is one device, so NULL names it.
  EXPECT_CL(clGetKernelSubGroupInfo(k, nullptr, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(one), &one,
                                    sizeof(size), &size, nullptr));
}

// Devices without sub-groups refuse the query with CL_INVALID_OPERATION.
class SubGroupAbsenceTest : public DeviceTest {};

TEST_P(SubGroupAbsenceTest, QueriesFailWithoutSubGroups) {
  if (supportsSubGroups(device()))
    GTEST_SKIP() << "the device has sub-groups";
  Program program = build("kernel void k(global int *out) { out[0] = 1; }");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "k");
  size_t one = 1, size = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                              sizeof(one), &one, sizeof(size), &size, nullptr));
}

CLTEST_INSTANTIATE(SubGroupTest);
CLTEST_INSTANTIATE(SubGroupAbsenceTest);
