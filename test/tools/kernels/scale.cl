// polymux compile: built with -D OFFSET=3; scale_helpers.h comes from this
// file's own directory.
#include "scale_helpers.h"

kernel void scale(global const int *in, global int *out, int factor) {
  size_t i = get_global_id(0);
  out[i] = scaled(in[i], factor);
}
