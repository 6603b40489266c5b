// Records every work-item builtin for every work-item, indexed by the
// work-item's linear position in the (offset-relative) global range.
// Layout per work-item: [work_dim, then for d = 0..2: global_id, local_id,
// group_id, global_size, local_size, num_groups, global_offset,
// enqueued_local_size] = 1 + 3 * 8 = 25 uints.

#define FIELDS 25

kernel void record_ids(global uint *out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
  global uint *o = out + linear * FIELDS;
  o[0] = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    global uint *f = o + 1 + d * 8;
    f[0] = get_global_id(d);
    f[1] = get_local_id(d);
    f[2] = get_group_id(d);
    f[3] = get_global_size(d);
    f[4] = get_local_size(d);
    f[5] = get_num_groups(d);
    f[6] = get_global_offset(d);
#if __OPENCL_C_VERSION__ >= 200
    f[7] = get_enqueued_local_size(d);
#else
    f[7] = get_local_size(d);
#endif
  }
}

// Work-group size fixed at compile time.
kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed_group(global uint *out) {
  size_t linear = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[2 * linear] = get_local_size(0);
  out[2 * linear + 1] = get_local_size(1);
}
