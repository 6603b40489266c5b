// SPIR-V test module: conversions from half that come back from the
// translator as builtin calls taking half (saturating, with a rounding
// mode), whose shims load their half argument through a pointer
// (il_program_test.cpp).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void half_conversions(__global const half *in, __global char *saturated, __global short *towardZero,
                               __global short *up) {
  size_t i = get_global_id(0);
  saturated[i] = convert_char_sat(in[i]);
  towardZero[i] = convert_short_rtz(in[i]);
  up[i] = convert_short_rtp(in[i]);
}
