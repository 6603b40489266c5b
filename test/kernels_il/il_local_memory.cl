// SPIR-V test module: __local arguments and variables with barriers
// (il_program_test.cpp).
__kernel void reverse_in_group(__global const int *in, __global int *out, __local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - l];
}

// Sums each group of 64 through a kernel-scope __local array.
__kernel void group_sum(__global const int *in, __global int *sums) {
  __local int partial[64];
  size_t l = get_local_id(0);
  partial[l] = in[get_global_id(0)];
  for (size_t stride = 32; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride)
      partial[l] += partial[l + stride];
  }
  if (l == 0)
    sums[get_group_id(0)] = partial[0];
}
