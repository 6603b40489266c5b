// SPIR-V test module: a helper the module says not to inline (DontInline,
// which llvm-spirv-15 puts on the calls too); vulkan must inline it anyway
// (il_program_test.cpp).
__attribute__((noinline)) float twice_plus(float x, float y) { return 2.0f * x + y; }

__kernel void calls_noinline(__global float *data) {
  size_t i = get_global_id(0);
  data[i] = twice_plus(data[i], (float)i);
}
