// SPIR-V programs in the compiler (source/compiler/il): the SPIR mangling
// reader, the scalar OpConstantNull rewrite, the retargeting copy, and the
// whole route compared with the same kernel compiled from OpenCL C.
#include "test_support.h"

#include "compiler/il/retarget_spir_module.h"
#include "compiler/il/spir_builtin_name.h"
#include "compiler/il/spirv_frontend.h"
#include "compiler/il/spirv_scalar_nulls.h"
#include "compiler/il/spirv_spec_constants.h"
#include "compiler/il/spirv_translator.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <set>

using namespace compiler;
using namespace compiler::il;

namespace {

std::vector<std::string> spellings(const SpirBuiltinName &name) {
  std::vector<std::string> result;
  for (const SpirParam &param : name.params)
    result.push_back(param.spelling);
  return result;
}

TEST(SpirBuiltinName, ScalarsVectorsAndSubstitutions) {
  auto fmax = parseSpirBuiltinName("_Z4fmaxDv4_fS_");
  ASSERT_TRUE(fmax);
  EXPECT_EQ("fmax", fmax->name);
  EXPECT_EQ((std::vector<std::string>{"float4", "float4"}), spellings(*fmax));
  auto id = parseSpirBuiltinName("_Z13get_global_idj");
  ASSERT_TRUE(id);
  EXPECT_EQ((std::vector<std::string>{"uint"}), spellings(*id));
  auto dim = parseSpirBuiltinName("_Z12get_work_dimv");
  ASSERT_TRUE(dim);
  EXPECT_TRUE(dim->params.empty());
  auto select = parseSpirBuiltinName("_Z6selectDv2_lS_Dv2_m");
  ASSERT_TRUE(select);
  EXPECT_EQ((std::vector<std::string>{"long2", "long2", "ulong2"}), spellings(*select));
}

TEST(SpirBuiltinName, PointersInEveryAddressSpace) {
  auto fract = parseSpirBuiltinName("_Z5fractfPU3AS1f");
  ASSERT_TRUE(fract);
  EXPECT_EQ((std::vector<std::string>{"float", "__global float *"}), spellings(*fract));
  EXPECT_FALSE(fract->params[0].isPointer);
  EXPECT_TRUE(fract->params[1].isPointer);
  auto priv = parseSpirBuiltinName("_Z6sincosfPf");
  ASSERT_TRUE(priv);
  EXPECT_EQ("__private float *", priv->params[1].spelling);
  auto vload = parseSpirBuiltinName("_Z6vload4mPU3AS2Kf");
  ASSERT_TRUE(vload);
  EXPECT_EQ((std::vector<std::string>{"ulong", "__constant const float *"}), spellings(*vload));
  // S_ is the vector, S0_ the qualified vector, S1_ the pointer.
  auto sincos = parseSpirBuiltinName("_Z6sincosDv4_fPU3AS3S_");
  ASSERT_TRUE(sincos);
  EXPECT_EQ((std::vector<std::string>{"float4", "__local float4 *"}), spellings(*sincos));
  auto store = parseSpirBuiltinName("_Z7vstore4Dv4_fmPU3AS4f");
  ASSERT_TRUE(store);
  EXPECT_EQ("__generic float *", store->params[2].spelling);
}

TEST(SpirBuiltinName, AtomicsAndNamedTypes) {
  auto atomic = parseSpirBuiltinName("_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope");
  ASSERT_TRUE(atomic);
  EXPECT_EQ((std::vector<std::string>{"__generic volatile atomic_int *", "int", "memory_order", "memory_scope"}),
            spellings(*atomic));
  auto inc = parseSpirBuiltinName("_Z10atomic_incPU3AS1Vi");
  ASSERT_TRUE(inc);
  EXPECT_EQ("__global volatile int *", inc->params[0].spelling);
  auto wait = parseSpirBuiltinName("_Z17wait_group_eventsiP9ocl_event");
  ASSERT_TRUE(wait);
  EXPECT_EQ("__private event_t *", wait->params[1].spelling);
}

TEST(SpirBuiltinName, ImagesAndSamplers) {
  auto read = parseSpirBuiltinName("_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i");
  ASSERT_TRUE(read);
  EXPECT_EQ((std::vector<std::string>{"read_only image2d_t", "sampler_t", "int2"}), spellings(*read));
  EXPECT_TRUE(read->params[0].isHandle);
  EXPECT_TRUE(read->params[1].isHandle);
  EXPECT_FALSE(read->params[2].isHandle || read->params[0].isPointer);
  auto write = parseSpirBuiltinName("_Z13write_imageui21ocl_image1d_buffer_rwiDv4_j");
  ASSERT_TRUE(write);
  EXPECT_EQ((std::vector<std::string>{"read_write image1d_buffer_t", "int", "uint4"}), spellings(*write));
  auto query = parseSpirBuiltinName("_Z20get_image_array_size20ocl_image2d_array_wo");
  ASSERT_TRUE(query);
  EXPECT_EQ("write_only image2d_array_t", query->params[0].spelling);
  EXPECT_EQ("read_only image3d_t", spirHandleSpelling("ocl_image3d_ro"));
  EXPECT_FALSE(spirHandleSpelling("ocl_image2d")); // no access qualifier
  EXPECT_FALSE(spirHandleSpelling("ocl_event"));
  EXPECT_FALSE(parseSpirBuiltinName("_Z1fP11ocl_sampler")); // pointer to a sampler
}

TEST(SpirBuiltinName, RefusesWhatItCannotSpell) {
  EXPECT_FALSE(parseSpirBuiltinName("get_global_id"));
  EXPECT_FALSE(parseSpirBuiltinName("_Z11read_imagef11ocl_image2d11ocl_samplerDv2_f"));
  EXPECT_FALSE(parseSpirBuiltinName("_Z1fPU3AS1PU3AS1f")); // pointer to pointer
  EXPECT_FALSE(parseSpirBuiltinName("_Z1fS_"));            // no candidate yet
  EXPECT_FALSE(parseSpirBuiltinName("_Z40f"));             // name runs past the end
}

TEST(SpirvScalarNulls, BecomeZeroConstants) {
  // Header; OpTypeInt %1 32 0; OpTypeFloat %2 64; OpTypeBool %3;
  // OpTypeVector %4 %1 4; OpConstantNull %1 %5; OpConstantNull %2 %6;
  // OpConstantNull %3 %7; OpConstantNull %4 %8.
  std::vector<uint32_t> words = {0x07230203,
                                 0x10000,
                                 0,
                                 9,
                                 0,
                                 4u << 16 | 21,
                                 1,
                                 32,
                                 0,
                                 3u << 16 | 22,
                                 2,
                                 64,
                                 2u << 16 | 20,
                                 3,
                                 4u << 16 | 23,
                                 4,
                                 1,
                                 4,
                                 3u << 16 | 46,
                                 1,
                                 5,
                                 3u << 16 | 46,
                                 2,
                                 6,
                                 3u << 16 | 46,
                                 3,
                                 7,
                                 3u << 16 | 46,
                                 4,
                                 8};
  std::vector<uint32_t> expected(words.begin(), words.begin() + 18);
  expected.insert(expected.end(),
                  {4u << 16 | 43, 1, 5, 0, 5u << 16 | 43, 2, 6, 0, 0, 3u << 16 | 41, 3, 7, 3u << 16 | 46, 4, 8});
  EXPECT_EQ(expected, replaceScalarNulls(words));
  // A truncated instruction: left alone.
  std::vector<uint32_t> broken = {0x07230203, 0x10000, 0, 9, 0, 9u << 16 | 21, 1};
  EXPECT_EQ(broken, replaceScalarNulls(broken));
}

/// A module with SpecId 3 on a 32-bit int (default 7), SpecId 9 on a bool
/// (default false) and an undecorated spec constant.
std::vector<uint32_t> specModule() {
  return {0x07230203,    0x10000, 0,  9, 0, 4u << 16 | 71, 5, 1, 3, // OpDecorate %5 SpecId 3
          4u << 16 | 71, 6,       1,  9,                            // OpDecorate %6 SpecId 9
          4u << 16 | 21, 1,       32, 0,                            // %1 = OpTypeInt 32 0
          2u << 16 | 20, 2,                                         // %2 = OpTypeBool
          4u << 16 | 50, 1,       5,  7,                            // %5 = OpSpecConstant %1 7
          3u << 16 | 49, 2,       6,                                // %6 = OpSpecConstantFalse %2
          4u << 16 | 50, 1,       8,  1};                           // %8 = OpSpecConstant %1 1
}

std::vector<uint32_t> wordsOf(const std::vector<std::byte> &bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

TEST(SpirvSpecConstants, SizesAndSpecialisation) {
  std::vector<uint32_t> module = specModule();
  auto sizes = specConstantSizes(std::as_bytes(std::span(module)));
  ASSERT_TRUE(sizes);
  EXPECT_EQ((std::map<uint32_t, size_t>{{3, 4}, {9, 1}}), *sizes);

  int32_t value = -5;
  std::map<uint32_t, std::vector<std::byte>> values;
  values[3] = std::vector<std::byte>(sizeof(value));
  std::memcpy(values[3].data(), &value, sizeof(value));
  values[9] = {std::byte{1}};
  std::vector<uint32_t> expected = module;
  expected[22] = static_cast<uint32_t>(value);
  expected[23] = 3u << 16 | 48; // OpSpecConstantTrue
  EXPECT_EQ(expected, wordsOf(specialize(std::as_bytes(std::span(module)), values)));

  // The other byte order: read and written back in it.
  std::vector<uint32_t> swapped = module;
  for (uint32_t &word : swapped)
    word = __builtin_bswap32(word);
  std::vector<uint32_t> specialised = wordsOf(specialize(std::as_bytes(std::span(swapped)), values));
  for (uint32_t &word : specialised)
    word = __builtin_bswap32(word);
  EXPECT_EQ(expected, specialised);

  std::vector<uint32_t> truncated(module.begin(), module.end() - 1);
  EXPECT_FALSE(specConstantSizes(std::as_bytes(std::span(truncated))));
}

TEST(SpirvTranslator, RecognisesModules) {
  std::vector<uint32_t> header = {0x07230203, 0x10000, 0, 1, 0};
  EXPECT_TRUE(looksLikeSpirv(std::as_bytes(std::span(header))));
  std::vector<uint32_t> swapped = {0x03022307, 0x100, 0, 0x1000000, 0};
  EXPECT_TRUE(looksLikeSpirv(std::as_bytes(std::span(swapped))));
  EXPECT_FALSE(looksLikeSpirv(std::as_bytes(std::span(header)).first(19)));
  header[0] = 0x07230204;
  EXPECT_FALSE(looksLikeSpirv(std::as_bytes(std::span(header))));
}

constexpr const char *kSpirModule = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

@k.scratch = internal addrspace(3) global [4 x float] undef, align 4
@.str = internal addrspace(2) constant [3 x i8] c"%d\00", align 1

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %tmp) !kernel_arg_addr_space !0 {
entry:
  %generic = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  %x = call spir_func float @helper(ptr addrspace(4) %generic)
  %slot = getelementptr [4 x float], ptr addrspace(3) @k.scratch, i64 0, i64 1
  store float %x, ptr addrspace(3) %slot
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) %out, ptr addrspace(3) @k.scratch, i64 16, i1 false)
  %p = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @.str, i32 1)
  ret void
}

