// Kernel objects of one loaded program share its pipelines: a second
// mux::Kernel for a kernel gets the pipeline and layout the first one made,
// and they outlive the kernel object that made them. Each cl_kernel has a
// mux::Kernel of its own; when each made its own pipelines, lavapipe spent
// 17 ms compiling them again for every new cl_kernel of a program and kept
// heap memory for each (found by test/stress, doc/reliability.md).
#include "executable.h"
#include "kernel_builder.h"
#include "vulkan_test.h"

namespace vulkantest {
namespace {

using PipelineSharingTest = VulkanTest;

TEST_P(PipelineSharingTest, KernelObjectsOfOneProgramShareItsPipelines) {
  std::vector<std::byte> binary = storeOneBinary(); // out[0] = 1
  ASSERT_FALSE(binary.empty());
  auto executable = device().createExecutable(binary);
  ASSERT_TRUE(!!executable) << llvm::toString(executable.takeError());
  auto first = (*executable)->createKernel("store");
  auto second = (*executable)->createKernel("store");
  ASSERT_TRUE(first && second);
  auto &a = static_cast<vulkan_target::Kernel &>(**first);
  auto &b = static_cast<vulkan_target::Kernel &>(**second);
  const vulkan_target::PipelineKey key{{1, 1, 1}, {}};
  auto pipelineOfFirst = a.pipeline(key);
  ASSERT_TRUE(!!pipelineOfFirst) << llvm::toString(pipelineOfFirst.takeError());
  auto pipelineOfSecond = b.pipeline(key);
  ASSERT_TRUE(!!pipelineOfSecond) << llvm::toString(pipelineOfSecond.takeError());
  EXPECT_EQ(*pipelineOfFirst, *pipelineOfSecond);
  EXPECT_EQ(a.layout(), b.layout());

  // The first kernel object goes away; the pipeline it made still runs.
  first->reset();
  HostBuffer out = makeHostBuffer(64);
  ASSERT_TRUE(out.buffer);
  out.write(std::vector<uint32_t>{0});
  std::vector<mux::KernelArg> args = {bufferArg(out.buffer.get())};
  mux::NDRange range;
  MUX_ASSERT_OK(b.prepareLaunch(args, range));
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(b, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(out.read<uint32_t>(1), std::vector<uint32_t>{1});
}

// A program loaded again from equal bytes, after the first was released,
// gets the pipelines the first made: the device keeps recently used
// programs' shaders (Device::shaderPrograms()). Every build of a program,
// a kernel-cache hit included, loads its binary anew, and lavapipe keeps
// heap memory for every pipeline it compiles.
TEST_P(PipelineSharingTest, ProgramsLoadedAgainFromEqualBytesReuseTheirPipelines) {
  std::vector<std::byte> binary = storeOneBinary();
  ASSERT_FALSE(binary.empty());
  const vulkan_target::PipelineKey key{{1, 1, 1}, {}};
  auto pipelineOfANewProgram = [&]() -> VkPipeline {
    auto executable = device().createExecutable(binary);
    EXPECT_TRUE(!!executable) << llvm::toString(executable.takeError());
    if (!executable)
      return VK_NULL_HANDLE;
    auto kernel = (*executable)->createKernel("store");
    EXPECT_TRUE(!!kernel) << llvm::toString(kernel.takeError());
    if (!kernel)
      return VK_NULL_HANDLE;
    auto pipeline = static_cast<vulkan_target::Kernel &>(**kernel).pipeline(key);
    EXPECT_TRUE(!!pipeline) << llvm::toString(pipeline.takeError());
    return pipeline ? *pipeline : VK_NULL_HANDLE;
  };
  const VkPipeline first = pipelineOfANewProgram(); // program and kernel released on return
  ASSERT_NE(first, VK_NULL_HANDLE);
  EXPECT_EQ(pipelineOfANewProgram(), first);

  // Different bytes (the same kernel with a program-scope block) are
  // another program, with shaders of its own.
  auto decoded = compiler::decodeVulkanBinary(binary);
  ASSERT_TRUE(!!decoded) << llvm::toString(decoded.takeError());
  std::vector<std::byte> other = packBinary(decoded->spirv, decoded->kernels.at(0), /*globalVariableSize=*/16);
  ASSERT_NE(other, binary);
  auto withBlock = device().createExecutable(other);
  auto withoutBlock = device().createExecutable(binary);
  ASSERT_TRUE(withBlock && withoutBlock);
  auto a = (*withBlock)->createKernel("store");
  auto b = (*withoutBlock)->createKernel("store");
  ASSERT_TRUE(a && b);
  EXPECT_NE(static_cast<vulkan_target::Kernel &>(**a).program().shaders,
            static_cast<vulkan_target::Kernel &>(**b).program().shaders);
}

} // namespace

INSTANTIATE_VULKAN_TEST(PipelineSharingTest);

} // namespace vulkantest
