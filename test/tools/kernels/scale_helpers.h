#ifndef OFFSET
#error "build with -D OFFSET=<n>"
#endif

int scaled(int x, int factor) { return x * factor + OFFSET; }
