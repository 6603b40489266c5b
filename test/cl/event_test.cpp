// Events: ordering, explicit dependencies on out-of-order queues, user
// events, callbacks, markers and barriers, waiting, profiling, info.
#include "cl_test.h"
#include "test_kernels.h"

#include <atomic>
#include <mutex>
#include <numeric>
#include <thread>

using namespace cltest;

namespace {

constexpr size_t kCount = 1 << 14;
// Long enough for a command that ignored its dependencies to have run.
constexpr auto kSettle = std::chrono::milliseconds(30);

class EventTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    program_ = build(kernels::arithmetic);
    ASSERT_TRUE(program_);
    data_ = buffer(CL_MEM_READ_WRITE, kCount * sizeof(int));
    ASSERT_TRUE(data_);
  }

  bool supportsOutOfOrder() const {
    return deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
           CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  }

  // Enqueues `name`(data_, value) over the whole buffer.
  cl_int enqueueOp(cl_command_queue queue, const char *name, int value, std::vector<cl_event> waits = {},
                   cl_event *event = nullptr) {
    Kernel k = kernel(program_, name);
    if (!k)
      return CL_INVALID_KERNEL;
    cl_mem mem = data_;
    setArgs(k, mem, value);
    size_t global = kCount;
    return clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, static_cast<cl_uint>(waits.size()),
                                  waits.empty() ? nullptr : waits.data(), event);
  }

  Event userEvent() {
    cl_int err = CL_SUCCESS;
    Event e(clCreateUserEvent(context_, &err));
    EXPECT_CL(err);
    return e;
  }

  std::vector<int> initialData() {
    std::vector<int> v(kCount);
    std::iota(v.begin(), v.end(), -100);
    return v;
  }

  Program program_;
  Mem data_;
};

} // namespace

TEST_P(EventTest, InOrderQueueRunsInOrder) {
  auto initial = initialData();
  Event write, a, b, c, read;
  std::vector<int> result(kCount, 0);
  ASSERT_CL(
      clEnqueueWriteBuffer(queue_, data_, CL_FALSE, 0, kCount * sizeof(int), initial.data(), 0, nullptr, write.out()));
  ASSERT_CL(enqueueOp(queue_, "add_value", 1, {}, a.out()));
  ASSERT_CL(enqueueOp(queue_, "mul_value", 3, {}, b.out()));
  ASSERT_CL(enqueueOp(queue_, "add_value", -2, {}, c.out()));
  ASSERT_CL(
      clEnqueueReadBuffer(queue_, data_, CL_FALSE, 0, kCount * sizeof(int), result.data(), 0, nullptr, read.out()));
  ASSERT_CL(clWaitForEvents(1, read.ptr()));
  for (size_t i = 0; i < kCount; ++i)
    ASSERT_EQ(result[i], (initial[i] + 1) * 3 - 2) << i;
  for (cl_event e : {write.get(), a.get(), b.get(), c.get(), read.get()})
    EXPECT_EQ(eventStatus(e), CL_COMPLETE);
}

TEST_P(EventTest, OutOfOrderQueueHonoursWaitLists) {
  if (!supportsOutOfOrder())
    GTEST_SKIP() << "device has no out-of-order queues";
  Queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(ooo);
  auto initial = initialData();
  // Hold the first command back, so that the queue has the whole chain in
  // hand before anything can run.
  Event gate = userEvent();
  Event write, a, b, c, read;
  std::vector<int> result(kCount, 0);
  ASSERT_CL(
      clEnqueueWriteBuffer(ooo, data_, CL_FALSE, 0, kCount * sizeof(int), initial.data(), 1, gate.ptr(), write.out()));
  ASSERT_CL(enqueueOp(ooo, "add_value", 1, {write}, a.out()));
  ASSERT_CL(enqueueOp(ooo, "mul_value", 3, {a}, b.out()));
  ASSERT_CL(enqueueOp(ooo, "add_value", -2, {b}, c.out()));
  ASSERT_CL(clEnqueueReadBuffer(ooo, data_, CL_FALSE, 0, kCount * sizeof(int), result.data(), 1, c.ptr(), read.out()));
  ASSERT_CL(clFlush(ooo));
  std::this_thread::sleep_for(kSettle);
  for (cl_event e : {write.get(), a.get(), b.get(), c.get(), read.get()})
    EXPECT_NE(eventStatus(e), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, read.ptr()));
  for (size_t i = 0; i < kCount; ++i)
    ASSERT_EQ(result[i], (initial[i] + 1) * 3 - 2) << i;
  ASSERT_CL(clFinish(ooo));
}

