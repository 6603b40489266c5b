// Turns a fault in kernel code (SIGSEGV, SIGBUS, SIGFPE, SIGILL on the thread
// running it) into a failed launch instead of a dead process.
//
//   sigjmp_buf jump;
//   if (sigsetjmp(jump, 0) != 0) { ...the kernel faulted...; }
//   host::FaultGuard guard(jump);
//   ...call kernel code...
//
// Faults outside a guarded region go to the handler installed before ours
// (or the default action), so application crashes stay crashes.
#pragma once

#include <csetjmp>

namespace host {

/// Installs the process-wide signal handlers (once; later calls are free).
void installFaultHandlers();

/// Gives the calling thread an alternate signal stack (once per thread), so
/// a kernel that overflows its stack still reaches the handler.
void ensureFaultStack();

/// Arms `jump` as the current thread's landing point while it lives.
class FaultGuard {
public:
  explicit FaultGuard(sigjmp_buf &jump);
  ~FaultGuard();
  FaultGuard(const FaultGuard &) = delete;
  FaultGuard &operator=(const FaultGuard &) = delete;
};

/// Disarms the current thread's landing point; call first thing after a
/// sigsetjmp returned non-zero (the guard's destructor did not run).
void disarmFaultGuard();

} // namespace host
