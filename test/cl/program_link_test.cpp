// Separate compilation and linking, kernel argument info, program binaries
// and build options: clCompileProgram with embedded headers (nested, in
// directories), clLinkProgram of objects and libraries (-create-library),
// link errors and their logs, clGetKernelArgInfo with and without
// -cl-kernel-arg-info, binaries of executables, objects and libraries round
// trip, corrupt and truncated binaries, the build options of OpenCL 3.0
// section 5.8.6/5.8.7, and what a kernel-cache hit keeps. Complements
// program_test.cpp, program_cache_test.cpp and cts_regression_test.cpp.
#include "cl_test.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

using namespace cltest;
namespace fs = std::filesystem;

namespace {

// apply(x) is defined in another program; kernels of this one call it.
constexpr const char *kUsesApply = R"(
int apply(int x);
kernel void run_apply(global int *data) {
  size_t i = get_global_id(0);
  data[i] = apply(data[i]);
}
)";
constexpr const char *kDefinesApply = "int apply(int x) { return x * x + 1; }";
constexpr const char *kDefinesOffset = "int offset(int x) { return x - 5; }";
constexpr const char *kUsesBoth = R"(
int apply(int x);
int offset(int x);
kernel void run_both(global int *data) {
  size_t i = get_global_id(0);
  data[i] = offset(apply(data[i]));
}
)";

// Writes the value of macro VALUE_EXPR (a build-option dependent expression).
constexpr const char *kValueKernel = R"(
#ifndef VALUE_EXPR
#define VALUE_EXPR -1
#endif
kernel void value(global int *out) { out[0] = VALUE_EXPR; }
)";

// Exact float arithmetic (small integers), so every math option gives the
// same result.
constexpr const char *kExactMath = R"(
kernel void exact(global const float *a, global float *out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 2.0f + 1.0f - (float)(int)i;
}
)";

constexpr const char *kArgInfoKernel = R"(
typedef struct { int a; float b; } Pair;
kernel void described(global const float4 *restrict input, local volatile int *scratch, constant uint *table,
                      int count, global uchar *output, Pair pair) {
  scratch[0] = count;
  output[0] = (uchar)(input[0].x + table[0] + scratch[0] + pair.a);
}
)";

class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

class TempDir {
public:
  TempDir() {
    std::string model = (fs::temp_directory_path() / "polymux-link-test-XXXXXX").string();
    if (mkdtemp(model.data()))
      path_ = model;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty())
      fs::remove_all(path_, ignored);
  }
  const fs::path &path() const { return path_; }

private:
  fs::path path_;
};

