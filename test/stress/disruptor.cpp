#include "disruptor.h"

#include "callbacks.h"
#include "cl_error_name.h"
#include "kernels.h"
#include "reference.h"
#include "run_state.h"
#include "worker.h"

#include <algorithm>
#include <bit>
#include <random>
#include <thread>

namespace stress {
namespace {

/// An address no process maps: the first page (as test/cl/fault_test.cpp).
constexpr cl_ulong kWildAddress = 0x10;
/// lavapipe stops every invocation after 65,535 loop iterations
/// (doc/targets/vulkan.md), so the long kernel loops fewer times per
/// work-item and runs more work-items.
constexpr cl_uint kMaxSpinSteps = 60000;
/// Pause between two disruptions.
constexpr auto kPause = std::chrono::milliseconds(300);

std::string statusText(cl_int status) { return std::string(cltest::errorName(status)); }

} // namespace

Disruptor::Disruptor(RunState &run) : run_(run), tally_(run.tally), state_("disruptor") {}

void Disruptor::setUp(std::chrono::duration<double> longKernelTarget) {
  state_.beat("creating queues and programs");
  cl_int err = CL_SUCCESS;
  queue_.reset(clCreateCommandQueueWithProperties(run_.context, run_.device.id, nullptr, &err));
  ok(err, "clCreateCommandQueueWithProperties");
  other_.reset(clCreateCommandQueueWithProperties(run_.context, run_.device.id, nullptr, &err));
  ok(err, "clCreateCommandQueueWithProperties");
  program_ = buildProgram(run_, kernels::kDisruptions, "");
  wildStore_ = createKernel(program_, "wild_store");
  localSum_ = createKernel(program_, "local_sum");
  localPair_ = createKernel(program_, "local_pair");
  spin_ = createKernel(run_.programs.main(), "spin");
  setRange_ = createKernel(run_.programs.main(), "set_range");
  size_t kernelGroup = 0;
  ok(clGetKernelWorkGroupInfo(localSum_, run_.device.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernelGroup), &kernelGroup,
                              nullptr),
     "clGetKernelWorkGroupInfo");
  group_ = std::min<size_t>(64, std::bit_floor(kernelGroup));

  // A kernel whose own __local array is 4 KiB larger than the device's
  // local memory: refused at build or at enqueue.
  const std::string words = std::to_string(run_.device.localMemSize / sizeof(uint32_t) + 1024);
  state_.beat("building a kernel with too large a __local array");
  try {
    staticLocal_ = buildProgram(run_, kernels::kStaticLocal, "-DWORDS=" + words);
    bigLocal_ = createKernel(staticLocal_, "big_local");
    tally_.staticLocalOutcome = "clBuildProgram accepted it; clEnqueueNDRangeKernel must refuse it";
  } catch (const ApiError &e) {
    if (e.code != CL_BUILD_PROGRAM_FAILURE)
      throw;
    tally_.staticLocalOutcome = "clBuildProgram refused it (CL_BUILD_PROGRAM_FAILURE)";
  }

  // The long kernel: `spin` over enough work-items to take about the
  // target time, measured here while nothing else runs.
  state_.beat("sizing the long kernel");
  // The first launch is not timed: it may include compiling the kernel
  // for the device (lavapipe compiles a pipeline at its first dispatch).
  runSpin(group_, 1, false);
  spinSteps_ = kMaxSpinSteps;
  size_t global = group_;
  double seconds = runSpin(global, spinSteps_, false);
  while (seconds < 0.05 * longKernelTarget.count() && global < (size_t(1) << 24)) {
    global *= 2;
    seconds = runSpin(global, spinSteps_, false);
  }
  stepsPerSecond_ = static_cast<double>(global) * spinSteps_ / seconds;
  if (seconds > longKernelTarget.count()) // even one group is too slow
    spinSteps_ = std::max<cl_uint>(1, static_cast<cl_uint>(spinSteps_ * longKernelTarget.count() / seconds));
  else
    global = std::max(group_, global * static_cast<size_t>(longKernelTarget.count() / seconds) / group_ * group_);
  spinGlobal_ = global;
}

void Disruptor::run() {
  for (unsigned round = 0; !run_.stop; ++round) {
    try {
      switch (round % 3) {
      case 0:
        if (run_.options.faults)
          fault();
        break;
      case 1:
        longKernel();
        break;
      default:
        exhaustLocalMemory();
        break;
      }
    } catch (const ApiError &e) {
      tally_.error(state_.name() + " (" + state_.step() + "): " + e.what());
      clFinish(queue_);
      clFinish(other_);
    }
    state_.beat("pausing");
    std::this_thread::sleep_for(kPause);
  }
  state_.beat("finishing");
  clFinish(queue_);
  clFinish(other_);
  state_.finish();
}

