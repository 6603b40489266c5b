// Worker operation on user events: a chain of commands on the out-of-order
// queue held back by a user event that another thread usually sets; one
// time in four it is set to a negative status, and then every command of
// the chain must be terminated (OpenCL 3.0, clSetUserEventStatus: "A
// negative integer value causes all enqueued commands that wait on this
// user event to be terminated"), with the commands that wait on those, while
// a command of the same queue outside the chain still runs.
#include "callbacks.h"
#include "cl_error_name.h"
#include "reference.h"
#include "run_state.h"
#include "worker.h"

namespace stress {
namespace {

constexpr uint32_t kUntouched = 0xdeadbeef;

/// Sets the user event to a negative status when it leaves scope without
/// having been posted: commands waiting on it must not stay held while the
/// worker releases their buffers.
struct UnpostedUserEvent {
  cl_event event;
  bool posted = false;
  ~UnpostedUserEvent() {
    if (!posted)
      clSetUserEventStatus(event, -1);
  }
};

} // namespace

void Worker::userEventChain() {
  const bool fails = below(4) == 0;
  const cl_int status = fails ? -1000 - static_cast<cl_int>(id_) : CL_COMPLETE;
  const Expect expect = fails ? Expect::Failure : Expect::Complete;
  const size_t n = randomElements();
  const std::vector<uint32_t> in = randomData(n);
  const uint32_t a = random32(), b = random32();
  std::vector<uint32_t> got(n, kUntouched);
  state_.beat("user event: creating");
  Mem input = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(n));
  Mem output = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(n));
  Mem other = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(n));
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(run_.context, &err));
  ok(err, "clCreateUserEvent");
  UnpostedUserEvent unposted{gate};
  watchEvent(tally_, gate, CL_COMPLETE, expect);
  // The chain: write <- kernel <- read, each waiting on the one before.
  Event write, kernel, read;
  state_.beat("user event: enqueueing the held chain");
  ok(clEnqueueWriteBuffer(outOfOrder_, input, CL_FALSE, 0, bytes(n), in.data(), 1, gate.ptr(), write.out()),
     "clEnqueueWriteBuffer(after a user event)");
  setArgs(scaleAdd_, input.get(), output.get(), a, b);
  enqueueKernel(outOfOrder_, scaleAdd_, n, 0, {write}, kernel.out());
  ok(clEnqueueReadBuffer(outOfOrder_, output, CL_FALSE, 0, bytes(n), got.data(), 1, kernel.ptr(), read.out()),
     "clEnqueueReadBuffer(after the kernel)");
  for (cl_event event : {write.get(), kernel.get(), read.get()})
    watchEvent(tally_, event, CL_COMPLETE, expect);
  ok(clFlush(outOfOrder_), "clFlush");
  state_.beat("user event: checking the chain is held");
  if (eventStatus(read) <= CL_COMPLETE)
    tally_.error(state_.name() + ": a read held back by a user event that is not set has ended");
  // Usually another worker sets the user event (they drain the mailbox
  // between operations) while this one runs a command outside the chain.
  run_.mailbox.post(gate, status, id_);
  unposted.posted = true;
  const uint32_t value = random32();
  setArgs(setRange_, other.get(), cl_uint(0), value);
  Event independent;
  enqueueKernel(outOfOrder_, setRange_, n, 0, {}, independent.out());
  state_.beat("user event: blocking read outside the held chain");
  const std::vector<uint32_t> otherGot = readBack(outOfOrder_, other, n, independent);
  std::vector<uint32_t> otherWant(n);
  for (size_t i = 0; i < n; ++i)
    otherWant[i] = value + static_cast<uint32_t>(i);
  check(otherGot, otherWant, "user event: a command outside the held chain");
  // Draining the mailbox before waiting makes sure someone sets it.
  state_.beat("user event: setting posted user events");
  run_.mailbox.drain(tally_, id_);
  state_.beat("user event: waiting for the chain");
  const cl_int waited = clWaitForEvents(1, read.ptr());
  tally_.kernels += 2;
  tally_.transfers += 3;
  if (!fails) {
    ok(waited, "clWaitForEvents(chain)");
    check(got, reference::scaleAdd(in, a, b), "user event: the chain");
    return;
  }
  if (waited != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    tally_.error(state_.name() + ": clWaitForEvents on a command terminated by a user event returned " +
                 cltest::errorName(waited) + ", not CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST");
  if (eventStatus(gate) != status)
    tally_.error(state_.name() + ": the user event's status is " + std::to_string(eventStatus(gate)) + ", not " +
                 std::to_string(status));
  for (cl_event event : {write.get(), kernel.get(), read.get()})
    if (cl_int s = eventStatus(event); s >= 0)
      tally_.error(state_.name() + ": a command waiting on a failed user event has status " + std::to_string(s));
  tally_.dependantsFailed += 3;
  check(got, std::vector<uint32_t>(n, kUntouched), "user event: the read of a terminated chain did not write");
}

} // namespace stress
