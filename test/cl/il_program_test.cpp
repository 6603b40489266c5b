// SPIR-V programs (clCreateProgramWithIL, cl_khr_il_program): the device
// queries, kernels from test/kernels_il/*.cl (compiled to SPIR-V at build
// time) run against results computed here, and the error paths. Devices
// that read no IL must say so consistently and refuse IL programs.
#include "cl_test.h"
#include "half_reference.h"
#include "il_modules.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <numeric>

using namespace cltest;

namespace {

std::string deviceString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  EXPECT_CL(clGetDeviceInfo(device, param, 0, nullptr, &size));
  std::string text(size, '\0');
  if (size)
    EXPECT_CL(clGetDeviceInfo(device, param, size, text.data(), nullptr));
  if (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}

bool hasExtension(cl_device_id device, const std::string &name) {
  std::string extensions = " " + deviceString(device, CL_DEVICE_EXTENSIONS) + " ";
  return extensions.find(" " + name + " ") != std::string::npos;
}

class IlProgramTest : public DeviceTest {
protected:
  bool readsIL() { return !deviceString(device(), CL_DEVICE_IL_VERSION).empty(); }

  Program create(const void *il, size_t size, cl_int *err) {
    return Program(clCreateProgramWithIL(context_, il, size, err));
  }

  template <size_t N> Program buildIL(const unsigned char (&il)[N], const char *options = "") {
    return DeviceTest::buildIL(il, N, options);
  }

  // `il` (SPIR-V) or `source` (OpenCL C) compiled for the device; empty,
  // with a test failure, when that fails.
  template <size_t N> Program compiledIL(const unsigned char (&il)[N]) {
    cl_int err = CL_SUCCESS;
    Program program = create(il, N, &err);
    EXPECT_CL(err);
    return compiled(std::move(program));
  }
  Program compiledSource(const char *source) {
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &source, nullptr, &err));
    EXPECT_CL(err);
    return compiled(std::move(program));
  }
  Program compiled(Program program) {
    cl_device_id dev = device();
    if (!program)
      return {};
    cl_int err = clCompileProgram(program, 1, &dev, "", 0, nullptr, nullptr, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      ADD_FAILURE() << "clCompileProgram: " << errorName(err) << "\n" << programBuildLog(program, dev);
      return {};
    }
    return program;
  }
  // The compiled programs linked in order; empty, with a test failure, when
  // one is empty or the link fails.
  Program linked(std::initializer_list<cl_program> inputs) {
    if (std::find(inputs.begin(), inputs.end(), nullptr) != inputs.end())
      return {};
    cl_device_id dev = device();
    cl_int err = CL_SUCCESS;
    Program program(
        clLinkProgram(context_, 1, &dev, "", cl_uint(inputs.size()), inputs.begin(), nullptr, nullptr, &err));
    if (err != CL_SUCCESS) {
      ADD_FAILURE() << "clLinkProgram: " << errorName(err) << "\n" << (program ? programBuildLog(program, dev) : "");
      return {};
    }
    return program;
  }

  bool hasImages() { return deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT); }
  // A read-only CL_RGBA CL_FLOAT 2D image holding `texels`.
  Mem floatImage(size_t width, size_t height, const std::vector<float> &texels) {
    const cl_image_format format{CL_RGBA, CL_FLOAT};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int err = CL_SUCCESS;
    Mem img(clCreateImage(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                          const_cast<float *>(texels.data()), &err));
    EXPECT_CL(err);
    return img;
  }

  template <typename T> Mem input(const std::vector<T> &values) {
    return buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), const_cast<T *>(values.data()));
  }
  cl_int run(cl_kernel k, size_t global, size_t local = 0) {
    return clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr);
  }
};

TEST_P(IlProgramTest, QueriesAgree) {
  std::string version = deviceString(device(), CL_DEVICE_IL_VERSION);
  std::vector<cl_name_version> ils = deviceArray<cl_name_version>(device(), CL_DEVICE_ILS_WITH_VERSION);
  EXPECT_EQ(!version.empty(), hasExtension(device(), "cl_khr_il_program"));
  EXPECT_EQ(!version.empty(), !ils.empty());
  EXPECT_EQ(!version.empty(), hasExtension(device(), "cl_khr_spirv_no_integer_wrap_decoration"));
  EXPECT_EQ(!version.empty(), hasExtension(device(), "cl_khr_spirv_linkonce_odr"));
  for (const cl_name_version &il : ils) {
    EXPECT_STREQ("SPIR-V", il.name);
    std::string spelled =
        "SPIR-V_" + std::to_string(CL_VERSION_MAJOR(il.version)) + "." + std::to_string(CL_VERSION_MINOR(il.version));
    EXPECT_NE(std::string::npos, version.find(spelled)) << spelled << " missing from '" << version << "'";
  }
  if (!version.empty())
    EXPECT_NE(std::string::npos, version.find("SPIR-V_1.0"));
}

