// The OpenCL C 3.0 generic address space (__opencl_c_generic_address_space):
// to_global / to_local / to_private / get_fence on pointers into every kind
// of memory, and generic pointers used to read and write that memory,
// checked against host-computed references.
#include "cl_test.h"

#include <algorithm>
#include <numeric>

using namespace cltest;

namespace {

bool hasOpenCLCFeature(cl_device_id device, std::string_view name) {
  for (const cl_name_version &feature : deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_FEATURES))
    if (name == feature.name)
      return true;
  return false;
}

// cl_mem_fence_flags of OpenCL C (not in the host API headers).
constexpr int CLK_LOCAL_MEM_FENCE = 1;
constexpr int CLK_GLOBAL_MEM_FENCE = 2;

bool isValidFence(int fence) {
  return fence == 0 || fence == CLK_GLOBAL_MEM_FENCE || fence == CLK_LOCAL_MEM_FENCE ||
         fence == (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

class GenericAddressSpaceTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceSupportsOpenCLC(device(), 3, 0) || !hasOpenCLCFeature(device(), "__opencl_c_generic_address_space"))
      GTEST_SKIP() << "the device does not support the OpenCL C 3.0 generic address space";
  }
  Program buildCL30(std::string_view source) { return build(source, "-cl-std=CL3.0"); }
  void run1D(cl_kernel k, size_t global, size_t local) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
};

// Bits of `where`: 1 to_global, 2 to_local, 4 to_private (non-null).
constexpr int kGlobal = 1, kLocal = 2, kPrivate = 4;
constexpr int kPointerKinds = 6;

constexpr const char *kWhereSource = R"(
global int program_variable = 5;
global int program_array[4] = {1, 2, 3, 4};

int where(int *p) {
  return (to_global(p) != NULL ? 1 : 0) | (to_local(p) != NULL ? 2 : 0) | (to_private(p) != NULL ? 4 : 0);
}

kernel void where_pointers_live(global int *buffer, local int *local_arg, global int *kinds, global int *fences) {
  local int local_variable[4];
  int private_array[3];
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  private_array[i % 3] = (int)i;
  int *pointers[6] = {buffer + i, local_arg + l, &local_variable[l % 4], &private_array[i % 3],
                      &program_variable, &program_array[i % 4]};
  for (int k = 0; k < 6; ++k) {
    kinds[i * 6 + k] = where(pointers[k]);
    fences[i * 6 + k] = (int)get_fence(pointers[k]);
  }
}
)";

TEST_P(GenericAddressSpaceTest, ConversionsFindTheAddressSpaceOfEveryPointer) {
  Program program = buildCL30(kWhereSource);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "where_pointers_live");
  constexpr size_t global = 256, local = 32;
  Mem data = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_int));
  Mem kinds = buffer(CL_MEM_WRITE_ONLY, global * kPointerKinds * sizeof(cl_int));
  Mem fences = buffer(CL_MEM_WRITE_ONLY, global * kPointerKinds * sizeof(cl_int));
  ASSERT_CL(setArg(k, 0, data.get()));
  ASSERT_CL(clSetKernelArg(k, 1, local * sizeof(cl_int), nullptr));
  ASSERT_CL(setArg(k, 2, kinds.get()));
  ASSERT_CL(setArg(k, 3, fences.get()));
  run1D(k, global, local);
  auto kind = read<cl_int>(kinds, global * kPointerKinds);
  auto fence = read<cl_int>(fences, global * kPointerKinds);
  // buffer, __local argument, __local variable, private, program-scope variable and array.
  const int expectedKind[kPointerKinds] = {kGlobal, kLocal, kLocal, kPrivate, kGlobal, kGlobal};
  for (size_t i = 0; i < global; ++i)
    for (int p = 0; p < kPointerKinds; ++p) {
      size_t index = i * kPointerKinds + p;
      ASSERT_EQ(kind[index], expectedKind[p]) << "work-item " << i << " pointer " << p;
      if (expectedKind[p] == kGlobal)
        ASSERT_EQ(fence[index], CLK_GLOBAL_MEM_FENCE) << "work-item " << i << " pointer " << p;
      else if (expectedKind[p] == kLocal)
        ASSERT_EQ(fence[index], CLK_LOCAL_MEM_FENCE) << "work-item " << i << " pointer " << p;
      else // the spec only asks for a valid fence value for private memory
        ASSERT_TRUE(isValidFence(fence[index])) << "work-item " << i << " fence " << fence[index];
    }
}

