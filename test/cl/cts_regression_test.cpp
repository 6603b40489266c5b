// Regressions found by the Khronos CTS: object lifetimes across kernel
// arguments and in-flight commands (test_api retain_mem_object_set_kernel_arg,
// test_compiler rebuilds), error codes of the optional-feature consistency
// checks (test_api consistency_*), and linking objects and libraries
// re-created from their binaries (test_compiler execute_after_serialize_*).
#include "cl_test.h"

#include <atomic>

using namespace cltest;

namespace {

constexpr const char *kStoreValue = "kernel void store(global int *p) { *p = VALUE; }";

class CtsRegressionTest : public DeviceTest {
protected:
  Program fromSource(const char *text) {
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
    EXPECT_CL(err);
    return program;
  }
  std::vector<unsigned char> binaryOf(cl_program program) {
    size_t size = 0;
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
    std::vector<unsigned char> binary(size);
    unsigned char *binaries[] = {binary.data()};
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));
    return binary;
  }
  Program fromBinary(const std::vector<unsigned char> &binary) {
    cl_device_id dev = device();
    const unsigned char *input[] = {binary.data()};
    size_t size = binary.size();
    cl_int status = -1, err = CL_SUCCESS;
    Program program(clCreateProgramWithBinary(context_, 1, &dev, &size, input, &status, &err));
    EXPECT_CL(err);
    EXPECT_CL(status);
    return program;
  }
  cl_program_binary_type binaryType(cl_program program) {
    cl_program_binary_type type = 0;
    EXPECT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BINARY_TYPE, sizeof(type), &type, nullptr));
    return type;
  }
  // Runs `store` from `program` and returns the value it wrote.
  int runStore(cl_program program) {
    Kernel k = kernel(program, "store");
    Mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
    EXPECT_CL(setArg(k, 0, out.get()));
    size_t global = 1;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    return read<int>(out, 1)[0];
  }
};

void CL_CALLBACK countDestruction(cl_mem, void *userData) { static_cast<std::atomic<int> *>(userData)->fetch_add(1); }

} // namespace

// clSetKernelArg must not keep the memory object alive: releasing it right
// after runs its destructor callback.
TEST_P(CtsRegressionTest, SetKernelArgDoesNotRetainMemObject) {
  Program program = build(kStoreValue, "-DVALUE=7");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "store");
  std::atomic<int> destroyed{0};
  cl_int err = CL_SUCCESS;
  cl_mem released = clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(int), nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetMemObjectDestructorCallback(released, countDestruction, &destroyed));
  ASSERT_CL(setArg(k, 0, released));
  cl_uint refCount = 0;
  ASSERT_CL(clGetMemObjectInfo(released, CL_MEM_REFERENCE_COUNT, sizeof(refCount), &refCount, nullptr));
  EXPECT_EQ(refCount, 1u);
  ASSERT_CL(clReleaseMemObject(released));
  EXPECT_TRUE(waitUntil([&] { return destroyed.load() == 1; })) << "the kernel argument kept the buffer alive";

  // The kernel still runs with a new argument.
  Mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
  ASSERT_CL(setArg(k, 0, out.get()));
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(out, 1)[0], 7);
}

// A launch does keep its buffers alive until it completes, even when the
// application releases them right after the enqueue.
TEST_P(CtsRegressionTest, LaunchKeepsReleasedArgumentAlive) {
  Program program = build(kStoreValue, "-DVALUE=11");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "store");
  std::atomic<int> destroyed{0};
  cl_int err = CL_SUCCESS;
  cl_mem target = clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(int), nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetMemObjectDestructorCallback(target, countDestruction, &destroyed));
  ASSERT_CL(setArg(k, 0, target));
  Event userEvent(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 1, userEvent.ptr(), nullptr));
  ASSERT_CL(clReleaseMemObject(target));
  EXPECT_EQ(destroyed.load(), 0) << "the pending launch must keep its buffer";
  ASSERT_CL(clSetUserEventStatus(userEvent, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_TRUE(waitUntil([&] { return destroyed.load() == 1; }));
}

// Rebuilding is refused only while the application holds a kernel of the
// program; a kernel it released may still be held by a command in flight.
TEST_P(CtsRegressionTest, RebuildAfterKernelsReleased) {
  Program program = fromSource(kStoreValue);
  ASSERT_TRUE(program);
  cl_device_id dev = device();
  ASSERT_CL(clBuildProgram(program, 1, &dev, "-DVALUE=1", nullptr, nullptr));
  EXPECT_EQ(runStore(program), 1);

  Kernel held = kernel(program, "store");
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clBuildProgram(program, 1, &dev, "-DVALUE=2", nullptr, nullptr));
  // Also with an extra application reference, released again.
  ASSERT_CL(clRetainKernel(held));
  ASSERT_CL(clReleaseKernel(held));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clBuildProgram(program, 1, &dev, "-DVALUE=2", nullptr, nullptr));

  // A launch still pending (held back by a user event) when the application
  // releases the kernel and rebuilds the program.
  cl_int err = CL_SUCCESS;
  Event userEvent(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Mem first = buffer(CL_MEM_READ_WRITE, sizeof(int));
  ASSERT_CL(setArg(held, 0, first.get()));
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, held, 1, nullptr, &global, nullptr, 1, userEvent.ptr(), nullptr));
  held.reset();
  EXPECT_CL(clBuildProgram(program, 1, &dev, "-DVALUE=3", nullptr, nullptr));
  ASSERT_CL(clSetUserEventStatus(userEvent, CL_COMPLETE));
  EXPECT_EQ(read<int>(first, 1)[0], 1) << "the pending launch runs the kernel it was enqueued with";
  EXPECT_EQ(runStore(program), 3);
}