TEST_P(EventTest, UserEventHoldsBackRead) {
  std::vector<int> value(kCount, 42);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), value.data(), 0, nullptr, nullptr));
  Event gate = userEvent();
  std::vector<int> host(kCount, -1);
  Event read;
  ASSERT_CL(
      clEnqueueReadBuffer(queue_, data_, CL_FALSE, 0, kCount * sizeof(int), host.data(), 1, gate.ptr(), read.out()));
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(kSettle);
  EXPECT_NE(eventStatus(read), CL_COMPLETE);
  EXPECT_EQ(host[0], -1) << "the read ran before its user event completed";
  EXPECT_EQ(host[kCount - 1], -1);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, read.ptr()));
  EXPECT_EQ(host, value);
}

TEST_P(EventTest, UserEventHoldsBackKernel) {
  std::vector<int> zeros(kCount, 0);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), zeros.data(), 0, nullptr, nullptr));
  Event gate = userEvent();
  Event run;
  ASSERT_CL(enqueueOp(queue_, "set_value", 9, {gate}, run.out()));
  // A second queue reads the buffer while the kernel is held back.
  Queue other = makeQueue(0);
  ASSERT_TRUE(other);
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(kSettle);
  EXPECT_NE(eventStatus(run), CL_COMPLETE);
  std::vector<int> before(kCount, -1);
  ASSERT_CL(clEnqueueReadBuffer(other, data_, CL_TRUE, 0, kCount * sizeof(int), before.data(), 0, nullptr, nullptr));
  EXPECT_EQ(before, zeros) << "the kernel ran before its user event completed";
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(eventStatus(run), CL_COMPLETE);
  EXPECT_EQ(read<int>(data_, kCount), std::vector<int>(kCount, 9));
}

TEST_P(EventTest, NegativeUserEventFailsDependents) {
  std::vector<int> value(kCount, 5);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), value.data(), 0, nullptr, nullptr));
  Event gate = userEvent();
  Event run, read;
  std::vector<int> host(kCount, -1);
  ASSERT_CL(enqueueOp(queue_, "set_value", 9, {gate}, run.out()));
  ASSERT_CL(
      clEnqueueReadBuffer(queue_, data_, CL_FALSE, 0, kCount * sizeof(int), host.data(), 1, run.ptr(), read.out()));
  ASSERT_CL(clSetUserEventStatus(gate, -1234));
  EXPECT_EQ(eventStatus(gate), -1234);
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, run.ptr()));
  EXPECT_LT(eventStatus(run), 0);
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, read.ptr()));
  EXPECT_LT(eventStatus(read), 0);
  EXPECT_EQ(host[0], -1) << "a read depending on a failed command ran";
  clFinish(queue_); // may report the failure; must return
  // The failed kernel did not run: the buffer still holds 5s. Use a new
  // queue, as the old one has failed commands in it.
  Queue fresh = makeQueue(0);
  std::vector<int> after(kCount, 0);
  ASSERT_CL(clEnqueueReadBuffer(fresh, data_, CL_TRUE, 0, kCount * sizeof(int), after.data(), 0, nullptr, nullptr));
  EXPECT_EQ(after, value);
}