TEST_P(IlProgramTest, DeviceWithoutIlRefusesIlPrograms) {
  if (readsIL())
    GTEST_SKIP() << "the device reads SPIR-V";
  cl_int err = CL_SUCCESS;
  expectNoHandle(create(il_modules::il_vector_add, sizeof(il_modules::il_vector_add), &err));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, err);
}

TEST_P(IlProgramTest, InvalidModulesAreRejected) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  cl_int err = CL_SUCCESS;
  expectNoHandle(create(nullptr, 20, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(create(il_modules::il_vector_add, 0, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  // Not a whole number of words.
  expectNoHandle(create(il_modules::il_vector_add, sizeof(il_modules::il_vector_add) - 1, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  std::vector<unsigned char> bad(il_modules::il_vector_add, std::end(il_modules::il_vector_add));
  bad[0] ^= 0xff; // the magic number
  expectNoHandle(create(bad.data(), bad.size(), &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  // Whole words, but the last instruction runs past the end.
  expectNoHandle(create(il_modules::il_vector_add, 64, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(
      Program(clCreateProgramWithIL(nullptr, il_modules::il_vector_add, sizeof(il_modules::il_vector_add), &err)));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);
}

TEST_P(IlProgramTest, UnreadableVersionFailsToBuildWithLog) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  // SPIR-V 1.5, which the device does not list: a well-formed module whose
  // build fails in the translator.
  std::vector<unsigned char> il(il_modules::il_vector_add, std::end(il_modules::il_vector_add));
  uint32_t version = 0x00010500;
  std::memcpy(il.data() + 4, &version, sizeof(version));
  EXPECT_EQ(std::string::npos, deviceString(device(), CL_DEVICE_IL_VERSION).find("SPIR-V_1.5"));
  cl_int err = CL_SUCCESS;
  Program program = create(il.data(), il.size(), &err);
  ASSERT_CL(err);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
  EXPECT_NE(std::string::npos, programBuildLog(program, dev).find("version")) << programBuildLog(program, dev);
  cl_build_status status = CL_BUILD_NONE;
  EXPECT_CL(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
  EXPECT_EQ(CL_BUILD_ERROR, status);
}

TEST_P(IlProgramTest, UnresolvedFunctionIsNamedInTheLog) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  cl_int err = CL_SUCCESS;
  Program program = create(il_modules::il_unresolved, sizeof(il_modules::il_unresolved), &err);
  ASSERT_CL(err);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
  EXPECT_NE(std::string::npos, programBuildLog(program, dev).find("polymux_nowhere_defined"))
      << programBuildLog(program, dev);
}

TEST_P(IlProgramTest, ProgramIlReturnsTheModule) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  cl_int err = CL_SUCCESS;
  Program program = create(il_modules::il_vector_add, sizeof(il_modules::il_vector_add), &err);
  ASSERT_CL(err);
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &size));
  ASSERT_EQ(sizeof(il_modules::il_vector_add), size);
  std::vector<unsigned char> il(size);
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_IL, size, il.data(), nullptr));
  EXPECT_EQ(0, std::memcmp(il.data(), il_modules::il_vector_add, size));

  // A program made from source has no IL.
  Program source = build("__kernel void k(void) {}");
  ASSERT_TRUE(source);
  ASSERT_CL(clGetProgramInfo(source, CL_PROGRAM_IL, 0, nullptr, &size));
  EXPECT_EQ(0u, size);
}

TEST_P(IlProgramTest, KhrEntryPointCreatesTheSameProgram) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  auto createKhr = extensionFunction<clCreateProgramWithILKHR_fn>("clCreateProgramWithILKHR");
  ASSERT_NE(nullptr, createKhr);
  cl_int err = CL_SUCCESS;
  Program program(createKhr(context_, il_modules::il_vector_add, sizeof(il_modules::il_vector_add), &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  ASSERT_CL(clBuildProgram(program, 1, &dev, "", nullptr, nullptr)) << programBuildLog(program, dev);
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size));
  std::string names(size, '\0');
  ASSERT_CL(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr));
  EXPECT_STREQ("vector_add", names.c_str());
}

TEST_P(IlProgramTest, VectorAdd) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_vector_add);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "vector_add");
  ASSERT_TRUE(k);
  constexpr size_t n = 1000;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 1000.0f - 3.0f * i;
  }
  Mem ma = input(a), mb = input(b), mc = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  setArgs(k, ma.get(), mb.get(), mc.get());
  ASSERT_CL(run(k, n));
  std::vector<float> c = read<float>(mc, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(a[i] + b[i], c[i]) << "at " << i;

  cl_uint args = 0;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(args), &args, nullptr));
  EXPECT_EQ(3u, args);
}

