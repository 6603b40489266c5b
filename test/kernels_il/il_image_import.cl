// SPIR-V test module: a kernel passing its image and sampler to a function
// that another module defines (il_program_test.cpp,
// IlProgramTest.ImageFunctionLinkedFromOpenCLC).
float4 polymux_doubled_texel(read_only image2d_t img, sampler_t s, int2 c);

__kernel void doubled_texels(read_only image2d_t img, sampler_t s, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = polymux_doubled_texel(img, s, (int2)(i, 0));
}