define spir_func float @helper(ptr addrspace(4) %p) {
  %v = load float, ptr addrspace(4) %p
  ret float %v
}

declare spir_func i32 @printf(ptr addrspace(2), ...)
declare void @llvm.memcpy.p1.p3.i64(ptr addrspace(1), ptr addrspace(3), i64, i1)

!0 = !{i32 1, i32 3}
)";

std::string printed(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

TEST(RetargetSpirModule, FlatAddressSpacesAndCConvention) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  auto spir = llvm::parseAssemblyString(kSpirModule, error, context);
  ASSERT_TRUE(spir) << error.getMessage().str();
  TargetConvention convention;
  convention.triple = "x86_64-unknown-linux-gnu";
  convention.dataLayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128";
  convention.addressSpaces = {0, 0, 0, 0, 0};
  convention.functionCallingConv = llvm::CallingConv::C;
  auto module = retargetSpirModule(*spir, convention);
  ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
  std::string text = printed(**module);
  EXPECT_EQ("x86_64-unknown-linux-gnu", (*module)->getTargetTriple().str());
  EXPECT_EQ(std::string::npos, text.find("addrspace")) << text;
  EXPECT_NE(std::string::npos, text.find("@llvm.memcpy.p0.p0.i64(")) << text;
  EXPECT_NE(std::string::npos, text.find("define spir_kernel void @k(ptr %out, ptr %tmp)")) << text;
  EXPECT_NE(std::string::npos, text.find("define float @helper(ptr %p)")) << text;
  EXPECT_NE(std::string::npos, text.find("call float @helper(ptr %out)")) << text;
  EXPECT_NE(std::string::npos, text.find("declare i32 @printf(ptr, ...)")) << text;
  EXPECT_NE(std::string::npos, text.find("!kernel_arg_addr_space !0")) << text;
}

