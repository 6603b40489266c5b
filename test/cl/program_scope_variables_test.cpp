// Program-scope variables (__opencl_c_program_scope_global_variables),
// function-scope static variables and __constant program-scope data: their
// initial values, persistence between launches, one instance per program
// object (also with the kernel cache and program binaries), extern
// variables across clLinkProgram, and the size queries.
#include "cl_test.h"

#include <cstring>

using namespace cltest;

namespace {

bool hasOpenCLCFeature(cl_device_id device, std::string_view name) {
  for (const cl_name_version &feature : deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_FEATURES))
    if (name == feature.name)
      return true;
  return false;
}

class ProgramScopeVariablesTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceSupportsOpenCLC(device(), 3, 0) ||
        !hasOpenCLCFeature(device(), "__opencl_c_program_scope_global_variables"))
      GTEST_SKIP() << "the device does not support OpenCL C 3.0 program-scope global variables";
  }
  Program buildCL30(std::string_view source) { return build(source, "-cl-std=CL3.0"); }
  void run1D(cl_kernel k, size_t global, size_t local = 0) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  /// Runs `name` of `program` once (one work-item) with `args`.
  template <typename... Args> void runOnce(cl_program program, const char *name, const Args &...args) {
    Kernel k = kernel(program, name);
    ASSERT_TRUE(k);
    setArgs(k, args...);
    run1D(k, 1, 1);
  }
  Program fromSource(std::string_view source) {
    const char *text = source.data();
    size_t length = source.size();
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, &length, &err));
    EXPECT_CL(err);
    return program;
  }
};

// Every kind of program-scope variable, with and without initialisers.
constexpr const char *kVariablesSource = R"(
typedef struct { int a; float b; long c; } Record;

global int initialised = 42;
global int uninitialised;
global float array[5] = {1.5f, 2.5f, 3.5f};
global Record record = {7, 8.25f, -9};
global Record records[2];
global int array_of_ints[4] = {10, 20, 30, 40};
global int *pointer = &array_of_ints[2];
global int *null_pointer;
constant int table[4] = {100, 200, 300, 400};
constant Record constant_record = {-1, 0.5f, 1L << 40};

int next_call(void) {
  static int calls = 0;
  static global int base = 1000;
  return base + calls++;
}

kernel void read_all(global long *out) {
  out[0] = initialised;
  out[1] = uninitialised;
  for (int k = 0; k < 5; ++k)
    out[2 + k] = (long)(array[k] * 4.0f);
  out[7] = record.a;
  out[8] = (long)(record.b * 4.0f);
  out[9] = record.c;
  out[10] = records[1].a + records[1].c;
  out[11] = *pointer;
  out[12] = null_pointer == NULL;
  out[13] = table[1] + table[3];
  out[14] = constant_record.a;
  out[15] = constant_record.c;
  out[16] = next_call();
}

kernel void write_all(int value) {
  initialised = value;
  uninitialised = value + 1;
  array[4] = value + 2;
  record.c = value + 3;
  records[1].a = value + 4;
  records[1].c = value + 5;
  pointer = &array_of_ints[3];
  *pointer += value;
  null_pointer = &initialised;
}
)";

constexpr size_t kReadCount = 17;

std::vector<cl_long> initialValues() {
  return {42, 0, 6, 10, 14, 0, 0, 7, 33, -9, 0, 30, 1, 600, -1, cl_long(1) << 40, 1000};
}

TEST_P(ProgramScopeVariablesTest, InitialValuesOfEveryKind) {
  Program program = buildCL30(kVariablesSource);
  ASSERT_TRUE(program);
  Mem out = buffer(CL_MEM_WRITE_ONLY, kReadCount * sizeof(cl_long));
  runOnce(program, "read_all", out.get());
  EXPECT_EQ(read<cl_long>(out, kReadCount), initialValues());
}

TEST_P(ProgramScopeVariablesTest, ValuesPersistBetweenLaunchesAndKernels) {
  Program program = buildCL30(kVariablesSource);
  ASSERT_TRUE(program);
  Mem out = buffer(CL_MEM_WRITE_ONLY, kReadCount * sizeof(cl_long));
  runOnce(program, "write_all", cl_int{5});
  runOnce(program, "read_all", out.get());
  std::vector<cl_long> expected = initialValues();
  expected[0] = 5;
  expected[1] = 6;
  expected[6] = 7 * 4;
  expected[9] = 8;
  expected[10] = 9 + 10;
  expected[11] = 40 + 5; // pointer now at array_of_ints[3], incremented by 5
  expected[12] = 0;
  EXPECT_EQ(read<cl_long>(out, kReadCount), expected);
  // The function-scope static counts calls across launches.
  runOnce(program, "read_all", out.get());
  EXPECT_EQ(read<cl_long>(out, kReadCount)[16], 1001);
}

