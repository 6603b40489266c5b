#include "fault_guard.h"

#include "mux/kernel_exit.h"

#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace host {

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// initial-exec: the handler must not call __tls_get_addr (not
// async-signal-safe) when it reads this.
__attribute__((tls_model("initial-exec"))) thread_local sigjmp_buf *currentJump = nullptr;
/// Written by the handler (plain stores only) before it jumps back.
__attribute__((tls_model("initial-exec"))) thread_local FaultRecord lastFaultRecord;

struct sigaction previousActions[sizeof(kFaultSignals) / sizeof(int)];

int signalSlot(int signal) {
  for (int i = 0; i < int(sizeof(kFaultSignals) / sizeof(int)); ++i)
    if (kFaultSignals[i] == signal)
      return i;
  return -1;
}

uintptr_t interruptedStackPointer(const void *context) {
  const auto *user = static_cast<const ucontext_t *>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(user->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(user->uc_mcontext.sp);
#elif defined(__riscv)
  return static_cast<uintptr_t>(user->uc_mcontext.__gregs[REG_SP]);
#else
  (void)user;
  return 0;
#endif
}

void onFault(int signal, siginfo_t *info, void *context) {
  if (sigjmp_buf *jump = currentJump) {
    currentJump = nullptr;
    lastFaultRecord.signal = signal;
    lastFaultRecord.code = info->si_code;
    lastFaultRecord.address = reinterpret_cast<uintptr_t>(info->si_addr);
    lastFaultRecord.stackPointer = context ? interruptedStackPointer(context) : 0;
    siglongjmp(*jump, signal);
  }
  // Not a kernel: behave as if we were never installed.
  int slot = signalSlot(signal);
  const struct sigaction &previous = previousActions[slot];
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN) {
    // Restore and return: the faulting instruction runs again and gets the
    // default action (a core dump), as without us.
    sigaction(signal, &previous, nullptr);
    if (info->si_code <= 0) // sent with kill/raise: re-send it
      raise(signal);
  } else {
    previous.sa_handler(signal);
  }
}

/// The thread's alternate signal stack, released when the thread exits.
struct FaultStack {
  bool checked = false;
  void *owned = nullptr; ///< the stack we installed, if any
  ~FaultStack() {
    if (!owned)
      return;
    stack_t disable = {};
    disable.ss_flags = SS_DISABLE;
    sigaltstack(&disable, nullptr);
    std::free(owned);
  }
};

} // namespace

void ensureFaultStack() {
  thread_local FaultStack stack;
  if (stack.checked)
    return;
  stack.checked = true;
  stack_t current;
  // Keep a stack someone else (the application, a sanitizer) installed.
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return;
  constexpr size_t kSize = 64 * 1024;
  void *memory = std::malloc(kSize);
  if (!memory)
    return;
  stack_t alternate = {};
  alternate.ss_sp = memory;
  alternate.ss_size = kSize;
  if (sigaltstack(&alternate, nullptr) != 0) {
    std::free(memory);
    return;
  }
  stack.owned = memory;
}

void installFaultHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_sigaction = onFault;
    // SA_NODEFER: the signal is not blocked in the handler, so a plain
    // siglongjmp(…, savemask 0) leaves the thread's mask as it was.
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < int(sizeof(kFaultSignals) / sizeof(int)); ++i)
      sigaction(kFaultSignals[i], &action, &previousActions[i]);
  });
}

FaultGuard::FaultGuard(sigjmp_buf &jump) { currentJump = &jump; }

FaultGuard::~FaultGuard() { currentJump = nullptr; }

void disarmFaultGuard() { currentJump = nullptr; }

FaultRecord lastFault() { return lastFaultRecord; }

namespace {

std::string hexAddress(uintptr_t address) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

const char *signalName(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  }
  return "signal";
}

/// Bytes below the stack pointer that code may use without moving it (the
/// x86-64 System V red zone; none elsewhere, so this only widens the check).
constexpr uintptr_t kRedZone = 128;

/// Whether a SIGSEGV/SIGBUS at `fault` is the stack running out: the access
/// is in the guard area just below the stack, or the stack pointer itself
/// is below the stack (a frame larger than the guard jumped over it) and the
/// access is in that frame.
bool isStackOverflow(const FaultRecord &fault, const ThreadStack &stack) {
  if (!stack.begin)
    return false;
  const auto begin = reinterpret_cast<uintptr_t>(stack.begin);
  if (fault.address >= begin)
    return false;
  const uintptr_t guard = std::max<uintptr_t>(stack.guardSize, static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)));
  if (begin - fault.address <= guard)
    return true;
  return fault.stackPointer != 0 && fault.stackPointer < begin && fault.address + kRedZone >= fault.stackPointer;
}

} // namespace

std::string describeFault(const FaultRecord &fault, const ThreadStack &stack) {
  const std::string name = signalName(fault.signal);
  if (fault.code <= 0) // kill, tgkill, raise: no faulting access
    return name + " sent to the thread running the kernel";
  const std::string at = " at address " + hexAddress(fault.address);
  switch (fault.signal) {
  case SIGSEGV:
  case SIGBUS:
    if (isStackOverflow(fault, stack))
      return "stack overflow (" + name + at + ")";
    if (fault.signal == SIGBUS)
      return "bus error (SIGBUS)" + at;
    if (fault.code == SEGV_ACCERR)
      return "invalid memory access (SIGSEGV)" + at + ": the access is not permitted there";
    return "invalid memory access (SIGSEGV)" + at;
  case SIGFPE:
    switch (fault.code) {
    case FPE_INTDIV:
#if defined(__x86_64__) || defined(__i386__)
      // x86 raises the same trap for INT_MIN / -1.
      return "integer division by zero or overflow (SIGFPE)";
#else
      return "integer division by zero (SIGFPE)";
#endif
    case FPE_INTOVF:
      return "integer overflow (SIGFPE)";
    default:
      return "floating-point exception (SIGFPE)";
    }
  case SIGILL:
    return "illegal instruction (SIGILL)" + at;
  }
  return name + at;
}

int32_t faultExitStatus(const FaultRecord &fault, const ThreadStack &stack) {
  if (fault.code <= 0)
    return mux::kernel_exit::DeviceFault;
  switch (fault.signal) {
  case SIGSEGV:
  case SIGBUS:
    return isStackOverflow(fault, stack) ? mux::kernel_exit::StackOverflow : mux::kernel_exit::OutOfBounds;
  case SIGFPE:
    return mux::kernel_exit::ArithmeticFault;
  default:
    return mux::kernel_exit::DeviceFault;
  }
}

} // namespace host