// test_api consistency_svm / consistency_pipes / consistency_subgroups.
TEST_P(CtsRegressionTest, OptionalFeatureErrorCodes) {
  Program program = build(kStoreValue, "-DVALUE=0");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "store");
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
  if (deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES) == 0) {
    EXPECT_CL_ERR(CL_INVALID_OPERATION, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
    cl_bool fineGrain = CL_TRUE;
    EXPECT_CL_ERR(CL_INVALID_OPERATION,
                  clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(fineGrain), &fineGrain));
  }

  Mem notAPipe = buffer(CL_MEM_READ_WRITE, 4);
  cl_uint packetSize = 0;
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clGetPipeInfo(notAPipe, CL_PIPE_PACKET_SIZE, sizeof(packetSize), &packetSize, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clGetPipeInfo(nullptr, CL_PIPE_PACKET_SIZE, sizeof(packetSize), &packetSize, nullptr));

  const cl_uint maxSubGroups = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_NUM_SUB_GROUPS);
  size_t value = SIZE_MAX;
  cl_int code =
      clGetKernelSubGroupInfo(k, device(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof(value), &value, nullptr);
  if (maxSubGroups == 0) {
    EXPECT_CL_ERR(CL_INVALID_OPERATION, code);
    EXPECT_FALSE(deviceHasExtension(device(), "cl_khr_subgroups"));
    EXPECT_EQ(deviceInfo<cl_bool>(device(), CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), CL_FALSE);
  } else {
    EXPECT_CL(code);
  }
}

// clLinkProgram takes a compiled object re-created from its binary.
TEST_P(CtsRegressionTest, LinkObjectReloadedFromBinary) {
  Program compiled = fromSource(kStoreValue);
  ASSERT_TRUE(compiled);
  cl_device_id dev = device();
  ASSERT_CL(clCompileProgram(compiled, 1, &dev, "-DVALUE=21", 0, nullptr, nullptr, nullptr, nullptr));
  Program reloaded = fromBinary(binaryOf(compiled));
  ASSERT_TRUE(reloaded);
  EXPECT_EQ(binaryType(reloaded), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

  cl_int err = CL_SUCCESS;
  cl_program input = reloaded;
  Program linked(clLinkProgram(context_, 1, &dev, nullptr, 1, &input, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(binaryType(linked), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  EXPECT_EQ(runStore(linked), 21);

  // A library made from the reloaded object, itself reloaded, links with a
  // freshly compiled object.
  Program library(clLinkProgram(context_, 1, &dev, "-create-library", 1, &input, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(binaryType(library), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  Program reloadedLibrary = fromBinary(binaryOf(library));
  ASSERT_TRUE(reloadedLibrary);
  EXPECT_EQ(binaryType(reloadedLibrary), CL_PROGRAM_BINARY_TYPE_LIBRARY);

  Program helper = fromSource("int twice(int x) { return 2 * x; }\n"
                              "kernel void doubled(global int *p) { *p = twice(*p); }");
  ASSERT_TRUE(helper);
  ASSERT_CL(clCompileProgram(helper, 1, &dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  cl_program inputs[] = {helper, reloadedLibrary};
  Program executable(clLinkProgram(context_, 1, &dev, nullptr, 2, inputs, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(runStore(executable), 21);
  Kernel doubled = kernel(executable, "doubled");
  int initial = 5;
  Mem value = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int), &initial);
  ASSERT_CL(setArg(doubled, 0, value.get()));
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, doubled, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(value, 1)[0], 10);
}

CLTEST_INSTANTIATE(CtsRegressionTest);