TEST_P(EventTest, UserEventInfoAndErrors) {
  Event gate = userEvent();
  EXPECT_EQ(eventInfo<cl_command_queue>(gate, CL_EVENT_COMMAND_QUEUE), nullptr);
  EXPECT_EQ(eventInfo<cl_context>(gate, CL_EVENT_CONTEXT), context_.get());
  EXPECT_EQ(eventInfo<cl_command_type>(gate, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(eventStatus(gate), CL_SUBMITTED);
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetUserEventStatus(gate, CL_SUBMITTED));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetUserEventStatus(gate, 7));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(gate, CL_COMPLETE));
  EXPECT_EQ(eventStatus(gate), CL_COMPLETE);
  // Profiling information is not available for user events.
  cl_ulong t = 0;
  EXPECT_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
                clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_QUEUED, sizeof(t), &t, nullptr));
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateUserEvent(nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);
  Event marker;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, marker.out()));
  EXPECT_CL_ERR(CL_INVALID_EVENT, clSetUserEventStatus(marker, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(EventTest, CommandEventInfo) {
  Event run;
  ASSERT_CL(enqueueOp(queue_, "set_value", 1, {}, run.out()));
  ASSERT_CL(clWaitForEvents(1, run.ptr()));
  EXPECT_EQ(eventInfo<cl_command_queue>(run, CL_EVENT_COMMAND_QUEUE), queue_.get());
  EXPECT_EQ(eventInfo<cl_context>(run, CL_EVENT_CONTEXT), context_.get());
  EXPECT_EQ(eventInfo<cl_command_type>(run, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  EXPECT_EQ(eventStatus(run), CL_COMPLETE);
  // The implementation may hold references of its own, and drops those of
  // a completed command shortly after the event completes (the count is
  // "immediately stale", says the specification): once the queue is
  // finished the count is stable, and retain adds one. (Under ASan the
  // count read right after clWaitForEvents sometimes still included one.)
  ASSERT_CL(clFinish(queue_));
  cl_uint refs = eventInfo<cl_uint>(run, CL_EVENT_REFERENCE_COUNT);
  EXPECT_GE(refs, 1u);
  ASSERT_CL(clRetainEvent(run));
  EXPECT_EQ(eventInfo<cl_uint>(run, CL_EVENT_REFERENCE_COUNT), refs + 1);
  ASSERT_CL(clReleaseEvent(run));
  cl_uint value = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetEventInfo(run, 0x7fff, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetEventInfo(run, CL_EVENT_REFERENCE_COUNT, 1, &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT, clGetEventInfo(nullptr, CL_EVENT_REFERENCE_COUNT, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT, clRetainEvent(nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT, clReleaseEvent(nullptr));

  std::vector<int> host(4);
  Event write, copy, fill;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_FALSE, 0, 16, host.data(), 0, nullptr, write.out()));
  ASSERT_CL(clEnqueueCopyBuffer(queue_, data_, data_, 0, 64, 16, 0, nullptr, copy.out()));
  int pattern = 3;
  ASSERT_CL(clEnqueueFillBuffer(queue_, data_, &pattern, 4, 0, 16, 0, nullptr, fill.out()));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(eventInfo<cl_command_type>(write, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_WRITE_BUFFER));
  EXPECT_EQ(eventInfo<cl_command_type>(copy, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_COPY_BUFFER));
  EXPECT_EQ(eventInfo<cl_command_type>(fill, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_FILL_BUFFER));
}

namespace {
struct CallbackRecord {
  std::mutex mutex;
  std::vector<cl_int> statuses;
  std::atomic<int> calls{0};
};
void CL_CALLBACK recordStatus(cl_event, cl_int status, void *userData) {
  auto *record = static_cast<CallbackRecord *>(userData);
  std::lock_guard lock(record->mutex);
  record->statuses.push_back(status);
  record->calls++;
}
} // namespace

TEST_P(EventTest, CallbacksForEveryStatus) {
  Event gate = userEvent();
  Event run;
  ASSERT_CL(enqueueOp(queue_, "set_value", 2, {gate}, run.out()));
  CallbackRecord submitted, running, complete, onUser;
  ASSERT_CL(clSetEventCallback(run, CL_SUBMITTED, recordStatus, &submitted));
  ASSERT_CL(clSetEventCallback(run, CL_RUNNING, recordStatus, &running));
  ASSERT_CL(clSetEventCallback(run, CL_COMPLETE, recordStatus, &complete));
  ASSERT_CL(clSetEventCallback(gate, CL_COMPLETE, recordStatus, &onUser));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetEventCallback(run, CL_QUEUED, recordStatus, &submitted));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetEventCallback(run, CL_COMPLETE, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT, clSetEventCallback(nullptr, CL_COMPLETE, recordStatus, &complete));
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(complete.calls.load(), 0) << "CL_COMPLETE callback before the command could run";
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  ASSERT_TRUE(waitUntil([&] { return submitted.calls && running.calls && complete.calls && onUser.calls; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  for (CallbackRecord *r : {&submitted, &running, &complete, &onUser})
    EXPECT_EQ(r->calls.load(), 1) << "each callback runs exactly once";
  EXPECT_EQ(submitted.statuses.at(0), CL_SUBMITTED);
  EXPECT_EQ(running.statuses.at(0), CL_RUNNING);
  EXPECT_EQ(complete.statuses.at(0), CL_COMPLETE);
  EXPECT_EQ(onUser.statuses.at(0), CL_COMPLETE);
  // A callback registered on a finished event still runs.
  CallbackRecord late;
  ASSERT_CL(clSetEventCallback(run, CL_COMPLETE, recordStatus, &late));
  EXPECT_TRUE(waitUntil([&] { return late.calls.load() == 1; }));
}

namespace {

/// A callback that holds its thread until `release` is set (or a safety
/// timeout passes), then records whether it was released.
struct BlockingCallback {
  std::atomic<bool> entered{false};
  std::atomic<bool> release{false};
  std::atomic<bool> released{false};
};

void CL_CALLBACK blockUntilReleased(cl_event, cl_int, void *data) {
  auto *callback = static_cast<BlockingCallback *>(data);
  callback->entered = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!callback->release && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  callback->released = callback->release.load();
}

} // namespace

// Application callbacks run off the device's timeline: while the callback of
// the first command's completion is still running, the device goes on and
// completes the command after it. (A device thread running the callback
// itself could not complete the second command before the callback
// returned: the callback would wait for its safety timeout and fail.)
TEST_P(EventTest, SlowCallbackDoesNotStallTheDevice) {
  Event first, second;
  BlockingCallback callback;
  ASSERT_CL(enqueueOp(queue_, "set_value", 1, {}, first.out()));
  ASSERT_CL(clSetEventCallback(first, CL_COMPLETE, blockUntilReleased, &callback));
  ASSERT_CL(enqueueOp(queue_, "add_value", 2, {}, second.out()));
  ASSERT_CL(clFlush(queue_));
  ASSERT_TRUE(waitUntil([&] { return callback.entered.load(); }));
  EXPECT_CL(clWaitForEvents(1, second.ptr()));
  EXPECT_EQ(eventStatus(second), CL_COMPLETE);
  callback.release = true;
  ASSERT_CL(clFinish(queue_));
  ASSERT_TRUE(waitUntil([&] { return callback.released.load(); }));
  std::vector<int> result(kCount);
  ASSERT_CL(clEnqueueReadBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), result.data(), 0, nullptr, nullptr));
  EXPECT_EQ(result[0], 3);
  EXPECT_EQ(result[kCount - 1], 3);
}

namespace {
/// A callback that takes its time, then records that it ran; it checks
/// that waits made from inside a callback do not wait for it.
struct SlowCallback {
  cl_command_queue queue = nullptr;
  std::atomic<bool> done{false};
  std::atomic<cl_int> innerWait{1};
  std::atomic<cl_int> innerFinish{1};
};
void CL_CALLBACK finishSlowly(cl_event event, cl_int, void *data) {
  auto *callback = static_cast<SlowCallback *>(data);
  // Its own event and queue: waiting for the callbacks due there would
  // wait for this one.
  callback->innerWait = clWaitForEvents(1, &event);
  callback->innerFinish = clFinish(callback->queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  callback->done = true;
}
} // namespace

// clWaitForEvents and clFinish return only once the callbacks of the events
// they waited for have returned (source/cl/callback_drain.h): applications
// and the CTS check what a callback wrote right after them, often on the
// stack of the function that waits.
TEST_P(EventTest, WaitsReturnAfterTheEventsCallbacks) {
  for (bool viaFinish : {false, true}) {
    SCOPED_TRACE(viaFinish ? "clFinish" : "clWaitForEvents");
    SlowCallback callback;
    callback.queue = queue_.get();
    Event run;
    ASSERT_CL(enqueueOp(queue_, "set_value", 1, {}, run.out()));
    ASSERT_CL(clSetEventCallback(run, CL_COMPLETE, finishSlowly, &callback));
    if (viaFinish)
      ASSERT_CL(clFinish(queue_));
    else
      ASSERT_CL(clWaitForEvents(1, run.ptr()));
    EXPECT_TRUE(callback.done.load());
    EXPECT_EQ(callback.innerWait.load(), CL_SUCCESS);
    EXPECT_EQ(callback.innerFinish.load(), CL_SUCCESS);
    ASSERT_TRUE(waitUntil([&] { return callback.done.load(); })); // the callback's data outlives it
  }
}

TEST_P(EventTest, MarkerWithoutWaitListWaitsForEverything) {
  if (!supportsOutOfOrder())
    GTEST_SKIP() << "device has no out-of-order queues";
  Queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  Event gate1 = userEvent(), gate2 = userEvent();
  Event a, b, marker;
  ASSERT_CL(enqueueOp(ooo, "set_value", 1, {gate1}, a.out()));
  ASSERT_CL(clEnqueueMarkerWithWaitList(ooo, 1, gate2.ptr(), b.out()));
  ASSERT_CL(clEnqueueMarkerWithWaitList(ooo, 0, nullptr, marker.out()));
  EXPECT_EQ(eventInfo<cl_command_type>(marker, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_MARKER));
  ASSERT_CL(clFlush(ooo));
  ASSERT_CL(clSetUserEventStatus(gate1, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, a.ptr()));
  std::this_thread::sleep_for(kSettle);
  EXPECT_NE(eventStatus(marker), CL_COMPLETE) << "marker completed before all earlier commands";
  ASSERT_CL(clSetUserEventStatus(gate2, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, marker.ptr()));
  EXPECT_EQ(eventStatus(b), CL_COMPLETE);
}

TEST_P(EventTest, MarkerWithWaitListWaitsOnlyForIt) {
  Event gate = userEvent();
  Event marker;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 1, gate.ptr(), marker.out()));
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(kSettle);
  EXPECT_NE(eventStatus(marker), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, marker.ptr()));
  // Deprecated 1.1 marker: still an event that completes.
  Event old;
  ASSERT_CL(clEnqueueMarker(queue_, old.out()));
  ASSERT_CL(clWaitForEvents(1, old.ptr()));
}

TEST_P(EventTest, BarrierOrdersLaterCommands) {
  if (!supportsOutOfOrder())
    GTEST_SKIP() << "device has no out-of-order queues";
  Queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  std::vector<int> zeros(kCount, 0);
  ASSERT_CL(clEnqueueWriteBuffer(ooo, data_, CL_TRUE, 0, kCount * sizeof(int), zeros.data(), 0, nullptr, nullptr));
  Event gate = userEvent();
  Event kernelDone, barrier, read;
  ASSERT_CL(enqueueOp(ooo, "set_value", 11, {gate}, kernelDone.out()));
  // No wait list: the barrier waits for everything enqueued before it.
  ASSERT_CL(clEnqueueBarrierWithWaitList(ooo, 0, nullptr, barrier.out()));
  EXPECT_EQ(eventInfo<cl_command_type>(barrier, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_BARRIER));
  std::vector<int> host(kCount, -1);
  ASSERT_CL(clEnqueueReadBuffer(ooo, data_, CL_FALSE, 0, kCount * sizeof(int), host.data(), 0, nullptr, read.out()));
  ASSERT_CL(clFlush(ooo));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(host[0], -1) << "a command after the barrier ran early";
  EXPECT_NE(eventStatus(barrier), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, read.ptr()));
  EXPECT_EQ(host, std::vector<int>(kCount, 11));

  // With a wait list: later commands wait for the listed events.
  Event gate2 = userEvent();
  Event barrier2, read2;
  ASSERT_CL(clEnqueueBarrierWithWaitList(ooo, 1, gate2.ptr(), barrier2.out()));
  std::vector<int> host2(kCount, -1);
  ASSERT_CL(clEnqueueReadBuffer(ooo, data_, CL_FALSE, 0, kCount * sizeof(int), host2.data(), 0, nullptr, read2.out()));
  ASSERT_CL(clFlush(ooo));
  std::this_thread::sleep_for(kSettle);
  EXPECT_EQ(host2[0], -1) << "a command after the barrier ran early";
  ASSERT_CL(clSetUserEventStatus(gate2, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, read2.ptr()));
  EXPECT_EQ(host2, std::vector<int>(kCount, 11));
  ASSERT_CL(clFinish(ooo));
}

TEST_P(EventTest, CrossQueueDependency) {
  Queue second = makeQueue(0);
  ASSERT_TRUE(second);
  std::vector<int> zeros(kCount, 0);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), zeros.data(), 0, nullptr, nullptr));
  Event gate = userEvent();
  Event first, then;
  ASSERT_CL(enqueueOp(queue_, "add_value", 4, {gate}, first.out()));
  ASSERT_CL(enqueueOp(second, "mul_value", 5, {first}, then.out()));
  ASSERT_CL(clFlush(queue_));
  ASSERT_CL(clFlush(second));
  std::this_thread::sleep_for(kSettle);
  EXPECT_NE(eventStatus(then), CL_COMPLETE);
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(second));
  EXPECT_EQ(read<int>(data_, kCount), std::vector<int>(kCount, 20)) << "(0 + 4) * 5";
}