TEST_P(IlProgramTest, LocalMemoryAndBarriers) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_local_memory);
  ASSERT_TRUE(program);
  constexpr size_t group = 64, groups = 8, n = group * groups;
  std::vector<int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<int>(i * 7 % 101) - 50;
  Mem min = input(in);

  Kernel reverse = kernel(program, "reverse_in_group");
  ASSERT_TRUE(reverse);
  Mem mout = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  setArgs(reverse, min.get(), mout.get());
  ASSERT_CL(clSetKernelArg(reverse, 2, group * sizeof(int), nullptr));
  ASSERT_CL(run(reverse, n, group));
  std::vector<int> out = read<int>(mout, n);
  for (size_t i = 0; i < n; ++i) {
    size_t base = i / group * group;
    ASSERT_EQ(in[base + group - 1 - (i - base)], out[i]) << "at " << i;
  }

  Kernel sum = kernel(program, "group_sum");
  ASSERT_TRUE(sum);
  Mem msums = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(int));
  setArgs(sum, min.get(), msums.get());
  ASSERT_CL(run(sum, n, group));
  std::vector<int> sums = read<int>(msums, groups);
  for (size_t g = 0; g < groups; ++g)
    EXPECT_EQ(std::accumulate(in.begin() + g * group, in.begin() + (g + 1) * group, 0), sums[g]) << "group " << g;
}

TEST_P(IlProgramTest, BuiltinsWithPointerArguments) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_builtins);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "pointer_builtins");
  ASSERT_TRUE(k);
  std::vector<float> in = {0.25f, -1.75f, 3.5f, 100.125f, -0.5f, 7.0f, 2.0f, -3.25f};
  const size_t n = in.size();
  Mem min = input(in), mout = buffer(CL_MEM_WRITE_ONLY, 5 * n * sizeof(float));
  setArgs(k, min.get(), mout.get());
  ASSERT_CL(run(k, n));
  std::vector<float> out = read<float>(mout, 5 * n);
  for (size_t i = 0; i < n; ++i) {
    float whole = std::floor(in[i]);
    EXPECT_EQ(in[i] - whole, out[5 * i]) << "fract(" << in[i] << ")";
    EXPECT_EQ(whole, out[5 * i + 1]) << "fract(" << in[i] << ") whole part";
    EXPECT_NEAR(std::sin(in[i]), out[5 * i + 2], 1e-5f) << "sincos(" << in[i] << ")";
    EXPECT_NEAR(std::cos(in[i]), out[5 * i + 3], 1e-5f) << "sincos(" << in[i] << ") cosine";
    EXPECT_EQ(in[i], out[5 * i + 4]) << "modf(" << in[i] << ") parts";
  }
}

// Clang's SPIR-V at -O0: every function and every call is DontInline, and
// the kernel calls its body, where the work-item builtins are. On the CPU
// targets those calls stayed calls and get_global_id stayed unresolved.
TEST_P(IlProgramTest, UnoptimisedModulesFromClang) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_unoptimised_O0);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "unoptimised");
  ASSERT_TRUE(k);
  const size_t n = 64, local = 16;
  Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  setArgs(k, out.get(), 0.5f);
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, &local, 0, nullptr, nullptr));
  std::vector<float> got = read<float>(out, n);
  for (size_t i = 0; i < n; ++i)
    EXPECT_EQ(2.0f * i + 0.5f + (i % local) * 1000.0f, got[i]) << "work-item " << i;
}

TEST_P(IlProgramTest, WideVectorsAndHelperFunctions) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_builtins);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "vectors");
  ASSERT_TRUE(k);
  constexpr size_t n = 16;
  std::vector<float> in(4 * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = 0.25f * i + 1.0f;
  Mem min = input(in), mout = buffer(CL_MEM_WRITE_ONLY, 9 * n * sizeof(float));
  setArgs(k, min.get(), mout.get());
  ASSERT_CL(run(k, n));
  std::vector<float> out = read<float>(mout, 9 * n);
  for (size_t i = 0; i < n; ++i) {
    const float *v = &in[4 * i];
    for (int lane = 0; lane < 8; ++lane) {
      float w = lane < 4 ? v[lane] : 2.0f * v[lane - 4];
      EXPECT_FLOAT_EQ(std::sqrt(w), out[8 * i + lane]) << "work-item " << i << " lane " << lane;
    }
    float pairSum = std::max(v[0], v[2]) + std::max(v[1], v[3]);
    float expected =
        pairSum * 0.5f + (v[0] + v[1] + v[2] + v[3]) + (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    EXPECT_NEAR(expected, out[8 * n + i], 1e-3f) << "work-item " << i;
  }
}

TEST_P(IlProgramTest, GenericPointers) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  if (!deviceInfo<cl_bool>(device(), CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT)) {
    // The module needs the GenericPointer capability: the build must fail
    // and say why.
    cl_int err = CL_SUCCESS;
    Program program = create(il_modules::il_generic_cl20, sizeof(il_modules::il_generic_cl20), &err);
    ASSERT_CL(err);
    cl_device_id dev = device();
    EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
    EXPECT_NE(std::string::npos, programBuildLog(program, dev).find("generic pointers"))
        << programBuildLog(program, dev);
    return;
  }
  Program program = buildIL(il_modules::il_generic_cl20);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "generic_sums");
  ASSERT_TRUE(k);
  constexpr size_t n = 32;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = 0.75f * i - 3.5f;
  Mem min = input(in), mout = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
  setArgs(k, min.get(), mout.get());
  ASSERT_CL(run(k, n, 8));
  std::vector<float> out = read<float>(mout, n);
  const float firstFour = in[0] + in[1] + in[2] + in[3];
  for (size_t i = 0; i < n; ++i) {
    float whole = std::floor(in[i]);
    float expected = firstFour + 10.0f + 3.0f * in[i] + (in[i] - whole) + whole;
    EXPECT_NEAR(expected, out[i], 1e-4f) << "at " << i;
  }
}