TEST_P(GenericAddressSpaceTest, ConvertedPointersReachTheSameMemory) {
  Program program = buildCL30(R"(
kernel void round_trip(global int *data, global int *out) {
  local int scratch[64];
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  int private_value = (int)i * 3;

  int *any = data + i;
  global int *as_global = to_global(any);
  *as_global += 7;

  any = &scratch[l];
  local int *as_local = to_local(any);
  *as_local = (int)i * 2;

  any = &private_value;
  private int *as_private = to_private(any);
  *as_private += 1;

  out[i] = scratch[l] + private_value;
}
)");
  ASSERT_TRUE(program);
  constexpr size_t global = 512, local = 64;
  std::vector<cl_int> initial(global);
  std::iota(initial.begin(), initial.end(), -100);
  Mem data = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, global * sizeof(cl_int), initial.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, global * sizeof(cl_int));
  Kernel k = kernel(program, "round_trip");
  setArgs(k, data.get(), out.get());
  run1D(k, global, local);
  auto updated = read<cl_int>(data, global);
  auto result = read<cl_int>(out, global);
  for (size_t i = 0; i < global; ++i) {
    ASSERT_EQ(updated[i], initial[i] + 7) << i;
    ASSERT_EQ(result[i], static_cast<cl_int>(i * 2 + i * 3 + 1)) << i;
  }
}

TEST_P(GenericAddressSpaceTest, OneFunctionReadsGlobalLocalAndPrivateMemory) {
  Program program = buildCL30(R"(
int sum(const int *values, int count) {
  int total = 0;
  for (int k = 0; k < count; ++k)
    total += values[k];
  return total;
}
void scale(int *values, int count, int factor) {
  for (int k = 0; k < count; ++k)
    values[k] *= factor;
}
kernel void sums(global int *data, global int *out) {
  local int staged[16 * 4];
  int mine[4];
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  for (int k = 0; k < 4; ++k) {
    mine[k] = data[i * 4 + k] + 1;
    staged[l * 4 + k] = data[i * 4 + k] - 1;
  }
  scale(mine, 4, 3);
  scale(&staged[l * 4], 4, 5);
  out[i * 3 + 0] = sum(data + i * 4, 4);
  out[i * 3 + 1] = sum(&staged[l * 4], 4);
  out[i * 3 + 2] = sum(mine, 4);
}
)");
  ASSERT_TRUE(program);
  constexpr size_t global = 128, local = 16;
  std::vector<cl_int> data(global * 4);
  for (size_t j = 0; j < data.size(); ++j)
    data[j] = static_cast<cl_int>((j * 37) % 101) - 50;
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, global * 3 * sizeof(cl_int));
  Kernel k = kernel(program, "sums");
  setArgs(k, in.get(), out.get());
  run1D(k, global, local);
  auto result = read<cl_int>(out, global * 3);
  for (size_t i = 0; i < global; ++i) {
    cl_int plain = 0, staged = 0, mine = 0;
    for (size_t k = 0; k < 4; ++k) {
      plain += data[i * 4 + k];
      staged += (data[i * 4 + k] - 1) * 5;
      mine += (data[i * 4 + k] + 1) * 3;
    }
    ASSERT_EQ(result[i * 3 + 0], plain) << i;
    ASSERT_EQ(result[i * 3 + 1], staged) << i;
    ASSERT_EQ(result[i * 3 + 2], mine) << i;
  }
}

