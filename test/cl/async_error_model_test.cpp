// cl_polymux_async_error_model: in a context created with
// CL_CONTEXT_ERROR_MODEL_POLYMUX = CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX, a
// failed command poisons the memory it may write, commands that wait on a
// failed event or use poisoned memory do not run and fail with
// CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX, independent commands keep running, and
// clCheckEventExecutionPOLYMUX reports the failure farthest up the wait lists.
// A failed command here is a user event set to an error (every device) or a
// kernel that faults (where the device detects faults).
#include "cl_test.h"

#include "CL/cl_ext_polymux.h"

#include <algorithm>
#include <vector>

using namespace cltest;

namespace {

constexpr const char *kSource = R"(
kernel void add_one(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}

kernel void fill_value(global int *out, int value) {
  out[get_global_id(0)] = value;
}

// Records that it ran, in a buffer the application created CL_MEM_READ_ONLY
// (so it is neither listed as written nor poisoned): only a test's probe.
kernel void mark_ran(global int *ran) {
  if (get_global_id(0) == 0)
    ran[0] = 1;
}

kernel void args_of_every_kind(global int *written, global const int *passed_const, constant int *constant_data,
                               global int *read_only_buffer, global const int *const_not_passed_const) {
  size_t i = get_global_id(0);
  written[i] = passed_const[i] + constant_data[i] + read_only_buffer[i] + const_not_passed_const[i];
}

kernel void bad_pointer(global int *out, ulong address) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i == 0)
    *(global volatile int *)address = 42;
}
)";

constexpr cl_ulong kBadAddress = 0x10; // the first page: mapped by no process
constexpr size_t kCount = 64;

class AsyncErrorModelTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_TRUE(deviceHasExtension(device(), CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME));
    check_ = extensionFunction<clCheckEventExecutionPOLYMUX_fn>("clCheckEventExecutionPOLYMUX");
    setArgConst_ = extensionFunction<clSetKernelArgConstPOLYMUX_fn>("clSetKernelArgConstPOLYMUX");
    ASSERT_NE(check_, nullptr);
    ASSERT_NE(setArgConst_, nullptr);
    // From here on the fixture's context is a poison-model one.
    defaultContext_ = std::move(context_);
    context_ = makeContext(CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX);
    ASSERT_TRUE(context_);
    cl_int err = CL_SUCCESS;
    queue_.reset(clCreateCommandQueueWithProperties(context_, device(), nullptr, &err));
    ASSERT_CL(err);
    program_ = build(kSource);
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    if (queue_)
      clFinish(queue_);
  }

  Context makeContext(cl_context_properties model, cl_int expected = CL_SUCCESS) {
    cl_device_id dev = device();
    cl_context_properties properties[] = {CL_CONTEXT_ERROR_MODEL_POLYMUX, model, 0};
    cl_int err = CL_SUCCESS;
    Context context(clCreateContext(properties, 1, &dev, nullptr, nullptr, &err));
    EXPECT_CL_ERR(expected, err);
    return context;
  }

  Mem intBuffer(int value, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    std::vector<int> values(kCount, value);
    return buffer(flags | CL_MEM_COPY_HOST_PTR, kCount * sizeof(int), values.data());
  }

  // add_one(in, out) after `waits`, `in` passed as const: only `out` may be
  // written (and poisoned).
  Event addOne(cl_mem in, cl_mem out, std::vector<cl_event> waits = {}) {
    Kernel k = kernel(program_, "add_one");
    EXPECT_CL(setArgConst_(k, 0, sizeof(cl_mem), &in));
    EXPECT_CL(setArg(k, 1, out));
    Event event;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kCount, nullptr, static_cast<cl_uint>(waits.size()),
                                     waits.empty() ? nullptr : waits.data(), event.out()));
    return event;
  }

  Event markRan(cl_mem ran, std::vector<cl_event> waits = {}) {
    Kernel k = kernel(program_, "mark_ran");
    setArgs(k, ran);
    Event event;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kCount, nullptr, static_cast<cl_uint>(waits.size()),
                                     waits.empty() ? nullptr : waits.data(), event.out()));
    return event;
  }

  Event readInto(cl_mem mem, std::vector<int> &values, std::vector<cl_event> waits = {}) {
    values.assign(kCount, -1);
    Event event;
    EXPECT_CL(clEnqueueReadBuffer(queue_, mem, CL_FALSE, 0, kCount * sizeof(int), values.data(),
                                  static_cast<cl_uint>(waits.size()), waits.empty() ? nullptr : waits.data(),
                                  event.out()));
    return event;
  }

  // clCheckEventExecutionPOLYMUX: {failed event (owned), error}.
  std::pair<Event, cl_int> checkEvent(cl_event event) {
    Event failed;
    cl_int error = 12345;
    EXPECT_CL(check_(event, failed.out(), &error));
    return {std::move(failed), error};
  }

  std::vector<cl_mem> nonConstObjects(cl_event event) {
    size_t size = 0;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX, 0, nullptr, &size));
    std::vector<cl_mem> objects(size / sizeof(cl_mem));
    if (size)
      EXPECT_CL(clGetEventInfo(event, CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX, size, objects.data(), nullptr));
    return objects;
  }

  clCheckEventExecutionPOLYMUX_fn check_ = nullptr;
  clSetKernelArgConstPOLYMUX_fn setArgConst_ = nullptr;
  Context defaultContext_;
  Program program_;
};

