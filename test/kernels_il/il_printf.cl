// SPIR-V test module: printf (il_program_test.cpp).
__kernel void say(int value, float x) { printf("il value %d %.2f\n", value, x); }
