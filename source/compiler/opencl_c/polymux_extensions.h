// The OpenCL C side of Polymux's extensions, included before every program.
// The front end defines the macro of each cl_polymux_* extension the device
// reports; each part below exists only where its macro does.
// doc/extensions/ specifies each extension.
#ifndef POLYMUX_EXTENSIONS_H
#define POLYMUX_EXTENSIONS_H

#if defined(cl_polymux_sized_integers) && !defined(POLYMUX_NO_SIZED_INTEGER_TYPES)
// cl_polymux_sized_integers: C99's exact-width integer names for OpenCL C's
// integer types, whose widths OpenCL C fixes on every device. A program that
// declares these names itself defines POLYMUX_NO_SIZED_INTEGER_TYPES.
typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
#if __OPENCL_C_VERSION__ < 300 || defined(__opencl_c_int64)
typedef long int64_t;
typedef ulong uint64_t;
#endif
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32767 - 1)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#endif

#ifdef cl_polymux_kernel_exit
// cl_polymux_kernel_exit: a work-item ends itself and the kernel. The
// implementation's own exit codes are negative (cl_ext_polymux.h has the
// host's names for them).
#define EXIT_SEARCH_COMPLETE (-1)
#define EXIT_OUT_OF_BOUNDS (-2)
#define EXIT_ARITHMETIC_FAULT (-3)
#define EXIT_STACK_OVERFLOW (-4)
#define EXIT_INVALID_STATUS (-5)
#define EXIT_DEVICE_FAULT (-6)
void __attribute__((noreturn)) __polymux_kernel_exit(int status);
int __polymux_is_kernel_exiting(void);
#define kernel_exit(status) __polymux_kernel_exit(status)
#define is_kernel_exiting() __polymux_is_kernel_exiting()
#endif

#endif // POLYMUX_EXTENSIONS_H
