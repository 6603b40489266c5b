// Front end and kernel metadata through the host compiler.
#include "compiler/kernel_metadata.h"

#include "test_support.h"

namespace compiler::test {
namespace {

constexpr const char *kMetadataSource = R"(
typedef struct { int a; float b; char c; } S;
__kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4)))
void meta(__global float *restrict out, __constant float *table, __local int *scratch, float3 v, S s,
          __global const volatile uint4 *in, char c, long l, double d) {
  out[get_global_id(0)] = table[0] + v.x + s.b + c + l + scratch[0] + in[0].x + (float)d;
}
__kernel __attribute__((work_group_size_hint(16, 1, 1))) void second(__global int *p) { p[0] = 1; }
)";

TEST(Frontend, KernelMetadata) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(kMetadataSource, "", log);
  ASSERT_TRUE(static_cast<bool>(module)) << errorText(module.takeError()) << log;
  EXPECT_EQ((*module)->kind(), ModuleKind::Executable);
  auto kernels = (*module)->kernels();
  ASSERT_EQ(kernels.size(), 2u);
  const KernelInfo &meta = kernels[0];
  EXPECT_EQ(meta.name, "meta");
  ASSERT_EQ(meta.args.size(), 9u);
  using Kind = KernelArgInfo::Kind;
  struct Expected {
    Kind kind;
    uint32_t size;
    const char *name;
    const char *type;
    AddressSpace space;
    uint32_t qualifiers;
  };
  const Expected expected[] = {
      {Kind::GlobalPointer, 8, "out", "float*", AddressSpace::Global, QualRestrict},
      {Kind::ConstantPointer, 8, "table", "float*", AddressSpace::Constant, QualConst},
      {Kind::LocalPointer, 8, "scratch", "int*", AddressSpace::Local, 0},
      {Kind::Value, 16, "v", "float3", AddressSpace::Private, 0},
      {Kind::Value, 12, "s", "S", AddressSpace::Private, 0},
      {Kind::GlobalPointer, 8, "in", "uint4*", AddressSpace::Global, QualConst | QualVolatile},
      {Kind::Value, 1, "c", "char", AddressSpace::Private, 0},
      {Kind::Value, 8, "l", "long", AddressSpace::Private, 0},
      {Kind::Value, 8, "d", "double", AddressSpace::Private, 0},
  };
  for (size_t i = 0; i < meta.args.size(); ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    const KernelArgInfo &arg = meta.args[i];
    EXPECT_EQ(arg.kind, expected[i].kind);
    EXPECT_EQ(arg.size, expected[i].size);
    EXPECT_EQ(arg.name, expected[i].name);
    EXPECT_EQ(arg.typeName, expected[i].type);
    EXPECT_EQ(arg.addressSpace, expected[i].space);
    EXPECT_EQ(arg.typeQualifiers, expected[i].qualifiers);
    EXPECT_EQ(arg.access, AccessQualifier::None);
  }
  EXPECT_EQ(meta.args[3].alignment, 16u);
  EXPECT_EQ(meta.reqdWorkGroupSize, (std::array<size_t, 3>{8, 4, 1}));
  EXPECT_EQ(meta.vecTypeHint, "float4");
  EXPECT_EQ(meta.attributes, "reqd_work_group_size(8,4,1) vec_type_hint(float4)");
  EXPECT_EQ(kernels[1].name, "second");
  EXPECT_EQ(kernels[1].workGroupSizeHint, (std::array<size_t, 3>{16, 1, 1}));
  EXPECT_EQ(kernels[1].attributes, "work_group_size_hint(16,1,1)");
  EXPECT_EQ(kernels[1].reqdWorkGroupSize, (std::array<size_t, 3>{0, 0, 0}));
}

TEST(Frontend, SyntaxErrorGoesToTheLogVerbatim) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build("__kernel void k(__global int *p) { p[0] = 1 }\n", "", log);
  ASSERT_FALSE(static_cast<bool>(module));
  EXPECT_EQ(mux::takeStatus(module.takeError()), mux::Status::Failure);
  EXPECT_NE(log.find("<program source>:1:44: error: expected ';' after expression"), std::string::npos) << log;
}

TEST(Frontend, DefinesIncludesAndEmbeddedHeaders) {
  auto compiler = hostCompiler();
  std::string log;
  Header headers[] = {{"inc/value.h", "#define VALUE (SCALE * 2)\n"}};
  auto object = compiler->compile("#include \"inc/value.h\"\n__kernel void k(__global int *p) { p[0] = VALUE; }\n",
                                  "-DSCALE=21", headers, log);
  ASSERT_TRUE(static_cast<bool>(object)) << errorText(object.takeError()) << log;
  EXPECT_EQ((*object)->kind(), ModuleKind::CompiledObject);
  EXPECT_TRUE((*object)->kernels().empty());
  // Without the header the include fails with Clang's diagnostic.
  log.clear();
  auto missing = compiler->compile("#include \"inc/value.h\"\n", "", {}, log);
  ASSERT_FALSE(static_cast<bool>(missing));
  llvm::consumeError(missing.takeError());
  EXPECT_NE(log.find("'inc/value.h' file not found"), std::string::npos) << log;
}

