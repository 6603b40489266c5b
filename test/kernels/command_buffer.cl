// Kernels of the command buffer tests (command_buffer_test.cpp,
// mutable_dispatch_test.cpp).

kernel void scale_add(global int *data, int factor, int addend) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + addend;
}

// Work-item i writes i * 1000 + local size * 10 + group id % 10.
kernel void ids(global int *out) {
  size_t i = get_global_id(0);
  out[i] = (int)(i * 1000 + get_local_size(0) * 10 + get_group_id(0) % 10);
}

// Work-item `every - 1` (and each `every`-th after it) stores through
// `address`, which the host makes invalid.
kernel void bad_pointer(global int *out, ulong address, uint every) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i % every == every - 1)
    *(global volatile int *)address = 42;
}
