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

} // namespace

INSTANTIATE_VULKAN_TEST(PipelineSharingTest);

} // namespace vulkantest