TEST(Frontend, WerrorAndClStdAndExtensions) {
  auto compiler = hostCompiler();
  std::string log;
  // Implicit conversions that change a value warn by default.
  const char *warns = "__kernel void k(__global int *p) { int x = 1.5; p[0] = (int)p; }\n";
  auto ok = compiler->build(warns, "", log);
  ASSERT_TRUE(static_cast<bool>(ok)) << errorText(ok.takeError()) << log;
  EXPECT_NE(log.find("warning:"), std::string::npos) << log;
  log.clear();
  auto werror = compiler->build(warns, "-Werror", log);
  ASSERT_FALSE(static_cast<bool>(werror));
  llvm::consumeError(werror.takeError());
  EXPECT_NE(log.find("error:"), std::string::npos) << log;
  log.clear();
  auto quiet = compiler->build(warns, "-w", log);
  ASSERT_TRUE(static_cast<bool>(quiet)) << log;
  EXPECT_EQ(log.find("warning:"), std::string::npos) << log;

  // OpenCL C 3.0 feature macros and extensions come from the device.
  const char *probe = R"(
#if __OPENCL_C_VERSION__ != 300 || !defined(__opencl_c_fp64) || !defined(cl_khr_fp64) || !defined(__opencl_c_int64)
#error missing feature
#endif
#if defined(__opencl_c_images) || defined(cl_khr_fp16) || defined(__opencl_c_subgroups)
#error unexpected feature
#endif
__kernel void k(__global double *p) { p[0] = 1.0; }
)";
  log.clear();
  auto cl30 = compiler->build(probe, "-cl-std=CL3.0", log);
  EXPECT_TRUE(static_cast<bool>(cl30)) << errorText(cl30.takeError()) << log;
  log.clear();
  auto cl12 = compiler->build("#if __OPENCL_C_VERSION__ != 120\n#error not 1.2\n#endif\n", "", log);
  EXPECT_TRUE(static_cast<bool>(cl12)) << errorText(cl12.takeError()) << log;
}

TEST(Frontend, InvalidOptionIsDistinctFromBuildFailure) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build("__kernel void k() {}", "-cl-bogus", log);
  ASSERT_FALSE(static_cast<bool>(module));
  EXPECT_EQ(mux::takeStatus(module.takeError()), mux::Status::InvalidArgument);
  EXPECT_NE(log.find("invalid build option '-cl-bogus'"), std::string::npos) << log;
}

TEST(Frontend, OpenCLVersionMacroAndDenormsAreZero) {
  auto compiler = hostCompiler();
  std::string log;
  // Fails to compile unless __OPENCL_VERSION__ is 300 (the device's version).
  const char *source = "#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != 300\n#error bad __OPENCL_VERSION__\n"
                       "#endif\n__kernel void k(__global float *p) { p[0] = p[1] * p[2]; }\n";
  for (const char *options : {"", "-cl-denorms-are-zero", "-cl-std=CL1.2 -cl-denorms-are-zero -cl-fast-relaxed-math"}) {
    log.clear();
    auto module = compiler->build(source, options, log);
    EXPECT_TRUE(static_cast<bool>(module)) << options << ": " << (module ? "" : errorText(module.takeError())) << log;
  }
}

/// The CTS compiler/large_compile program: many random lines of simple code,
/// including the scalar dot(float, float).
TEST(Frontend, LargeCompile) {
  const char *lines[] = {"dst[tid] = src[tid];\n", "dst[tid] = src[tid] * 3.f;\n", "temp = src[tid] / 4.f;\n",
                         "dst[tid] = dot(temp,src[tid]);\n", "dst[tid] = dst[tid] + temp;\n"};
  auto compiler = hostCompiler();
  for (unsigned count : {64u, 1024u, 4096u}) {
    std::string source = "__kernel void sample_test(__global float *src, __global int *dst)\n{\n"
                         "    float temp = 0.0f;\n    int  tid = get_global_id(0);\n";
    for (unsigned i = 1; i + 1 < count; ++i)
      source += lines[(i * 2654435761u >> 7) % 5];
    source += "}\n";
    std::string log;
    auto module = compiler->build(source, "", log);
    EXPECT_TRUE(static_cast<bool>(module))
        << count << " lines: " << (module ? "" : errorText(module.takeError())) << log;
  }
}

} // namespace
} // namespace compiler::test
