// Kernel launches through the HAL with hand-written SPIR-V kernels: push
// constants, launch fields, non-uniform ranges split into pieces, global
// offsets, __local arguments with a barrier, argument buffers and the
// program-scope variable block.
#include "executable.h"
#include "kernel_builder.h"
#include "vulkan_test.h"

#include "compiler/abi/printf_abi.h"
#include "compiler/abi/vulkan_kernel_abi.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace vulkantest {
namespace {

namespace abi = compiler::abi::vulkan;
using Arg = compiler::VulkanKernelArg;

struct LoadedKernel {
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> kernel;
};

/// Global id x: (WorkgroupId + GroupOffset) * EnqueuedLocalSize + LocalId.
constexpr const char *kGroupAndLocalX = R"(
%wgx = OpCompositeExtract %uint %wg 0
%lx = OpCompositeExtract %uint %lid 0
%grx = OpIAdd %uint %wgx %gox
%gx0 = OpIMul %uint %grx %elx
%gid = OpIAdd %uint %gx0 %lx
)";

class LaunchTest : public VulkanTest {
protected:
  LoadedKernel load(const KernelSource &source, const compiler::VulkanKernelBinaryInfo &info,
                    uint64_t globalVariableSize = 0, std::vector<std::byte> globalVariableInit = {}) {
    std::vector<uint32_t> spirv = assemble(kernelAssembly(source));
    if (spirv.empty())
      return {};
    return loadBinary(info, packBinary(std::move(spirv), info, globalVariableSize, std::move(globalVariableInit)));
  }
  LoadedKernel loadBinary(const compiler::VulkanKernelBinaryInfo &info, const std::vector<std::byte> &binary) {
    LoadedKernel loaded;
    auto executable = device().createExecutable(binary);
    if (!executable) {
      ADD_FAILURE() << "createExecutable: " << llvm::toString(executable.takeError());
      return loaded;
    }
    auto kernel = (*executable)->createKernel(info.name);
    if (!kernel) {
      ADD_FAILURE() << "createKernel: " << llvm::toString(kernel.takeError());
      return loaded;
    }
    loaded.executable = std::move(*executable);
    loaded.kernel = std::move(*kernel);
    return loaded;
  }
  LoadedKernel load(const KernelSource &source, const compiler::VulkanKernelBinaryInfo &info,
                    std::vector<std::byte> printfTable) {
    return loadBinary(info, packBinary(assemble(kernelAssembly(source)), info, 0, {}, std::move(printfTable)));
  }
  /// c = a + b over a range with an offset and a partial group, arguments
  /// in the push constants or an argument buffer.
  void runVectorAdd(bool argumentBuffer);
  /// The index_space kernel over `range`, checked against the host.
  void runIndexSpace(const mux::NDRange &range);
};

compiler::VulkanKernelBinaryInfo infoFor(const std::string &name, uint32_t pushSize, std::vector<Arg> args) {
  compiler::VulkanKernelBinaryInfo info;
  info.name = name;
  info.pushConstantSize = pushSize;
  info.args = std::move(args);
  return info;
}

void setField(compiler::VulkanKernelBinaryInfo &info, abi::LaunchField field, uint32_t offset) {
  info.launchFieldOffsets[static_cast<uint32_t>(field)] = offset;
}

// ids[i] = gx * 1000 + gy; shape[i] = local size, group id and enqueued
// size, as test/mux's index_space kernel does.
KernelSource indexSpaceSource() {
  KernelSource source;
  source.name = "index_space";
  source.push = {{"ids", true, 0},   {"shape", true, 8}, {"offx", false, 16}, {"offy", false, 20}, {"gsx", false, 28},
                 {"elx", false, 40}, {"ely", false, 44}, {"gox", false, 52},  {"goy", false, 56}};
  source.body = std::string(kGroupAndLocalX) + R"(
%wgy = OpCompositeExtract %uint %wg 1
%ly = OpCompositeExtract %uint %lid 1
%gry = OpIAdd %uint %wgy %goy
%gy0 = OpIMul %uint %gry %ely
%y = OpIAdd %uint %gy0 %ly
%gx = OpIAdd %uint %gid %offx
%gy = OpIAdd %uint %y %offy
%row = OpIMul %uint %y %gsx
%index = OpIAdd %uint %row %gid
%idv0 = OpIMul %uint %gx %c1000
%idv = OpIAdd %uint %idv0 %gy
%s0 = OpIMul %uint %c10 %lsy
%s1 = OpIAdd %uint %lsx %s0
%s2 = OpIMul %uint %c100 %grx
%s3 = OpIAdd %uint %s1 %s2
%s4 = OpIMul %uint %c10000 %gry
%s5 = OpIAdd %uint %s3 %s4
%s6 = OpIMul %uint %c1000000 %elx
%shapev = OpIAdd %uint %s5 %s6
)" + storeUint("st_id", "ids", "index", "idv") +
                storeUint("st_shape", "shape", "index", "shapev");
  return source;
}

