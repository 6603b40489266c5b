// OpenCL 1.x and C11 atomics on __global memory, 32- and 64-bit.
#include "spirv_test_support.h"

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

} // namespace
} // namespace compiler::spirv::test