TEST(RetargetSpirModule, SpirSpacesKeptWhereTheTargetHasThem) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  auto spir = llvm::parseAssemblyString(kSpirModule, error, context);
  ASSERT_TRUE(spir) << error.getMessage().str();
  TargetConvention convention;
  convention.triple = "spirv64-unknown-unknown";
  convention.dataLayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1";
  auto module = retargetSpirModule(*spir, convention);
  ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
  std::string text = printed(**module);
  EXPECT_NE(std::string::npos, text.find("addrspacecast ptr addrspace(1) %out to ptr addrspace(4)")) << text;
  EXPECT_NE(std::string::npos, text.find("@llvm.memcpy.p1.p3.i64(")) << text;
  EXPECT_NE(std::string::npos, text.find("define spir_func float @helper(ptr addrspace(4) %p)")) << text;
}

/// SPIR-V for `source`, made by LLVM's SPIR-V back end; empty (and a test
/// failure) when that fails.
std::vector<std::byte> spirvFor(const std::string &source, const char *std) {
  llvm::SmallString<128> input, output;
  if (llvm::sys::fs::createTemporaryFile("il-test", "cl", input) ||
      llvm::sys::fs::createTemporaryFile("il-test", "spv", output)) {
    ADD_FAILURE() << "no temporary files";
    return {};
  }
  {
    std::error_code error;
    llvm::raw_fd_ostream stream(input, error);
    stream << source;
  }
  llvm::StringRef args[] = {
      POLYMUX_TEST_CLANG, "--target=spirv64", std, "-Xclang", "-finclude-default-header", "-c", input, "-o", output};
  int status = llvm::sys::ExecuteAndWait(POLYMUX_TEST_CLANG, args);
  auto bytes = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(input);
  llvm::sys::fs::remove(output);
  if (status != 0 || !bytes) {
    ADD_FAILURE() << "clang could not make SPIR-V";
    return {};
  }
  auto data = reinterpret_cast<const std::byte *>((*bytes)->getBufferStart());
  return {data, data + (*bytes)->getBufferSize()};
}

