// The disruptor thread of the stress run: in the middle of the workers'
// work, on queues of its own in the shared context, it runs in turn
//  - a kernel that stores through a wild pointer (its event and the events
//    of commands that wait on it must fail, the context's pfn_notify must
//    hear of it, and its queues must keep working),
//  - a kernel that loops for about a second (its result is checked), and
//  - kernels asking for more __local memory than the device has (the
//    enqueue must be refused with CL_OUT_OF_RESOURCES: OpenCL 3.0,
//    clEnqueueNDRangeKernel, "insufficient resources such as registers or
//    local memory"; a kernel whose own __local array is too large may
//    instead fail to build).
#pragma once

#include "cl_calls.h"
#include "watchdog.h"

#include <chrono>
#include <cstdint>

namespace stress {

struct RunState;
struct Tally;

class Disruptor {
public:
  explicit Disruptor(RunState &run);
  ThreadState &state() { return state_; }
  /// Builds its programs and sizes the long kernel; on the calling thread,
  /// before the workers start (so that they do not skew the timing).
  void setUp(std::chrono::duration<double> longKernelTarget);
  /// The device's speed at the long kernel's loop, in loop steps per
  /// second (after setUp).
  double stepsPerSecond() const { return stepsPerSecond_; }
  /// Disrupts until the run stops.
  void run();

private:
  void fault();
  void longKernel();
  void exhaustLocalMemory();
  void expectRefused(cl_kernel kernel, const char *what);
  /// A kernel with a legal amount of __local memory on `queue` is right.
  void checkQueueWorks(cl_command_queue queue, const char *after);
  double runSpin(size_t global, cl_uint steps, bool check);

  RunState &run_;
  Tally &tally_;
  ThreadState state_;
  Queue queue_, other_;
  Program program_, staticLocal_;
  Kernel wildStore_, localSum_, localPair_, bigLocal_, spin_, setRange_;
  size_t group_ = 1; ///< work-group size of local_sum
  size_t spinGlobal_ = 0;
  cl_uint spinSteps_ = 0;
  double stepsPerSecond_ = 0;
};

} // namespace stress
