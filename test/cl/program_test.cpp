// Programs and kernels: building (success, failure, options), program and
// kernel info, binaries, clCreateKernelsInProgram, argument errors,
// work-group info.
#include "cl_test.h"
#include "test_kernels.h"

#include <algorithm>
#include <set>

using namespace cltest;

namespace {

class ProgramTest : public DeviceTest {
protected:
  Program fromSource(std::string_view source) {
    const char *text = source.data();
    size_t length = source.size();
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, &length, &err));
    EXPECT_CL(err);
    return program;
  }
  std::string programString(cl_program program, cl_program_info param) {
    size_t size = 0;
    EXPECT_CL(clGetProgramInfo(program, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetProgramInfo(program, param, size, value.data(), nullptr));
    if (!value.empty() && value.back() == '\0')
      value.pop_back();
    return value;
  }
  std::string kernelString(cl_kernel k, cl_kernel_info param) {
    size_t size = 0;
    EXPECT_CL(clGetKernelInfo(k, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetKernelInfo(k, param, size, value.data(), nullptr));
    if (!value.empty() && value.back() == '\0')
      value.pop_back();
    return value;
  }
  // Runs `defined_value` from program_info.cl and returns what it wrote.
  int runDefinedValue(cl_program program) {
    Kernel k = kernel(program, "defined_value");
    Mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
    cl_mem mem = out;
    EXPECT_CL(setArg(k, 0, mem));
    size_t global = 1;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    return read<int>(out, 1)[0];
  }
};

const std::set<std::string> kProgramInfoKernels = {"first", "second", "third", "defined_value"};

} // namespace

TEST_P(ProgramTest, BuildFailureHasLog) {
  Program program = fromSource(kernels::syntax_error);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, nullptr, nullptr, nullptr));
  cl_build_status status = CL_BUILD_NONE;
  ASSERT_CL(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
  EXPECT_EQ(status, CL_BUILD_ERROR);
  std::string log = programBuildLog(program, dev);
  EXPECT_NE(log.find("undeclared_identifier_xyz"), std::string::npos) << "build log:\n" << log;
  // No kernels can be created from a failed build.
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(program, "broken", &err));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
  expectNoHandle(k);
}

// Clang recurses once per nesting level: sources nested up to its limit
// compile, deeper ones fail the build with a log line, and neither takes the
// application down (2048 levels overflowed an 8 MiB thread stack).
TEST_P(ProgramTest, DeeplyNestedSourcesBuildOrFailCleanly) {
  auto nested = [](size_t depth) {
    return "kernel void nested(global int *p) { p[0] = " + std::string(depth, '(') + "p[1] + 1" +
           std::string(depth, ')') + "; }";
  };
  cl_device_id dev = device();
  {
    Program program = build(nested(2000));
    ASSERT_TRUE(program);
    Kernel kernel = this->kernel(program, "nested");
    std::vector<cl_int> values = {0, 41};
    Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int), values.data());
    setArgs(kernel.get(), mem.get());
    size_t one = 1;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    EXPECT_EQ(read<cl_int>(mem, 2), (std::vector<cl_int>{42, 41}));
  }
  Program tooDeep = fromSource(nested(50000));
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(tooDeep, 1, &dev, nullptr, nullptr, nullptr));
  std::string log = programBuildLog(tooDeep, dev);
  EXPECT_NE(log.find("nesting level"), std::string::npos) << "build log:\n" << log;
}

TEST_P(ProgramTest, BuildOptions) {
  Program withDefine = build(kernels::program_info, "-DVALUE=42");
  ASSERT_TRUE(withDefine);
  EXPECT_EQ(runDefinedValue(withDefine), 42);
  Program withSpaceDefine = build(kernels::program_info, "-D VALUE=-7 -cl-mad-enable");
  ASSERT_TRUE(withSpaceDefine);
  EXPECT_EQ(runDefinedValue(withSpaceDefine), -7);
  Program without = build(kernels::program_info);
  ASSERT_TRUE(without);
  EXPECT_EQ(runDefinedValue(without), -1);
  // The options are reported back.
  size_t size = 0;
  cl_device_id dev = device();
  ASSERT_CL(clGetProgramBuildInfo(withDefine, dev, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size));
  std::string options(size, '\0');
  ASSERT_CL(clGetProgramBuildInfo(withDefine, dev, CL_PROGRAM_BUILD_OPTIONS, size, options.data(), nullptr));
  EXPECT_NE(options.find("-DVALUE=42"), std::string::npos) << options;
}