TEST_P(IlProgramTest, HelperMarkedNoinline) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_noinline);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "calls_noinline");
  ASSERT_TRUE(k);
  constexpr size_t n = 64;
  std::vector<float> data(n);
  for (size_t i = 0; i < n; ++i)
    data[i] = 0.5f * i - 7.0f;
  Mem m = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), data.data());
  setArgs(k, m.get());
  ASSERT_CL(run(k, n));
  std::vector<float> out = read<float>(m, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(2.0f * data[i] + static_cast<float>(i), out[i]) << "at " << i; // exact: 2x is exact, one rounding
}

TEST_P(IlProgramTest, Atomics) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_atomics);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "atomics");
  ASSERT_TRUE(k);
  constexpr size_t group = 32, n = group * 6;
  std::vector<int> counters = {0, 0, -1, 1, 0};
  Mem mcounters = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, counters.size() * sizeof(int), counters.data());
  Mem mtickets = buffer(CL_MEM_WRITE_ONLY, n * sizeof(int));
  setArgs(k, mcounters.get(), mtickets.get());
  ASSERT_CL(run(k, n, group));
  std::vector<int> result = read<int>(mcounters, counters.size());
  EXPECT_EQ(static_cast<int>(3 * n), result[0]);
  EXPECT_EQ(static_cast<int>(n), result[1]);
  EXPECT_EQ(static_cast<int>(n - 1), result[2]);
  EXPECT_EQ(-static_cast<int>(n - 1), result[3]);
  EXPECT_EQ(static_cast<int>(n), result[4]);
  // Every ticket is a distinct multiple of 3 below 3n.
  std::vector<int> tickets = read<int>(mtickets, n);
  std::sort(tickets.begin(), tickets.end());
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(static_cast<int>(3 * i), tickets[i]);
}

TEST_P(IlProgramTest, Printf) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_printf);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "say");
  ASSERT_TRUE(k);
  setArgs(k, cl_int{42}, cl_float{2.5f});
  std::fflush(stdout);
  FILE *file = std::tmpfile();
  ASSERT_NE(nullptr, file);
  int saved = dup(STDOUT_FILENO);
  dup2(fileno(file), STDOUT_FILENO);
  cl_int launched = run(k, 3);
  cl_int finished = clFinish(queue_);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::rewind(file);
  std::string text;
  char chunk[256];
  for (size_t got; (got = std::fread(chunk, 1, sizeof(chunk), file)) > 0;)
    text.append(chunk, got);
  std::fclose(file);
  ASSERT_CL(launched);
  ASSERT_CL(finished);
  EXPECT_EQ("il value 42 2.50\nil value 42 2.50\nil value 42 2.50\n", text);
}

