kernel void broken(global int *out) {
  out[get_global_id(0)] = undefined_name;
}
