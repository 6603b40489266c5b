// SPIR-V test module (OpenCL C 2.0): generic pointers, to builtins and to a
// helper called with global, local and private memory (il_program_test.cpp).
static float sum(const float *values, int count) {
  float total = 0.0f;
  for (int k = 0; k < count; ++k)
    total += values[k];
  return total;
}

__kernel void generic_sums(__global const float *in, __global float *out) {
  __local float shared[4];
  size_t i = get_global_id(0);
  if (get_local_id(0) == 0)
    for (int k = 0; k < 4; ++k)
      shared[k] = k + 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float mine[2] = {in[i], 2.0f * in[i]};
  float whole;
  float part = fract(in[i], &whole);
  out[i] = sum(in, 4) + sum(shared, 4) + sum(mine, 2) + part + whole;
}