compiler::VulkanKernelBinaryInfo indexSpaceInfo() {
  auto info = infoFor("index_space", 64, {{Arg::Kind::Buffer, 0, 8, 0}, {Arg::Kind::Buffer, 8, 8, 0}});
  setField(info, abi::LaunchField::GlobalOffset, 16);
  setField(info, abi::LaunchField::GlobalSize, 28);
  setField(info, abi::LaunchField::EnqueuedLocalSize, 40);
  setField(info, abi::LaunchField::GroupOffset, 52);
  return info;
}

void checkIndexSpace(HostBuffer &ids, HostBuffer &shape, const mux::NDRange &range) {
  const size_t width = range.globalSize[0], height = range.globalSize[1];
  std::vector<int32_t> idResult = ids.read<int32_t>(width * height);
  std::vector<int32_t> shapeResult = shape.read<int32_t>(width * height);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      size_t index = y * width + x;
      size_t gx = x + range.globalOffset[0], gy = y + range.globalOffset[1];
      ASSERT_EQ(idResult[index], int32_t(gx * 1000 + gy)) << x << "," << y;
      size_t groupX = x / range.localSize[0], groupY = y / range.localSize[1];
      size_t localX = std::min<size_t>(range.localSize[0], width - groupX * range.localSize[0]);
      size_t localY = std::min<size_t>(range.localSize[1], height - groupY * range.localSize[1]);
      ASSERT_EQ(shapeResult[index],
                int32_t(localX + 10 * localY + 100 * groupX + 10000 * groupY + 1000000 * range.localSize[0]))
          << x << "," << y;
    }
}

void LaunchTest::runIndexSpace(const mux::NDRange &range) {
  LoadedKernel loaded = load(indexSpaceSource(), indexSpaceInfo());
  ASSERT_TRUE(loaded.kernel);
  const size_t bytes = range.globalSize[0] * range.globalSize[1] * 4;
  HostBuffer ids = makeHostBuffer(bytes), shape = makeHostBuffer(bytes);
  ASSERT_TRUE(ids.buffer && shape.buffer);
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get()), bufferArg(shape.buffer.get())};
  MUX_ASSERT_OK(loaded.kernel->prepareLaunch(args, range));
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  checkIndexSpace(ids, shape, range);
}

TEST_P(LaunchTest, NonUniformRangeWithOffsetsIsSplitIntoPieces) {
  mux::NDRange range;
  range.dimensions = 2;
  range.globalOffset = {5, 2, 0};
  range.globalSize = {13, 7, 1};
  range.localSize = {4, 3, 1};
  runIndexSpace(range);
}

TEST_P(LaunchTest, UniformRangeAndManyGroups) {
  mux::NDRange range;
  range.dimensions = 2;
  range.globalSize = {256, 64, 1};
  range.localSize = {16, 4, 1};
  runIndexSpace(range);
}

KernelSource vectorAddSource(bool argumentBuffer) {
  KernelSource source;
  source.name = "vadd";
  std::string loadArgs;
  if (argumentBuffer) {
    source.push = {{"argbuf", true, 0}, {"offx", false, 8}, {"elx", false, 20}, {"gox", false, 32}};
    source.extraTypes = "%psb_ulong = OpTypePointer PhysicalStorageBuffer %ulong\n%l8 = OpConstant %ulong 8\n"
                        "%l16 = OpConstant %ulong 16\n";
    loadArgs = R"(
%pa = OpConvertUToPtr %psb_ulong %argbuf
%a = OpLoad %ulong %pa Aligned 8
%ab = OpIAdd %ulong %argbuf %l8
%pb = OpConvertUToPtr %psb_ulong %ab
%b = OpLoad %ulong %pb Aligned 8
%ac = OpIAdd %ulong %argbuf %l16
%pcv = OpConvertUToPtr %psb_ulong %ac
%c = OpLoad %ulong %pcv Aligned 8
)";
  } else {
    source.push = {{"a", true, 0},      {"b", true, 8},     {"c", true, 16},
                   {"offx", false, 24}, {"elx", false, 36}, {"gox", false, 48}};
  }
  source.body = loadArgs + kGroupAndLocalX + R"(