TEST_P(EventTest, WaitForEventsErrors) {
  EXPECT_CL_ERR(CL_INVALID_VALUE, clWaitForEvents(0, nullptr));
  cl_event none = nullptr;
  EXPECT_CL_ERR(CL_INVALID_EVENT, clWaitForEvents(1, &none));
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  Context other(clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  Event mine = userEvent();
  Event theirs(clCreateUserEvent(other, &err));
  ASSERT_CL(err);
  cl_event both[] = {mine, theirs};
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clWaitForEvents(2, both));
  // A wait list with an event from another context is rejected at enqueue.
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(queue_, 1, theirs.ptr(), nullptr));
  ASSERT_CL(clSetUserEventStatus(mine, CL_COMPLETE));
  ASSERT_CL(clSetUserEventStatus(theirs, CL_COMPLETE));
  // Waiting on several completed events.
  Event a, b;
  ASSERT_CL(enqueueOp(queue_, "set_value", 1, {}, a.out()));
  ASSERT_CL(enqueueOp(queue_, "set_value", 2, {}, b.out()));
  cl_event list[] = {a, b, mine};
  ASSERT_CL(clWaitForEvents(3, list));
  EXPECT_EQ(eventStatus(a), CL_COMPLETE);
  EXPECT_EQ(eventStatus(b), CL_COMPLETE);
}

