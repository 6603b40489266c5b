#include "fault_guard.h"

#include <csignal>
#include <cstdlib>
#include <mutex>

namespace host {

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// initial-exec: the handler must not call __tls_get_addr (not
// async-signal-safe) when it reads this.
__attribute__((tls_model("initial-exec"))) thread_local sigjmp_buf *currentJump = nullptr;

struct sigaction previousActions[sizeof(kFaultSignals) / sizeof(int)];

int signalSlot(int signal) {
  for (int i = 0; i < int(sizeof(kFaultSignals) / sizeof(int)); ++i)
    if (kFaultSignals[i] == signal)
      return i;
  return -1;
}

void onFault(int signal, siginfo_t *info, void *context) {
  if (sigjmp_buf *jump = currentJump) {
    currentJump = nullptr;
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

} // namespace host