// Images and samplers as the Khronos translator writes them (queries with
// the 0x10B0 / 0x10D0 offsets, OpConstantSampler, an image and a sampler
// passed to a helper): test/kernels_il/il_images.spvasm. The image suites
// (Spirv/ImageKernelTest, Spirv/ImageHalfTest) run the rest through Clang's
// SPIR-V back end.
TEST_P(IlProgramTest, ImagesAsTheTranslatorWritesThem) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  if (!hasImages())
    GTEST_SKIP() << "the device has no images";
  Program program = buildIL(il_modules::il_images);
  ASSERT_TRUE(program);
  constexpr size_t width = 4, height = 2;
  std::vector<float> texels;
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x)
      texels.insert(texels.end(), {float(x), float(y), 10.0f * x + y, 1.0f});
  Mem img = floatImage(width, height, texels);
  ASSERT_TRUE(img);

  Kernel queries = kernel(program, "queries");
  Mem info = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_uint));
  setArgs(queries, static_cast<cl_mem>(img), static_cast<cl_mem>(info));
  ASSERT_CL(run(queries, 1));
  EXPECT_EQ((std::vector<cl_uint>{CL_RGBA, CL_FLOAT, width, height}), read<cl_uint>(info, 4));

  // Texels (-1, 0) to (width, 0): the argument's sampler clamps to the
  // border colour (0, 0, 0, 0) outside, the constant one to the edge.
  Kernel sampled = kernel(program, "sampled");
  cl_int err = CL_SUCCESS;
  Holder<cl_sampler, clReleaseSampler> clamp(
      clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  ASSERT_CL(err);
  constexpr size_t items = width + 2;
  Mem out = buffer(CL_MEM_WRITE_ONLY, items * 2 * 4 * sizeof(float));
  setArgs(sampled, static_cast<cl_mem>(img), static_cast<cl_sampler>(clamp), static_cast<cl_mem>(out));
  ASSERT_CL(run(sampled, items));
  std::vector<float> got = read<float>(out, items * 2 * 4);
  for (size_t i = 0; i < items; ++i) {
    const int x = int(i) - 1;
    const bool inside = x >= 0 && x < int(width);
    const size_t edge = size_t(std::clamp(x, 0, int(width) - 1));
    for (size_t c = 0; c < 4; ++c) {
      EXPECT_EQ(inside ? texels[size_t(x) * 4 + c] : 0.0f, got[i * 8 + c]) << "x " << x << " channel " << c;
      EXPECT_EQ(texels[edge * 4 + c], got[i * 8 + 4 + c]) << "constant sampler, x " << x << " channel " << c;
    }
  }
}

TEST_P(IlProgramTest, SpecializationConstants) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  cl_int err = CL_SUCCESS;
  Program program = create(il_modules::il_spec_constants, sizeof(il_modules::il_spec_constants), &err);
  ASSERT_CL(err);
  cl_device_id dev = device();
  auto runOnce = [&]() -> std::vector<cl_int> {
    EXPECT_CL(clBuildProgram(program, 1, &dev, "", nullptr, nullptr)) << programBuildLog(program, dev);
    Kernel k = kernel(program, "spec_constants");
    if (!k)
      return {};
    Mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_int));
    setArgs(k, out.get());
    EXPECT_CL(run(k, 1));
    return read<cl_int>(out, 4);
  };
  float defaultFloat = 1.5f;
  cl_int defaultBits;
  std::memcpy(&defaultBits, &defaultFloat, sizeof(defaultBits));
  // The short is sign-extended by the kernel (OpSConvert).
  EXPECT_EQ((std::vector<cl_int>{7, defaultBits, 0, -2}), runOnce()); // the defaults

  cl_int integer = -123456;
  float real = -0.375f;
  cl_bool truth = CL_TRUE;
  cl_uchar yes = 1;
  cl_ushort narrow = 40000;
  EXPECT_CL(clSetProgramSpecializationConstant(program, 1, sizeof(integer), &integer));
  EXPECT_CL(clSetProgramSpecializationConstant(program, 2, sizeof(real), &real));
  EXPECT_CL(clSetProgramSpecializationConstant(program, 3, sizeof(yes), &yes));
  EXPECT_CL(clSetProgramSpecializationConstant(program, 4, sizeof(narrow), &narrow));
  cl_int realBits;
  std::memcpy(&realBits, &real, sizeof(realBits));
  EXPECT_EQ((std::vector<cl_int>{integer, realBits, 1, static_cast<cl_short>(narrow)}), runOnce());

  EXPECT_CL_ERR(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(program, 5, sizeof(integer), &integer));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(program, 1, sizeof(cl_short), &integer));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(program, 3, sizeof(truth), &truth));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(program, 1, sizeof(integer), nullptr));
  Program source = build("__kernel void k(void) {}");
  ASSERT_TRUE(source);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(source, 1, sizeof(integer), &integer));
}

TEST_P(IlProgramTest, CompileAndLinkWithOpenCLC) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program il = compiledIL(il_modules::il_vector_add);
  Program c = compiledSource("__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }");
  Program program = linked({il, c});
  ASSERT_TRUE(program);

  Kernel add = kernel(program, "vector_add"), twice = kernel(program, "twice");
  ASSERT_TRUE(add);
  ASSERT_TRUE(twice);
  constexpr size_t n = 64;
  std::vector<float> a(n, 1.5f), b(n);
  std::iota(b.begin(), b.end(), 0.0f);
  Mem ma = input(a), mb = input(b), mc = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
  setArgs(add, ma.get(), mb.get(), mc.get());
  setArgs(twice, mc.get());
  ASSERT_CL(run(add, n));
  ASSERT_CL(run(twice, n));
  std::vector<float> c2 = read<float>(mc, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(2.0f * (a[i] + b[i]), c2[i]) << "at " << i;
}