TEST_P(GenericAddressSpaceTest, NullConvertsToNull) {
  Program program = buildCL30(R"(
kernel void nulls(global int *out, int use_null) {
  int *p = use_null ? NULL : (int *)out;
  out[get_global_id(0)] = (to_global(p) == NULL) + 2 * (to_local(p) == NULL) + 4 * (to_private(p) == NULL);
}
)");
  ASSERT_TRUE(program);
  Mem out = buffer(CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  Kernel k = kernel(program, "nulls");
  setArgs(k, out.get(), cl_int{1});
  run1D(k, 4, 1);
  for (cl_int value : read<cl_int>(out, 4))
    EXPECT_EQ(value, 7);
  setArgs(k, out.get(), cl_int{0});
  run1D(k, 4, 1);
  for (cl_int value : read<cl_int>(out, 4))
    EXPECT_EQ(value, 6) << "a buffer pointer is global only";
}

// Kernel arguments are in the private address space, structs passed by
// value included.
TEST_P(GenericAddressSpaceTest, KernelArgumentsArePrivate) {
  Program program = buildCL30(R"(
typedef struct { int a; int b[3]; } Record;
kernel void arguments(global int *out, Record record, int scalar) {
  int *in_record = &record.b[1];
  int *in_scalar = &scalar;
  size_t i = get_global_id(0);
  out[i * 4 + 0] = (to_private(in_record) != NULL) + 2 * (to_global(in_record) != NULL);
  out[i * 4 + 1] = *in_record;
  out[i * 4 + 2] = (to_private(in_scalar) != NULL) + 2 * (to_global(in_scalar) != NULL);
  out[i * 4 + 3] = *in_scalar;
}
)");
  ASSERT_TRUE(program);
  struct Record {
    cl_int a;
    cl_int b[3];
  } record = {1, {2, 3, 4}};
  constexpr size_t global = 64;
  Mem out = buffer(CL_MEM_WRITE_ONLY, global * 4 * sizeof(cl_int));
  Kernel k = kernel(program, "arguments");
  setArgs(k, out.get(), record, cl_int{-9});
  run1D(k, global, 16);
  auto result = read<cl_int>(out, global * 4);
  for (size_t i = 0; i < global; ++i) {
    ASSERT_EQ(result[i * 4 + 0], 1) << i;
    ASSERT_EQ(result[i * 4 + 1], 3) << i;
    ASSERT_EQ(result[i * 4 + 2], 1) << i;
    ASSERT_EQ(result[i * 4 + 3], -9) << i;
  }
}

// Private arrays that live across a barrier stay private, and __local
// pointers taken before a barrier are still __local after it.
TEST_P(GenericAddressSpaceTest, PointersKeepTheirAddressSpaceAcrossBarriers) {
  Program program = buildCL30(R"(
kernel void across(global int *out) {
  local int shared[64];
  int mine[4];
  int l = (int)get_local_id(0);
  int size = (int)get_local_size(0);
  for (int k = 0; k < 4; ++k)
    mine[k] = l * 10 + k;
  int *p = &mine[l % 4];
  int *s = &shared[l];
  *s = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int *neighbour = &shared[(l + 1) % size];
  size_t i = get_global_id(0);
  out[i * 4 + 0] = (to_private(p) != NULL) + 2 * (to_global(p) != NULL);
  out[i * 4 + 1] = *p;
  out[i * 4 + 2] = (to_local(s) != NULL) + 2 * (to_local(neighbour) != NULL);
  out[i * 4 + 3] = *neighbour;
}
)");
  ASSERT_TRUE(program);
  constexpr size_t global = 256, local = 64;
  Mem out = buffer(CL_MEM_WRITE_ONLY, global * 4 * sizeof(cl_int));
  Kernel k = kernel(program, "across");
  setArgs(k, out.get());
  run1D(k, global, local);
  auto result = read<cl_int>(out, global * 4);
  for (size_t i = 0; i < global; ++i) {
    int l = static_cast<int>(i % local);
    ASSERT_EQ(result[i * 4 + 0], 1) << i;
    ASSERT_EQ(result[i * 4 + 1], l * 10 + l % 4) << i;
    ASSERT_EQ(result[i * 4 + 2], 3) << i;
    ASSERT_EQ(result[i * 4 + 3], (l + 1) % static_cast<int>(local)) << i;
  }
}

} // namespace

CLTEST_INSTANTIATE(GenericAddressSpaceTest);