TEST_P(AsyncErrorModelTest, ContextPropertyIsValidatedAndReported) {
  Context specification = makeContext(CL_CONTEXT_ERROR_MODEL_SPECIFICATION_POLYMUX);
  EXPECT_TRUE(specification);
  expectNoHandle(makeContext(0x4F8F, CL_INVALID_PROPERTY));
  expectNoHandle(makeContext(CL_TRUE, CL_INVALID_PROPERTY));

  cl_device_id dev = device();
  cl_context_properties twice[] = {CL_CONTEXT_ERROR_MODEL_POLYMUX, CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX,
                                   CL_CONTEXT_ERROR_MODEL_POLYMUX, CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX, 0};
  cl_int err = CL_SUCCESS;
  expectNoHandle(Context(clCreateContext(twice, 1, &dev, nullptr, nullptr, &err)));
  EXPECT_CL_ERR(CL_INVALID_PROPERTY, err);

  size_t size = 0;
  ASSERT_CL(clGetContextInfo(context_, CL_CONTEXT_PROPERTIES, 0, nullptr, &size));
  std::vector<cl_context_properties> properties(size / sizeof(cl_context_properties));
  ASSERT_CL(clGetContextInfo(context_, CL_CONTEXT_PROPERTIES, size, properties.data(), nullptr));
  std::vector<cl_context_properties> expected = {CL_CONTEXT_ERROR_MODEL_POLYMUX, CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX,
                                                 0};
  EXPECT_EQ(properties, expected);
}

