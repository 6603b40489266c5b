// Deliberately broken: the build must fail and the log must name the
// undeclared identifier.
kernel void broken(global int *out) { out[0] = undeclared_identifier_xyz; }
