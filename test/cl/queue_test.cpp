// Command queues: properties arrays, info queries, in-order and
// out-of-order creation, errors.
#include "cl_test.h"

using namespace cltest;

namespace {

class QueueTest : public DeviceTest {};

template <typename T> T queueInfo(cl_command_queue queue, cl_command_queue_info param) {
  T value{};
  EXPECT_CL(clGetCommandQueueInfo(queue, param, sizeof(T), &value, nullptr));
  return value;
}

} // namespace

TEST_P(QueueTest, DefaultQueueInfo) {
  EXPECT_EQ(queueInfo<cl_context>(queue_, CL_QUEUE_CONTEXT), context_.get());
  EXPECT_EQ(queueInfo<cl_device_id>(queue_, CL_QUEUE_DEVICE), device());
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(queue_, CL_QUEUE_PROPERTIES), 0u);
  EXPECT_EQ(queueInfo<cl_uint>(queue_, CL_QUEUE_REFERENCE_COUNT), 1u);
  size_t size = 123;
  ASSERT_CL(clGetCommandQueueInfo(queue_, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size));
  EXPECT_EQ(size, 0u) << "created with NULL properties";
  cl_uint value = 0;
  // CL_QUEUE_SIZE is only valid for device queues.
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clGetCommandQueueInfo(queue_, CL_QUEUE_SIZE, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue_, 0x7fff, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(queue_, CL_QUEUE_REFERENCE_COUNT, 1, &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE,
                clGetCommandQueueInfo(nullptr, CL_QUEUE_REFERENCE_COUNT, sizeof(value), &value, nullptr));
}

TEST_P(QueueTest, PropertiesArrayRoundTrip) {
  cl_command_queue_properties supported =
      deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  for (cl_command_queue_properties wanted :
       {cl_command_queue_properties(0), cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE),
        cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
        cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)}) {
    SCOPED_TRACE(wanted);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, wanted, 0};
    cl_int err = CL_SUCCESS;
    Queue queue(clCreateCommandQueueWithProperties(context_, device(), props, &err));
    if ((wanted & supported) != wanted) {
      EXPECT_CL_ERR(CL_INVALID_QUEUE_PROPERTIES, err);
      expectNoHandle(queue);
      continue;
    }
    ASSERT_CL(err);
    EXPECT_EQ(queueInfo<cl_command_queue_properties>(queue, CL_QUEUE_PROPERTIES), wanted);
    size_t size = 0;
    ASSERT_CL(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size));
    ASSERT_EQ(size, sizeof(props));
    cl_queue_properties returned[3] = {1, 1, 1};
    ASSERT_CL(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES_ARRAY, size, returned, nullptr));
    EXPECT_EQ(returned[0], props[0]);
    EXPECT_EQ(returned[1], props[1]);
    EXPECT_EQ(returned[2], 0u);
    ASSERT_CL(clFinish(queue));
  }
}

TEST_P(QueueTest, DeprecatedCreateCommandQueue) {
  cl_int err = CL_SUCCESS;
  Queue queue(clCreateCommandQueue(context_, device(), CL_QUEUE_PROFILING_ENABLE, &err));
  ASSERT_CL(err);
  EXPECT_EQ(queueInfo<cl_command_queue_properties>(queue, CL_QUEUE_PROPERTIES),
            cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
}

TEST_P(QueueTest, ReferenceCount) {
  ASSERT_CL(clRetainCommandQueue(queue_));
  EXPECT_EQ(queueInfo<cl_uint>(queue_, CL_QUEUE_REFERENCE_COUNT), 2u);
  ASSERT_CL(clReleaseCommandQueue(queue_));
  EXPECT_EQ(queueInfo<cl_uint>(queue_, CL_QUEUE_REFERENCE_COUNT), 1u);
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue(nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clFlush(nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr));
}

TEST_P(QueueTest, CreateErrors) {
  cl_int err = CL_SUCCESS;
  Queue q1(clCreateCommandQueueWithProperties(nullptr, device(), nullptr, &err));
  expectNoHandle(q1);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);
  Queue q2(clCreateCommandQueueWithProperties(context_, nullptr, nullptr, &err));
  expectNoHandle(q2);
  EXPECT_CL_ERR(CL_INVALID_DEVICE, err);
  cl_queue_properties unknownName[] = {0x7fff, 0, 0};
  Queue q3(clCreateCommandQueueWithProperties(context_, device(), unknownName, &err));
  expectNoHandle(q3);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  cl_queue_properties badBits[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40, 0};
  Queue q4(clCreateCommandQueueWithProperties(context_, device(), badBits, &err));
  expectNoHandle(q4);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
}

TEST_P(QueueTest, OnDeviceQueueWithoutSupportIsRejected) {
  if (deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) != 0)
    GTEST_SKIP() << "device supports on-device queues";
  cl_int err = CL_SUCCESS;
  cl_queue_properties onDevice[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    0};
  Queue queue(clCreateCommandQueueWithProperties(context_, device(), onDevice, &err));
  expectNoHandle(queue);
  EXPECT_TRUE(err == CL_INVALID_QUEUE_PROPERTIES || err == CL_INVALID_VALUE) << errorName(err);
  // CL_QUEUE_ON_DEVICE requires out-of-order mode.
  cl_queue_properties onDeviceInOrder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
  Queue inOrder(clCreateCommandQueueWithProperties(context_, device(), onDeviceInOrder, &err));
  expectNoHandle(inOrder);
  EXPECT_TRUE(err == CL_INVALID_QUEUE_PROPERTIES || err == CL_INVALID_VALUE) << errorName(err);
}

TEST_P(QueueTest, FlushAndFinishOnEmptyQueue) {
  EXPECT_CL(clFlush(queue_));
  EXPECT_CL(clFinish(queue_));
  EXPECT_CL(clFinish(queue_));
}

CLTEST_INSTANTIATE(QueueTest);