TEST_P(AsyncErrorModelTest, NonConstMemObjectsListWhatACommandMayWrite) {
  Mem written = intBuffer(0), passedConst = intBuffer(1), constantData = intBuffer(2);
  Mem readOnly = intBuffer(3, CL_MEM_READ_ONLY), constNotPassedConst = intBuffer(4);
  Kernel k = kernel(program_, "args_of_every_kind");
  setArgs(k, written.get());
  cl_mem passedConstHandle = passedConst.get();
  ASSERT_CL(setArgConst_(k, 1, sizeof(cl_mem), &passedConstHandle));
  cl_mem rest[] = {constantData.get(), readOnly.get(), constNotPassedConst.get()};
  for (cl_uint i = 0; i < 3; ++i)
    ASSERT_CL(clSetKernelArg(k, 2 + i, sizeof(cl_mem), &rest[i]));
  Event launch;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kCount, nullptr, 0, nullptr, launch.out()));
  // Listed from enqueue on, and after completion.
  std::vector<cl_mem> expected = {written.get(), constNotPassedConst.get()};
  EXPECT_EQ(nonConstObjects(launch), expected);
  ASSERT_CL(clWaitForEvents(1, launch.ptr()));
  EXPECT_EQ(nonConstObjects(launch), expected);
  EXPECT_EQ(read<int>(written, 1)[0], 1 + 2 + 3 + 4);

  // Transfers: the destination only.
  Event copy;
  ASSERT_CL(clEnqueueCopyBuffer(queue_, passedConst, written, 0, 0, kCount * sizeof(int), 0, nullptr, copy.out()));
  EXPECT_EQ(nonConstObjects(copy), std::vector<cl_mem>{written.get()});
  std::vector<int> values;
  Event readEvent = readInto(written, values);
  EXPECT_TRUE(nonConstObjects(readEvent).empty());
  int pattern = 7;
  Event fill;
  ASSERT_CL(clEnqueueFillBuffer(queue_, written, &pattern, sizeof(pattern), 0, sizeof(int), 0, nullptr, fill.out()));
  EXPECT_EQ(nonConstObjects(fill), std::vector<cl_mem>{written.get()});
  Event marker;
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, marker.out()));
  EXPECT_TRUE(nonConstObjects(marker).empty());
  ASSERT_CL(clFinish(queue_));

  // A user event writes nothing.
  cl_int err = CL_SUCCESS;
  Event user(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  EXPECT_TRUE(nonConstObjects(user).empty());
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
}

TEST_P(AsyncErrorModelTest, NonConstMemObjectsIsNotAnsweredInTheDefaultModel) {
  cl_int err = CL_SUCCESS;
  Event user(clCreateUserEvent(defaultContext_, &err));
  ASSERT_CL(err);
  size_t size = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetEventInfo(user, CL_EVENT_NON_CONST_MEM_OBJECTS_POLYMUX, 0, nullptr, &size));
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
}

TEST_P(AsyncErrorModelTest, FailedEventFailsOnlyItsDependents) {
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Mem in = intBuffer(10), out = intBuffer(0), other = intBuffer(0);
  Mem ran = intBuffer(0, CL_MEM_READ_ONLY);
  Event dependent = addOne(in, out, {gate.get()});
  Event probe = markRan(ran, {gate.get()});
  // Independent, on the same in-order queue, enqueued after the dependents.
  Event independent = addOne(in, other);
  ASSERT_CL(clFlush(queue_));
  ASSERT_CL(clSetUserEventStatus(gate, -42));

  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, dependent.ptr()));
  EXPECT_EQ(eventStatus(dependent), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  EXPECT_EQ(eventStatus(probe), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  ASSERT_CL(clWaitForEvents(1, independent.ptr()));
  EXPECT_EQ(read<int>(other, kCount), std::vector<int>(kCount, 11));
  // The probe never ran, and its read-only buffer is not poisoned.
  EXPECT_EQ(read<int>(ran, 1)[0], 0);
  // `out` is poisoned: reading it fails, and the read itself is reported.
  std::vector<int> values;
  Event readOut = readInto(out, values);
  auto [failed, error] = checkEvent(readOut);
  EXPECT_EQ(failed.get(), readOut.get());
  EXPECT_EQ(error, CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  EXPECT_EQ(eventStatus(readOut), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  EXPECT_EQ(values, std::vector<int>(kCount, -1)) << "the failed read wrote the host memory";
  // A blocking read says so too.
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, sizeof(int), values.data(), 0, nullptr, nullptr));
  // The dependent reports the user event, farthest up.
  auto [cause, causeError] = checkEvent(dependent);
  EXPECT_EQ(cause.get(), gate.get());
  EXPECT_EQ(causeError, -42);
}

TEST_P(AsyncErrorModelTest, DefaultModelIsUnchanged) {
  cl_int err = CL_SUCCESS;
  Queue queue(clCreateCommandQueueWithProperties(defaultContext_, device(), nullptr, &err));
  ASSERT_CL(err);
  Event gate(clCreateUserEvent(defaultContext_, &err));
  ASSERT_CL(err);
  std::vector<int> host(kCount, 5);
  Mem mem(clCreateBuffer(defaultContext_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCount * sizeof(int), host.data(),
                         &err));
  ASSERT_CL(err);
  int pattern = 9;
  Event fill;
  ASSERT_CL(clEnqueueFillBuffer(queue, mem, &pattern, sizeof(pattern), 0, sizeof(int), 1, gate.ptr(), fill.out()));
  ASSERT_CL(clSetUserEventStatus(gate, -1));
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, fill.ptr()));
  EXPECT_EQ(eventStatus(fill), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // Nothing is poisoned.
  ASSERT_CL(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, kCount * sizeof(int), host.data(), 0, nullptr, nullptr));
  EXPECT_EQ(host[1], 5);
  // And the check is refused for events of such contexts.
  cl_event failed = nullptr;
  cl_int error = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, check_(fill, &failed, &error));
  EXPECT_EQ(failed, nullptr);
}