TEST_P(EventTest, ProfilingTimestampsAreOrdered) {
  Queue profiled = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  ASSERT_TRUE(profiled);
  std::vector<int> host(kCount, 1);
  Event write, run;
  ASSERT_CL(
      clEnqueueWriteBuffer(profiled, data_, CL_FALSE, 0, kCount * sizeof(int), host.data(), 0, nullptr, write.out()));
  ASSERT_CL(enqueueOp(profiled, "add_value", 1, {}, run.out()));
  ASSERT_CL(clFinish(profiled));
  for (cl_event e : {write.get(), run.get()}) {
    cl_ulong t[5] = {};
    const cl_profiling_info params[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                        CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; ++i) {
      size_t size = 0;
      ASSERT_CL(clGetEventProfilingInfo(e, params[i], sizeof(cl_ulong), &t[i], &size));
      EXPECT_EQ(size, sizeof(cl_ulong));
      EXPECT_NE(t[i], 0u) << "timestamp " << i;
    }
    EXPECT_LE(t[0], t[1]);
    EXPECT_LE(t[1], t[2]);
    EXPECT_LE(t[2], t[3]);
    EXPECT_LE(t[3], t[4]);
    cl_ulong v = 0;
    EXPECT_CL_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(e, 0x7fff, sizeof(v), &v, nullptr));
    EXPECT_CL_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, 4, &v, nullptr));
  }
  // The kernel ran after the write on an in-order queue.
  cl_ulong writeEnd = 0, runStart = 0;
  ASSERT_CL(clGetEventProfilingInfo(write, CL_PROFILING_COMMAND_END, sizeof(cl_ulong), &writeEnd, nullptr));
  ASSERT_CL(clGetEventProfilingInfo(run, CL_PROFILING_COMMAND_START, sizeof(cl_ulong), &runStart, nullptr));
  EXPECT_LE(writeEnd, runStart);
}

