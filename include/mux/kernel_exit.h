// The kernel exit codes of cl_polymux_kernel_exit that Polymux itself sets
// (doc/extensions/cl_polymux_kernel_exit.md): negative, as the extension
// reserves negative codes for the implementation and for common meanings.
// The same values are OpenCL C's EXIT_* macros and cl_ext_polymux.h's
// CL_KERNEL_EXIT_*_POLYMUX.
#pragma once

#include <climits>
#include <cstdint>

namespace mux::kernel_exit {
/// What a launch's exit record holds while no work-item has called
/// kernel_exit; the status is therefore reserved (InvalidStatus below).
inline constexpr int32_t NotExiting = INT32_MIN;
/// A search found what it looked for (for kernels to use).
inline constexpr int32_t SearchComplete = -1;
/// The kernel accessed memory it may not: an out-of-bounds access.
inline constexpr int32_t OutOfBounds = -2;
/// An integer division by zero (or INT_MIN / -1) trapped.
inline constexpr int32_t ArithmeticFault = -3;
/// The kernel overflowed the stack of the thread or hart running it.
inline constexpr int32_t StackOverflow = -4;
/// kernel_exit was given INT32_MIN, which the implementation reserves.
inline constexpr int32_t InvalidStatus = -5;
/// Any other fault the device detected (an illegal instruction, ...).
inline constexpr int32_t DeviceFault = -6;
} // namespace mux::kernel_exit
