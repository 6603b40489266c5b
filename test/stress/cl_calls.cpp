#include "cl_calls.h"

#include "cl_error_name.h"
#include "cl_platform.h"

namespace stress {

ApiError::ApiError(const std::string &what, cl_int code)
    : std::runtime_error(what + ": " + cltest::errorName(code)), code(code) {}

void ok(cl_int err, const char *what) {
  if (err != CL_SUCCESS)
    throw ApiError(what, err);
}

cl_int eventStatus(cl_event event) {
  cl_int status = 0;
  ok(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
     "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
  return status;
}

Kernel createKernel(cl_program program, const char *name) {
  cl_int err = CL_SUCCESS;
  Kernel kernel(clCreateKernel(program, name, &err));
  ok(err, "clCreateKernel");
  return kernel;
}

void enqueueKernel(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local,
                   std::initializer_list<cl_event> waits, cl_event *event) {
  ok(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, local ? &local : nullptr,
                            static_cast<cl_uint>(waits.size()), waits.size() ? waits.begin() : nullptr, event),
     "clEnqueueNDRangeKernel");
}

Mem createBuffer(cl_context context, cl_mem_flags flags, size_t bytes, void *host) {
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateBuffer(context, flags, bytes, host, &err));
  ok(err, "clCreateBuffer");
  return mem;
}

std::vector<uint32_t> readBack(cl_command_queue queue, cl_mem mem, size_t count, cl_event after) {
  std::vector<uint32_t> values(count);
  ok(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(uint32_t), values.data(), after ? 1 : 0,
                         after ? &after : nullptr, nullptr),
     "clEnqueueReadBuffer");
  return values;
}

namespace {
template <class T> T deviceValue(cl_device_id device, cl_device_info param) {
  T value{};
  ok(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}
} // namespace

DeviceFacts DeviceFacts::of(cl_device_id device) {
  DeviceFacts facts;
  facts.id = device;
  facts.name = cltest::deviceString(device, CL_DEVICE_NAME);
  facts.localMemSize = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  facts.baseAddressAlignBytes = deviceValue<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  facts.maxWorkGroupSize = deviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  facts.outOfOrder = (deviceValue<cl_command_queue_properties>(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
                      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  facts.images = deviceValue<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT) != CL_FALSE;
  facts.compiler = deviceValue<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE) != CL_FALSE;
  return facts;
}

} // namespace stress
