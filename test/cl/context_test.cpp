// Contexts: creation (by device list and by type), properties, info,
// reference counts, destructor callbacks, errors.
#include "cl_test.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace cltest;

namespace {

class ContextTest : public DeviceTest {};

template <typename T> T contextInfo(cl_context context, cl_context_info param) {
  T value{};
  EXPECT_CL(clGetContextInfo(context, param, sizeof(T), &value, nullptr));
  return value;
}

struct CallbackLog {
  std::mutex mutex;
  std::vector<int> order;
};
struct CallbackTag {
  CallbackLog *log;
  int id;
};

void CL_CALLBACK recordContextDestruction(cl_context, void *userData) {
  auto *tag = static_cast<CallbackTag *>(userData);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
}

size_t logSize(CallbackLog &log) {
  std::lock_guard lock(log.mutex);
  return log.order.size();
}

} // namespace

TEST_P(ContextTest, CreateWithPropertiesAndQuery) {
  cl_device_id dev = device();
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platformUnderTest()),
                                   0};
  cl_int err = CL_SUCCESS;
  Context ctx(clCreateContext(props, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(contextInfo<cl_uint>(ctx, CL_CONTEXT_NUM_DEVICES), 1u);
  EXPECT_EQ(contextInfo<cl_device_id>(ctx, CL_CONTEXT_DEVICES), dev);
  EXPECT_EQ(contextInfo<cl_uint>(ctx, CL_CONTEXT_REFERENCE_COUNT), 1u);
  size_t size = 0;
  ASSERT_CL(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, nullptr, &size));
  ASSERT_EQ(size, sizeof(props));
  cl_context_properties returned[3] = {};
  ASSERT_CL(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, size, returned, nullptr));
  EXPECT_EQ(returned[0], props[0]);
  EXPECT_EQ(returned[1], props[1]);
  EXPECT_EQ(returned[2], 0);
}

TEST_P(ContextTest, NullPropertiesReportNothing) {
  size_t size = 123;
  ASSERT_CL(clGetContextInfo(context_, CL_CONTEXT_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);
}

TEST_P(ContextTest, InfoErrors) {
  cl_uint value = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetContextInfo(context_, 0x7fff, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetContextInfo(context_, CL_CONTEXT_NUM_DEVICES, 1, &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clRetainContext(nullptr));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clReleaseContext(nullptr));
}

TEST_P(ContextTest, CreateFromType) {
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platformUnderTest()),
                                   0};
  cl_int err = CL_SUCCESS;
  Context all(clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err));
  ASSERT_CL(err);
  cl_uint count = contextInfo<cl_uint>(all, CL_CONTEXT_NUM_DEVICES);
  EXPECT_EQ(count, devicesUnderTest().size());
  std::vector<cl_device_id> devices(count);
  ASSERT_CL(clGetContextInfo(all, CL_CONTEXT_DEVICES, count * sizeof(cl_device_id), devices.data(), nullptr));
  EXPECT_EQ(devices, devicesUnderTest());

  cl_device_type type = deviceInfo<cl_device_type>(device(), CL_DEVICE_TYPE);
  Context typed(clCreateContextFromType(props, type, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_GE(contextInfo<cl_uint>(typed, CL_CONTEXT_NUM_DEVICES), 1u);

  Context byDefault(clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(contextInfo<cl_uint>(byDefault, CL_CONTEXT_NUM_DEVICES), 1u);

  Context invalid(clCreateContextFromType(props, 0, nullptr, nullptr, &err));
  expectNoHandle(invalid);
  EXPECT_CL_ERR(CL_INVALID_DEVICE_TYPE, err);
  for (cl_device_type absent :
       {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
    cl_uint n = 0;
    if (clGetDeviceIDs(platformUnderTest(), absent, 0, nullptr, &n) != CL_DEVICE_NOT_FOUND)
      continue;
    Context none(clCreateContextFromType(props, absent, nullptr, nullptr, &err));
    expectNoHandle(none);
    EXPECT_CL_ERR(CL_DEVICE_NOT_FOUND, err) << "type " << absent;
  }
}

TEST_P(ContextTest, CreateErrors) {
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 0, &dev, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  int userData = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, &dev, nullptr, &userData, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "user_data without pfn_notify";
  cl_device_id nullDevice = nullptr;
  EXPECT_EQ(clCreateContext(nullptr, 1, &nullDevice, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_DEVICE, err);

  auto platform = reinterpret_cast<cl_context_properties>(platformUnderTest());
  cl_context_properties unknown[] = {0x7fff, 1, 0};
  EXPECT_EQ(clCreateContext(unknown, 1, &dev, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_PROPERTY, err);
  cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, platform, CL_CONTEXT_PLATFORM, platform, 0};
  EXPECT_EQ(clCreateContext(twice, 1, &dev, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_PROPERTY, err);
}

TEST_P(ContextTest, ReferenceCount) {
  cl_uint base = contextInfo<cl_uint>(context_, CL_CONTEXT_REFERENCE_COUNT);
  ASSERT_CL(clRetainContext(context_));
  EXPECT_EQ(contextInfo<cl_uint>(context_, CL_CONTEXT_REFERENCE_COUNT), base + 1);
  ASSERT_CL(clRetainContext(context_));
  EXPECT_EQ(contextInfo<cl_uint>(context_, CL_CONTEXT_REFERENCE_COUNT), base + 2);
  ASSERT_CL(clReleaseContext(context_));
  ASSERT_CL(clReleaseContext(context_));
  EXPECT_EQ(contextInfo<cl_uint>(context_, CL_CONTEXT_REFERENCE_COUNT), base);
}

TEST_P(ContextTest, DestructorCallbacksRunInReverseOrderAfterChildren) {
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  ASSERT_CL(err);
  CallbackLog log;
  CallbackTag first{&log, 1}, second{&log, 2}, third{&log, 3};
  ASSERT_CL(clSetContextDestructorCallback(ctx, recordContextDestruction, &first));
  ASSERT_CL(clSetContextDestructorCallback(ctx, recordContextDestruction, &second));
  ASSERT_CL(clSetContextDestructorCallback(ctx, recordContextDestruction, &third));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetContextDestructorCallback(ctx, nullptr, nullptr));

  // A buffer keeps its context alive after the application's last release.
  cl_mem mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clReleaseContext(ctx));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(logSize(log), 0u) << "context destroyed while a buffer still uses it";
  ASSERT_CL(clReleaseMemObject(mem));
  ASSERT_TRUE(waitUntil([&] { return logSize(log) == 3; })) << "destructor callbacks not called";
  std::lock_guard lock(log.mutex);
  EXPECT_EQ(log.order, (std::vector<int>{3, 2, 1}));
}

CLTEST_INSTANTIATE(ContextTest);
