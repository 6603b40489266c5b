// Element-wise arithmetic for the execution tests.

kernel void vector_add(global const float *a, global const float *b, global float *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}

kernel void saxpy(float alpha, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}

kernel void mad_kernel(global const float *a, global const float *b, global const float *c, global float *out) {
  size_t i = get_global_id(0);
  out[i] = mad(a[i], b[i], c[i]);
}

// Every integer operator, plus the integer min/max/clamp builtins. Eight
// results per element; b is never zero.
kernel void int_ops(global const int *a, global const int *b, global int *out) {
  size_t i = get_global_id(0);
  int x = a[i];
  int y = b[i];
  global int *o = out + 8 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = x % y;
  o[5] = (x & y) ^ (x | (y << 3)) ^ (x >> 2);
  o[6] = min(x, y) + max(x, y) * 3;
  o[7] = clamp(x, -100, 100);
}

// Unsigned and 64-bit integer arithmetic.
kernel void ulong_ops(global const ulong *a, global const uint *b, global ulong *out) {
  size_t i = get_global_id(0);
  ulong x = a[i];
  uint y = b[i];
  global ulong *o = out + 4 * i;
  o[0] = x * y + (x >> 7);
  o[1] = x / (y | 1u);
  o[2] = (uint)(x) * y;
  o[3] = (ulong)((long)x % 1000) ^ ~x;
}

// The math builtins the first compiler supports; division and sqrt are exact
// when built with -cl-fp32-correctly-rounded-divide-sqrt.
kernel void float_math(global const float *a, global const float *b, global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  float y = b[i];
  global float *o = out + 8 * i;
  o[0] = sqrt(fabs(x));
  o[1] = fabs(x);
  o[2] = fma(x, y, 1.5f);
  o[3] = floor(x);
  o[4] = min(x, y);
  o[5] = max(x, y);
  o[6] = clamp(x, -2.0f, 2.0f);
  o[7] = x / y;
}

// Adds `value` to every element (used to chain commands in event tests).
kernel void add_value(global int *data, int value) { data[get_global_id(0)] += value; }

kernel void mul_value(global int *data, int value) { data[get_global_id(0)] *= value; }

// Writes `value` to every element.
kernel void set_value(global int *data, int value) { data[get_global_id(0)] = value; }
