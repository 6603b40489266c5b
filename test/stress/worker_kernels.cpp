// Worker operations around kernels: chains on the in-order queue read back
// on the other queue, barriers and markers on the out-of-order queue, and
// kernels of the shared program variants.
#include "callbacks.h"
#include "reference.h"
#include "run_state.h"
#include "worker.h"

namespace stress {

void Worker::kernelChain() {
  const size_t n = randomElements();
  const std::vector<uint32_t> in = randomData(n);
  const uint32_t a = random32(), b = random32();
  state_.beat("kernel chain: creating buffers");
  Mem input = createBuffer(run_.context, CL_MEM_READ_ONLY, bytes(n));
  Mem middle = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(n));
  Mem output = createBuffer(run_.context, CL_MEM_WRITE_ONLY, bytes(n));
  state_.beat("kernel chain: enqueueing");
  ok(clEnqueueWriteBuffer(inOrder_, input, CL_FALSE, 0, bytes(n), in.data(), 0, nullptr, nullptr),
     "clEnqueueWriteBuffer");
  setArgs(scaleAdd_, input.get(), middle.get(), a, b);
  enqueueKernel(inOrder_, scaleAdd_, n, 0);
  setArgs(ownSalted_, middle.get());
  enqueueKernel(inOrder_, ownSalted_, n, 0);
  setArgs(reverse_, middle.get(), output.get(), LocalSize{bytes(group_)});
  Event last;
  enqueueKernel(inOrder_, reverse_, n, group_, {}, last.out());
  watchEvent(tally_, last, CL_COMPLETE, Expect::Complete);
  if (below(4) == 0)
    watchEvent(tally_, last, below(2) ? CL_RUNNING : CL_SUBMITTED, Expect::Complete);
  ok(clFlush(inOrder_), "clFlush");
  // Read on the other queue, after the last kernel: a cross-queue wait.
  state_.beat("kernel chain: blocking read on the other queue");
  const std::vector<uint32_t> got = readBack(outOfOrder_, output, n, last);
  tally_.kernels += 3;
  tally_.transfers += 2;
  check(got, reference::reverseInGroups(reference::salted(reference::scaleAdd(in, a, b), ownScale_, ownSalt_), group_),
        "kernel chain");
}

void Worker::barrierAndMarker() {
  // Two independent kernels fill the halves of a buffer; a barrier orders
  // the kernel that adds the halves after both; a marker waits for it.
  const size_t half = randomElements();
  const uint32_t first = random32(), second = random32();
  state_.beat("barrier and marker: enqueueing");
  Mem data = createBuffer(run_.context, CL_MEM_READ_WRITE, bytes(2 * half));
  Mem sums = createBuffer(run_.context, CL_MEM_WRITE_ONLY, bytes(half));
  setArgs(setRange_, data.get(), cl_uint(0), first);
  enqueueKernel(outOfOrder_, setRange_, half, 0);
  setArgs(setRange_, data.get(), static_cast<cl_uint>(half), second);
  enqueueKernel(outOfOrder_, setRange_, half, 0);
  Event barrier, sum, marker;
  ok(clEnqueueBarrierWithWaitList(outOfOrder_, 0, nullptr, barrier.out()), "clEnqueueBarrierWithWaitList");
  setArgs(sumHalves_, data.get(), sums.get(), static_cast<cl_uint>(half));
  enqueueKernel(outOfOrder_, sumHalves_, half, 0, {}, sum.out());
  ok(clEnqueueMarkerWithWaitList(outOfOrder_, 1, sum.ptr(), marker.out()), "clEnqueueMarkerWithWaitList");
  watchEvent(tally_, barrier, CL_COMPLETE, Expect::Complete);
  watchEvent(tally_, marker, CL_COMPLETE, Expect::Complete);
  ok(clFlush(outOfOrder_), "clFlush");
  state_.beat("barrier and marker: waiting for the marker");
  ok(clWaitForEvents(1, marker.ptr()), "clWaitForEvents(marker)");
  if (eventStatus(sum) != CL_COMPLETE)
    tally_.error(state_.name() + ": a marker completed before the kernel it waits for");
  state_.beat("barrier and marker: blocking read");
  const std::vector<uint32_t> got = readBack(outOfOrder_, sums, half, marker);
  tally_.kernels += 3;
  tally_.markersAndBarriers += 2;
  ++tally_.transfers;
  std::vector<uint32_t> want(half);
  for (size_t i = 0; i < half; ++i)
    want[i] = first + second + 2 * static_cast<uint32_t>(i);
  check(got, want, "barrier and marker");
}

void Worker::sharedVariant() {
  // A kernel object of its own from a program every worker shares (built
  // by whichever worker asked first).
  const unsigned v = below(SharedPrograms::kVariants);
  state_.beat("shared variant: building or getting the program");
  Kernel salted = createKernel(run_.programs.variant(v), "salted");
  const size_t n = randomElements();
  std::vector<uint32_t> in = randomData(n);
  Mem data = createBuffer(run_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes(n), in.data());
  setArgs(salted, data.get());
  state_.beat("shared variant: kernel and blocking read");
  enqueueKernel(inOrder_, salted, n, 0);
  const std::vector<uint32_t> got = readBack(inOrder_, data, n);
  ++tally_.kernels;
  ++tally_.transfers;
  check(got, reference::salted(in, SharedPrograms::scaleOf(v), 0), "shared variant");
}

} // namespace stress
