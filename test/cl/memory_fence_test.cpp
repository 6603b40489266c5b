// mem_fence, read_mem_fence, write_mem_fence (OpenCL C 1.x) and
// atomic_work_item_fence (2.0+) build and keep a work-item's own stores and
// loads in order on every device (the vulkan compiler once rejected the
// LLVM fence they become).
#include "cl_test.h"

#include <vector>

using namespace cltest;

namespace {

class MemoryFenceTest : public DeviceTest {};

TEST_P(MemoryFenceTest, FencesOrderAWorkItemsOwnAccesses) {
  Program program = build(R"(
__kernel void k(__global int *data, __local int *scratch) {
  size_t i = get_global_id(0), l = get_local_id(0);
  data[i] = (int)i;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  scratch[l] = data[i] * 2;
  write_mem_fence(CLK_LOCAL_MEM_FENCE);
  int twice = scratch[l];
  read_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  data[i] = twice + 1;
})");
  ASSERT_TRUE(program);
  Program c20 = build(R"(
__kernel void k(__global int *data) {
  size_t i = get_global_id(0);
  data[i] = (int)i;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
  data[i] += 3;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_item);
})",
                      "-cl-std=CL2.0");
  ASSERT_TRUE(c20);
  constexpr size_t kItems = 256, kLocal = 64;
  Mem data = buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_int));
  Kernel k = kernel(program, "k");
  setArgs(k, data.get());
  ASSERT_CL(clSetKernelArg(k, 1, kLocal * sizeof(cl_int), nullptr));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kItems, &kLocal, 0, nullptr, nullptr));
  std::vector<cl_int> got = read<cl_int>(data, kItems);
  for (size_t i = 0; i < kItems; ++i)
    ASSERT_EQ(got[i], cl_int(2 * i + 1)) << "item " << i;
  Kernel k20 = kernel(c20, "k");
  setArgs(k20, data.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k20, 1, nullptr, &kItems, &kLocal, 0, nullptr, nullptr));
  got = read<cl_int>(data, kItems);
  for (size_t i = 0; i < kItems; ++i)
    ASSERT_EQ(got[i], cl_int(i + 3)) << "item " << i;
}

} // namespace

CLTEST_INSTANTIATE(MemoryFenceTest);
