// A kernel that never ends must not hang the destruction of its device:
// after Queue::kShutdownGrace the device is abandoned (its objects leaked)
// and destruction returns. Run in a child process (a death test), which
// leaves with _Exit since the never-ending work keeps a driver thread busy.
#include "kernel_builder.h"
#include "vulkan_test.h"

#include "queue.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <thread>

std::unique_ptr<mux::Target> polymux_create_target_vulkan();

namespace vulkantest {
namespace {

using VulkanHangTest = VulkanTest;

/// Stores into out[0] until out[1] is non-zero.
KernelSource endlessSource() {
  KernelSource source;
  source.name = "endless";
  source.push = {{"out", true, 0}};
  source.extraTypes = "%bool = OpTypeBool\n";
  // Three nested loops that leave only when out[1] becomes non-zero, which
  // nobody writes (nested, in case a driver limits each loop separately).
  std::string body = R"(
%out_ptr = OpConvertUToPtr %psb_uint %out
%flag_address = OpIAdd %ulong %out %l4
%flag_ptr = OpConvertUToPtr %psb_uint %flag_address
OpBranch %loop1
)";
  for (int level = 1; level <= 3; ++level) {
    const std::string n = std::to_string(level);
    body += "%loop" + n + " = OpLabel\nOpLoopMerge %exit" + n + " %continue" + n + " None\nOpBranch %body" + n +
            "\n%body" + n + " = OpLabel\n";
    body += level < 3 ? "OpBranch %loop" + std::to_string(level + 1) + "\n"
                      : "OpStore %out_ptr %c1 Volatile|Aligned 4\nOpBranch %continue3\n";
  }
  for (int level = 3; level >= 1; --level) {
    const std::string n = std::to_string(level);
    if (level < 3)
      body += "%exit" + std::to_string(level + 1) + " = OpLabel\nOpBranch %continue" + n + "\n";
    body += "%continue" + n + " = OpLabel\n%flag" + n + " = OpLoad %uint %flag_ptr Volatile|Aligned 4\n%stop" + n +
            " = OpINotEqual %bool %flag" + n + " %c0\nOpBranchConditional %stop" + n + " %exit" + n + " %loop" + n +
            "\n";
  }
  body += "%exit1 = OpLabel\n";
  source.body = body;
  return source;
}

/// Returns (to _Exit) 0 when destroying a device with an endless kernel
/// running returned after the grace period and in bounded time.
int destroyDeviceWithEndlessKernel() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point destroyStart;
  bool driverEndsShaders = false;
  {
    std::unique_ptr<mux::Target> target = polymux_create_target_vulkan();
    if (target->devices().empty())
      return 2;
    mux::Device &device = *target->devices().front();
    driverEndsShaders = device.info().name.find("llvmpipe") != std::string::npos;
    compiler::VulkanKernelBinaryInfo info;
    info.name = "endless";
    info.pushConstantSize = 8;
    info.args = {{compiler::VulkanKernelArg::Kind::Buffer, 0, 8, 0}};
    auto executable = device.createExecutable(packBinary(assemble(kernelAssembly(endlessSource())), info));
    if (!executable)
      return 3;
    auto kernel = (*executable)->createKernel("endless");
    auto buffer = device.createBuffer(64);
    auto memory = device.allocateMemory(4096, mux::MemoryHostVisible, 0);
    if (memory) {
      auto zero = (*memory)->map(0, 4096);
      if (!zero)
        return 4;
      std::memset(*zero, 0, 4096);
    }
    auto commandBuffer = device.createCommandBuffer();
    auto fenceOrError = device.createFence();
    if (!fenceOrError)
      return 4;
    std::unique_ptr<mux::Fence> fence = std::move(*fenceOrError);
    if (!kernel || !buffer || !memory || !commandBuffer || (*buffer)->bind(**memory, 0))
      return 4;
    std::vector<mux::KernelArg> args = {bufferArg(buffer->get())};
    if ((*commandBuffer)->ndrange(**kernel, args, mux::NDRange{}) || (*commandBuffer)->finalize() ||
        device.queue().dispatch(**commandBuffer, {}, {}, fence.get(), nullptr))
      return 5;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (fence->wait(std::chrono::milliseconds(0)) != mux::Status::Timeout)
      return 7; // the endless kernel ended
    destroyStart = Clock::now();
    // The device goes while its objects live on (as the HAL allows); they
    // are never destroyed here: the child process leaves with _Exit.
    (void)commandBuffer->release();
    (void)kernel->release();
    (void)executable->release();
    (void)buffer->release();
    (void)memory->release();
    (void)fence.release();
  }
  auto elapsed = Clock::now() - destroyStart;
  // lavapipe may end the kernel only after the check above (a loaded
  // machine runs its 65535 iterations slower): destruction then returns
  // early, once the work is done.
  if (driverEndsShaders && elapsed < vulkan_target::Queue::kShutdownGrace)
    return 7;
  return elapsed >= vulkan_target::Queue::kShutdownGrace && elapsed < vulkan_target::Queue::kShutdownGrace * 3 ? 0 : 6;
}

/// The child's exit status: 0 when destruction returned after the grace
/// period, 7 when the driver itself ended the kernel (lavapipe 22.3 stops
/// every shader after 65535 loop iterations in all, so there the bound is
/// not reached and only the destruction of a busy device is checked).
bool boundedOrEndedByTheDriver(int status) {
  return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 7);
}

TEST_P(VulkanHangTest, DestroyingADeviceWithAnEndlessKernelReturns) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::_Exit(destroyDeviceWithEndlessKernel()), boundedOrEndedByTheDriver, "");
}

INSTANTIATE_VULKAN_TEST(VulkanHangTest);

} // namespace
} // namespace vulkantest
