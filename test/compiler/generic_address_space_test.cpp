// LowerGenericAddressSpacePass: the IR it leaves, and the address-space
// answers of to_global/to_local/to_private/get_fence when a kernel runs with
// a hand-made WorkGroupInfo whose __local area and stack range are known.
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/passes.h"

#include "test_support.h"

#include "llvm/Transforms/IPO/AlwaysInliner.h"

#include <pthread.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace compiler::test {
namespace {

constexpr int kLocalFence = 1;  // CLK_LOCAL_MEM_FENCE
constexpr int kGlobalFence = 2; // CLK_GLOBAL_MEM_FENCE

mux::DeviceInfo genericDeviceInfo() {
  mux::DeviceInfo info = hostDeviceInfo();
  info.openclCFeatures = {"__opencl_c_generic_address_space", "__opencl_c_program_scope_global_variables"};
  return info;
}

FrontendConfig genericFrontendConfig() {
  FrontendConfig config = hostFrontendConfig();
  config.extensions.push_back("__opencl_c_generic_address_space");
  config.extensions.push_back("__opencl_c_program_scope_global_variables");
  return config;
}

std::unique_ptr<llvm::Module> compileCL30(llvm::LLVMContext &context, std::string_view source) {
  auto parsed = parseBuildOptions("-cl-std=CL3.0", OptionsUse::Build);
  EXPECT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  std::string log;
  auto module = compileOpenCLC(context, source, *parsed, {}, genericFrontendConfig(), log);
  if (!module) {
    ADD_FAILURE() << errorText(module.takeError()) << "\n" << log;
    return nullptr;
  }
  return std::move(*module);
}

void lowerUpToGenericAddressSpace(llvm::Module &module) {
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(LowerWorkItemBuiltinsPass());
  passes.addPass(LowerLocalVariablesPass());
  passes.addPass(LowerGenericAddressSpacePass());
  runModulePasses(module, passes);
}

TEST(GenericAddressSpace, BuiltinsBecomeRangeChecksOnTheWorkGroupInfo) {
  llvm::LLVMContext context;
  auto module = compileCL30(context, R"(
int classify(int *p) {
  return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0) + 8 * (int)get_fence(p)
       + 16 * (int)get_fence((const int *)p);
}
kernel void k(global int *out, local int *l) {
  int x = 1;
  out[0] = classify(out) + classify(l) + classify(&x) + (to_global((const volatile int *)out) != 0);
}
)");
  ASSERT_TRUE(module);
  lowerUpToGenericAddressSpace(*module);
  // localMemory (field 8), localMemorySize (9), stackBegin (12), stackEnd (13).
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define internal void @__polymux_work_item_k(
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 8
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 9
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 12
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 13
CHECK-DAG: %is.local{{.*}} = icmp ult i64
CHECK-DAG: %on.stack{{.*}} = icmp ult i64
CHECK-DAG: select i1 {{.*}}, i32 1, i32
CHECK-DAG: select i1 {{.*}}, i32 0, i32 2
CHECK-NOT: call {{.*}}@__to_
CHECK-NOT: call {{.*}}@_Z9get_fence
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
  EXPECT_EQ(module->getFunction("__to_global"), nullptr);
  EXPECT_EQ(module->getFunction("__to_local"), nullptr);
  EXPECT_EQ(module->getFunction("__to_private"), nullptr);
}

TEST(GenericAddressSpace, FullPipelineLeavesNoUnresolvedBuiltins) {
  auto compiler = host::createHostCompiler(genericDeviceInfo());
  std::string log;
  auto module = compiler->build(R"(
kernel void k(global int *out) {
  int *p = out;
  out[0] = (to_global(p) != 0) + (to_local(p) != 0) + (to_private(p) != 0) + get_fence(p);
}
)",
                                "-cl-std=CL3.0", log);
  ASSERT_TRUE(static_cast<bool>(module)) << errorText(module.takeError()) << log;
}

/// Packs arguments per cpu_kernel_abi.h.
class ArgPacker {
public:
  template <typename T> void add(const T &value) {
    offset_ = abi::alignTo(offset_, abi::packedArgAlignment(sizeof(T)));
    bytes_.resize(offset_ + sizeof(T));
    std::memcpy(bytes_.data() + offset_, &value, sizeof(T));
    offset_ += sizeof(T);
  }
  const void *data() const { return bytes_.data(); }

private:
  std::vector<std::byte> bytes_;
  size_t offset_ = 0;
};

std::pair<void *, void *> currentThreadStack() {
  pthread_attr_t attributes;
  void *address = nullptr;
  size_t size = 0;
  EXPECT_EQ(pthread_getattr_np(pthread_self(), &attributes), 0);
  EXPECT_EQ(pthread_attr_getstack(&attributes, &address, &size), 0);
  pthread_attr_destroy(&attributes);
  return {address, static_cast<std::byte *>(address) + size};
}

