// Turns a fault in kernel code (SIGSEGV, SIGBUS, SIGFPE, SIGILL on the thread
// running it) into a failed launch instead of a dead process.
//
//   sigjmp_buf jump;
//   if (sigsetjmp(jump, 0) != 0) {
//     host::disarmFaultGuard();
//     ...the kernel faulted: host::lastFault() says how...
//   }
//   host::FaultGuard guard(jump);
//   ...call kernel code...
//
// Faults outside a guarded region go to the handler installed before ours
// (or the default action), so application crashes stay crashes.
#pragma once

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <string>

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

/// What the signal handler saw, recorded just before it jumped back.
struct FaultRecord {
  int signal = 0;             ///< SIGSEGV, SIGBUS, SIGFPE or SIGILL
  int code = 0;               ///< siginfo si_code (<= 0: sent by kill/raise)
  uintptr_t address = 0;      ///< si_addr: the data address or instruction
  uintptr_t stackPointer = 0; ///< of the interrupted code; 0 when unknown
};

/// The calling thread's last caught fault; meaningful after its sigsetjmp
/// returned non-zero.
FaultRecord lastFault();

/// The faulting thread's stack: its usable range and the guard area below
/// it (the stack grows down). Empty when unknown.
struct ThreadStack {
  void *begin = nullptr;
  void *end = nullptr;
  size_t guardSize = 0;
};

/// Explains `fault` in a few words, e.g. "invalid memory access (SIGSEGV)
/// at address 0x10", "integer division by zero (SIGFPE)", or "stack overflow
/// (SIGSEGV at address 0x...)" when the access hit the guard area below
/// `stack` or the stack pointer had left it.
std::string describeFault(const FaultRecord &fault, const ThreadStack &stack);

/// The kernel exit code of `fault` (mux/kernel_exit.h): OutOfBounds for an
/// invalid access, StackOverflow, ArithmeticFault for SIGFPE, DeviceFault
/// otherwise.
int32_t faultExitStatus(const FaultRecord &fault, const ThreadStack &stack);

} // namespace host