TEST_P(ProgramScopeVariablesTest, AllWorkItemsAndGroupsShareOneInstance) {
  Program program = buildCL30(R"(
global int counter;
global int histogram[8];
kernel void count(void) {
  atomic_inc(&counter);
  atomic_add(&histogram[get_global_id(0) % 8], (int)get_group_id(0) + 1);
}
kernel void fetch(global int *out) {
  out[0] = counter;
  for (int k = 0; k < 8; ++k)
    out[1 + k] = histogram[k];
}
)");
  ASSERT_TRUE(program);
  constexpr size_t global = 4096, local = 64, launches = 3;
  Kernel count = kernel(program, "count");
  for (size_t launch = 0; launch < launches; ++launch)
    run1D(count, global, local);
  Mem out = buffer(CL_MEM_WRITE_ONLY, 9 * sizeof(cl_int));
  runOnce(program, "fetch", out.get());
  std::vector<cl_int> expected(9, 0);
  expected[0] = global * launches;
  for (size_t i = 0; i < global; ++i)
    expected[1 + i % 8] += static_cast<cl_int>((i / local + 1) * launches);
  EXPECT_EQ(read<cl_int>(out, 9), expected);
}

TEST_P(ProgramScopeVariablesTest, ProgramsFromTheSameSourceHaveTheirOwnStorage) {
  Program first = buildCL30(kVariablesSource);
  Program second = buildCL30(kVariablesSource); // the same build: a kernel cache hit
  ASSERT_TRUE(first && second);
  runOnce(first, "write_all", cl_int{77});
  Mem out = buffer(CL_MEM_WRITE_ONLY, kReadCount * sizeof(cl_long));
  runOnce(second, "read_all", out.get());
  EXPECT_EQ(read<cl_long>(out, kReadCount), initialValues());
  runOnce(first, "read_all", out.get());
  EXPECT_EQ(read<cl_long>(out, kReadCount)[0], 77);
}

TEST_P(ProgramScopeVariablesTest, ProgramFromABinaryStartsFromTheInitialValues) {
  Program original = buildCL30(kVariablesSource);
  ASSERT_TRUE(original);
  runOnce(original, "write_all", cl_int{-3});
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
  ASSERT_GT(size, 0u);
  std::vector<unsigned char> binary(size);
  unsigned char *binaries[] = {binary.data()};
  ASSERT_CL(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));

  cl_device_id dev = device();
  const unsigned char *data = binary.data();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  Program copy(clCreateProgramWithBinary(context_, 1, &dev, &size, &data, &status, &err));
  ASSERT_CL(err);
  ASSERT_CL(status);
  ASSERT_CL(clBuildProgram(copy, 1, &dev, nullptr, nullptr, nullptr));
  Mem out = buffer(CL_MEM_WRITE_ONLY, kReadCount * sizeof(cl_long));
  runOnce(copy, "read_all", out.get());
  EXPECT_EQ(read<cl_long>(out, kReadCount), initialValues());
}

TEST_P(ProgramScopeVariablesTest, ExternVariablesLinkAcrossCompiledObjects) {
  Program definitions = fromSource(R"(
global int shared_value = 11;
global int shared_array[3] = {1, 2, 3};
kernel void store(int value) {
  shared_value += value;
  shared_array[2] = value;
}
)");
  Program uses = fromSource(R"(
extern global int shared_value;
extern global int shared_array[3];
kernel void load(global int *out) {
  out[0] = shared_value;
  out[1] = shared_array[0] + shared_array[1] + shared_array[2];
}
)");
  ASSERT_TRUE(definitions && uses);
  cl_device_id dev = device();
  ASSERT_CL(clCompileProgram(definitions, 1, &dev, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr, nullptr))
      << programBuildLog(definitions, dev);
  ASSERT_CL(clCompileProgram(uses, 1, &dev, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr, nullptr))
      << programBuildLog(uses, dev);
  cl_program inputs[] = {uses.get(), definitions.get()};
  cl_int err = CL_SUCCESS;
  Program linked(clLinkProgram(context_, 1, &dev, nullptr, 2, inputs, nullptr, nullptr, &err));
  ASSERT_CL(err) << (linked ? programBuildLog(linked, dev) : std::string());
  Mem out = buffer(CL_MEM_WRITE_ONLY, 2 * sizeof(cl_int));
  runOnce(linked, "load", out.get());
  EXPECT_EQ(read<cl_int>(out, 2), (std::vector<cl_int>{11, 6}));
  runOnce(linked, "store", cl_int{4});
  runOnce(linked, "load", out.get());
  EXPECT_EQ(read<cl_int>(out, 2), (std::vector<cl_int>{15, 7}));
}