/// Per address: to_global != 0, to_local != 0, to_private != 0, get_fence.
/// The last work-item also classifies the address of its own private int.
constexpr const char *kClassifySource = R"(
void classify(int *p, global int *out) {
  out[0] = to_global(p) != 0;
  out[1] = to_local(p) != 0;
  out[2] = to_private(p) != 0;
  out[3] = get_fence(p);
}
kernel void classify_addresses(global const ulong *addresses, global int *out, uint count) {
  uint i = get_global_id(0);
  if (i < count) {
    classify((int *)addresses[i], out + 4 * i);
  } else {
    int mine = (int)i;
    classify(&mine, out + 4 * i);
  }
}
)";

class ClassifyAddresses : public testing::Test {
protected:
  void SetUp() override {
    auto compiler = host::createHostCompiler(genericDeviceInfo());
    std::string log;
    auto module = compiler->build(kClassifySource, "-cl-std=CL3.0", log);
    ASSERT_TRUE(static_cast<bool>(module)) << errorText(module.takeError()) << log;
    auto binary = (*module)->binary();
    ASSERT_TRUE(static_cast<bool>(binary));
    auto executable = host::loadExecutable(*binary, genericDeviceInfo());
    ASSERT_TRUE(static_cast<bool>(executable)) << errorText(executable.takeError());
    executable_ = std::move(*executable);
    auto kernel = executable_->createKernel("classify_addresses");
    ASSERT_TRUE(static_cast<bool>(kernel)) << errorText(kernel.takeError());
    kernel_ = std::move(*kernel);
  }

  /// Classifies `addresses` plus one private address of the kernel's own;
  /// returns 4 ints per address.
  std::vector<int> run(const std::vector<uint64_t> &addresses, abi::WorkGroupInfo info) {
    std::vector<int> out(4 * (addresses.size() + 1), -1);
    ArgPacker args;
    args.add(addresses.data());
    args.add(out.data());
    args.add(static_cast<uint32_t>(addresses.size()));
    info.workDim = 1;
    info.globalSize[0] = info.enqueuedLocalSize[0] = info.localSize[0] = addresses.size() + 1;
    for (int d = 1; d < 3; ++d)
      info.globalSize[d] = info.enqueuedLocalSize[d] = info.localSize[d] = 1;
    for (int d = 0; d < 3; ++d)
      info.numGroups[d] = 1;
    static_cast<host::HostKernel &>(*kernel_).entry()(args.data(), &info);
    return out;
  }

  std::unique_ptr<mux::Executable> executable_;
  std::unique_ptr<mux::Kernel> kernel_;
};

TEST_F(ClassifyAddresses, LocalAreaStackAndEverythingElse) {
  alignas(128) static std::array<std::byte, 256> localArea;
  alignas(64) static std::array<std::byte, 64> globalData;
  auto [stackBegin, stackEnd] = currentThreadStack();
  abi::WorkGroupInfo info{};
  info.localMemory = reinterpret_cast<uint64_t>(localArea.data());
  info.localMemorySize = localArea.size();
  info.stackBegin = reinterpret_cast<uint64_t>(stackBegin);
  info.stackEnd = reinterpret_cast<uint64_t>(stackEnd);
  auto address = [](const void *pointer) { return reinterpret_cast<uint64_t>(pointer); };
  std::vector<uint64_t> addresses = {
      address(localArea.data()),                        // first __local byte
      address(localArea.data() + localArea.size() - 4), // last __local int
      address(localArea.data() + localArea.size()),     // one past the area: not __local
      address(localArea.data()) - 4,                    // just before it
      address(globalData.data()),
      address(stackBegin), // stack bounds
      address(stackEnd) - 4,
  };
  std::vector<int> out = run(addresses, info);
  // {to_global, to_local, to_private, get_fence} per address.
  using Row = std::array<int, 4>;
  const Row global = {1, 0, 0, kGlobalFence}, local = {0, 1, 0, kLocalFence}, privateRow = {0, 0, 1, 0};
  const std::vector<Row> expected = {local, local, global, global, global, privateRow, privateRow, privateRow};
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ((Row{out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]}), expected[i]) << "address " << i;
}

TEST_F(ClassifyAddresses, WithoutAStackRangeOnlyTheLocalAreaIsSpecial) {
  alignas(128) static std::array<std::byte, 128> localArea;
  abi::WorkGroupInfo info{};
  info.localMemory = reinterpret_cast<uint64_t>(localArea.data());
  info.localMemorySize = localArea.size();
  std::vector<int> out = run({reinterpret_cast<uint64_t>(localArea.data() + 8)}, info);
  EXPECT_EQ((std::array<int, 4>{out[0], out[1], out[2], out[3]}), (std::array<int, 4>{0, 1, 0, kLocalFence}));
  // The kernel's own private int is on the stack, which this info does not describe.
  EXPECT_EQ((std::array<int, 4>{out[4], out[5], out[6], out[7]}), (std::array<int, 4>{1, 0, 0, kGlobalFence}));
}

TEST_F(ClassifyAddresses, NoLocalAreaMeansNothingIsLocal) {
  abi::WorkGroupInfo info{};
  std::vector<int> out = run({0x1000, 0}, info);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[5], 0);
  EXPECT_EQ(out[3], kGlobalFence);
}

} // namespace
} // namespace compiler::test