class ProgramLinkTest : public DeviceTest {
protected:
  Program fromSource(const char *text) {
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
    EXPECT_CL(err);
    return program;
  }
  // A compiled object, or an empty holder after reporting the log.
  Program compiled(const char *text, const char *options = nullptr) {
    Program program = fromSource(text);
    cl_device_id dev = device();
    cl_int err = clCompileProgram(program, 1, &dev, options, 0, nullptr, nullptr, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      ADD_FAILURE() << "clCompileProgram: " << errorName(err) << "\n" << programBuildLog(program, dev);
      return {};
    }
    return program;
  }
  Program link(std::initializer_list<cl_program> inputs, const char *options, cl_int &err) {
    std::vector<cl_program> list(inputs);
    cl_device_id dev = device();
    return Program(clLinkProgram(context_, 1, &dev, options, static_cast<cl_uint>(list.size()), list.data(), nullptr,
                                 nullptr, &err));
  }
  Program linked(std::initializer_list<cl_program> inputs, const char *options = nullptr) {
    cl_int err = CL_SUCCESS;
    Program program = link(inputs, options, err);
    EXPECT_CL(err) << (program ? programBuildLog(program, device()) : std::string());
    return err == CL_SUCCESS ? std::move(program) : Program();
  }
  std::vector<unsigned char> binaryOf(cl_program program) {
    size_t size = 0;
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
    std::vector<unsigned char> binary(size);
    unsigned char *binaries[] = {binary.data()};
    EXPECT_CL(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));
    return binary;
  }
  // clCreateProgramWithBinary; `status` gets binary_status[0].
  Program fromBinary(const std::vector<unsigned char> &binary, cl_int &err, cl_int &status) {
    cl_device_id dev = device();
    const unsigned char *input[] = {binary.data()};
    size_t size = binary.size();
    status = 1; // neither success nor an error code
    return Program(clCreateProgramWithBinary(context_, 1, &dev, &size, input, &status, &err));
  }
  cl_program_binary_type binaryType(cl_program program) {
    cl_program_binary_type type = 0;
    EXPECT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BINARY_TYPE, sizeof(type), &type, nullptr));
    return type;
  }
  cl_build_status buildStatus(cl_program program) {
    cl_build_status status = CL_BUILD_NONE;
    EXPECT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr));
    return status;
  }
  std::string buildOptions(cl_program program) {
    size_t size = 0;
    EXPECT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size));
    std::string value(size, '\0');
    EXPECT_CL(clGetProgramBuildInfo(program, device(), CL_PROGRAM_BUILD_OPTIONS, size, value.data(), nullptr));
    value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
    return value;
  }
  // Runs a one-argument kernel over `input`; returns the buffer afterwards.
  std::vector<int> runOn(cl_program program, const char *name, std::vector<int> input) {
    Kernel k = kernel(program, name);
    if (!k)
      return {};
    Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, input.size() * sizeof(int), input.data());
    EXPECT_CL(setArg(k, 0, mem.get()));
    size_t global = input.size();
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    return read<int>(mem, input.size());
  }
  // The value the `value` kernel of kValueKernel writes.
  int runValue(cl_program program) {
    auto out = runOn(program, "value", {0});
    return out.empty() ? INT32_MIN : out[0];
  }
  static std::vector<int> sample() { return {-3, 0, 1, 2, 7, 100, -41, 12}; }
  static int applyRef(int x) { return x * x + 1; }
};

} // namespace