// A variable of CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes builds and works.
TEST_P(ProgramScopeVariablesTest, VariableOfTheMaximumSizeWorks) {
  size_t maxSize = deviceInfo<size_t>(device(), CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  if (maxSize > (size_t(512) << 20))
    GTEST_SKIP() << "the maximum (" << maxSize << " bytes) is too large to allocate in a unit test";
  std::string source = "uchar big[" + std::to_string(maxSize) + "UL];\n" + R"(
kernel void touch(global ulong *io) {
  big[0] = 1;
  big[io[0] - 1] = 2;
  io[1] = big[0] + big[io[0] - 1];
}
)";
  Program program = buildCL30(source);
  ASSERT_TRUE(program);
  cl_ulong io[2] = {maxSize, 0};
  Mem data = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(io), io);
  runOnce(program, "touch", data.get());
  EXPECT_EQ(read<cl_ulong>(data, 2)[1], 3u);
}

TEST_P(ProgramScopeVariablesTest, UndefinedExternVariableFailsTheBuild) {
  const char *uses = R"(
extern global int nowhere;
kernel void load(global int *out) { out[0] = nowhere; }
)";
  cl_device_id dev = device();
  Program built = fromSource(uses);
  ASSERT_TRUE(built);
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(built, 1, &dev, "-cl-std=CL3.0", nullptr, nullptr));
  EXPECT_NE(programBuildLog(built, dev).find("nowhere"), std::string::npos) << programBuildLog(built, dev);

  Program compiled = fromSource(uses);
  ASSERT_TRUE(compiled);
  ASSERT_CL(clCompileProgram(compiled, 1, &dev, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program input = compiled.get();
  cl_int err = CL_SUCCESS;
  Program linked(clLinkProgram(context_, 1, &dev, nullptr, 1, &input, nullptr, nullptr, &err));
  EXPECT_CL_ERR(CL_LINK_PROGRAM_FAILURE, err);
}

TEST_P(ProgramScopeVariablesTest, BuildReportsTheTotalSizeOfGlobalVariables) {
  Program program = buildCL30(R"(
typedef struct { int a; long b; } Pair;
global int scalar;
global float floats[10] = {1.0f};
global Pair pair;
global int *pointer;
constant int table[64] = {1};
int counter(void) {
  static int calls;
  return calls++;
}
kernel void use(global int *out) {
  out[0] = scalar + (int)floats[1] + pair.a + (pointer != NULL) + table[2] + counter();
}
)");
  ASSERT_TRUE(program);
  size_t total = 0;
  ASSERT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof(total), &total,
                                  nullptr));
  // int, float[10], Pair, a pointer and the static int; __constant data is
  // not in the global address space. Allow for padding between variables.
  size_t pointerBytes = deviceInfo<cl_uint>(device(), CL_DEVICE_ADDRESS_BITS) / 8;
  size_t expected = 4 + 40 + 16 + pointerBytes + 4;
  EXPECT_GE(total, expected);
  EXPECT_LT(total, expected + 64);

  Program none = buildCL30("kernel void nothing(global int *out) { out[0] = 1; }");
  ASSERT_TRUE(none);
  ASSERT_CL(clGetProgramBuildInfo(none, device(), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof(total), &total,
                                  nullptr));
  EXPECT_EQ(total, 0u);
}

TEST_P(ProgramScopeVariablesTest, DeviceLimitsAllowALargeVariable) {
  size_t maxSize = deviceInfo<size_t>(device(), CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  size_t preferredTotal = deviceInfo<size_t>(device(), CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE);
  EXPECT_GE(maxSize, 64u * 1024) << "the spec's minimum";
  EXPECT_GT(preferredTotal, 0u);
  EXPECT_LE(maxSize, deviceInfo<cl_ulong>(device(), CL_DEVICE_GLOBAL_MEM_SIZE));

  constexpr size_t kBytes = 1 << 20; // within every limit a device may report
  if (maxSize < kBytes)
    GTEST_SKIP() << "a 1 MiB variable exceeds CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE";
  Program program = buildCL30(R"(
global uchar big[1 << 20];
kernel void fill(void) { big[get_global_id(0)] = (uchar)(get_global_id(0) * 7 + 3); }
kernel void copy_out(global uchar *out) { out[get_global_id(0)] = big[get_global_id(0)]; }
)");
  ASSERT_TRUE(program);
  Kernel fill = kernel(program, "fill");
  run1D(fill, kBytes, 256);
  Mem out = buffer(CL_MEM_WRITE_ONLY, kBytes);
  Kernel copy = kernel(program, "copy_out");
  setArgs(copy, out.get());
  run1D(copy, kBytes, 256);
  auto bytes = read<cl_uchar>(out, kBytes);
  for (size_t i = 0; i < kBytes; ++i)
    ASSERT_EQ(bytes[i], static_cast<cl_uchar>(i * 7 + 3)) << i;
}

} // namespace

CLTEST_INSTANTIATE(ProgramScopeVariablesTest);
