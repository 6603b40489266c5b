// Different on a RISC-V device, on purpose: its floats one ULP above every
// other device's, and with -D INTEGER_DIFFERENCE one integer off by one.
kernel void differs(global const float *x, global float *f, global int *n) {
  size_t i = get_global_id(0);
  float y = x[i] * 2.0f;
#ifdef __riscv
  f[i] = nextafter(y, INFINITY);
#else
  f[i] = y;
#endif
#if defined(__riscv) && defined(INTEGER_DIFFERENCE)
  n[i] = (int)i + (i == 5);
#else
  n[i] = (int)i;
#endif
}