/// Names of the functions `module` calls but does not define (intrinsics
/// aside).
std::set<std::string> calledDeclarations(const llvm::Module &module) {
  std::set<std::string> names;
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && !function.isIntrinsic() && !function.use_empty())
      names.insert(function.getName().str());
  return names;
}

std::string metadataText(const llvm::Function &kernel, const char *kind) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  if (const llvm::MDNode *node = kernel.getMetadata(kind))
    node->print(stream);
  return text;
}

constexpr const char *kComparedSource = R"(
__kernel void compared(__global const float *in, __global float4 *out, __local float *scratch,
                       __constant float *scale, int n) {
  size_t i = get_global_id(0);
  float whole;
  float part = fract(in[i], &whole);
  float8 wide = sqrt((float8)(in[i], whole, part, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f));
  scratch[get_local_id(0)] = part * scale[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 v = vload4(i, in);
  out[i] = fmax(v, wide.lo) + scratch[0] + (float)n;
  atomic_inc((__global volatile int *)&out[0]);
}
)";

TEST(SpirvFrontend, LooksLikeTheSameKernelFromOpenCLC) {
  if (spirvVersionsRead().empty())
    GTEST_SKIP() << "llvm-spirv-15 is not installed";
  std::vector<std::byte> spirv = spirvFor(kComparedSource, "-cl-std=CL1.2");
  ASSERT_FALSE(spirv.empty());
  llvm::LLVMContext context;
  FrontendConfig config = test::hostFrontendConfig();
  config.extensions.push_back("cl_khr_global_int32_base_atomics");
  std::string log;
  auto fromIL = readSpirvProgram(context, spirv, config, log);
  ASSERT_TRUE(static_cast<bool>(fromIL)) << llvm::toString(fromIL.takeError()) << "\n" << log;
  auto fromC = test::compileForHostWith(context, kComparedSource, "", {"cl_khr_global_int32_base_atomics"});
  ASSERT_TRUE(fromC);

  EXPECT_EQ(fromC->getTargetTriple(), (*fromIL)->getTargetTriple());
  EXPECT_EQ(fromC->getDataLayoutStr(), (*fromIL)->getDataLayoutStr());
  // The builtins the kernel reaches, by the names the library defines.
  EXPECT_EQ(calledDeclarations(*fromC), calledDeclarations(**fromIL));
  const llvm::Function *c = fromC->getFunction("compared");
  const llvm::Function *il = (*fromIL)->getFunction("compared");
  ASSERT_TRUE(c && il);
  EXPECT_EQ(c->getCallingConv(), il->getCallingConv());
  EXPECT_EQ(c->getFunctionType(), il->getFunctionType());
  // What Polymux reads of the kernel metadata. SPIR-V keeps neither the
  // argument names (LLVM's back end writes no OpName for them) nor const on
  // pointers to __global; __constant arguments get const back.
  for (const char *kind : {"kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type"})
    EXPECT_EQ(metadataText(*c, kind), metadataText(*il, kind)) << kind;
  EXPECT_NE(std::string::npos, metadataText(*il, "kernel_arg_type_qual").find("!\"\", !\"\", !\"\", !\"const\", !\"\""))
      << metadataText(*il, "kernel_arg_type_qual");
  EXPECT_TRUE(il->hasFnAttribute(llvm::Attribute::Convergent));
  EXPECT_EQ(c->getFnAttribute("target-cpu").getValueAsString(), il->getFnAttribute("target-cpu").getValueAsString());
}