// Every image type as write_only and read_write arguments of a SPIR-V
// kernel (test/kernels_il/il_image_types_cl20.cl), read back with
// clEnqueueReadImage, and its size queries.
TEST_P(IlProgramTest, EveryImageTypeWrittenAndReadWritten) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  if (!hasImages())
    GTEST_SKIP() << "the device has no images";
  const bool readWrite = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) > 0;
  Program program = buildIL(il_modules::il_image_types_cl20, "-cl-std=CL2.0");
  ASSERT_TRUE(program);
  struct Type {
    const char *name;
    cl_mem_object_type type;
    size_t width, height, depth; // height and depth: rows or layers, as the kernel counts them
    std::array<int, 4> queries;  // width, height, depth, array size
  };
  const Type types[] = {
      {"image1d", CL_MEM_OBJECT_IMAGE1D, 7, 1, 1, {7, 0, 0, 0}},
      {"image1d_buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, 9, 1, 1, {9, 0, 0, 0}},
      {"image1d_array", CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 3, 1, {5, 0, 0, 3}},
      {"image2d", CL_MEM_OBJECT_IMAGE2D, 4, 3, 1, {4, 3, 0, 0}},
      {"image2d_array", CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 2, 4, {3, 2, 0, 4}},
      {"image3d", CL_MEM_OBJECT_IMAGE3D, 3, 4, 2, {3, 4, 2, 0}},
  };
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT32};
  for (const Type &t : types) {
    SCOPED_TRACE(t.name);
    const size_t texels = t.width * t.height * t.depth;
    Mem storage;
    cl_image_desc desc{};
    desc.image_type = t.type;
    desc.image_width = t.width;
    if (t.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
      desc.image_array_size = t.height;
    } else if (t.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
      desc.image_height = t.height;
      desc.image_array_size = t.depth;
    } else {
      desc.image_height = t.type == CL_MEM_OBJECT_IMAGE1D || t.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 0 : t.height;
      desc.image_depth = t.type == CL_MEM_OBJECT_IMAGE3D ? t.depth : 0;
    }
    if (t.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      storage = buffer(CL_MEM_READ_WRITE, texels * 16);
      desc.buffer = storage;
    }
    cl_int err = CL_SUCCESS;
    Mem img(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
    ASSERT_CL(err);
    const size_t region[3] = {
        t.width, t.type == CL_MEM_OBJECT_IMAGE1D_BUFFER || t.type == CL_MEM_OBJECT_IMAGE1D ? 1 : t.height, t.depth};
    auto readBack = [&] {
      std::vector<cl_uint> back(texels * 4);
      const size_t origin[3] = {0, 0, 0};
      EXPECT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr, nullptr));
      return back;
    };
    auto expected = [&](bool bumped) {
      std::vector<cl_uint> values;
      for (size_t z = 0; z < t.depth; ++z)
        for (size_t y = 0; y < t.height; ++y)
          for (size_t x = 0; x < t.width; ++x) {
            std::array<cl_uint, 4> v = {cl_uint(x), cl_uint(y), cl_uint(z), 7};
            if (bumped)
              v = {v[0] + 1, v[1] + 10, v[2] + 100, v[3] + 1000};
            values.insert(values.end(), v.begin(), v.end());
          }
      return values;
    };
    Mem q = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_int));
    const cl_int w = cl_int(t.width), h = cl_int(t.height);
    Kernel write = kernel(program, ("w_" + std::string(t.name)).c_str());
    setArgs(write, static_cast<cl_mem>(img), w, h, static_cast<cl_mem>(q));
    ASSERT_CL(run(write, texels));
    EXPECT_EQ(expected(false), readBack());
    EXPECT_EQ((std::vector<cl_int>(t.queries.begin(), t.queries.end())), read<cl_int>(q, 4));
    if (!readWrite)
      continue;
    Kernel bump = kernel(program, ("rw_" + std::string(t.name)).c_str());
    setArgs(bump, static_cast<cl_mem>(img), w, h, static_cast<cl_mem>(q));
    ASSERT_CL(run(bump, texels));
    EXPECT_EQ(expected(true), readBack());
    EXPECT_EQ((std::vector<cl_int>(t.queries.begin(), t.queries.end())), read<cl_int>(q, 4));
  }
}

