link: -create-library -cl-kernel-arg-info
#ifndef ONCE
#define ONCE
#include "fuzz.h"
int helper(int x) { return x * 3; }
#endif
kernel void k(global int *p) { p[get_global_id(0)] = helper(p[0]); printf("%d %s %v4f\n", p[0], "text", (float4)(1.0f)); }