constexpr const char *kImageSource = R"(
constant sampler_t kRepeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__attribute__((noinline)) float4 fetch(read_only image2d_t im, sampler_t s, int2 c) { return read_imagef(im, s, c); }
__kernel void images(read_only image2d_t im, sampler_t s, write_only image3d_t w, read_write image1d_buffer_t rw,
                     read_only image2d_array_t a, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = fetch(im, s, (int2)(i, 0)) + read_imagef(im, kRepeat, (float2)(0.5f, 0.25f)) +
           (float)(get_image_width(w) + get_image_array_size(a) + get_image_channel_order(rw));
  write_imagef(w, (int4)(i, 0, 0, 0), out[i]);
  write_imageui(rw, i, read_imageui(rw, i) + (uint4)get_image_dim(a).x);
}
)";

/// The image kernel from SPIR-V and from OpenCL C on `config`'s triple:
/// the same kernel type (images and samplers as the front end types them)
/// and the same builtins and argument metadata.
void expectSameImageKernel(const FrontendConfig &config) {
  std::vector<std::byte> spirv = spirvFor(kImageSource, "-cl-std=CL3.0");
  ASSERT_FALSE(spirv.empty());
  llvm::LLVMContext context;
  std::string log;
  auto fromIL = readSpirvProgram(context, spirv, config, log);
  ASSERT_TRUE(static_cast<bool>(fromIL)) << llvm::toString(fromIL.takeError()) << "\n" << log;
  auto parsed = parseBuildOptions("-cl-std=CL3.0", OptionsUse::Build);
  ASSERT_TRUE(static_cast<bool>(parsed));
  auto fromC = compileOpenCLC(context, kImageSource, *parsed, {}, config, log);
  ASSERT_TRUE(static_cast<bool>(fromC)) << llvm::toString(fromC.takeError()) << "\n" << log;
  const llvm::Function *c = (*fromC)->getFunction("images");
  const llvm::Function *il = (*fromIL)->getFunction("images");
  ASSERT_TRUE(c && il);
  EXPECT_EQ(c->getFunctionType(), il->getFunctionType())
      << "OpenCL C: " << test::printModule(**fromC) << "\nSPIR-V: " << test::printModule(**fromIL);
  // The builtins both call are declared alike. (Clang's SPIR-V back end
  // writes a few others: read_imageui as an OpImageRead that the translator
  // reads as read_imagei, get_image_width of a 3D image as get_image_dim.)
  std::set<std::string> both;
  std::ranges::set_intersection(calledDeclarations(**fromC), calledDeclarations(**fromIL),
                                std::inserter(both, both.end()));
  for (const char *name :
       {"_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i", "_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f",
        "_Z12write_imagef14ocl_image3d_woDv4_iDv4_f", "__translate_sampler_initializer"})
    EXPECT_TRUE(both.count(name)) << name;
  for (const std::string &name : both) {
    const llvm::Function *declaredByC = (*fromC)->getFunction(name), *declaredByIL = (*fromIL)->getFunction(name);
    EXPECT_EQ(declaredByC->getFunctionType(), declaredByIL->getFunctionType()) << name;
    EXPECT_EQ(declaredByC->getCallingConv(), declaredByIL->getCallingConv()) << name;
  }
  for (const char *kind : {"kernel_arg_addr_space", "kernel_arg_access_qual"})
    EXPECT_EQ(metadataText(*c, kind), metadataText(*il, kind)) << kind;
  // The image and sampler arguments' types (the back end writes the last,
  // a float4 *, as a char *).
  for (unsigned i = 0; i < 5; ++i)
    for (const char *kind : {"kernel_arg_type", "kernel_arg_base_type"})
      EXPECT_EQ(llvm::cast<llvm::MDString>(c->getMetadata(kind)->getOperand(i))->getString(),
                llvm::cast<llvm::MDString>(il->getMetadata(kind)->getOperand(i))->getString())
          << kind << " " << i;
  // The helper keeps taking the image and sampler, typed as the kernel's.
  const llvm::Function *fetch = (*fromIL)->getFunction("fetch");
  ASSERT_TRUE(fetch);
  EXPECT_EQ(il->getFunctionType()->getParamType(0), fetch->getFunctionType()->getParamType(0));
  EXPECT_EQ(il->getFunctionType()->getParamType(1), fetch->getFunctionType()->getParamType(1));
}

