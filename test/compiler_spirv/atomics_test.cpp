// OpenCL 1.x and C11 atomics on __global and __local memory, 32- and
// 64-bit.
#include "spirv_test_support.h"

#include "spirv/unified1/spirv.hpp"

namespace compiler::spirv::test {
namespace {

TEST(SpirvAtomics, Global32) {
  buildOk(R"(
    kernel void k(global int *counter, global uint *bits, global int *out) {
      int old = atomic_add(counter, 1);
      atomic_sub(counter + 1, 2);
      atomic_or(bits, 1u << (get_global_id(0) & 31));
      atomic_max(counter + 2, old);
      atomic_min(bits + 1, 5u);
      out[get_global_id(0)] = atomic_cmpxchg(counter + 3, old, old + 1) + atomic_xchg(counter + 4, 9);
    })");
}

TEST(SpirvAtomics, Global64) {
  buildOk(R"(
    #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
    kernel void k(global long *counter, global ulong *m) {
      atom_add(counter, 3L);
      atom_max(counter + 1, (long)get_global_id(0));
      atom_cmpxchg(m, 0UL, 1UL);
    })");
}

TEST(SpirvAtomics, C11) {
  buildOk(R"(
    kernel void k(global atomic_int *a, global int *out) {
      int v = atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group);
      int previous = atomic_exchange_explicit(a + 1, v, memory_order_acq_rel, memory_scope_work_group);
      atomic_fetch_max_explicit(a + 2, previous, memory_order_relaxed, memory_scope_work_group);
      out[get_global_id(0)] = v + previous + atomic_load_explicit(a + 3, memory_order_acquire, memory_scope_work_group);
      atomic_store_explicit(a + 4, v, memory_order_release, memory_scope_work_group);
    })",
          "-cl-std=CL3.0");
}

// A kernel with 64-bit __local atomics keeps __local memory in 64-bit words:
// its 32-bit __local atomics become compare-exchange loops on them, and
// plain and byte accesses of the same memory still work.
constexpr const char *kMixedLocalAtomics = R"(
    #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
    kernel void k(global long *out, local int *counts) {
      local long total;
      local uchar flags[16];
      uint lid = get_local_id(0);
      if (lid == 0)
        total = 0;
      counts[lid] = 0;
      flags[lid & 15] = (uchar)lid;
      barrier(CLK_LOCAL_MEM_FENCE);
      atom_add(&total, (long)lid << 33);
      atom_max(&total, 5L);
      int old = atomic_inc(&counts[0]);
      atomic_cmpxchg(&counts[1], old, old + 1);
      atomic_or(&counts[0], 1 << (lid & 31));
      atomic_and(&counts[1], ~(1 << (lid & 31)));
      barrier(CLK_LOCAL_MEM_FENCE);
      out[lid] = total + counts[0] + flags[15 - (lid & 15)];
    })";

TEST(SpirvAtomics, Local64WidensNarrowLocalAtomics) {
  Built built = buildOk(kMixedLocalAtomics, "-cl-std=CL1.2");
  // atom_add and atom_max stay single instructions; atomic_inc and
  // atomic_cmpxchg each become a loop of one 64-bit compare-exchange;
  // atomic_or and atomic_and one 64-bit operation each, no loop.
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicCompareExchange), 2u);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicIAdd), 1u + kProgressAtomics);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicSMax), 1u);
}

TEST(SpirvAtomics, Local32StaysInWords) {
  Built built = buildOk(R"(
    kernel void k(global int *out) {
      local int counts[2];
      if (get_local_id(0) < 2)
        counts[get_local_id(0)] = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      int old = atomic_inc(&counts[0]);
      atomic_cmpxchg(&counts[1], old, old + 1);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = counts[0] + counts[1];
    })");
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicCompareExchange), 1u);
  EXPECT_EQ(opcodeCount(built.binary.spirv, spv::OpAtomicIIncrement) +
                opcodeCount(built.binary.spirv, spv::OpAtomicIAdd),
            1u + kProgressAtomics);
}

TEST(SpirvAtomics, C11LocalLoadsAndStores) {
  for (const char *type : {"int", "long"}) {
    SCOPED_TRACE(type);
    buildOk(std::string("#define T ") + type + "\n#define AT atomic_" + type + R"(
      kernel void k(global T *out) {
        local AT cell;
        if (get_local_id(0) == 0)
          atomic_store_explicit(&cell, (T)7, memory_order_relaxed, memory_scope_work_group);
        work_group_barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = atomic_load_explicit(&cell, memory_order_relaxed, memory_scope_work_group);
      })",
            "-cl-std=CL3.0");
  }
}

TEST(SpirvAtomics, Local64FailsWithoutDeviceAtomics) {
  VulkanTargetConfig config = lavapipeConfig();
  config.atomicInt64 = false;
  std::string log;
  auto module = createVulkanTarget(config)->build(kMixedLocalAtomics, "-cl-std=CL1.2", log);
  ASSERT_FALSE(module);
  llvm::consumeError(module.takeError());
  EXPECT_NE(log.find("64-bit atomics on this device"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
