// Kernel argument passing: scalars, vectors and a struct by value, local
// memory pointers, and NULL buffers.

typedef struct {
  int a;
  float b;
  long c;
  char d;
} Params;

kernel void scalar_args(char c, uchar uc, short s, ushort us, int i, uint ui, long l, ulong ul, float f,
                        global long *out) {
  out[0] = c;
  out[1] = uc;
  out[2] = s;
  out[3] = us;
  out[4] = i;
  out[5] = ui;
  out[6] = l;
  out[7] = (long)ul;
  out[8] = (long)(f * 4.0f);
}

kernel void vector_args(int4 iv, float3 fv, global float *out) {
  out[0] = iv.x;
  out[1] = iv.y;
  out[2] = iv.z;
  out[3] = iv.w;
  out[4] = fv.x;
  out[5] = fv.y;
  out[6] = fv.z;
}

kernel void struct_arg(Params p, global long *out) {
  out[0] = p.a;
  out[1] = (long)(p.b * 2.0f);
  out[2] = p.c;
  out[3] = p.d;
}

// Each work-item uses only its own slot of the local buffer, so no barrier
// is needed.
kernel void local_slot(local int *scratch, global int *out, int scale) {
  size_t l = get_local_id(0);
  scratch[l] = (int)get_global_id(0) * scale;
  scratch[l] += (int)l;
  out[get_global_id(0)] = scratch[l];
}

kernel void null_buffer(global int *maybe, global int *out) {
  if (maybe)
    maybe[0] = 7;
  out[get_global_id(0)] = maybe ? 2 : 1;
}
