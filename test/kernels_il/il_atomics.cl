// SPIR-V test module: atomics on __global and __local memory
// (il_program_test.cpp).
__kernel void atomics(__global int *counters, __global int *tickets) {
  __local int local_count;
  if (get_local_id(0) == 0)
    local_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  tickets[i] = atomic_add(&counters[0], 3);
  atomic_inc(&counters[1]);
  atomic_max(&counters[2], (int)i);
  atomic_min(&counters[3], -(int)i);
  atomic_inc(&local_count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_add(&counters[4], local_count);
}