TEST_P(AsyncErrorModelTest, FullOverwriteClearsPoison) {
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Mem in = intBuffer(1), out = intBuffer(0);
  cl_buffer_region half = {0, kCount * sizeof(int) / 2};
  Mem sub(clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err));
  ASSERT_CL(err);
  Event poisoner = addOne(in, out, {gate.get()});
  ASSERT_CL(clSetUserEventStatus(gate, -1));
  ASSERT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, poisoner.ptr()));

  std::vector<int> values(kCount, 3);
  // A partial write, or a whole write of a sub-buffer, neither runs nor clears.
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, sizeof(int), values.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueWriteBuffer(queue_, sub, CL_TRUE, 0, half.size, values.data(), 0, nullptr, nullptr));
  // A kernel using the poisoned buffer (here only a sub-buffer of it) fails.
  Event usesSub = addOne(sub, in);
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, usesSub.ptr()));
  EXPECT_EQ(eventStatus(usesSub), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  // ...and poisoned what it may write, in turn.
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueReadBuffer(queue_, in, CL_TRUE, 0, sizeof(int), values.data(), 0, nullptr, nullptr));

  // Whole writes clear: a write, a fill, a copy from a healthy buffer.
  ASSERT_CL(clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, kCount * sizeof(int), values.data(), 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(out, kCount), std::vector<int>(kCount, 3));
  int pattern = 8;
  ASSERT_CL(clEnqueueFillBuffer(queue_, in, &pattern, sizeof(pattern), 0, kCount * sizeof(int), 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(in, kCount), std::vector<int>(kCount, 8));
  // Works again, sub-buffer included.
  Event again = addOne(in, out);
  ASSERT_CL(clWaitForEvents(1, again.ptr()));
  EXPECT_EQ(read<int>(sub, 2), (std::vector<int>{9, 9}));
  auto [failed, error] = checkEvent(again);
  EXPECT_EQ(failed.get(), nullptr);
  EXPECT_EQ(error, CL_SUCCESS);
}