%i = OpIAdd %uint %gid %offx
)" + loadUint("va", "a", "i") +
                loadUint("vb", "b", "i") + "%sum = OpIAdd %uint %va %vb\n" + storeUint("st", "c", "i", "sum");
  return source;
}

compiler::VulkanKernelBinaryInfo vectorAddInfo(bool argumentBuffer) {
  std::vector<Arg> args = {{Arg::Kind::Buffer, 0, 8, 0}, {Arg::Kind::Buffer, 8, 8, 0}, {Arg::Kind::Buffer, 16, 8, 0}};
  auto info = infoFor("vadd", argumentBuffer ? 44 : 60, args);
  const uint32_t fields = argumentBuffer ? 8 : 24;
  if (argumentBuffer) {
    info.argumentBufferSize = 24;
    setField(info, abi::LaunchField::ArgumentBuffer, 0);
  }
  setField(info, abi::LaunchField::GlobalOffset, fields);
  setField(info, abi::LaunchField::EnqueuedLocalSize, fields + 12);
  setField(info, abi::LaunchField::GroupOffset, fields + 24);
  return info;
}

void LaunchTest::runVectorAdd(bool argumentBuffer) {
  LoadedKernel loaded = load(vectorAddSource(argumentBuffer), vectorAddInfo(argumentBuffer));
  ASSERT_TRUE(loaded.kernel);
  constexpr size_t kCount = 1000, kOffset = 24;
  HostBuffer a = makeHostBuffer(4096 * 4), b = makeHostBuffer(4096 * 4), c = makeHostBuffer(4096 * 4);
  ASSERT_TRUE(a.buffer && b.buffer && c.buffer);
  std::vector<uint32_t> av(4096), bv(4096);
  for (uint32_t i = 0; i < 4096; ++i) {
    av[i] = i * 3 + 1;
    bv[i] = 100000 - i;
  }
  a.write(av);
  b.write(bv);
  c.write(std::vector<uint32_t>(4096, 0xdeadbeef));
  mux::NDRange range;
  range.dimensions = 1;
  range.globalOffset = {kOffset, 0, 0};
  range.globalSize = {kCount, 1, 1};
  range.localSize = {64, 1, 1};
  // The buffers are passed 16 elements in, so element i is index i + 16.
  std::vector<mux::KernelArg> args = {bufferArg(a.buffer.get(), 64), bufferArg(b.buffer.get(), 64),
                                      bufferArg(c.buffer.get(), 64)};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  std::vector<uint32_t> result = c.read<uint32_t>(4096);
  for (size_t i = 0; i < 4096; ++i) {
    bool written = i >= 16 + kOffset && i < 16 + kOffset + kCount;
    ASSERT_EQ(result[i], written ? av[i] + bv[i] : 0xdeadbeef) << i;
  }
}

TEST_P(LaunchTest, VectorAddWithArgumentsInPushConstants) { runVectorAdd(false); }

TEST_P(LaunchTest, VectorAddWithArgumentsInAnArgumentBuffer) { runVectorAdd(true); }

