// The same results on every device: integers exactly, floats within a ULP
// (a device may contract a * x + 1 into an fma, or not).
kernel void mix(global const float *x, global const int *n, global float *f, global int *m, float a,
                local int *scratch) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  scratch[l] = n[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  m[i] = scratch[(l + 1) % get_local_size(0)] * 3 + (int)get_group_id(0);
  f[i] = a * x[i] + 1.0f;
}