TEST_P(AsyncErrorModelTest, WholeRectanglesAndInvalidatingMapsClearPoison) {
  cl_int err = CL_SUCCESS;
  auto poison = [&](cl_mem out) {
    Event gate(clCreateUserEvent(context_, &err));
    ASSERT_CL(err);
    Mem in = intBuffer(1);
    Event poisoner = addOne(in, out, {gate.get()});
    ASSERT_CL(clSetUserEventStatus(gate, -1));
    ASSERT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, poisoner.ptr()));
  };
  std::vector<int> values(kCount);
  for (size_t i = 0; i < kCount; ++i)
    values[i] = static_cast<int>(i * 3);
  const size_t origin[3] = {0, 0, 0};
  constexpr size_t kRowBytes = 8 * sizeof(int), kRows = kCount / 8;

  // A rectangle whose rows leave gaps (a row pitch wider than the row) keeps
  // bytes it does not write: it neither runs nor clears.
  Mem out = intBuffer(0);
  poison(out);
  const size_t halfRows[3] = {kRowBytes / 2, kRows, 1};
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueWriteBufferRect(queue_, out, CL_TRUE, origin, origin, halfRows, kRowBytes, 0, kRowBytes, 0,
                                         values.data(), 0, nullptr, nullptr));
  // Rows that follow each other over the whole buffer replace every byte.
  const size_t wholeRows[3] = {kRowBytes, kRows / 2, 2};
  ASSERT_CL(clEnqueueWriteBufferRect(queue_, out, CL_TRUE, origin, origin, wholeRows, 0, 0, 0, 0, values.data(), 0,
                                     nullptr, nullptr));
  EXPECT_EQ(read<int>(out, kCount), values);

  // A rectangle copy over the whole destination, from a healthy buffer.
  Mem copied = intBuffer(0);
  poison(copied);
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, out, copied, origin, origin, wholeRows, 0, 0, 0, 0, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(read<int>(copied, kCount), values);

  // Mapping for writing (not invalidating) needs the poisoned contents: the
  // map fails. Mapping the whole buffer with CL_MAP_WRITE_INVALIDATE_REGION
  // does not, and the unmap, carrying only what the host wrote, clears.
  Mem mapped = intBuffer(0);
  poison(mapped);
  void *pointer =
      clEnqueueMapBuffer(queue_, mapped, CL_TRUE, CL_MAP_WRITE, 0, kCount * sizeof(int), 0, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  if (pointer)
    ASSERT_CL(clEnqueueUnmapMemObject(queue_, mapped, pointer, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  auto *host = static_cast<int *>(clEnqueueMapBuffer(queue_, mapped, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                                     kCount * sizeof(int), 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  std::copy(values.begin(), values.end(), host);
  Event unmapped;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mapped, host, 0, nullptr, unmapped.out()));
  ASSERT_CL(clWaitForEvents(1, unmapped.ptr()));
  EXPECT_EQ(read<int>(mapped, kCount), values);
}

TEST_P(AsyncErrorModelTest, CheckReportsTheFarthestFailure) {
  cl_int err = CL_SUCCESS;
  Event far(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Event near(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Mem a = intBuffer(0), b = intBuffer(0), c = intBuffer(0);
  // far → first → last ← near: far is two edges up, near one.
  Event first = addOne(a, b, {far.get()});
  Event last = addOne(b, c, {first.get(), near.get()});
  ASSERT_CL(clFlush(queue_));
  ASSERT_CL(clSetUserEventStatus(near, -7));
  ASSERT_CL(clSetUserEventStatus(far, -5));
  for (int repeat = 0; repeat < 2; ++repeat) { // a second call gives the same answer
    auto [failed, error] = checkEvent(last);
    EXPECT_EQ(failed.get(), far.get());
    EXPECT_EQ(error, -5);
  }
  // A failed user event checked itself is its own failure.
  auto [self, selfError] = checkEvent(near);
  EXPECT_EQ(self.get(), near.get());
  EXPECT_EQ(selfError, -7);
  // Optional outputs.
  EXPECT_CL(check_(last, nullptr, nullptr));
  cl_int error = 0;
  EXPECT_CL(check_(last, nullptr, &error));
  EXPECT_EQ(error, -5);
}

TEST_P(AsyncErrorModelTest, CheckOfASuccessfulGraph) {
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Mem a = intBuffer(1), b = intBuffer(0);
  Event launch = addOne(a, b, {gate.get()});
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  cl_event failed = reinterpret_cast<cl_event>(&err); // must be overwritten
  cl_int error = 1;
  ASSERT_CL(check_(launch, &failed, &error));
  EXPECT_EQ(failed, nullptr);
  EXPECT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(read<int>(b, kCount), std::vector<int>(kCount, 2));
}

TEST_P(AsyncErrorModelTest, CheckRejectsInvalidEvents) {
  cl_event failed = nullptr;
  cl_int error = 0;
  EXPECT_CL_ERR(CL_INVALID_EVENT, check_(nullptr, &failed, &error));
  EXPECT_CL_ERR(CL_INVALID_EVENT, check_(reinterpret_cast<cl_event>(queue_.get()), &failed, &error));
}

TEST_P(AsyncErrorModelTest, MarkerWithoutWaitListDependsOnEverythingBefore) {
  Queue outOfOrder = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(outOfOrder);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  // Different inputs: a plain clSetKernelArg of a `const __global` input
  // lists it as written, so sharing one would make the kernels dependent.
  Mem a = intBuffer(1), b = intBuffer(0), c = intBuffer(0), d = intBuffer(1);
  Kernel k = kernel(program_, "add_one");
  setArgs(k, a.get(), b.get());
  Event failing;
  ASSERT_CL(clEnqueueNDRangeKernel(outOfOrder, k, 1, nullptr, &kCount, nullptr, 1, gate.ptr(), failing.out()));
  Kernel k2 = kernel(program_, "add_one");
  setArgs(k2, d.get(), c.get());
  Event independent;
  ASSERT_CL(clEnqueueNDRangeKernel(outOfOrder, k2, 1, nullptr, &kCount, nullptr, 0, nullptr, independent.out()));
  Event marker;
  ASSERT_CL(clEnqueueMarkerWithWaitList(outOfOrder, 0, nullptr, marker.out()));
  ASSERT_CL(clFlush(outOfOrder));
  ASSERT_CL(clWaitForEvents(1, independent.ptr()));
  ASSERT_CL(clSetUserEventStatus(gate, -3));
  auto [failed, error] = checkEvent(marker);
  EXPECT_EQ(failed.get(), gate.get());
  EXPECT_EQ(error, -3);
  EXPECT_EQ(eventStatus(marker), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  EXPECT_EQ(eventStatus(failing), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  ASSERT_CL(clFinish(outOfOrder));
  EXPECT_EQ(read<int>(c, kCount), std::vector<int>(kCount, 2));
}

TEST_P(AsyncErrorModelTest, FaultingKernelPoisonsOnlyWhatItMayWrite) {
  Mem input = intBuffer(4), faultOut = intBuffer(0), next = intBuffer(0), independentOut = intBuffer(0);
  Kernel bad = kernel(program_, "bad_pointer");
  setArgs(bad, faultOut.get(), kBadAddress);
  Event fault;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, bad, 1, nullptr, &kCount, nullptr, 0, nullptr, fault.out()));
  Event reader = addOne(faultOut, next, {fault.get()});
  Event independent = addOne(input, independentOut);
  ASSERT_CL(clFinish(queue_));
  if (eventStatus(fault) == CL_COMPLETE)
    GTEST_SKIP() << "this device does not detect the wild write (no fault, nothing failed)";

  EXPECT_EQ(eventStatus(fault), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(eventStatus(reader), CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  EXPECT_EQ(eventStatus(independent), CL_COMPLETE);
  EXPECT_EQ(read<int>(independentOut, kCount), std::vector<int>(kCount, 5));
  auto [failed, error] = checkEvent(reader);
  EXPECT_EQ(failed.get(), fault.get());
  EXPECT_EQ(error, CL_OUT_OF_RESOURCES);
  // Without a wait list the command using poisoned memory is itself the failure.
  std::vector<int> values;
  Event readNext = readInto(next, values);
  auto [self, selfError] = checkEvent(readNext);
  EXPECT_EQ(self.get(), readNext.get());
  EXPECT_EQ(selfError, CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX);
  // The input only read is healthy.
  EXPECT_EQ(read<int>(input, 1)[0], 4);
}

CLTEST_INSTANTIATE(AsyncErrorModelTest);

// Poison belongs to the buffer, not to a device's copy of it: in a context
// of two devices, what a failed command on one device's queue may write
// fails the other device's commands too, until a whole write there clears
// it; dependencies across the two queues carry failures as on one.
TEST(AsyncErrorModelMultiDevice, PoisonIsSharedByTheDevicesOfAContext) {
  const std::vector<cl_device_id> &devices = devicesUnderTest();
  if (devices.size() < 2)
    GTEST_SKIP() << "needs two devices";
  for (cl_device_id device : {devices[0], devices[1]})
    if (!deviceHasExtension(device, CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME))
      GTEST_SKIP() << "a device does not report " CL_POLYMUX_ASYNC_ERROR_MODEL_EXTENSION_NAME;
  auto check = extensionFunction<clCheckEventExecutionPOLYMUX_fn>("clCheckEventExecutionPOLYMUX");
  ASSERT_NE(check, nullptr);
  cl_context_properties properties[] = {CL_CONTEXT_ERROR_MODEL_POLYMUX, CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX, 0};
  cl_int err = CL_SUCCESS;
  Context context(clCreateContext(properties, 2, devices.data(), nullptr, nullptr, &err));
  ASSERT_CL(err);
  Queue first(clCreateCommandQueueWithProperties(context, devices[0], nullptr, &err));
  ASSERT_CL(err);
  Queue second(clCreateCommandQueueWithProperties(context, devices[1], nullptr, &err));
  ASSERT_CL(err);
  const char *source = kSource;
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  ASSERT_CL(err);
  if (clBuildProgram(program, 2, devices.data(), "", nullptr, nullptr) != CL_SUCCESS)
    GTEST_SKIP() << "a device cannot build the kernels";
  Kernel addOne(clCreateKernel(program, "add_one", &err));
  ASSERT_CL(err);
  std::vector<int> values(kCount, 5);
  Mem in(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCount * sizeof(int), values.data(), &err));
  ASSERT_CL(err);
  Mem out(clCreateBuffer(context, CL_MEM_READ_WRITE, kCount * sizeof(int), nullptr, &err));
  ASSERT_CL(err);
  cl_mem args[] = {in.get(), out.get()};
  ASSERT_CL(clSetKernelArg(addOne, 0, sizeof(cl_mem), &args[0]));
  ASSERT_CL(clSetKernelArg(addOne, 1, sizeof(cl_mem), &args[1]));

  // The first device's command fails through its wait list: `out` (and `in`,
  // passed with plain clSetKernelArg) are poisoned for both devices.
  Event gate(clCreateUserEvent(context, &err));
  ASSERT_CL(err);
  Event failed;
  ASSERT_CL(clEnqueueNDRangeKernel(first, addOne, 1, nullptr, &kCount, nullptr, 1, gate.ptr(), failed.out()));
  ASSERT_CL(clSetUserEventStatus(gate, -3));
  ASSERT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, failed.ptr()));
  std::vector<int> seen(kCount, -1);
  EXPECT_CL_ERR(CL_ERROR_ACCESS_BAD_MEMORY_POLYMUX,
                clEnqueueReadBuffer(second, out, CL_TRUE, 0, kCount * sizeof(int), seen.data(), 0, nullptr, nullptr));
  EXPECT_EQ(seen, std::vector<int>(kCount, -1)) << "a failed read must not transfer anything";

  // A command on the second device waiting for the first's failure fails,
  // and the check finds the user event at the top of the chain.
  Event dependent;
  ASSERT_CL(clEnqueueMarkerWithWaitList(second, 1, failed.ptr(), dependent.out()));
  Event farthest;
  cl_int error = 0;
  ASSERT_CL(check(dependent, farthest.out(), &error));
  EXPECT_EQ(farthest.get(), gate.get());
  EXPECT_EQ(error, -3);

  // Whole writes on the second device clear both buffers; the first device
  // then runs the kernel on what the second wrote.
  ASSERT_CL(clEnqueueWriteBuffer(second, in, CL_TRUE, 0, kCount * sizeof(int), values.data(), 0, nullptr, nullptr));
  int zero = 0;
  Event cleared;
  ASSERT_CL(clEnqueueFillBuffer(second, out, &zero, sizeof zero, 0, kCount * sizeof(int), 0, nullptr, cleared.out()));
  Event ran;
  ASSERT_CL(clEnqueueNDRangeKernel(first, addOne, 1, nullptr, &kCount, nullptr, 1, cleared.ptr(), ran.out()));
  ASSERT_CL(clEnqueueReadBuffer(second, out, CL_TRUE, 0, kCount * sizeof(int), seen.data(), 1, ran.ptr(), nullptr));
  EXPECT_EQ(seen, std::vector<int>(kCount, 6));
}

} // namespace