TEST_P(ProgramLinkTest, CompileWithEmbeddedHeaders) {
  // "common/defs.h" includes "inner.h" (found next to it, in common/) and
  // "values.h" (found at the top of the header tree).
  Program values = fromSource("#define BASE 40\n");
  Program defs = fromSource("#include \"inner.h\"\n#include \"values.h\"\n#define TOTAL (BASE + INNER)\n");
  Program inner = fromSource("#define INNER 2\n");
  Program program =
      fromSource("#include \"common/defs.h\"\n"
                 "kernel void store(global int *p) { p[get_global_id(0)] = TOTAL + (int)get_global_id(0); }\n");
  cl_program headers[] = {values, defs, inner};
  const char *names[] = {"values.h", "common/defs.h", "common/inner.h"};
  cl_device_id dev = device();
  ASSERT_CL(clCompileProgram(program, 1, &dev, nullptr, 3, headers, names, nullptr, nullptr))
      << programBuildLog(program, dev);
  EXPECT_EQ(buildStatus(program), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(program), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  Program exe = linked({program});
  ASSERT_TRUE(exe);
  EXPECT_EQ(runOn(exe, "store", {0, 0, 0}), (std::vector<int>{42, 43, 44}));

  // Without the headers the include fails, and the log names it.
  Program alone = fromSource("#include \"common/defs.h\"\nkernel void store(global int *p) { *p = TOTAL; }\n");
  EXPECT_CL_ERR(CL_COMPILE_PROGRAM_FAILURE,
                clCompileProgram(alone, 1, &dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(buildStatus(alone), CL_BUILD_ERROR);
  EXPECT_NE(programBuildLog(alone, dev).find("defs.h"), std::string::npos) << programBuildLog(alone, dev);

  // Headers and names go together.
  EXPECT_CL_ERR(CL_INVALID_VALUE, clCompileProgram(program, 1, &dev, nullptr, 1, nullptr, names, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clCompileProgram(program, 1, &dev, nullptr, 1, headers, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clCompileProgram(program, 1, &dev, nullptr, 0, headers, names, nullptr, nullptr));
}

TEST_P(ProgramLinkTest, LinkTwoObjects) {
  Program user = compiled(kUsesApply), provider = compiled(kDefinesApply);
  ASSERT_TRUE(user && provider);
  Program exe = linked({user, provider});
  ASSERT_TRUE(exe);
  EXPECT_EQ(buildStatus(exe), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(exe), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  std::vector<int> expected;
  for (int x : sample())
    expected.push_back(applyRef(x));
  EXPECT_EQ(runOn(exe, "run_apply", sample()), expected);
  // The order of the inputs does not matter.
  Program reversed = linked({provider, user});
  ASSERT_TRUE(reversed);
  EXPECT_EQ(runOn(reversed, "run_apply", sample()), expected);
  // Only the kernels of the inputs are in the executable.
  size_t count = 0;
  ASSERT_CL(clGetProgramInfo(exe, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, nullptr));
  EXPECT_EQ(count, 1u);
}

TEST_P(ProgramLinkTest, CreateLibraryThenLink) {
  Program apply = compiled(kDefinesApply), offset = compiled(kDefinesOffset), user = compiled(kUsesBoth);
  ASSERT_TRUE(apply && offset && user);
  Program library = linked({apply, offset}, "-create-library");
  ASSERT_TRUE(library);
  EXPECT_EQ(binaryType(library), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  // A library is not an executable.
  cl_int err = CL_SUCCESS;
  Kernel none(clCreateKernel(library, "run_both", &err));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
  expectNoHandle(none);

  Program exe = linked({user, library});
  ASSERT_TRUE(exe);
  std::vector<int> expected;
  for (int x : sample())
    expected.push_back(applyRef(x) - 5);
  EXPECT_EQ(runOn(exe, "run_both", sample()), expected);
  // -enable-link-options is accepted with -create-library.
  Program withLinkOptions = linked({apply, offset}, "-create-library -enable-link-options");
  ASSERT_TRUE(withLinkOptions);
  Program exe2 = linked({withLinkOptions, user}, "-cl-fast-relaxed-math");
  ASSERT_TRUE(exe2);
  EXPECT_EQ(runOn(exe2, "run_both", sample()), expected);
}

TEST_P(ProgramLinkTest, UndefinedFunctionIsALinkFailure) {
  Program user = compiled(kUsesApply);
  ASSERT_TRUE(user);
  cl_int err = CL_SUCCESS;
  Program failed = link({user.get()}, nullptr, err);
  EXPECT_CL_ERR(CL_LINK_PROGRAM_FAILURE, err);
  // The spec lets a failed link return NULL; a program returned anyway (as
  // Polymux does) carries the log.
  if (failed) {
    EXPECT_EQ(buildStatus(failed), CL_BUILD_ERROR);
    const std::string log = programBuildLog(failed, device());
    EXPECT_NE(log.find("apply"), std::string::npos) << "the log names the undefined function:\n" << log;
    Kernel none(clCreateKernel(failed, "run_apply", &err));
    EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
    expectNoHandle(none);
  }

  // The same through clBuildProgram.
  Program built = fromSource(kUsesApply);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(built, 1, &dev, nullptr, nullptr, nullptr));
  EXPECT_EQ(buildStatus(built), CL_BUILD_ERROR);
  EXPECT_NE(programBuildLog(built, dev).find("apply"), std::string::npos) << programBuildLog(built, dev);
}

TEST_P(ProgramLinkTest, DuplicateDefinitionIsALinkFailure) {
  Program a = compiled(kDefinesApply), b = compiled("int apply(int x) { return x; }"), user = compiled(kUsesApply);
  ASSERT_TRUE(a && b && user);
  cl_int err = CL_SUCCESS;
  Program failed = link({user.get(), a.get(), b.get()}, nullptr, err);
  EXPECT_CL_ERR(CL_LINK_PROGRAM_FAILURE, err);
  if (failed) {
    EXPECT_EQ(buildStatus(failed), CL_BUILD_ERROR);
    EXPECT_NE(programBuildLog(failed, device()).find("apply"), std::string::npos) << programBuildLog(failed, device());
  }
}

TEST_P(ProgramLinkTest, LinkInputErrors) {
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  // A program that was never compiled has nothing to link.
  Program source = fromSource(kDefinesApply);
  Program none = link({source.get()}, nullptr, err);
  EXPECT_CL_ERR(CL_INVALID_OPERATION, err);
  expectNoHandle(none);
  // Nor does one whose compilation failed.
  Program broken = fromSource("int apply(int x) { return x +; }");
  EXPECT_CL_ERR(CL_COMPILE_PROGRAM_FAILURE,
                clCompileProgram(broken, 1, &dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  Program none2 = link({broken.get()}, nullptr, err);
  EXPECT_CL_ERR(CL_INVALID_OPERATION, err);
  expectNoHandle(none2);
  Program object = compiled(kDefinesApply);
  ASSERT_TRUE(object);
  Program none3(clLinkProgram(context_, 1, &dev, nullptr, 0, nullptr, nullptr, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(none3);
  cl_program invalid = nullptr;
  Program none4(clLinkProgram(context_, 1, &dev, nullptr, 1, &invalid, nullptr, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, err);
  expectNoHandle(none4);
  // Compiler options are not linker options.
  Program none5 = link({object.get()}, "-DX=1", err);
  EXPECT_CL_ERR(CL_INVALID_LINKER_OPTIONS, err);
  expectNoHandle(none5);
  // Nor are unknown options compiler options.
  Program other = fromSource(kDefinesApply);
  EXPECT_CL_ERR(CL_INVALID_COMPILER_OPTIONS,
                clCompileProgram(other, 1, &dev, "-no-such-option", 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMPILER_OPTIONS,
                clCompileProgram(other, 1, &dev, "-create-library", 0, nullptr, nullptr, nullptr, nullptr));
}

TEST_P(ProgramLinkTest, KernelArgInfoNeedsTheOption) {
  struct Expected {
    const char *name, *type;
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_type_qualifier qualifiers;
  };
  const Expected expected[] = {
      {"input", "float4*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"scratch", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_VOLATILE},
      {"table", "uint*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
      {"count", "int", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"output", "uchar*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_NONE},
      {"pair", "Pair", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
  };
  auto check = [&](cl_program program) {
    Kernel k = kernel(program, "described");
    ASSERT_TRUE(k);
    for (cl_uint i = 0; i < std::size(expected); ++i) {
      SCOPED_TRACE(testing::Message() << "argument " << i);
      auto text = [&](cl_kernel_arg_info param) {
        size_t size = 0;
        EXPECT_CL(clGetKernelArgInfo(k, i, param, 0, nullptr, &size));
        std::string value(size, '\0');
        EXPECT_CL(clGetKernelArgInfo(k, i, param, size, value.data(), nullptr));
        value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
        return value;
      };
      EXPECT_EQ(text(CL_KERNEL_ARG_NAME), expected[i].name);
      EXPECT_EQ(text(CL_KERNEL_ARG_TYPE_NAME), expected[i].type);
      cl_kernel_arg_address_qualifier address = 0;
      ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(address), &address, nullptr));
      EXPECT_EQ(address, expected[i].address);
      cl_kernel_arg_access_qualifier access = 0;
      ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr));
      EXPECT_EQ(access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE));
      cl_kernel_arg_type_qualifier qualifiers = 0;
      ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(qualifiers), &qualifiers, nullptr));
      EXPECT_EQ(qualifiers, expected[i].qualifiers);
    }
  };
  auto expectUnavailable = [&](cl_program program) {
    Kernel k = kernel(program, "described");
    ASSERT_TRUE(k);
    size_t size = 0;
    for (cl_kernel_arg_info param : {CL_KERNEL_ARG_NAME, CL_KERNEL_ARG_TYPE_NAME})
      EXPECT_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, clGetKernelArgInfo(k, 0, param, 0, nullptr, &size));
    // The argument index is checked first.
    EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_NAME, 0, nullptr, &size));
  };

  Program withInfo = build(kArgInfoKernel, "-cl-kernel-arg-info");
  ASSERT_TRUE(withInfo);
  check(withInfo);
  Program without = build(kArgInfoKernel);
  ASSERT_TRUE(without);
  expectUnavailable(without);
  // Through clCompileProgram + clLinkProgram: the compile options decide.
  Program object = compiled(kArgInfoKernel, "-cl-kernel-arg-info");
  ASSERT_TRUE(object);
  Program linkedWith = linked({object});
  ASSERT_TRUE(linkedWith);
  check(linkedWith);
  Program plainObject = compiled(kArgInfoKernel);
  ASSERT_TRUE(plainObject);
  Program linkedWithout = linked({plainObject});
  ASSERT_TRUE(linkedWithout);
  expectUnavailable(linkedWithout);
}

TEST_P(ProgramLinkTest, BinariesOfEveryTypeRoundTrip) {
  // A linked executable, an object and a library go out through
  // CL_PROGRAM_BINARIES and come back through clCreateProgramWithBinary.
  Program user = compiled(kUsesBoth), apply = compiled(kDefinesApply), offset = compiled(kDefinesOffset);
  ASSERT_TRUE(user && apply && offset);
  Program library = linked({apply, offset}, "-create-library");
  Program exe = linked({user, library});
  ASSERT_TRUE(library && exe);
  std::vector<int> expected;
  for (int x : sample())
    expected.push_back(applyRef(x) - 5);

  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  cl_device_id dev = device();
  // Executable: clBuildProgram makes it usable.
  Program exeBack = fromBinary(binaryOf(exe), err, status);
  ASSERT_CL(err);
  EXPECT_CL(status);
  EXPECT_EQ(binaryType(exeBack), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_CL(clBuildProgram(exeBack, 1, &dev, nullptr, nullptr, nullptr));
  EXPECT_EQ(runOn(exeBack, "run_both", sample()), expected);
  // Its binary reloads again.
  Program exeTwice = fromBinary(binaryOf(exeBack), err, status);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(exeTwice, 1, &dev, nullptr, nullptr, nullptr));
  EXPECT_EQ(runOn(exeTwice, "run_both", sample()), expected);

  // Object and library: linked together after both were reloaded.
  Program userBack = fromBinary(binaryOf(user), err, status);
  ASSERT_CL(err);
  EXPECT_CL(status);
  EXPECT_EQ(binaryType(userBack), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  Program libraryBack = fromBinary(binaryOf(library), err, status);
  ASSERT_CL(err);
  EXPECT_CL(status);
  EXPECT_EQ(binaryType(libraryBack), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  Program relinked = linked({userBack, libraryBack});
  ASSERT_TRUE(relinked);
  EXPECT_EQ(runOn(relinked, "run_both", sample()), expected);
}

TEST_P(ProgramLinkTest, CorruptAndTruncatedBinaries) {
  Program exe = build(kValueKernel, "-DVALUE_EXPR=5");
  ASSERT_TRUE(exe);
  const std::vector<unsigned char> valid = binaryOf(exe);
  ASSERT_GT(valid.size(), 64u);
  std::vector<std::pair<std::string, std::vector<unsigned char>>> damaged;
  auto flipped = [&](size_t at) {
    auto copy = valid;
    copy[at] ^= 0x40;
    return copy;
  };
  damaged.emplace_back("byte flipped at the start", flipped(0));
  damaged.emplace_back("byte flipped in the middle", flipped(valid.size() / 2));
  damaged.emplace_back("byte flipped at the end", flipped(valid.size() - 1));
  damaged.emplace_back("truncated to half",
                       std::vector<unsigned char>(valid.begin(), valid.begin() + valid.size() / 2));
  damaged.emplace_back("last byte missing", std::vector<unsigned char>(valid.begin(), valid.end() - 1));
  damaged.emplace_back("first 16 bytes", std::vector<unsigned char>(valid.begin(), valid.begin() + 16));
  damaged.emplace_back("one byte", std::vector<unsigned char>(1, valid[0]));
  damaged.emplace_back("garbage", std::vector<unsigned char>(valid.size(), 0xa5));
  damaged.emplace_back("ELF header", std::vector<unsigned char>{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0});
  for (const auto &[what, bytes] : damaged) {
    SCOPED_TRACE(what);
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    Program program = fromBinary(bytes, err, status);
    EXPECT_CL_ERR(CL_INVALID_BINARY, err);
    EXPECT_CL_ERR(CL_INVALID_BINARY, status) << "binary_status";
    expectNoHandle(program);
  }
  // Missing binaries and lengths: CL_INVALID_VALUE, binary_status says so.
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  size_t zero = 0;
  const unsigned char *pointer[] = {valid.data()};
  Program none(clCreateProgramWithBinary(context_, 1, &dev, &zero, pointer, &status, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_CL_ERR(CL_INVALID_VALUE, status);
  expectNoHandle(none);
  size_t size = valid.size();
  const unsigned char *nothing[] = {nullptr};
  Program none2(clCreateProgramWithBinary(context_, 1, &dev, &size, nothing, &status, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(none2);
  Program none3(clCreateProgramWithBinary(context_, 0, &dev, &size, pointer, &status, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(none3);
  // The valid binary still loads after all that.
  Program good = fromBinary(valid, err, status);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(good, 1, &dev, nullptr, nullptr, nullptr));
  EXPECT_EQ(runValue(good), 5);
}

TEST_P(ProgramLinkTest, DefineAndIncludeOptions) {
  Program plain = build(kValueKernel);
  ASSERT_TRUE(plain);
  EXPECT_EQ(runValue(plain), -1);
  Program defined = build(kValueKernel, "-DA=3 -D B=4 -DFLAG -DVALUE_EXPR=(A*B+FLAG)");
  ASSERT_TRUE(defined);
  EXPECT_EQ(runValue(defined), 13) << "FLAG without a value is 1";

  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  fs::create_directories(dir.path() / "sub");
  std::ofstream(dir.path() / "sub" / "extra.h") << "#define VALUE_EXPR 1234\n";
  const std::string source = std::string("#include \"extra.h\"\n") + kValueKernel;
  const std::string joined = "-I" + (dir.path() / "sub").string();
  Program included = build(source, joined.c_str());
  ASSERT_TRUE(included);
  EXPECT_EQ(runValue(included), 1234);
  const std::string separate = "-I " + (dir.path() / "sub").string();
  Program included2 = build(source, separate.c_str());
  ASSERT_TRUE(included2);
  EXPECT_EQ(runValue(included2), 1234);
  EXPECT_NE(buildOptions(included2).find(separate), std::string::npos) << buildOptions(included2);
  // Quoted option values may hold spaces.
  fs::create_directories(dir.path() / "with space");
  std::ofstream(dir.path() / "with space" / "extra.h") << "#define VALUE_EXPR 4321\n";
  const std::string quoted = "-I \"" + (dir.path() / "with space").string() + "\"";
  Program included3 = build(source, quoted.c_str());
  ASSERT_TRUE(included3);
  EXPECT_EQ(runValue(included3), 4321);
  EXPECT_EQ(runValue(build(kValueKernel, "-D \"VALUE_EXPR=(2 + 3) * 7\"")), 35);
  // Without -I the header is not found.
  Program missing = fromSource(source.c_str());
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(missing, 1, &dev, nullptr, nullptr, nullptr));
  EXPECT_NE(programBuildLog(missing, dev).find("extra.h"), std::string::npos);
}

TEST_P(ProgramLinkTest, LanguageVersionOptions) {
  EXPECT_EQ(runValue(build(kValueKernel, "-DVALUE_EXPR=__OPENCL_C_VERSION__ -cl-std=CL1.2")), 120);
  if (deviceSupportsOpenCLC(device(), 2, 0))
    EXPECT_EQ(runValue(build(kValueKernel, "-DVALUE_EXPR=__OPENCL_C_VERSION__ -cl-std=CL2.0")), 200);
  if (deviceSupportsOpenCLC(device(), 3, 0))
    EXPECT_EQ(runValue(build(kValueKernel, "-DVALUE_EXPR=__OPENCL_C_VERSION__ -cl-std=CL3.0")), 300);
  // Without -cl-std, OpenCL C 1.2 for devices that support it.
  if (deviceSupportsOpenCLC(device(), 1, 2))
    EXPECT_EQ(runValue(build(kValueKernel, "-DVALUE_EXPR=__OPENCL_C_VERSION__")), 120);
  // A generic-address-space construct compiles only under a version with it.
  if (deviceSupportsOpenCLC(device(), 3, 0)) {
    constexpr const char *generic = "int load(int *p) { return *p; }\n"
                                    "kernel void value(global int *out) { local int l; l = 5; "
                                    "barrier(CLK_LOCAL_MEM_FENCE); out[0] = load(out) * 0 + load(&l); }";
    bool hasGeneric = false;
    for (const cl_name_version &f : deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES))
      hasGeneric |= std::string(f.name) == "__opencl_c_generic_address_space";
    if (hasGeneric)
      EXPECT_EQ(runValue(build(generic, "-cl-std=CL3.0")), 5);
    Program old = fromSource(generic);
    cl_device_id dev = device();
    EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(old, 1, &dev, "-cl-std=CL1.2", nullptr, nullptr));
  }
}

TEST_P(ProgramLinkTest, MathAndDebugOptionsBuildAndRun) {
  constexpr size_t n = 64;
  std::vector<float> a(n);
  for (size_t i = 0; i < n; ++i)
    a[i] = static_cast<float>(i) - 20.0f;
  for (const char *options : {"-cl-opt-disable", "-cl-mad-enable", "-cl-fast-relaxed-math", "-cl-denorms-are-zero",
                              "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
                              "-cl-single-precision-constant", "-g", "-cl-uniform-work-group-size",
                              "-cl-opt-disable -g -cl-mad-enable -cl-denorms-are-zero", "-cl-strict-aliasing"}) {
    SCOPED_TRACE(options);
    Program program = build(kExactMath, options);
    if (!program)
      continue;
    Kernel k = kernel(program, "exact");
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(float));
    setArgs(k, in.get(), out.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    auto result = read<float>(out, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(result[i], a[i] * 2.0f + 1.0f - static_cast<float>(i)) << i;
  }
  // -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__.
  EXPECT_EQ(runValue(build(kValueKernel, "-cl-fast-relaxed-math -DVALUE_EXPR=__FAST_RELAXED_MATH__")), 1);
  const char *probe = "#ifdef __FAST_RELAXED_MATH__\n#define VALUE_EXPR 1\n#else\n#define VALUE_EXPR 0\n#endif\n";
  EXPECT_EQ(runValue(build(std::string(probe) + kValueKernel)), 0);
}

TEST_P(ProgramLinkTest, WarningOptions) {
  const std::string source = std::string("#warning polymux_test_warning\n") + kValueKernel;
  cl_device_id dev = device();
  Program plain = fromSource(source.c_str());
  ASSERT_CL(clBuildProgram(plain, 1, &dev, "-DVALUE_EXPR=1", nullptr, nullptr));
  EXPECT_NE(programBuildLog(plain, dev).find("polymux_test_warning"), std::string::npos)
      << "a warning appears in the log:\n"
      << programBuildLog(plain, dev);
  EXPECT_EQ(runValue(plain), 1);
  // -w silences it.
  Program silent = fromSource(source.c_str());
  ASSERT_CL(clBuildProgram(silent, 1, &dev, "-w -DVALUE_EXPR=2", nullptr, nullptr));
  EXPECT_EQ(programBuildLog(silent, dev).find("polymux_test_warning"), std::string::npos)
      << programBuildLog(silent, dev);
  EXPECT_EQ(runValue(silent), 2);
  // -Werror makes it a build failure, with the warning in the log.
  Program strict = fromSource(source.c_str());
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(strict, 1, &dev, "-Werror -DVALUE_EXPR=3", nullptr, nullptr));
  EXPECT_EQ(buildStatus(strict), CL_BUILD_ERROR);
  EXPECT_NE(programBuildLog(strict, dev).find("polymux_test_warning"), std::string::npos)
      << programBuildLog(strict, dev);
  // The same for clCompileProgram.
  Program strictObject = fromSource(source.c_str());
  EXPECT_CL_ERR(CL_COMPILE_PROGRAM_FAILURE,
                clCompileProgram(strictObject, 1, &dev, "-Werror", 0, nullptr, nullptr, nullptr, nullptr));
  // A program without warnings builds with -Werror.
  EXPECT_EQ(runValue(build(kValueKernel, "-Werror -DVALUE_EXPR=4")), 4);
}

TEST_P(ProgramLinkTest, InvalidBuildOptions) {
  cl_device_id dev = device();
  for (const char *options : {"-cl-std=CL9.9", "-cl-std=", "-D", "-I", "--no-such-option", "-cl-mad-enable -bogus",
                              "-create-library", "-cl-kernel-arg-info \"unterminated"}) {
    SCOPED_TRACE(options);
    Program program = fromSource(kValueKernel);
    EXPECT_CL_ERR(CL_INVALID_BUILD_OPTIONS, clBuildProgram(program, 1, &dev, options, nullptr, nullptr));
    cl_build_status status = buildStatus(program);
    EXPECT_TRUE(status == CL_BUILD_ERROR || status == CL_BUILD_NONE) << status;
  }
}

TEST_P(ProgramLinkTest, CacheHitKeepsProgramState) {
  // With a private on-disk cache (POLYMUX_CACHE), the second build of the
  // same source and options is a hit; what the program reports must not
  // depend on that.
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ScopedEnv cache("POLYMUX_CACHE", (dir.path() / "cache").string());
  const char *options = "-cl-kernel-arg-info -DVALUE_EXPR=77";
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "first build" : "second build");
    Program program = build(kValueKernel, options);
    ASSERT_TRUE(program);
    EXPECT_EQ(buildOptions(program), options);
    EXPECT_EQ(buildStatus(program), CL_BUILD_SUCCESS);
    EXPECT_EQ(binaryType(program), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
    Kernel k = kernel(program, "value");
    size_t size = 0;
    ASSERT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, nullptr, &size));
    std::string name(size, '\0');
    ASSERT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, size, name.data(), nullptr));
    EXPECT_STREQ(name.c_str(), "out");
    EXPECT_EQ(runValue(program), 77);
    // The binary of a cached build round-trips too.
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    Program back = fromBinary(binaryOf(program), err, status);
    ASSERT_CL(err);
    cl_device_id dev = device();
    ASSERT_CL(clBuildProgram(back, 1, &dev, nullptr, nullptr, nullptr));
    EXPECT_EQ(runValue(back), 77);
  }
  // A header found through -I is not part of the cache key: when it
  // changes, the next build must see the change.
  fs::create_directories(dir.path() / "include");
  const std::string includeOption = "-I" + (dir.path() / "include").string();
  const std::string source = std::string("#include \"changing.h\"\n") + kValueKernel;
  for (int value : {10, 20}) {
    std::ofstream(dir.path() / "include" / "changing.h", std::ios::trunc) << "#define VALUE_EXPR " << value << "\n";
    Program program = build(source, includeOption.c_str());
    ASSERT_TRUE(program);
    EXPECT_EQ(runValue(program), value) << "a stale cached executable was used";
  }
}

CLTEST_INSTANTIATE(ProgramLinkTest);