TEST_P(LaunchTest, ValuesAndLaunchFieldsReachTheKernel) {
  KernelSource source;
  source.name = "values";
  source.push = {{"out", true, 0}, {"vu", false, 8}, {"vl", true, 16}, {"workdim", false, 24}, {"ngx", false, 28}};
  source.extraTypes = "%l32 = OpConstant %ulong 32\n%c3 = OpConstant %uint 3\n";
  source.body =
      "%lo = OpUConvert %uint %vl\n%hi0 = OpShiftRightLogical %ulong %vl %l32\n%hi = OpUConvert %uint %hi0\n" +
      storeUint("s0", "out", "c0", "vu") + storeUint("s1", "out", "c1", "lo") + storeUint("s2", "out", "c2", "hi") +
      storeUint("s3", "out", "c3", "workdim") + storeUint("s4", "out", "c4", "ngx");
  auto info =
      infoFor("values", 40, {{Arg::Kind::Buffer, 0, 8, 0}, {Arg::Kind::Value, 8, 4, 0}, {Arg::Kind::Value, 16, 8, 0}});
  setField(info, abi::LaunchField::WorkDim, 24);
  setField(info, abi::LaunchField::NumGroups, 28);
  LoadedKernel loaded = load(source, info);
  ASSERT_TRUE(loaded.kernel);
  HostBuffer out = makeHostBuffer(64);
  ASSERT_TRUE(out.buffer);
  mux::NDRange range;
  range.dimensions = 3;
  range.globalSize = {10, 2, 2};
  range.localSize = {4, 1, 1};
  std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get()), valueArg<uint32_t>(0xfeedf00d),
                                      valueArg<uint64_t>(0x0123456789abcdefull)};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(out.read<uint32_t>(5), (std::vector<uint32_t>{0xfeedf00d, 0x89abcdef, 0x01234567, 3, 3}));
}

TEST_P(LaunchTest, LocalArgumentWithBarrierReversesEachGroup) {
  KernelSource source;
  source.name = "reverse";
  source.push = {{"in", true, 0}, {"out", true, 8}, {"elx", false, 16}, {"gox", false, 28}};
  source.decorations = "OpDecorate %lbytes SpecId 3\n";
  source.interface = "%scratch";
  source.extraTypes = R"(
%lbytes = OpSpecConstant %uint 16
%lcount = OpSpecConstantOp %uint UDiv %lbytes %c4
%arr = OpTypeArray %uint %lcount
%ptr_wg_arr = OpTypePointer Workgroup %arr
%ptr_wg_uint = OpTypePointer Workgroup %uint
%scratch = OpVariable %ptr_wg_arr Workgroup
%sem = OpConstant %uint 264
)";
  source.body = std::string(kGroupAndLocalX) + loadUint("v", "in", "gid") + R"(
%sp = OpAccessChain %ptr_wg_uint %scratch %lx
OpStore %sp %v
OpControlBarrier %c2 %c2 %sem
%r0 = OpISub %uint %lsx %c1
%r = OpISub %uint %r0 %lx
%rp = OpAccessChain %ptr_wg_uint %scratch %r
%rv = OpLoad %uint %rp
)" + storeUint("st", "out", "gid", "rv");
  auto info =
      infoFor("reverse", 40, {{Arg::Kind::Buffer, 0, 8, 0}, {Arg::Kind::Buffer, 8, 8, 0}, {Arg::Kind::Local, 0, 0, 3}});
  setField(info, abi::LaunchField::EnqueuedLocalSize, 16);
  setField(info, abi::LaunchField::GroupOffset, 28);
  LoadedKernel loaded = load(source, info);
  ASSERT_TRUE(loaded.kernel);
  for (uint32_t groupSize : {64u, 128u}) {
    SCOPED_TRACE(groupSize);
    constexpr uint32_t kCount = 512;
    HostBuffer in = makeHostBuffer(kCount * 4), out = makeHostBuffer(kCount * 4);
    ASSERT_TRUE(in.buffer && out.buffer);
    std::vector<uint32_t> values(kCount);
    for (uint32_t i = 0; i < kCount; ++i)
      values[i] = i * 7 + 3;
    in.write(values);
    mux::NDRange range;
    range.globalSize = {kCount, 1, 1};
    range.localSize = {groupSize, 1, 1};
    // 4 bytes per work-item; the runtime rounds up to kLocalArgGranule.
    std::vector<mux::KernelArg> args = {bufferArg(in.buffer.get()), bufferArg(out.buffer.get()),
                                        localArg(groupSize * 4 - 3)};
    auto commandBuffer = makeCommandBuffer();
    MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
    std::vector<uint32_t> result = out.read<uint32_t>(kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
      uint32_t group = i / groupSize, local = i % groupSize;
      ASSERT_EQ(result[i], values[group * groupSize + groupSize - 1 - local]) << i;
    }
  }
  // More __local memory than the device has is refused when recorded.
  HostBuffer any = makeHostBuffer(64);
  std::vector<mux::KernelArg> tooBig = {bufferArg(any.buffer.get()), bufferArg(any.buffer.get()),
                                        localArg(device().info().localMemSize + 1)};
  mux::NDRange range;
  auto commandBuffer = makeCommandBuffer();
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, tooBig, range)), mux::Status::OutOfResources);
}

