// SPIR-V test module (OpenCL C 1.2: no generic pointers): builtins whose
// calls the target's calling convention changes (pointer arguments in
// several address spaces, wide vectors), helper functions
// (il_program_test.cpp).
__kernel void pointer_builtins(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  float whole, cosine, integral;
  out[5 * i + 0] = fract(in[i], &whole);
  out[5 * i + 1] = whole;
  out[5 * i + 2] = sincos(in[i], &cosine);
  out[5 * i + 3] = cosine;
  out[5 * i + 4] = modf(in[i], &integral) + integral;
}

static float scaled_sum(const float *values, int count, float scale) {
  float sum = 0.0f;
  for (int k = 0; k < count; ++k)
    sum += values[k];
  return sum * scale;
}

static float global_sum(__global const float *values, int count) {
  float sum = 0.0f;
  for (int k = 0; k < count; ++k)
    sum += values[k];
  return sum;
}

__kernel void vectors(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  float8 w = (float8)(v, v * 2.0f);
  float8 root = sqrt(w);
  vstore8(root, i, out);
  float2 pair = fmax(v.xy, v.zw);
  float mine[2] = {pair.x, pair.y};
  out[8 * get_global_size(0) + i] = scaled_sum(mine, 2, 0.5f) + global_sum(in + 4 * i, 4) + dot(v, v);
}
