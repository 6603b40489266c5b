// Several kernels with different signatures for program and kernel queries.

kernel void first(global int *out) { out[get_global_id(0)] = 1; }

kernel void second(global const float *in, global float *out, int count) {
  size_t i = get_global_id(0);
  if (i < (size_t)count)
    out[i] = in[i] * 2.0f;
}

kernel void third(local float *scratch, constant int *table, uint n) {
  scratch[get_local_id(0)] = table[n];
}

#ifndef VALUE
#define VALUE -1
#endif
kernel void defined_value(global int *out) { out[0] = VALUE; }