/// A kernel "globals" that copies word gid of its program-scope block (16
/// words, the first 4 initialised to `init`) to its argument and adds 1 to
/// it.
std::vector<std::byte> globalsBinary(compiler::VulkanKernelBinaryInfo &info, const std::vector<uint32_t> &init) {
  KernelSource source;
  source.name = "globals";
  source.push = {{"out", true, 0}, {"gv", true, 8}, {"elx", false, 16}, {"gox", false, 28}};
  source.body = std::string(kGroupAndLocalX) + loadUint("v", "gv", "gid") + storeUint("st", "out", "gid", "v") +
                "%v1 = OpIAdd %uint %v %c1\n" + storeUint("st2", "gv", "gid", "v1");
  info = infoFor("globals", 40, {{Arg::Kind::Buffer, 0, 8, 0}});
  setField(info, abi::LaunchField::GlobalVariables, 8);
  setField(info, abi::LaunchField::EnqueuedLocalSize, 16);
  setField(info, abi::LaunchField::GroupOffset, 28);
  std::vector<std::byte> initBytes(init.size() * 4);
  std::memcpy(initBytes.data(), init.data(), initBytes.size());
  std::vector<uint32_t> spirv = assemble(kernelAssembly(source));
  if (spirv.empty())
    return {};
  return packBinary(std::move(spirv), info, 64, initBytes);
}

/// The globals kernel's launches: two groups of 8.
mux::NDRange globalsRange() {
  mux::NDRange range;
  range.globalSize = {16, 1, 1};
  range.localSize = {8, 1, 1};
  return range;
}

TEST_P(LaunchTest, ProgramScopeVariablesAreInitialisedAndPersist) {
  const std::vector<uint32_t> init = {11, 22, 33, 44};
  compiler::VulkanKernelBinaryInfo info;
  std::vector<std::byte> binary = globalsBinary(info, init);
  ASSERT_FALSE(binary.empty());
  LoadedKernel loaded = loadBinary(info, binary);
  ASSERT_TRUE(loaded.kernel);
  HostBuffer out = makeHostBuffer(64);
  ASSERT_TRUE(out.buffer);
  const mux::NDRange range = globalsRange();
  std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get())};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
  MUX_ASSERT_OK(commandBuffer->finalize());
  for (uint32_t run = 0; run < 3; ++run) {
    auto fence = device().createFence();
    ASSERT_TRUE(!!fence);
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, fence->get(), nullptr));
    ASSERT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::Success);
    std::vector<uint32_t> expected(16, run);
    for (size_t i = 0; i < init.size(); ++i)
      expected[i] = init[i] + run;
    EXPECT_EQ(out.read<uint32_t>(16), expected) << "run " << run;
  }
}

// Programs loaded from equal binaries share their shader module and
// pipelines (executable.h), but each has program-scope variables of its
// own, initialised when it is loaded.
TEST_P(LaunchTest, ProgramsWithEqualBinariesKeepTheirOwnProgramScopeVariables) {
  const std::vector<uint32_t> init = {5, 6, 7, 8};
  compiler::VulkanKernelBinaryInfo info;
  std::vector<std::byte> binary = globalsBinary(info, init);
  ASSERT_FALSE(binary.empty());
  LoadedKernel first = loadBinary(info, binary);
  LoadedKernel second = loadBinary(info, binary);
  ASSERT_TRUE(first.kernel && second.kernel);
  auto &a = static_cast<vulkan_target::Kernel &>(*first.kernel);
  auto &b = static_cast<vulkan_target::Kernel &>(*second.kernel);
  EXPECT_EQ(a.program().shaders, b.program().shaders);
  EXPECT_NE(a.program().globals.get(), b.program().globals.get());

  HostBuffer out = makeHostBuffer(64);
  ASSERT_TRUE(out.buffer);
  const mux::NDRange range = globalsRange();
  std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get())};
  auto launch = [&](mux::Kernel &kernel) {
    auto commandBuffer = makeCommandBuffer();
    MUX_ASSERT_OK(commandBuffer->ndrange(kernel, args, range));
    ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  };
  std::vector<uint32_t> expected(16, 0);
  std::copy(init.begin(), init.end(), expected.begin());
  launch(*first.kernel);
  launch(*first.kernel);
  launch(*second.kernel); // sees its own block, untouched by the first's runs
  EXPECT_EQ(out.read<uint32_t>(16), expected);
  first = {}; // the second program's shaders outlive the first program
  launch(*second.kernel);
  for (uint32_t &word : expected)
    ++word;
  EXPECT_EQ(out.read<uint32_t>(16), expected);
}