FrontendConfig withImages(FrontendConfig config) {
  for (const char *feature :
       {"__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes", "cl_khr_3d_image_writes"})
    config.extensions.push_back(feature);
  return config;
}

TEST(SpirvFrontend, ImagesLookLikeOpenCLCOnTheHostTriple) {
  if (spirvVersionsRead().empty())
    GTEST_SKIP() << "llvm-spirv-15 is not installed";
  expectSameImageKernel(withImages(test::hostFrontendConfig()));
}

// On the SPIR-V triple Clang gives images and samplers target types
// (target("spirv.Image", ...)), where the translator has pointers.
TEST(SpirvFrontend, ImagesLookLikeOpenCLCOnTheSpirvTriple) {
  if (spirvVersionsRead().empty())
    GTEST_SKIP() << "llvm-spirv-15 is not installed";
  FrontendConfig config = withImages({});
  config.triple = "spirv64-unknown-unknown";
  expectSameImageKernel(config);
}

TEST(SpirvFrontend, ImagesOnADeviceWithoutThemFailNamingThem) {
  if (spirvVersionsRead().empty())
    GTEST_SKIP() << "llvm-spirv-15 is not installed";
  std::vector<std::byte> spirv = spirvFor(kImageSource, "-cl-std=CL3.0");
  ASSERT_FALSE(spirv.empty());
  llvm::LLVMContext context;
  std::string log;
  auto module = readSpirvProgram(context, spirv, test::hostFrontendConfig(), log);
  ASSERT_FALSE(static_cast<bool>(module));
  std::string error = llvm::toString(module.takeError());
  EXPECT_NE(std::string::npos, error.find("uses images or samplers (")) << error;
  EXPECT_NE(std::string::npos, error.find("which this device does not support")) << error;
  // With images but without read-write images.
  FrontendConfig config = test::hostFrontendConfig();
  config.extensions.push_back("__opencl_c_images");
  config.extensions.push_back("__opencl_c_3d_image_writes");
  config.extensions.push_back("cl_khr_3d_image_writes");
  module = readSpirvProgram(context, spirv, config, log);
  ASSERT_FALSE(static_cast<bool>(module));
  EXPECT_NE(std::string::npos,
            llvm::toString(module.takeError()).find("uses read-write images (read_write image1d_buffer_t)"));
}

TEST(SpirvFrontend, TranslatorRejectionGoesToTheLog) {
  if (spirvVersionsRead().empty())
    GTEST_SKIP() << "llvm-spirv-15 is not installed";
  std::vector<std::byte> spirv = spirvFor(kComparedSource, "-cl-std=CL1.2");
  ASSERT_GT(spirv.size(), 64u);
  spirv.resize(64); // the header and a few instructions
  llvm::LLVMContext context;
  std::string log;
  auto module = readSpirvProgram(context, spirv, test::hostFrontendConfig(), log);
  ASSERT_FALSE(static_cast<bool>(module));
  EXPECT_NE(std::string::npos, llvm::toString(module.takeError()).find("could not be read"));
}

} // namespace
