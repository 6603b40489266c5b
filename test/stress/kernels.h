// The OpenCL C sources of the stress workload. Every kernel's result has an
// independent host computation in reference.h.
#pragma once

namespace stress::kernels {

/// The worker's program: built shared (one build per SCALE, used by every
/// thread) and per thread (its own SCALE and SALT), with -D options.
inline constexpr const char *kWorkload = R"(
#ifndef SCALE
#define SCALE 1u
#endif
#ifndef SALT
#define SALT 0u
#endif

kernel void scale_add(global const uint *in, global uint *out, uint a, uint b) {
  size_t i = get_global_id(0);
  out[i] = in[i] * a + b;
}

kernel void salted(global uint *data) {
  size_t i = get_global_id(0);
  data[i] = data[i] * SCALE + SALT + (uint)i;
}

// Reverses each work-group's slice of `in` through __local memory.
kernel void reverse_in_group(global const uint *in, global uint *out, local uint *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  scratch[l] = in[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + l] = scratch[n - 1 - l];
}

kernel void set_range(global uint *data, uint first, uint value) {
  uint i = (uint)get_global_id(0);
  data[first + i] = value + i;
}

kernel void sum_halves(global const uint *data, global uint *out, uint offset) {
  size_t i = get_global_id(0);
  out[i] = data[i] + data[i + offset];
}

// x <- x * 1664525 + 1013904223, `steps` times per element.
kernel void spin(global uint *data, uint steps) {
  size_t i = get_global_id(0);
  uint x = data[i];
  for (uint k = 0; k < steps; ++k)
    x = x * 1664525u + 1013904223u;
  data[i] = x;
}
)";

/// The disruptor's program: a kernel that stores through a wild pointer
/// (as test/cl/fault_test.cpp) and one that sums through a __local array.
inline constexpr const char *kDisruptions = R"(
kernel void wild_store(global uint *out, ulong address, uint every) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i % every == every - 1)
    *(global volatile uint *)address = 42;
}

// out[group] = the sum of the group's work-item ids, through __local memory.
kernel void local_sum(global uint *out, local uint *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = (uint)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    uint sum = 0;
    for (size_t k = 0; k < n; ++k)
      sum += scratch[k];
    out[get_group_id(0)] = sum;
  }
}

kernel void local_pair(global uint *out, local uint *a, local uint *b) {
  size_t l = get_local_id(0);
  a[l] = (uint)l;
  b[l] = (uint)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[l] + b[l];
}
)";

/// A kernel whose own __local array is WORDS words: built with WORDS beyond
/// the device's local memory.
inline constexpr const char *kStaticLocal = R"(
kernel void big_local(global uint *out) {
  local uint big[WORDS];
  size_t l = get_local_id(0);
  big[l] = (uint)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = big[WORDS - 1 - l];
}
)";

} // namespace stress::kernels