TEST_P(LaunchTest, BadLaunchesAreRejected) {
  LoadedKernel loaded = load(indexSpaceSource(), indexSpaceInfo());
  ASSERT_TRUE(loaded.kernel);
  HostBuffer ids = makeHostBuffer(64);
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get()), bufferArg(ids.buffer.get())};
  auto commandBuffer = makeCommandBuffer();
  mux::NDRange range;
  range.dimensions = 0;
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, args, range)), mux::Status::InvalidArgument);
  range.dimensions = 1;
  range.localSize = {device().info().maxWorkGroupSize + 1, 1, 1};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, args, range)), mux::Status::InvalidArgument);
  range.localSize = {1, 1, 1};
  std::vector<mux::KernelArg> wrongKinds = {valueArg<uint64_t>(0), bufferArg(ids.buffer.get())};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, wrongKinds, range)), mux::Status::InvalidArgument);
  std::vector<mux::KernelArg> tooFew = {bufferArg(ids.buffer.get())};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, tooFew, range)), mux::Status::InvalidArgument);
  std::vector<mux::KernelArg> pastTheEnd = {bufferArg(ids.buffer.get(), 65), bufferArg(ids.buffer.get())};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*loaded.kernel, pastTheEnd, range)), mux::Status::InvalidArgument);
  EXPECT_EQ(statusOf(loaded.executable->createKernel("missing")), mux::Status::InvalidArgument);
  // Nothing was recorded: the buffer runs cleanly.
  EXPECT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
}

TEST_P(LaunchTest, MalformedBinariesAreRejected) {
  std::vector<std::byte> garbage(64, std::byte{0x5a});
  EXPECT_EQ(statusOf(device().createExecutable(garbage)), mux::Status::InvalidArgument);
  // A launch field outside the push constants the kernel declares.
  auto info = indexSpaceInfo();
  info.pushConstantSize = 32;
  std::vector<uint32_t> spirv = assemble(kernelAssembly(indexSpaceSource()));
  ASSERT_FALSE(spirv.empty());
  EXPECT_EQ(statusOf(device().createExecutable(packBinary(spirv, info))), mux::Status::InvalidArgument);
}

/// A printf format table (compiler/abi/printf_abi.h) with one format that
/// takes one 32-bit integer.
std::vector<std::byte> printfTableOf(const std::string &format) {
  std::vector<std::byte> table;
  auto add = [&](const void *data, size_t size) {
    const auto *bytes = static_cast<const std::byte *>(data);
    table.insert(table.end(), bytes, bytes + size);
  };
  add(compiler::abi::kPrintfTableMagic, 4);
  uint32_t count = 1, length = static_cast<uint32_t>(format.size()), argCount = 1;
  add(&count, 4);
  add(&length, 4);
  add(format.data(), format.size());
  add(&argCount, 4);
  compiler::abi::PrintfArgInfo arg{compiler::abi::PrintfArgKind::Integer, 4, 1, 0, 4};
  add(&arg, sizeof(arg));
  return table;
}

TEST_P(LaunchTest, PrintfOutputReachesStdoutBeforeTheEndMarker) {
  if (!info().atomics64)
    GTEST_SKIP() << "the hand-written printf kernel claims space with a 64-bit atomic";
  // Each work-item claims a 16-byte record (format 0, its local id) as
  // LowerPrintfPass's code does.
  KernelSource source;
  source.name = "prints";
  source.capabilities = "OpCapability Int64Atomics\n";
  source.push = {{"pbuf", true, 0}};
  source.extraTypes = R"(
%bool = OpTypeBool
%psb_ulong = OpTypePointer PhysicalStorageBuffer %ulong
%l8 = OpConstant %ulong 8
%l16 = OpConstant %ulong 16
%c16 = OpConstant %uint 16
)";
  source.body = R"(