TEST_P(ProgramTest, InvalidBuildOptions) {
  Program program = fromSource(kernels::program_info);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_INVALID_BUILD_OPTIONS, clBuildProgram(program, 1, &dev, "-this-is-not-an-option", nullptr, nullptr));
  // The same program builds afterwards with valid options.
  EXPECT_CL(clBuildProgram(program, 1, &dev, "-DVALUE=3", nullptr, nullptr));
  EXPECT_EQ(runDefinedValue(program), 3);
}

TEST_P(ProgramTest, ProgramInfo) {
  Program program = fromSource(kernels::program_info);
  size_t count = 0;
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
                clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, nullptr));
  cl_device_id dev = device();
  ASSERT_CL(clBuildProgram(program, 1, &dev, nullptr, nullptr, nullptr));
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, nullptr));
  EXPECT_EQ(count, kProgramInfoKernels.size());
  auto names = split(programString(program, CL_PROGRAM_KERNEL_NAMES), ";");
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), kProgramInfoKernels);
  EXPECT_EQ(programString(program, CL_PROGRAM_SOURCE), kernels::program_info);
  cl_context ctx = nullptr;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof(ctx), &ctx, nullptr));
  EXPECT_EQ(ctx, context_.get());
  cl_uint numDevices = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(numDevices), &numDevices, nullptr));
  EXPECT_EQ(numDevices, 1u);
  cl_device_id programDevice = nullptr;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof(programDevice), &programDevice, nullptr));
  EXPECT_EQ(programDevice, dev);
  cl_uint refs = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, nullptr));
  EXPECT_EQ(refs, 1u);
  cl_build_status status = CL_BUILD_NONE;
  ASSERT_CL(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
  EXPECT_EQ(status, CL_BUILD_SUCCESS);
  cl_program_binary_type type = 0;
  ASSERT_CL(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BINARY_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetProgramInfo(program, 0x7fff, sizeof(refs), &refs, nullptr));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM,
                clGetProgramInfo(nullptr, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, nullptr));
  EXPECT_CL_ERR(CL_INVALID_DEVICE,
                clGetProgramBuildInfo(program, nullptr, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
}

TEST_P(ProgramTest, CreateWithSourceErrors) {
  cl_int err = CL_SUCCESS;
  Program p1(clCreateProgramWithSource(context_, 0, nullptr, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(p1);
  const char *nullString = nullptr;
  Program p2(clCreateProgramWithSource(context_, 1, &nullString, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(p2);
  const char *text = "kernel void k(global int *p) { *p = 1; }";
  Program p3(clCreateProgramWithSource(nullptr, 1, &text, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);
  expectNoHandle(p3);
  // Several strings, NUL-terminated and with explicit lengths, are joined.
  const char *parts[] = {"kernel void joined(global int *p) ", "{ *p = 17; }XXXX"};
  size_t lengths[] = {0, 12};
  Program joined(clCreateProgramWithSource(context_, 2, parts, lengths, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  ASSERT_CL(clBuildProgram(joined, 1, &dev, nullptr, nullptr, nullptr));
  Kernel k = kernel(joined, "joined");
  Mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
  cl_mem mem = out;
  ASSERT_CL(setArg(k, 0, mem));
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(out, 1)[0], 17);
}

TEST_P(ProgramTest, BinaryRoundTrip) {
  Program original = build(kernels::arithmetic);
  ASSERT_TRUE(original);
  size_t binarySize = 0;
  ASSERT_CL(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof(binarySize), &binarySize, nullptr));
  ASSERT_GT(binarySize, 0u);
  std::vector<unsigned char> binary(binarySize);
  unsigned char *binaries[] = {binary.data()};
  ASSERT_CL(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));

  cl_device_id dev = device();
  const unsigned char *input[] = {binary.data()};
  cl_int binaryStatus = -1, err = CL_SUCCESS;
  Program reloaded(clCreateProgramWithBinary(context_, 1, &dev, &binarySize, input, &binaryStatus, &err));
  ASSERT_CL(err);
  EXPECT_CL(binaryStatus);
  ASSERT_CL(clBuildProgram(reloaded, 1, &dev, nullptr, nullptr, nullptr));
  size_t count = 0;
  ASSERT_CL(clGetProgramInfo(reloaded, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, nullptr));
  EXPECT_EQ(count, 9u) << "kernels in arithmetic.cl";

  // Run vector_add from the reloaded program.
  constexpr size_t n = 1000;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 1000.0f - static_cast<float>(i);
  }
  Mem ma = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data());
  Mem mb = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), b.data());
  Mem mc = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  Kernel k = kernel(reloaded, "vector_add");
  setArgs(k, ma.get(), mb.get(), mc.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  auto c = read<float>(mc, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << i;

  // Garbage is not a binary.
  std::vector<unsigned char> garbage(64, 0x5a);
  const unsigned char *bad[] = {garbage.data()};
  size_t badSize = garbage.size();
  Program invalid(clCreateProgramWithBinary(context_, 1, &dev, &badSize, bad, &binaryStatus, &err));
  if (err == CL_SUCCESS) // the check may be deferred to the build
    EXPECT_NE(Err{CL_SUCCESS}, Err{clBuildProgram(invalid, 1, &dev, nullptr, nullptr, nullptr)});
  else {
    EXPECT_CL_ERR(CL_INVALID_BINARY, err);
    EXPECT_CL_ERR(CL_INVALID_BINARY, binaryStatus);
    expectNoHandle(invalid);
  }
}

TEST_P(ProgramTest, CreateKernelsInProgram) {
  Program program = build(kernels::program_info);
  ASSERT_TRUE(program);
  cl_uint count = 0;
  ASSERT_CL(clCreateKernelsInProgram(program, 0, nullptr, &count));
  ASSERT_EQ(count, kProgramInfoKernels.size());
  std::vector<cl_kernel> raw(count);
  ASSERT_CL(clCreateKernelsInProgram(program, count, raw.data(), nullptr));
  std::set<std::string> names;
  for (cl_kernel k : raw) {
    Kernel held(k);
    names.insert(kernelString(held, CL_KERNEL_FUNCTION_NAME));
  }
  EXPECT_EQ(names, kProgramInfoKernels);
  cl_kernel one = nullptr;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clCreateKernelsInProgram(program, 1, &one, nullptr));
}

TEST_P(ProgramTest, KernelInfo) {
  Program program = build(kernels::program_info);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "second");
  ASSERT_TRUE(k);
  EXPECT_EQ(kernelString(k, CL_KERNEL_FUNCTION_NAME), "second");
  cl_uint numArgs = 0;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(numArgs), &numArgs, nullptr));
  EXPECT_EQ(numArgs, 3u);
  cl_context ctx = nullptr;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(ctx), &ctx, nullptr));
  EXPECT_EQ(ctx, context_.get());
  cl_program owner = nullptr;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(owner), &owner, nullptr));
  EXPECT_EQ(owner, program.get());
  cl_uint refs = 0;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, nullptr));
  EXPECT_EQ(refs, 1u);
  EXPECT_EQ(kernelString(k, CL_KERNEL_ATTRIBUTES), "");
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelInfo(k, 0x7fff, sizeof(refs), &refs, nullptr));
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof(refs), &refs, nullptr));

  cl_int err = CL_SUCCESS;
  Kernel missing(clCreateKernel(program, "no_such_kernel", &err));
  EXPECT_CL_ERR(CL_INVALID_KERNEL_NAME, err);
  expectNoHandle(missing);
  Kernel nullName(clCreateKernel(program, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(nullName);
  Program unbuilt = fromSource(kernels::program_info);
  Kernel early(clCreateKernel(unbuilt, "first", &err));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
  expectNoHandle(early);
}

TEST_P(ProgramTest, KernelArgInfo) {
  Program program = build(kernels::program_info, "-cl-kernel-arg-info");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "third");
  ASSERT_TRUE(k);
  auto argString = [&](cl_uint index, cl_kernel_arg_info param) {
    size_t size = 0;
    EXPECT_CL(clGetKernelArgInfo(k, index, param, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetKernelArgInfo(k, index, param, size, value.data(), nullptr));
    if (!value.empty())
      value.pop_back();
    return value;
  };
  EXPECT_EQ(argString(0, CL_KERNEL_ARG_NAME), "scratch");
  EXPECT_EQ(argString(1, CL_KERNEL_ARG_NAME), "table");
  EXPECT_EQ(argString(2, CL_KERNEL_ARG_NAME), "n");
  EXPECT_EQ(argString(0, CL_KERNEL_ARG_TYPE_NAME), "float*");
  EXPECT_EQ(argString(2, CL_KERNEL_ARG_TYPE_NAME), "uint");
  cl_kernel_arg_address_qualifier spaces[3] = {};
  for (cl_uint i = 0; i < 3; ++i)
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(spaces[i]), &spaces[i], nullptr));
  EXPECT_EQ(spaces[0], cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(spaces[1], cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_CONSTANT));
  EXPECT_EQ(spaces[2], cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_PRIVATE));
  cl_kernel_arg_address_qualifier q = 0;
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX,
                clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(q), &q, nullptr));
}

