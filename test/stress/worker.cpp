#include "worker.h"

#include "cl_error_name.h"
#include "run_state.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <sstream>

namespace stress {
namespace {

/// A worker's own program is rebuilt (new SCALE and SALT) this often.
constexpr auto kOwnProgramLifetime = std::chrono::seconds(5);

} // namespace

Worker::Worker(RunState &run, unsigned id)
    : run_(run), tally_(run.tally), id_(id), rng_(run.options.seed * 1000003 + id),
      state_("worker " + std::to_string(id)) {}

void Worker::run() {
  try {
    setUp();
  } catch (const ApiError &e) {
    tally_.error(state_.name() + ", setting up: " + e.what());
    run_.stop = true;
  }
  while (!run_.stop) {
    try {
      runOne();
      ++tally_.operations;
    } catch (const ApiError &e) {
      tally_.error(state_.name() + " (" + state_.step() + "): " + e.what());
      recover();
    }
  }
  recover();
  state_.finish();
}

void Worker::setUp() {
  state_.beat("creating queues and kernels");
  cl_int err = CL_SUCCESS;
  inOrder_.reset(clCreateCommandQueueWithProperties(run_.context, run_.device.id, nullptr, &err));
  ok(err, "clCreateCommandQueueWithProperties(in order)");
  const cl_queue_properties outOfOrder[] = {
      CL_QUEUE_PROPERTIES, run_.device.outOfOrder ? cl_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE} : 0, 0};
  outOfOrder_.reset(clCreateCommandQueueWithProperties(run_.context, run_.device.id, outOfOrder, &err));
  ok(err, "clCreateCommandQueueWithProperties(out of order)");
  cl_program shared = run_.programs.main();
  scaleAdd_ = createKernel(shared, "scale_add");
  reverse_ = createKernel(shared, "reverse_in_group");
  setRange_ = createKernel(shared, "set_range");
  sumHalves_ = createKernel(shared, "sum_halves");
  size_t kernelGroup = 0;
  ok(clGetKernelWorkGroupInfo(reverse_, run_.device.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernelGroup), &kernelGroup,
                              nullptr),
     "clGetKernelWorkGroupInfo");
  group_ = std::min<size_t>(64, std::bit_floor(kernelGroup));
  rebuildOwnProgram();
}

void Worker::runOne() {
  state_.beat("setting other workers' user events");
  run_.mailbox.drain(tally_, id_);
  if (run_.options.simulateHang && id_ == 0)
    return hangOnUnsetUserEvent();
  if (std::chrono::steady_clock::now() - ownBuilt_ > kOwnProgramLifetime)
    return rebuildOwnProgram();
  // Weights of the operations, in the order of the switch below.
  static constexpr unsigned kWeights[] = {25, 15, 8, 20, 12, 20};
  static constexpr unsigned kTotal = std::accumulate(std::begin(kWeights), std::end(kWeights), 0u);
  unsigned pick = below(kTotal);
  unsigned op = 0;
  while (pick >= kWeights[op])
    pick -= kWeights[op++];
  switch (op) {
  case 0:
    return kernelChain();
  case 1:
    return barrierAndMarker();
  case 2:
    return sharedVariant();
  case 3:
    return copyAndMap();
  case 4:
    return fillAndSubBuffer();
  default:
    return userEventChain();
  }
}

void Worker::recover() {
  // User events still in the mailbox (this worker's or another's) must be
  // set before the commands waiting on them can finish.
  state_.beat("recovering: draining user events");
  run_.mailbox.drain(tally_, id_);
  state_.beat("recovering: clFinish");
  for (cl_command_queue queue : {inOrder_.get(), outOfOrder_.get()})
    if (queue)
      if (cl_int err = clFinish(queue); err != CL_SUCCESS)
        tally_.error(state_.name() + ": clFinish: " + cltest::errorName(err));
}

void Worker::hangOnUnsetUserEvent() {
  cl_int err = CL_SUCCESS;
  Event never(clCreateUserEvent(run_.context, &err));
  ok(err, "clCreateUserEvent");
  Event marker;
  ok(clEnqueueMarkerWithWaitList(inOrder_, 1, never.ptr(), marker.out()), "clEnqueueMarkerWithWaitList");
  state_.beat("--simulate-hang: waiting for a user event nobody sets");
  clWaitForEvents(1, marker.ptr());
}

size_t Worker::randomElements() {
  const size_t groups = std::max<size_t>(1, run_.elements / group_);
  return group_ * (1 + below(groups));
}

std::vector<uint32_t> Worker::randomData(size_t n) {
  std::vector<uint32_t> data(n);
  for (uint32_t &value : data)
    value = random32();
  return data;
}

void Worker::check(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want, const char *what) {
  if (got.size() != want.size()) {
    tally_.wrongResult(state_.name() + ", " + what + ": " + std::to_string(got.size()) + " values, expected " +
                       std::to_string(want.size()));
    return;
  }
  check(got.data(), want, what);
}

void Worker::check(const uint32_t *got, const std::vector<uint32_t> &want, const char *what) {
  ++tally_.checks;
  size_t wrong = 0, first = 0;
  for (size_t i = want.size(); i-- > 0;)
    if (got[i] != want[i]) {
      ++wrong;
      first = i;
    }
  if (!wrong)
    return;
  std::ostringstream message;
  message << state_.name() << ", " << what << ": " << wrong << " of " << want.size() << " values wrong, first ["
          << first << "] = " << got[first] << ", expected " << want[first];
  tally_.wrongResult(message.str());
}

} // namespace stress