%lx = OpCompositeExtract %uint %lid 0
%usedAddress = OpIAdd %ulong %pbuf %l8
%usedPtr = OpConvertUToPtr %psb_ulong %usedAddress
%claim = OpAtomicIAdd %ulong %usedPtr %c1 %c0 %l16
%capPtr = OpConvertUToPtr %psb_ulong %pbuf
%capacity = OpLoad %ulong %capPtr Aligned 8
%end = OpIAdd %ulong %claim %l16
%fits = OpULessThanEqual %bool %end %capacity
OpSelectionMerge %done None
OpBranchConditional %fits %write %done
%write = OpLabel
%records = OpIAdd %ulong %pbuf %l16
%r0 = OpIAdd %ulong %records %claim
%p0 = OpConvertUToPtr %psb_uint %r0
OpStore %p0 %c0 Aligned 4
%r1 = OpIAdd %ulong %r0 %l4
%p1 = OpConvertUToPtr %psb_uint %r1
OpStore %p1 %c16 Aligned 4
%r2 = OpIAdd %ulong %r0 %l8
%p2 = OpConvertUToPtr %psb_uint %r2
OpStore %p2 %lx Aligned 4
OpBranch %done
%done = OpLabel
)";
  auto info = infoFor("prints", 8, {});
  info.flags = compiler::VulkanKernelUsesPrintf;
  setField(info, abi::LaunchField::PrintfBuffer, 0);
  LoadedKernel loaded = load(source, info, printfTableOf("item %d\n"));
  ASSERT_TRUE(loaded.kernel);
  mux::NDRange range;
  range.globalSize = {4, 1, 1};
  range.localSize = {4, 1, 1};
  std::string atEnd;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, {}, range));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](mux::Status) {
    std::fflush(stdout);
    atEnd = testing::internal::GetCapturedStdout();
  }));
  MUX_ASSERT_OK(commandBuffer->finalize());
  for (int run = 0; run < 2; ++run) { // each run prints only its own records
    testing::internal::CaptureStdout();
    auto fence = device().createFence();
    ASSERT_TRUE(!!fence);
    MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, fence->get(), nullptr));
    ASSERT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::Success);
    std::vector<std::string> lines;
    for (size_t begin = 0, end; (end = atEnd.find('\n', begin)) != std::string::npos; begin = end + 1)
      lines.push_back(atEnd.substr(begin, end - begin));
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ(lines, (std::vector<std::string>{"item 0", "item 1", "item 2", "item 3"})) << "run " << run;
  }
}

TEST_P(LaunchTest, AReportedFailedAccessFailsItsCommandOnly) {
  // A kernel whose access failed its check writes the launch's AccessReport
  // (as GuardBufferAccessesPass's code does): its command fails with the
  // kernel's name and the address, the dispatch with it; a command in a
  // later segment of the same dispatch still succeeds.
  KernelSource reports;
  reports.name = "reports";
  reports.push = {{"report", true, 0}};
  reports.extraTypes = R"(
%psb_ulong = OpTypePointer PhysicalStorageBuffer %ulong
%l8 = OpConstant %ulong 8
%bad = OpConstant %ulong 0x1234
)";
  reports.body = R"(
