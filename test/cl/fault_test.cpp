// Kernel faults fail the command, not the process: a kernel that writes
// through a bad pointer ends its event with a negative status, the context's pfn_notify hears why (on Polymux:
// which kernel, and what fault), and the same queue, other queues and
// clFinish keep working. Integer division by zero is not a fault in
// OpenCL C (an unspecified value), and does not trap.
#include "cl_test.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <mutex>

using namespace cltest;

namespace {

constexpr const char *kSource = R"(
// Every work-item writes its slot; the ones selected by `every` also store
// through `address`, which the host makes invalid.
kernel void bad_pointer(global int *out, ulong address, uint every) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i % every == every - 1)
    *(global volatile int *)address = 42;
}

kernel void divide(global const int *a, global const int *b, global int *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];
}

kernel void twice_plus_one(global int *data) {
  size_t i = get_global_id(0);
  data[i] = data[i] * 2 + 1;
}
)";

// An address no process maps: the first page.
constexpr cl_ulong kBadAddress = 0x10;

class FaultTest : public DeviceTest {
protected:
  void SetUp() override {
    // A context of our own, with the notification callback.
    cl_device_id dev = device();
    cl_int err = CL_SUCCESS;
    context_.reset(clCreateContext(nullptr, 1, &dev, &FaultTest::onNotify, this, &err));
    ASSERT_CL(err);
    queue_.reset(clCreateCommandQueueWithProperties(context_, dev, nullptr, &err));
    ASSERT_CL(err);
    program_ = build(kSource);
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    // Nothing may call back into this object once it is gone.
    if (queue_)
      clFinish(queue_);
    queue_.reset();
    program_.reset();
    context_.reset();
  }

  static void CL_CALLBACK onNotify(const char *message, const void *, size_t, void *userData) {
    auto *self = static_cast<FaultTest *>(userData);
    std::lock_guard lock(self->mutex_);
    self->messages_.emplace_back(message ? message : "");
  }
  std::vector<std::string> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }

  // Enqueues bad_pointer over `global` items, faulting in every `every`-th.
  Event enqueueBadPointer(cl_command_queue queue, cl_mem out, size_t global, cl_uint every) {
    Kernel k = kernel(program_, "bad_pointer");
    setArgs(k, out, kBadAddress, every);
    Event event;
    EXPECT_CL(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, event.out()));
    return event;
  }

  // Runs twice_plus_one on `queue` and checks its result.
  void expectGoodKernelWorks(cl_command_queue queue) {
    constexpr size_t n = 1000;
    std::vector<int> values(n);
    for (size_t i = 0; i < n; ++i)
      values[i] = static_cast<int>(i) - 300;
    Mem data = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(int), values.data());
    Kernel k = kernel(program_, "twice_plus_one");
    ASSERT_CL(setArg(k, 0, data.get()));
    Event event;
    ASSERT_CL(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, event.out()));
    std::vector<int> result(n);
    ASSERT_CL(clEnqueueReadBuffer(queue, data, CL_TRUE, 0, n * sizeof(int), result.data(), 0, nullptr, nullptr));
    EXPECT_EQ(eventStatus(event), CL_COMPLETE);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(result[i], values[i] * 2 + 1) << i;
    EXPECT_CL(clFinish(queue));
  }

  // The event failed with a negative status, waiting on it says so, and the
  // context was told why: a message mentioning a fault and, on Polymux, one
  // that names the kernel and contains every one of `reasons`.
  void expectFailed(cl_event event, const std::string &kernelName = {}, std::vector<std::string> reasons = {}) {
    EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &event));
    EXPECT_LT(eventStatus(event), 0) << "execution status of the faulting command";
    ASSERT_TRUE(waitUntil([&] { return !messages().empty(); })) << "pfn_notify was not called";
    bool explained = false;
    for (std::string message : messages()) {
      std::transform(message.begin(), message.end(), message.begin(), [](unsigned char c) { return std::tolower(c); });
      explained |= message.find("fault") != std::string::npos;
    }
    EXPECT_TRUE(explained) << "no pfn_notify message says the kernel faulted; first message: " << messages().front();
    if (kernelName.empty() || platformNameUnderTest() != "Polymux")
      return; // other implementations word it their own way
    reasons.push_back("kernel '" + kernelName + "' faulted on device '" + deviceString(device(), CL_DEVICE_NAME) +
                      "': ");
    bool detailed = false;
    for (const std::string &message : messages()) {
      bool all = message.starts_with("Polymux: ");
      for (const std::string &reason : reasons)
        all &= message.find(reason) != std::string::npos;
      detailed |= all;
    }
    EXPECT_TRUE(detailed) << "no pfn_notify message names kernel '" << kernelName
                          << "' and says why; first message: " << messages().front();
  }

  Program program_;
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

} // namespace

TEST_P(FaultTest, BadPointerFailsTheEvent) {
  Queue other = makeQueue(0);
  ASSERT_TRUE(other);
  constexpr size_t n = 64;
  Mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  Event event = enqueueBadPointer(queue_, out, n, 16);
  ASSERT_TRUE(event);
  expectFailed(event, "bad_pointer", {"address 0x10"});
  // clFinish returns; the queue and another queue of the context still work.
  EXPECT_CL(clFinish(queue_));
  expectGoodKernelWorks(queue_);
  expectGoodKernelWorks(other);
}