TEST_P(EventTest, ProfilingNotAvailableWithoutProfilingQueue) {
  Event run;
  ASSERT_CL(enqueueOp(queue_, "set_value", 1, {}, run.out()));
  ASSERT_CL(clWaitForEvents(1, run.ptr()));
  cl_ulong t = 0;
  EXPECT_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
                clGetEventProfilingInfo(run, CL_PROFILING_COMMAND_START, sizeof(t), &t, nullptr));
}

TEST_P(EventTest, FlushThenFinishCompletesEverything) {
  std::vector<Event> events(16);
  for (size_t i = 0; i < events.size(); ++i)
    ASSERT_CL(enqueueOp(queue_, "add_value", 1, {}, events[i].out()));
  ASSERT_CL(clFlush(queue_));
  ASSERT_CL(clFinish(queue_));
  for (Event &e : events)
    EXPECT_EQ(eventStatus(e), CL_COMPLETE);
  // The buffer started undefined; check the last kernel saw every earlier one.
  std::vector<int> zero(kCount, 0);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data_, CL_TRUE, 0, kCount * sizeof(int), zero.data(), 0, nullptr, nullptr));
  for (int i = 0; i < 16; ++i)
    ASSERT_CL(enqueueOp(queue_, "add_value", i, {}, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(read<int>(data_, kCount), std::vector<int>(kCount, 120));
}

CLTEST_INSTANTIATE(EventTest);
