// The device's VkPipelineCache on disk: written where POLYMUX_CACHE says
// when the device goes away, read back by the next device, never written
// with POLYMUX_CACHE=0.
#include "kernel_builder.h"
#include "vulkan_test.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

std::unique_ptr<mux::Target> polymux_create_target_vulkan();

namespace vulkantest {
namespace {

using PipelineCacheTest = VulkanTest;

/// Files named vulkan-pipelines-* in `directory`.
std::vector<std::string> cacheFiles(const std::string &directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory, error), end; it != end && !error; it.increment(error))
    if (llvm::sys::path::filename(it->path()).starts_with("vulkan-pipelines-"))
      files.push_back(it->path());
  return files;
}

/// Creates a fresh vulkan target with POLYMUX_CACHE=`setting`, builds one
/// pipeline on its first device and destroys the target.
void buildOnePipeline(const std::string &setting) {
  ::setenv("POLYMUX_CACHE", setting.c_str(), 1);
  {
    std::unique_ptr<mux::Target> target = polymux_create_target_vulkan();
    ASSERT_FALSE(target->devices().empty());
    mux::Device &device = *target->devices().front();
    std::vector<std::byte> binary = storeOneBinary();
    ASSERT_FALSE(binary.empty());
    auto executable = device.createExecutable(binary);
    ASSERT_TRUE(!!executable) << llvm::toString(executable.takeError());
    auto kernel = (*executable)->createKernel("store");
    ASSERT_TRUE(!!kernel) << llvm::toString(kernel.takeError());
    auto buffer = device.createBuffer(64);
    ASSERT_TRUE(!!buffer);
    auto memory = device.allocateMemory((*buffer)->memoryRequirements().size, mux::MemoryHostVisible, 0);
    ASSERT_TRUE(!!memory);
    MUX_ASSERT_OK((*buffer)->bind(**memory, 0));
    std::vector<mux::KernelArg> args = {bufferArg(buffer->get())};
    mux::NDRange range;
    MUX_ASSERT_OK((*kernel)->prepareLaunch(args, range));
  }
  ::unsetenv("POLYMUX_CACHE");
}

TEST_P(PipelineCacheTest, SavedWherePolymuxCacheSaysAndReadBack) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("polymux-pipeline-cache", directory));
  const std::string cacheDirectory = std::string(directory) + "/nested";
  buildOnePipeline(cacheDirectory);
  std::vector<std::string> files = cacheFiles(cacheDirectory);
  ASSERT_EQ(files.size(), 1u);
  uint64_t size = 0;
  ASSERT_FALSE(llvm::sys::fs::file_size(files[0], size));
  EXPECT_GE(size, 32u); // at least Vulkan's header
  // A second device starts from the file (and keeps one file).
  buildOnePipeline(cacheDirectory);
  EXPECT_EQ(cacheFiles(cacheDirectory).size(), 1u);
  llvm::sys::fs::remove_directories(directory);
}

TEST_P(PipelineCacheTest, DisabledByPolymuxCacheZero) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("polymux-pipeline-cache", directory));
  ::setenv("XDG_CACHE_HOME", directory.c_str(), 1);
  buildOnePipeline("0");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_FALSE(llvm::sys::fs::exists(std::string(directory) + "/polymux"));
  llvm::sys::fs::remove_directories(directory);
}

INSTANTIATE_VULKAN_TEST(PipelineCacheTest);

} // namespace
} // namespace vulkantest
