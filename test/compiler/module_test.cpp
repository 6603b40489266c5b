// compile / link / build / serialize through the host compiler::Target.
#include "compiler/cpu_binary.h"

#include "test_support.h"

namespace compiler::test {
namespace {

std::unique_ptr<Module> compileOrFail(Target &compiler, const char *source, const char *options = "") {
  std::string log;
  auto module = compiler.compile(source, options, {}, log);
  if (!module) {
    ADD_FAILURE() << errorText(module.takeError()) << log;
    return nullptr;
  }
  return std::move(*module);
}

constexpr const char *kLibrarySource = "int twice(int x) { return 2 * x; }\n";
constexpr const char *kKernelSource =
    "int twice(int x);\n__kernel void k(__global int *p) { p[get_global_id(0)] = twice(p[get_global_id(0)]); }\n";

TEST(Module, LinkTwoObjects) {
  auto compiler = hostCompiler();
  auto library = compileOrFail(*compiler, kLibrarySource);
  auto kernel = compileOrFail(*compiler, kKernelSource);
  ASSERT_TRUE(library && kernel);
  Module *inputs[] = {kernel.get(), library.get()};
  std::string log;
  auto linked = compiler->link(inputs, "", log);
  ASSERT_TRUE(static_cast<bool>(linked)) << errorText(linked.takeError()) << log;
  EXPECT_EQ((*linked)->kind(), ModuleKind::Executable);
  ASSERT_EQ((*linked)->kernels().size(), 1u);
  EXPECT_EQ((*linked)->kernels()[0].name, "k");
  auto kernelObject = (*linked)->createKernel("k");
  ASSERT_TRUE(static_cast<bool>(kernelObject));
  auto binary = (*kernelObject)->specialize({0, 0, 0});
  ASSERT_TRUE(static_cast<bool>(binary));
  auto decoded = decodeCpuBinary(*binary, kHostBinaryMagic);
  ASSERT_TRUE(static_cast<bool>(decoded)) << errorText(decoded.takeError());
  ASSERT_EQ(decoded->kernels.size(), 1u);
  EXPECT_EQ(decoded->kernels[0].name, "k");
  EXPECT_GT(decoded->object.size(), 0u);
  EXPECT_FALSE(static_cast<bool>((*linked)->createKernel("nope")));
}

TEST(Module, LibrariesAndMissingOrDuplicateSymbols) {
  auto compiler = hostCompiler();
  auto library = compileOrFail(*compiler, kLibrarySource);
  auto kernel = compileOrFail(*compiler, kKernelSource);
  ASSERT_TRUE(library && kernel);
  std::string log;
  Module *libraryInputs[] = {library.get()};
  auto created = compiler->link(libraryInputs, "-create-library", log);
  ASSERT_TRUE(static_cast<bool>(created)) << log;
  EXPECT_EQ((*created)->kind(), ModuleKind::Library);
  EXPECT_FALSE(static_cast<bool>((*created)->binary()));

  // The kernel alone misses twice().
  log.clear();
  Module *alone[] = {kernel.get()};
  auto missing = compiler->link(alone, "", log);
  ASSERT_FALSE(static_cast<bool>(missing));
  llvm::consumeError(missing.takeError());
  EXPECT_NE(log.find("twice"), std::string::npos) << log;

  // Twice twice is one too many.
  log.clear();
  Module *duplicate[] = {kernel.get(), created->get(), library.get()};
  auto twice = compiler->link(duplicate, "", log);
  ASSERT_FALSE(static_cast<bool>(twice));
  llvm::consumeError(twice.takeError());
  EXPECT_NE(log.find("twice"), std::string::npos) << log;
  EXPECT_NE(log.find("multiply defined"), std::string::npos) << log;

  // Objects without kernels link into an executable with no kernels.
  log.clear();
  auto empty = compiler->link(libraryInputs, "", log);
  ASSERT_TRUE(static_cast<bool>(empty)) << log;
  EXPECT_TRUE((*empty)->kernels().empty());
  EXPECT_TRUE(static_cast<bool>((*empty)->binary()));

  log.clear();
  EXPECT_FALSE(static_cast<bool>(compiler->link(libraryInputs, "-D X", log)));
}

TEST(Module, BuildFailsForMissingFunctions) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build("float __attribute__((overloadable)) not_provided(float);\n"
                                "__kernel void k(__global float *p) { p[0] = exp(not_provided(p[0])); }",
                                "", log);
  ASSERT_FALSE(static_cast<bool>(module));
  llvm::consumeError(module.takeError());
  EXPECT_NE(log.find("not_provided(float) [_Z12not_providedf]"), std::string::npos) << log;
  EXPECT_EQ(log.find("exp"), std::string::npos) << log; // the library has exp
}

TEST(Module, SerializeRoundTripsEveryKind) {
  auto compiler = hostCompiler();
  auto object = compileOrFail(*compiler, kLibrarySource, "-cl-opt-disable");
  ASSERT_TRUE(object);
  std::string log;
  Module *inputs[] = {object.get()};
  auto library = compiler->link(inputs, "-create-library", log);
  ASSERT_TRUE(static_cast<bool>(library));
  auto executable = compiler->build(kKernelSource + std::string(kLibrarySource), "", log);
  ASSERT_TRUE(static_cast<bool>(executable)) << log;
  for (Module *module : {object.get(), library->get(), executable->get()}) {
    auto bytes = module->serialize();
    ASSERT_TRUE(static_cast<bool>(bytes));
    auto restored = compiler->deserialize(*bytes);
    ASSERT_TRUE(static_cast<bool>(restored)) << errorText(restored.takeError());
    EXPECT_EQ((*restored)->kind(), module->kind());
    ASSERT_EQ((*restored)->kernels().size(), module->kernels().size());
    for (size_t i = 0; i < module->kernels().size(); ++i) {
      EXPECT_EQ((*restored)->kernels()[i].name, module->kernels()[i].name);
      EXPECT_EQ((*restored)->kernels()[i].args.size(), module->kernels()[i].args.size());
      EXPECT_EQ((*restored)->kernels()[i].args[0].typeName, module->kernels()[i].args[0].typeName);
    }
    auto again = (*restored)->serialize();
    ASSERT_TRUE(static_cast<bool>(again));
    EXPECT_EQ(*again, *bytes);
  }
  // A restored object still links.
  auto restoredObject = compiler->deserialize(*object->serialize());
  ASSERT_TRUE(static_cast<bool>(restoredObject));
  auto kernel = compileOrFail(*compiler, kKernelSource);
  Module *both[] = {kernel.get(), restoredObject->get()};
  auto linked = compiler->link(both, "", log);
  EXPECT_TRUE(static_cast<bool>(linked)) << log;
}

TEST(Module, DeserializeRejectsCorruptOrForeignData) {
  auto compiler = hostCompiler();
  std::string log;
  auto executable = compiler->build(kKernelSource + std::string(kLibrarySource), "", log);
  ASSERT_TRUE(static_cast<bool>(executable)) << log;
  auto bytes = *(*executable)->serialize();
  auto expectRejected = [&](std::vector<std::byte> data, const char *what) {
    auto restored = compiler->deserialize(data);
    ASSERT_FALSE(static_cast<bool>(restored)) << what;
    EXPECT_EQ(mux::takeStatus(restored.takeError()), mux::Status::InvalidArgument) << what;
  };
  expectRejected({}, "empty");
  expectRejected({bytes.begin(), bytes.begin() + bytes.size() / 2}, "truncated");
  for (size_t position : {size_t{0}, size_t{9}, bytes.size() / 2, bytes.size() - 1}) {
    auto flipped = bytes;
    flipped[position] ^= std::byte{0x40};
    expectRejected(flipped, "one byte flipped");
  }
  auto longer = bytes;
  longer.push_back(std::byte{0});
  expectRejected(longer, "trailing byte");

  // Another device's compiler does not accept it.
  mux::DeviceInfo other = hostDeviceInfo();
  other.extensions.push_back("cl_khr_fp16");
  other.fp16 = true;
  auto otherCompiler = host::createHostCompiler(other);
  EXPECT_NE(otherCompiler->identity(), compiler->identity());
  auto foreign = otherCompiler->deserialize(bytes);
  ASSERT_FALSE(static_cast<bool>(foreign));
  EXPECT_NE(errorText(foreign.takeError()).find("another device"), std::string::npos);
}

TEST(Module, IdentityNamesCompilerTripleAndCpu) {
  std::string identity = hostCompiler()->identity();
  EXPECT_NE(identity.find(llvm::sys::getProcessTriple()), std::string::npos) << identity;
  EXPECT_NE(identity.find(llvm::sys::getHostCPUName().str()), std::string::npos) << identity;
  EXPECT_NE(identity.find("llvm 22"), std::string::npos) << identity;
}

} // namespace
} // namespace compiler::test
