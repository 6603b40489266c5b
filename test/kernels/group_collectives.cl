// Work-group and sub-group collective functions for one type T (built with
// -DT=<type>; -DSUB_GROUP selects the sub_group_ forms). Every work-item
// writes its results at its global linear id g, one array of n = global
// size per function; the host recomputes them from `in` and, for
// sub-groups, from the recorded sub-group mapping.
#if defined(cl_khr_fp64) && __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if defined(SUB_GROUP) && !defined(__opencl_c_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#ifdef SUB_GROUP
#define GROUP(name) sub_group_##name
#else
#define GROUP(name) work_group_##name
#endif

#ifndef T
#define T int
#endif

size_t range_size(void) { return get_global_size(0) * get_global_size(1) * get_global_size(2); }

// The output slots, in this order: reduce add/min/max, inclusive scan
// add/min/max, exclusive scan add/min/max, broadcast.
kernel void collectives(global const T *in, global T *out) {
  size_t g = get_global_linear_id();
  size_t n = range_size();
  T x = in[g];
  out[0 * n + g] = GROUP(reduce_add)(x);
  out[1 * n + g] = GROUP(reduce_min)(x);
  out[2 * n + g] = GROUP(reduce_max)(x);
  out[3 * n + g] = GROUP(scan_inclusive_add)(x);
  out[4 * n + g] = GROUP(scan_inclusive_min)(x);
  out[5 * n + g] = GROUP(scan_inclusive_max)(x);
  out[6 * n + g] = GROUP(scan_exclusive_add)(x);
  out[7 * n + g] = GROUP(scan_exclusive_min)(x);
  out[8 * n + g] = GROUP(scan_exclusive_max)(x);
#ifdef SUB_GROUP
  // A source that differs between work-groups: (7 * group + 3) mod size.
  out[9 * n + g] = sub_group_broadcast(x, (uint)(get_group_id(0) * 7 + 3) % get_sub_group_size());
#else
  // A source work-item that differs between groups: (3 * group + 1) mod size
  // in each dimension, with the form that matches the work dimension.
  size_t x0 = (get_group_id(0) * 3 + 1) % get_local_size(0);
  size_t x1 = (get_group_id(1) * 3 + 1) % get_local_size(1);
  size_t x2 = (get_group_id(2) * 3 + 1) % get_local_size(2);
  T b;
  if (get_work_dim() == 1)
    b = work_group_broadcast(x, x0);
  else if (get_work_dim() == 2)
    b = work_group_broadcast(x, x0, x1);
  else
    b = work_group_broadcast(x, x0, x1, x2);
  out[9 * n + g] = b;
#endif
}

// any and all: out[g] = any(pred), out[n + g] = all(pred).
kernel void votes(global const int *in, global int *out) {
  size_t g = get_global_linear_id();
  size_t n = range_size();
  out[g] = GROUP(any)(in[g]);
  out[n + g] = GROUP(all)(in[g]);
}

// The collectives called repeatedly in a loop, next to the kernel's own
// __local array and barriers: out[g] = sum over r < 4 of
// reduce_add(x + r) + scan_inclusive_add(x) - local[l].
kernel void repeated(global const T *in, global T *out) {
  local T tile[64];
  size_t g = get_global_linear_id();
  size_t l = get_local_linear_id() % 64;
  T x = in[g];
  T total = 0;
  for (int r = 0; r < 4; ++r) {
    if (get_local_linear_id() < 64)
      tile[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    total += GROUP(reduce_add)(x + (T)r) + GROUP(scan_inclusive_add)(x) - tile[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = total;
}

#ifdef SUB_GROUP
// The sub-group mapping: per work-item, sub-group size, max size, count,
// enqueued count, id, local id.
kernel void sub_group_ids(global uint *out) {
  global uint *o = out + get_global_linear_id() * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}

// Sub-groups of one work-group taking different paths: the even ones swap
// values end for end through __local memory across a sub_group_barrier and
// add their sum, the odd ones scan; a work-group barrier joins them, and
// every work-item then takes the value of the work-item at the mirrored
// local linear id.
kernel void divergent(global const T *in, global T *out) {
  local T exchange[1024];
  local T joined[1024];
  size_t g = get_global_linear_id();
  size_t l = get_local_linear_id();
  uint n = get_sub_group_size(), s = get_sub_group_local_id();
  size_t first = get_sub_group_id() * get_max_sub_group_size();
  T x = in[g];
  if (get_sub_group_id() % 2 == 0) {
    exchange[first + s] = x;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    x = exchange[first + n - 1 - s] + sub_group_reduce_add(x);
  } else {
    x = sub_group_scan_inclusive_add(x) * (T)3;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  joined[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = joined[get_local_size(0) * get_local_size(1) * get_local_size(2) - 1 - l];
}
// Sub-group collectives in every region between work-group barriers, with
// values that vary and values that are one per sub-group kept across the
// barriers, and a loop around two of them (the host vectorises such a
// kernel region by region where the sub-groups are whole).
kernel void between_barriers(global const T *in, global T *out) {
  local T tile[1024];
  size_t g = get_global_linear_id();
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  T x = in[g];
  T low = sub_group_reduce_min(x);
  T before = sub_group_scan_exclusive_add(x);
  tile[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  T y = tile[n - 1 - l];
  for (int r = 0; r < 2; ++r) {
    T top = sub_group_reduce_max(y + (T)r);
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = top - low + before;
    barrier(CLK_LOCAL_MEM_FENCE);
    y = tile[(l + 1) % n] + sub_group_broadcast(y, 0u) + (sub_group_any(y > (T)0) ? (T)1 : (T)0);
  }
  out[g] = y + sub_group_scan_inclusive_add(x);
}
#endif
