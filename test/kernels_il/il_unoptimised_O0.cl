// SPIR-V test module made at -O0 (il_program_test.cpp): Clang calls the
// kernel's body as a function of its own, it and the call marked
// DontInline, with the work-item builtins inside it.
static float scaled(float x) { return 2.0f * x; }

__kernel void unoptimised(__global float *out, float offset) {
  size_t i = get_global_id(0);
  out[i] = scaled((float)i) + offset + (float)get_local_id(0) * 1000.0f;
}