TEST_P(ProgramTest, SetKernelArgErrors) {
  Program program = build(kernels::program_info);
  ASSERT_TRUE(program);
  Kernel second = kernel(program, "second"); // (global const float *, global float *, int)
  Kernel third = kernel(program, "third");   // (local float *, constant int *, uint)
  ASSERT_TRUE(second && third);
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  cl_mem m = mem;
  int value = 1;
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, clSetKernelArg(second, 3, sizeof(int), &value));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(second, 2, sizeof(char), &value));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(second, 2, 8, &value));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(second, 2, sizeof(int), nullptr));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(second, 0, 4, &m));
  EXPECT_CL(clSetKernelArg(second, 0, sizeof(cl_mem), &m));
  // Local memory arguments take a size and no value.
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(third, 0, 64, &value));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(third, 0, 0, nullptr));
  EXPECT_CL(clSetKernelArg(third, 0, 64, nullptr));
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clSetKernelArg(nullptr, 0, sizeof(int), &value));
}

TEST_P(ProgramTest, UnsetArgumentsAreAnError) {
  Program program = build(kernels::program_info);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "second");
  Mem in = buffer(CL_MEM_READ_WRITE, 64), out = buffer(CL_MEM_READ_WRITE, 64);
  size_t global = 4;
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS,
                clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  setArgs(k, in.get(), out.get());
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS,
                clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(setArg(k, 2, 4));
  EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(ProgramTest, WorkGroupInfo) {
  Program program = build(kernels::work_item);
  ASSERT_TRUE(program);
  Kernel plain = kernel(program, "record_ids");
  Kernel fixed = kernel(program, "fixed_group");
  ASSERT_TRUE(plain && fixed);
  cl_device_id dev = device();
  size_t maxGroup = deviceInfo<size_t>(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t groupSize = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(groupSize), &groupSize, nullptr));
  EXPECT_GE(groupSize, 1u);
  EXPECT_LE(groupSize, maxGroup);
  size_t compiled[3] = {9, 9, 9};
  ASSERT_CL(
      clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compiled), compiled, nullptr));
  EXPECT_EQ(compiled[0], 0u);
  EXPECT_EQ(compiled[1], 0u);
  EXPECT_EQ(compiled[2], 0u);
  ASSERT_CL(
      clGetKernelWorkGroupInfo(fixed, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compiled), compiled, nullptr));
  EXPECT_EQ(compiled[0], 4u);
  EXPECT_EQ(compiled[1], 2u);
  EXPECT_EQ(compiled[2], 1u);
  size_t multiple = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple),
                                     &multiple, nullptr));
  EXPECT_GE(multiple, 1u);
  cl_ulong localMem = 1, privateMem = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(localMem), &localMem, nullptr));
  EXPECT_EQ(localMem, 0u) << "record_ids uses no local memory";
  ASSERT_CL(clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(privateMem), &privateMem, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(plain, dev, 0x7fff, sizeof(groupSize), &groupSize, nullptr));
  // GLOBAL_WORK_SIZE is only for custom devices and built-in kernels.
  size_t global[3];
  if (!(deviceInfo<cl_device_type>(dev, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CUSTOM))
    EXPECT_CL_ERR(CL_INVALID_VALUE,
                  clGetKernelWorkGroupInfo(plain, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof(global), global, nullptr));
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clGetKernelWorkGroupInfo(nullptr, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(groupSize),
                                                            &groupSize, nullptr));
}

TEST_P(ProgramTest, RetainReleaseAndKernelKeepsProgram) {
  Program program = build(kernels::program_info);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "defined_value");
  ASSERT_TRUE(k);
  ASSERT_CL(clRetainProgram(program));
  cl_uint refs = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, nullptr));
  EXPECT_GE(refs, 2u);
  ASSERT_CL(clReleaseProgram(program));
  // The kernel stays usable after the application releases the program.
  program.reset();
  Mem out = buffer(CL_MEM_READ_WRITE, sizeof(int));
  ASSERT_CL(setArg(k, 0, out.get()));
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(out, 1)[0], -1);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, clRetainProgram(nullptr));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, clReleaseProgram(nullptr));
}

CLTEST_INSTANTIATE(ProgramTest);
