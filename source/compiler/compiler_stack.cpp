#include "compiler_stack.h"

#include <pthread.h>

namespace compiler {
namespace {

void *runWork(void *work) {
  (*static_cast<const std::function<void()> *>(work))();
  return nullptr;
}

} // namespace

void runWithCompilerStack(const std::function<void()> &work) {
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) {
    work();
    return;
  }
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attributes, kCompilerStackBytes) == 0 &&
                 pthread_create(&thread, &attributes, runWork, const_cast<std::function<void()> *>(&work)) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) {
    work(); // no memory for the stack: the caller's stack may still do
    return;
  }
  pthread_join(thread, nullptr);
}

} // namespace compiler
