build: -cl-std=CL3.0 -g
global int counter = 5;
constant float table[4] = {1, 2, 3, 4};
kernel void k(global float *out, local float *scratch) {
  scratch[get_local_id(0)] = table[get_local_id(0) & 3] + atomic_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = work_group_reduce_add(scratch[0]) + sub_group_broadcast(scratch[1], 0);
}