TEST_P(FaultTest, IntegerDivisionByZeroAndOverflowDoNotTrap) {
  // OpenCL C: "a divide by zero with integer types does not cause an
  // exception but will result in an unspecified value", and the same for a
  // signed division that overflows. CPUs trap on both; the compiler must
  // not let them.
  constexpr size_t n = 256;
  std::vector<int> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int>(i) * 7 - 100;
    b[i] = static_cast<int>(i % 9) - 4 == 0 ? 3 : static_cast<int>(i % 9) - 4;
  }
  b[n / 2] = 0;
  a[n / 4] = std::numeric_limits<int>::min();
  b[n / 4] = -1;
  Mem ma = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), a.data());
  Mem mb = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), b.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  Kernel k = kernel(program_, "divide");
  setArgs(k, ma.get(), mb.get(), out.get());
  Event event;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, event.out()));
  auto result = read<int>(out, n);
  EXPECT_EQ(eventStatus(event), CL_COMPLETE);
  EXPECT_TRUE(messages().empty()) << messages().front();
  for (size_t i = 0; i < n; ++i)
    if (i != n / 2 && i != n / 4) // those two values are unspecified
      ASSERT_EQ(result[i], a[i] / b[i]) << i;
}

TEST_P(FaultTest, EveryWorkItemFaults) {
  // Many work-groups fault at once (on every worker thread of a CPU).
  constexpr size_t n = 1 << 16;
  Mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  Event event = enqueueBadPointer(queue_, out, n, 1);
  ASSERT_TRUE(event);
  expectFailed(event, "bad_pointer", {"address 0x10"});
  EXPECT_CL(clFinish(queue_));
  expectGoodKernelWorks(queue_);
}

TEST_P(FaultTest, FaultOfAKernelWithoutEventIsReported) {
  // No event observes the command; the context still hears about the fault.
  constexpr size_t n = 64;
  Mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  Kernel k = kernel(program_, "bad_pointer");
  setArgs(k, out, kBadAddress, cl_uint(8));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  ASSERT_TRUE(waitUntil([&] { return !messages().empty(); })) << "pfn_notify was not called";
  if (platformNameUnderTest() == "Polymux")
    EXPECT_NE(messages().front().find("kernel 'bad_pointer' faulted"), std::string::npos) << messages().front();
  expectGoodKernelWorks(queue_);
  EXPECT_EQ(messages().size(), 1u) << "the good kernel is not reported";
}

TEST_P(FaultTest, RepeatedFaultsAndCallbacks) {
  // Several faulting commands in a row, each with its own callback; the
  // queue keeps going between and after them.
  struct Seen {
    std::mutex mutex;
    std::vector<cl_int> statuses;
  } seen;
  auto onComplete = [](cl_event, cl_int status, void *userData) {
    auto *s = static_cast<Seen *>(userData);
    std::lock_guard lock(s->mutex);
    s->statuses.push_back(status);
  };
  constexpr size_t n = 128;
  Mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
  std::vector<Event> events;
  for (int i = 0; i < 3; ++i) {
    events.push_back(enqueueBadPointer(queue_, out, n, 32));
    ASSERT_TRUE(events.back());
    ASSERT_CL(clSetEventCallback(events.back(), CL_COMPLETE, onComplete, &seen));
  }
  ASSERT_CL(clFinish(queue_));
  for (const Event &event : events)
    EXPECT_LT(eventStatus(event), 0);
  ASSERT_TRUE(waitUntil([&] {
    std::lock_guard lock(seen.mutex);
    return seen.statuses.size() == 3;
  })) << "every event callback runs";
  {
    std::lock_guard lock(seen.mutex);
    for (cl_int status : seen.statuses)
      EXPECT_LT(status, 0) << "callbacks get the negative execution status";
  }
  EXPECT_GE(messages().size(), 3u) << "one notification per failed command";
  expectGoodKernelWorks(queue_);
}

TEST_P(FaultTest, StackExhaustionDoesNotKillTheProcess) {
  // 64 MiB of private memory per work-item: more than any work-item stack.
  // The device may refuse the build or the enqueue, or fail the command;
  // whichever it does, the process and the queue survive.
  constexpr const char *hog = R"(
kernel void hog(global int *out, int n) {
  volatile int big[16 * 1024 * 1024];
  for (int i = 0; i < n; ++i)
    big[i] = i;
  out[get_global_id(0)] = big[n - 1];
}
)";
  const char *text = hog;
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  err = clBuildProgram(program, 1, &dev, nullptr, nullptr, nullptr);
  if (err == CL_SUCCESS) {
    Kernel k = kernel(program, "hog");
    constexpr size_t n = 4;
    Mem out = buffer(CL_MEM_READ_WRITE, n * sizeof(int));
    setArgs(k, out.get(), cl_int(16 * 1024 * 1024));
    Event event;
    err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, event.out());
    if (err == CL_SUCCESS) {
      cl_int wait = clWaitForEvents(1, event.ptr());
      if (eventStatus(event) == CL_COMPLETE) {
        RecordProperty("outcome", "ran");
        EXPECT_CL(wait);
        EXPECT_EQ(read<int>(out, n), std::vector<int>(n, 16 * 1024 * 1024 - 1));
      } else {
        RecordProperty("outcome", "command failed");
        EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, wait);
        EXPECT_LT(eventStatus(event), 0);
        ASSERT_TRUE(waitUntil([&] { return !messages().empty(); })) << "pfn_notify was not called";
        if (platformNameUnderTest() == "Polymux")
          EXPECT_NE(messages().front().find("kernel 'hog' faulted on device '" +
                                            deviceString(device(), CL_DEVICE_NAME) + "': stack overflow"),
                    std::string::npos)
              << messages().front();
      }
    } else {
      RecordProperty("outcome", "enqueue refused");
      EXPECT_CL_ERR(CL_OUT_OF_RESOURCES, err);
    }
  } else {
    RecordProperty("outcome", "build refused");
    EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, err);
  }
  EXPECT_CL(clFinish(queue_));
  expectGoodKernelWorks(queue_);
}

CLTEST_INSTANTIATE(FaultTest);
