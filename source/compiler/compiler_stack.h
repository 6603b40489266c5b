// Compilation runs on a thread of its own with a large stack: Clang's
// parser and code generator recurse once per nesting level of the source
// (2048 nested parentheses overflowed an 8 MiB stack), and a stack overflow
// in the application's thread would take the application down instead of
// failing the build.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace compiler {

/// Bytes of stack for compilations: address space, committed only as it is
/// used.
inline constexpr size_t kCompilerStackBytes = size_t{512} << 20;

/// Runs `work` on a thread with kCompilerStackBytes of stack and waits for
/// it; runs it on the calling thread when no such thread can be started.
void runWithCompilerStack(const std::function<void()> &work);

/// `work()`'s result, computed by runWithCompilerStack; its exceptions
/// reach the caller.
template <typename Work> std::invoke_result_t<Work &> onCompilerStack(Work &&work) {
  std::optional<std::invoke_result_t<Work &>> result;
  std::exception_ptr failure;
  runWithCompilerStack([&] {
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (failure)
    std::rethrow_exception(failure);
  return std::move(*result);
}

} // namespace compiler