void Disruptor::fault() {
  constexpr size_t n = 64;
  state_.beat("fault: enqueueing a kernel that stores through a wild pointer");
  Mem out = createBuffer(run_.context, CL_MEM_READ_WRITE, n * sizeof(uint32_t));
  Mem target = createBuffer(run_.context, CL_MEM_READ_WRITE, n * sizeof(uint32_t));
  setArgs(wildStore_, out.get(), kWildAddress, cl_uint(16));
  setArgs(setRange_, target.get(), cl_uint(0), cl_uint(5));
  Event faulting, dependant;
  enqueueKernel(queue_, wildStore_, n, 0, {}, faulting.out());
  ++tally_.faultNotifications.expected;
  watchEvent(tally_, faulting, CL_COMPLETE, Expect::Failure);
  // A command of another queue that waits on it: enqueued before or after
  // the faulting kernel is dispatched, so both of the scheduler's paths
  // (held batch, semaphore wait) see the failure.
  static thread_local std::minstd_rand coin;
  if (coin() % 2)
    ok(clFlush(queue_), "clFlush");
  enqueueKernel(other_, setRange_, n, 0, {faulting}, dependant.out());
  watchEvent(tally_, dependant, CL_COMPLETE, Expect::Failure);
  ok(clFlush(queue_), "clFlush");
  ok(clFlush(other_), "clFlush");
  state_.beat("fault: waiting for the faulting kernel");
  if (cl_int err = clWaitForEvents(1, faulting.ptr()); err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    tally_.error("clWaitForEvents on a faulting kernel returned " + statusText(err));
  const cl_int status = eventStatus(faulting);
  if (status >= 0)
    tally_.error("a faulting kernel ended with status " + std::to_string(status));
  tally_.faultStatus = status;
  state_.beat("fault: waiting for the command that waits on it");
  if (cl_int err = clWaitForEvents(1, dependant.ptr()); err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    tally_.error("clWaitForEvents on a command waiting on a faulting kernel returned " + statusText(err));
  if (cl_int s = eventStatus(dependant); s >= 0)
    tally_.error("a command waiting on a faulting kernel ended with status " + std::to_string(s));
  ++tally_.faults;
  ++tally_.dependantsFailed;
  tally_.kernels += 2;
  checkQueueWorks(queue_, "after a fault");
  checkQueueWorks(other_, "after a command that waited on a fault");
}

void Disruptor::longKernel() {
  state_.beat("long kernel: running");
  const double seconds = runSpin(spinGlobal_, spinSteps_, true);
  ++tally_.longKernels;
  tally_.longKernelSeconds = tally_.longKernelSeconds + seconds;
  ++tally_.kernels;
}

double Disruptor::runSpin(size_t global, cl_uint steps, bool check) {
  std::vector<uint32_t> data(global);
  for (size_t i = 0; i < global; ++i)
    data[i] = static_cast<uint32_t>(i * 2654435761u);
  Mem buffer = createBuffer(run_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes(global), data.data());
  setArgs(spin_, buffer.get(), steps);
  const auto start = std::chrono::steady_clock::now();
  Event event;
  enqueueKernel(queue_, spin_, global, group_, {}, event.out());
  if (check)
    watchEvent(tally_, event, CL_COMPLETE, Expect::Complete);
  ok(clWaitForEvents(1, event.ptr()), "clWaitForEvents(long kernel)");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (check) {
    const std::vector<uint32_t> got = readBack(queue_, buffer, global);
    ++tally_.checks;
    for (size_t i = 0; i < global; ++i)
      if (got[i] != reference::spin(data[i], steps)) {
        tally_.wrongResult("long kernel: element " + std::to_string(i) + " of " + std::to_string(global) + " is " +
                           std::to_string(got[i]) + ", expected " + std::to_string(reference::spin(data[i], steps)));
        break;
      }
  }
  return seconds;
}

void Disruptor::exhaustLocalMemory() {
  const size_t local = run_.device.localMemSize;
  state_.beat("local memory: one __local argument larger than the device's");
  Mem out = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(group_));
  setArgs(localSum_, out.get(), LocalSize{local + 4096});
  expectRefused(localSum_, "a __local argument 4 KiB larger than local memory");
  state_.beat("local memory: two __local arguments of 60% each");
  const size_t share = (local * 6 / 10) / sizeof(uint32_t) * sizeof(uint32_t);
  setArgs(localPair_, out.get(), LocalSize{share}, LocalSize{share});
  expectRefused(localPair_, "two __local arguments of 60% of local memory each");
  if (bigLocal_) {
    state_.beat("local memory: a __local array larger than the device's");
    expectRefused(bigLocal_, "a kernel whose __local array is 4 KiB larger than local memory");
  }
  checkQueueWorks(queue_, "after refused __local memory");
}

void Disruptor::expectRefused(cl_kernel kernel, const char *what) {
  const size_t global = group_;
  const cl_int err = clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &group_, 0, nullptr, nullptr);
  tally_.localMemoryError = err;
  if (err == CL_OUT_OF_RESOURCES) {
    ++tally_.localMemoryRefusals;
    return;
  }
  tally_.error(std::string("enqueueing ") + what + " returned " + statusText(err) + ", not CL_OUT_OF_RESOURCES");
  if (err == CL_SUCCESS)
    clFinish(queue_);
}

void Disruptor::checkQueueWorks(cl_command_queue queue, const char *after) {
  state_.beat("checking that the queue still works");
  const size_t groups = 4, global = groups * group_;
  Mem out = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(groups));
  setArgs(localSum_, out.get(), LocalSize{bytes(group_)});
  enqueueKernel(queue, localSum_, global, group_);
  const std::vector<uint32_t> got = readBack(queue, out, groups);
  std::vector<uint32_t> want(groups);
  for (size_t g = 0; g < groups; ++g)
    for (size_t l = 0; l < group_; ++l)
      want[g] += static_cast<uint32_t>(g * group_ + l);
  ++tally_.checks;
  ++tally_.kernels;
  if (got != want)
    tally_.wrongResult(std::string("local_sum ") + after + ": group 0 summed to " + std::to_string(got[0]) +
                       ", expected " + std::to_string(want[0]));
}

} // namespace stress
