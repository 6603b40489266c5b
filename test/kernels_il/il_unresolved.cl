// SPIR-V test module: calls a function nothing defines, so its build must
// fail with a log naming it (il_program_test.cpp).
int polymux_nowhere_defined(int x);

__kernel void calls_nowhere(__global int *out) { out[0] = polymux_nowhere_defined(out[0]); }
