// Only built for devices whose CL_DEVICE_DOUBLE_FP_CONFIG is non-zero.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void double_arg(double d, global const double *in, global double *out) {
  size_t i = get_global_id(0);
  out[i] = fma(in[i], d, 0.25);
}