// The SPIR-V module imports a function taking an image and a sampler, which
// an OpenCL C object defines: the declaration must get the types the
// definition has (target types on vulkan) for the two to link.
TEST_P(IlProgramTest, ImageFunctionLinkedFromOpenCLC) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  if (!hasImages())
    GTEST_SKIP() << "the device has no images";
  Program il = compiledIL(il_modules::il_image_import);
  Program c = compiledSource("float4 polymux_doubled_texel(read_only image2d_t img, sampler_t s, int2 c) {\n"
                             "  return 2.0f * read_imagef(img, s, c);\n"
                             "}\n");
  Program program = linked({il, c});
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "doubled_texels");
  ASSERT_TRUE(k);

  constexpr size_t width = 5;
  std::vector<float> texels;
  for (size_t x = 0; x < width; ++x)
    texels.insert(texels.end(), {0.5f * x, -1.0f * x, 3.0f, 0.25f + x});
  Mem img = floatImage(width, 1, texels);
  ASSERT_TRUE(img);
  cl_int err = CL_SUCCESS;
  Holder<cl_sampler, clReleaseSampler> sampler(
      clCreateSampler(context_, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err));
  ASSERT_CL(err);
  Mem out = buffer(CL_MEM_WRITE_ONLY, texels.size() * sizeof(float));
  setArgs(k, static_cast<cl_mem>(img), static_cast<cl_sampler>(sampler), static_cast<cl_mem>(out));
  ASSERT_CL(run(k, width));
  std::vector<float> got = read<float>(out, texels.size());
  for (size_t i = 0; i < texels.size(); ++i)
    EXPECT_EQ(2.0f * texels[i], got[i]) << "at " << i;
}

TEST_P(IlProgramTest, LinkOnceOdrDefinitionLinksIntoALaterModule) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  ASSERT_TRUE(hasExtension(device(), "cl_khr_spirv_linkonce_odr"));
  // The module defining the function comes first and does not call it.
  Program object = compiledIL(il_modules::il_linkonce_object);
  Program main = compiledIL(il_modules::il_linkonce_main);
  Program program = linked({object, main});
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "linked_call");
  ASSERT_TRUE(k);
  constexpr size_t n = 32;
  std::vector<cl_uint> data(n);
  std::iota(data.begin(), data.end(), 5u);
  Mem m = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), data.data());
  setArgs(k, m.get());
  ASSERT_CL(run(k, n));
  std::vector<cl_uint> out = read<cl_uint>(m, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(1000u - data[i], out[i]) << "at " << i;
}

TEST_P(IlProgramTest, HalfConversionsThroughBuiltins) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  if (!hasExtension(device(), "cl_khr_fp16"))
    GTEST_SKIP() << "no cl_khr_fp16";
  Program program = buildIL(il_modules::il_half_conversions);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "half_conversions");
  ASSERT_TRUE(k);
  const double values[] = {NAN,   INFINITY, -INFINITY, 0.0,    -0.75, 0.5,    1.5,     2.5,      -2.5,   3.5,
                           127.5, 128.0,    -128.5,    -129.0, 200.0, -200.0, 1000.25, -32768.0, 32752.0};
  std::vector<cl_ushort> in;
  for (double v : values)
    in.push_back(half_ref::fromDouble(v));
  const size_t n = in.size();
  Mem min = input(in), saturated = buffer(CL_MEM_WRITE_ONLY, n), nearest = buffer(CL_MEM_WRITE_ONLY, 2 * n);
  setArgs(k, min.get(), saturated.get(), nearest.get());
  ASSERT_CL(run(k, n));
  std::vector<cl_char> gotSaturated = read<cl_char>(saturated, n);
  std::vector<cl_short> gotNearest = read<cl_short>(nearest, n);
  for (size_t i = 0; i < n; ++i) {
    double x = half_ref::toDouble(in[i]);
    int expected = std::isnan(x) ? 0 : int(std::clamp(std::trunc(x), -128.0, 127.0));
    EXPECT_EQ(expected, int(gotSaturated[i])) << "convert_char_sat(" << x << ")";
    if (std::isfinite(x)) // out of range is undefined without _sat
      EXPECT_EQ(int(std::nearbyint(x)), int(gotNearest[i])) << "convert_short_rte(" << x << ")";
  }
}

// The structs of il_structs.spvasm as the device lays them out.
struct IlInner {
  cl_uint i;
  cl_uchar c;
};
struct IlOuter {
  alignas(8) cl_uint v[2];
  IlInner inner;
};
struct IlMixed {
  cl_uchar c;
  cl_ushort s[3];
  cl_uint u;
  cl_ulong l;
};
static_assert(sizeof(IlInner) == 8 && sizeof(IlOuter) == 16 && offsetof(IlOuter, inner) == 8);
static_assert(sizeof(IlMixed) == 24 && offsetof(IlMixed, s) == 2 && offsetof(IlMixed, u) == 8 &&
              offsetof(IlMixed, l) == 16);

void expectOuter(const IlOuter &expected, const IlOuter &got, const std::string &where) {
  EXPECT_EQ(expected.v[0], got.v[0]) << where << " v.x";
  EXPECT_EQ(expected.v[1], got.v[1]) << where << " v.y";
  EXPECT_EQ(expected.inner.i, got.inner.i) << where << " inner.i";
  EXPECT_EQ(int(expected.inner.c), int(got.inner.c)) << where << " inner.c";
}

