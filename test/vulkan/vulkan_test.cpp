#include "vulkan_test.h"

#include "compiler/target.h"

namespace vulkantest {

std::vector<muxtest::DeviceParam> vulkanDevices() {
  std::vector<muxtest::DeviceParam> devices;
  for (const muxtest::DeviceParam &param : muxtest::allDevices())
    if (param.device->info().targetName == "vulkan")
      devices.push_back(param);
  return devices;
}

HostBuffer VulkanTest::makeHostBuffer(uint64_t size, uint32_t properties) {
  HostBuffer result;
  muxtest::BoundBuffer bound = makeBuffer(size, properties);
  if (!bound.buffer)
    return result;
  if (properties & mux::MemoryHostVisible) {
    auto pointer = bound.memory->map(0, size);
    if (!pointer) {
      ADD_FAILURE() << "map: " << llvm::toString(pointer.takeError());
      return result;
    }
    result.data = static_cast<std::byte *>(*pointer);
  }
  result.memory = std::move(bound.memory);
  result.buffer = std::move(bound.buffer);
  return result;
}

std::optional<CompiledKernel> VulkanTest::compileKernel(const char *source, const char *name) {
  std::string log;
  auto built = device().compiler().build(source, "-cl-std=CL3.0", log);
  if (!built) {
    if (mux::takeStatus(built.takeError()) != mux::Status::Unsupported)
      ADD_FAILURE() << "build of '" << name << "' failed:\n" << log;
    return std::nullopt;
  }
  CompiledKernel compiled;
  auto binary = (*built)->binary();
  if (!binary) {
    ADD_FAILURE() << "binary: " << llvm::toString(binary.takeError());
    return std::nullopt;
  }
  compiled.binary = std::move(*binary);
  auto executable = device().createExecutable(compiled.binary);
  if (!executable) {
    ADD_FAILURE() << "createExecutable: " << llvm::toString(executable.takeError());
    return std::nullopt;
  }
  compiled.executable = std::move(*executable);
  auto kernel = compiled.executable->createKernel(name);
  if (!kernel) {
    ADD_FAILURE() << "createKernel(" << name << "): " << llvm::toString(kernel.takeError());
    return std::nullopt;
  }
  compiled.kernel = std::move(*kernel);
  return compiled;
}

} // namespace vulkantest