%addressPtrValue = OpIAdd %ulong %report %l8
%addressPtr = OpConvertUToPtr %psb_ulong %addressPtrValue
OpStore %addressPtr %bad Aligned 8
%faultedPtr = OpConvertUToPtr %psb_uint %report
OpStore %faultedPtr %c1 Aligned 4
)";
  auto reportsInfo = infoFor("reports", 8, {});
  setField(reportsInfo, abi::LaunchField::AccessReport, 0);
  LoadedKernel faulting = load(reports, reportsInfo);
  ASSERT_TRUE(faulting.kernel);
  KernelSource quiet;
  quiet.name = "quiet";
  LoadedKernel good = load(quiet, infoFor("quiet", 0, {}));
  ASSERT_TRUE(good.kernel);

  mux::NDRange range;
  range.globalSize = {4, 1, 1};
  range.localSize = {4, 1, 1};
  mux::Outcome first, second, dispatched;
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->markCommandStart([](const mux::Outcome &) {}));
  MUX_ASSERT_OK(commandBuffer->ndrange(*faulting.kernel, {}, range));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](const mux::Outcome &outcome) { first = outcome; }));
  MUX_ASSERT_OK(commandBuffer->userCallback([](const mux::Outcome &) {})); // ends the segment
  MUX_ASSERT_OK(commandBuffer->markCommandStart([](const mux::Outcome &) {}));
  MUX_ASSERT_OK(commandBuffer->ndrange(*good.kernel, {}, range));
  MUX_ASSERT_OK(commandBuffer->markCommandEnd([&](const mux::Outcome &outcome) { second = outcome; }));
  MUX_ASSERT_OK(commandBuffer->finalize());
  auto fence = device().createFence();
  ASSERT_TRUE(!!fence);
  MUX_ASSERT_OK(device().queue().dispatch(*commandBuffer, {}, {}, fence->get(),
                                          [&](const mux::Outcome &outcome) { dispatched = outcome; }));
  EXPECT_EQ((*fence)->wait(std::chrono::seconds(60)), mux::Status::KernelFault);
  device().queue().waitAll();
  EXPECT_EQ(first.status, mux::Status::KernelFault);
  EXPECT_NE(first.detail.find("kernel 'reports' faulted"), std::string::npos) << first.detail;
  EXPECT_NE(first.detail.find("address 0x1234"), std::string::npos) << first.detail;
  EXPECT_EQ(second.status, mux::Status::Success) << second.detail;
  EXPECT_EQ(dispatched.status, mux::Status::KernelFault);
  EXPECT_EQ(dispatched.detail, first.detail);
}

TEST_P(LaunchTest, PipelinesArePreparedOnceFromManyThreads) {
  LoadedKernel loaded = load(indexSpaceSource(), indexSpaceInfo());
  ASSERT_TRUE(loaded.kernel);
  HostBuffer ids = makeHostBuffer(64);
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get()), bufferArg(ids.buffer.get())};
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (size_t local = 1; local <= 8; ++local) {
        mux::NDRange range;
        range.dimensions = 2;
        range.globalSize = {8 + size_t(t), 3, 1};
        range.localSize = {local, 1, 1};
        if (llvm::Error error = loaded.kernel->prepareLaunch(args, range)) {
          llvm::consumeError(std::move(error));
          ++failures;
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_P(LaunchTest, SubgroupKernelsRunWithTheReportedSubgroupSize) {
  if (info().subGroupSizes.empty())
    GTEST_SKIP() << "no sub-groups on this device";
  // Each work-item stores the sum of 1 over its sub-group.
  KernelSource source;
  source.name = "subgroup_size";
  source.capabilities = "OpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n";
  source.push = {{"out", true, 0}, {"elx", false, 8}, {"gox", false, 20}};
  source.extraTypes = "%c3 = OpConstant %uint 3\n";
  source.body = std::string(kGroupAndLocalX) + "%sum = OpGroupNonUniformIAdd %uint %c3 Reduce %c1\n" +
                storeUint("st", "out", "gid", "sum");
  auto info = infoFor("subgroup_size", 32, {{Arg::Kind::Buffer, 0, 8, 0}});
  info.flags = compiler::VulkanKernelUsesSubgroups;
  setField(info, abi::LaunchField::EnqueuedLocalSize, 8);
  setField(info, abi::LaunchField::GroupOffset, 20);
  LoadedKernel loaded = load(source, info);
  ASSERT_TRUE(loaded.kernel);
  const uint32_t subgroupSize = this->info().subGroupSizes.front();
  const size_t local = subgroupSize * 4, count = local * 8;
  EXPECT_EQ(loaded.kernel->subGroupSize(local), subgroupSize);
  HostBuffer out = makeHostBuffer(count * 4);
  ASSERT_TRUE(out.buffer);
  mux::NDRange range;
  range.globalSize = {count, 1, 1};
  range.localSize = {local, 1, 1};
  std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get())};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*loaded.kernel, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(out.read<uint32_t>(count), std::vector<uint32_t>(count, subgroupSize));
}

INSTANTIATE_VULKAN_TEST(LaunchTest);

} // namespace
} // namespace vulkantest