TEST_P(IlProgramTest, StructsMixingMemberSizesAreCopied) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_structs);
  ASSERT_TRUE(program);
  constexpr size_t n = 37;
  std::vector<IlOuter> outers(n);
  std::vector<IlMixed> mixed(n);
  for (size_t i = 0; i < n; ++i) {
    cl_uint x = cl_uint(i) * 2654435761u;
    outers[i] = {{x, ~x}, {x ^ 0x5a5a5a5au, cl_uchar(255 - i)}};
    mixed[i] = {cl_uchar(i + 128),
                {cl_ushort(40000 + i), cl_ushort(i), cl_ushort(65535 - i)},
                x,
                (cl_ulong(x) << 32) | (x + 1)};
  }
  Mem inOuters = input(outers), inMixed = input(mixed);
  std::vector<unsigned char> fill(n * sizeof(IlMixed), 0xa5);
  Mem outOuters = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(IlOuter), fill.data());
  Mem outMixed = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(IlMixed), fill.data());
  Kernel copyStructs = kernel(program, "copy_structs"), copyMixed = kernel(program, "copy_mixed");
  ASSERT_TRUE(copyStructs && copyMixed);
  setArgs(copyStructs, outOuters.get(), inOuters.get());
  setArgs(copyMixed, outMixed.get(), inMixed.get());
  ASSERT_CL(run(copyStructs, n));
  ASSERT_CL(run(copyMixed, n));
  std::vector<IlOuter> gotOuters = read<IlOuter>(outOuters, n);
  std::vector<IlMixed> gotMixed = read<IlMixed>(outMixed, n);
  for (size_t i = 0; i < n; ++i) {
    std::string where = "element " + std::to_string(i);
    expectOuter(outers[i], gotOuters[i], where);
    EXPECT_EQ(int(mixed[i].c), int(gotMixed[i].c)) << where << " c";
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(mixed[i].s[j], gotMixed[i].s[j]) << where << " s[" << j << "]";
    EXPECT_EQ(mixed[i].u, gotMixed[i].u) << where << " u";
    EXPECT_EQ(mixed[i].l, gotMixed[i].l) << where << " l";
  }
}

TEST_P(IlProgramTest, StructsBuiltChangedAndChosenAreStored) {
  if (!readsIL())
    GTEST_SKIP() << "the device reads no SPIR-V";
  Program program = buildIL(il_modules::il_structs);
  ASSERT_TRUE(program);
  constexpr size_t n = 29;
  std::vector<unsigned char> fill(3 * n * sizeof(IlOuter), 0xa5);
  Mem built = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 3 * n * sizeof(IlOuter), fill.data());
  std::vector<IlInner> data(n), choices(n);
  std::vector<cl_uint> choose(n);
  for (size_t i = 0; i < n; ++i) {
    data[i] = {cl_uint(i) * 1000003u + 7u, cl_uchar(i * 9)};
    choices[i] = {cl_uint(i) + 0x80000000u, cl_uchar(200 + i)};
    choose[i] = cl_uint(i % 3 != 1);
  }
  Mem changed = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(IlInner), data.data());
  Mem in = input(choices), flags = input(choose);
  Mem chosen = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(IlInner), fill.data());
  Kernel construct = kernel(program, "construct_structs"), change = kernel(program, "change_members"),
         pick = kernel(program, "choose_structs");
  ASSERT_TRUE(construct && change && pick);
  setArgs(construct, built.get());
  setArgs(change, changed.get());
  setArgs(pick, chosen.get(), in.get(), flags.get());
  ASSERT_CL(run(construct, n));
  ASSERT_CL(run(change, n));
  ASSERT_CL(run(pick, n));
  std::vector<IlOuter> gotBuilt = read<IlOuter>(built, 3 * n);
  std::vector<IlInner> gotChanged = read<IlInner>(changed, n), gotChosen = read<IlInner>(chosen, n);
  const IlOuter constant{{2100480000u, 7u}, {2100483600u, 128}};
  for (size_t i = 0; i < n; ++i) {
    std::string where = "work-item " + std::to_string(i);
    cl_uint x = cl_uint(i);
    expectOuter({{x, ~x}, {3 * x, cl_uchar(i + 200)}}, gotBuilt[3 * i], where + " constructed");
    expectOuter(constant, gotBuilt[3 * i + 1], where + " composite of constants");
    expectOuter(constant, gotBuilt[3 * i + 2], where + " copied constant");
    EXPECT_EQ(data[i].i * 2, gotChanged[i].i) << where;
    EXPECT_EQ(int(cl_uchar(data[i].c + 1)), int(gotChanged[i].c)) << where;
    IlInner expected = choose[i] ? choices[i] : IlInner{77, 250};
    EXPECT_EQ(expected.i, gotChosen[i].i) << where << " chosen";
    EXPECT_EQ(int(expected.c), int(gotChosen[i].c)) << where << " chosen";
  }
}

CLTEST_INSTANTIATE(IlProgramTest);

} // namespace
