#include "device_launch.h"

#include "text_format.h"

#include "mux/status.h"
#include "mux/support/bound_buffer.h"

#include <cstring>
#include <future>

namespace polymux::tool {
namespace {

llvm::Error copyToMemory(mux::Memory &memory, const std::vector<std::byte> &bytes) {
  auto pointer = memory.map(0, bytes.size());
  if (!pointer)
    return pointer.takeError();
  std::memcpy(*pointer, bytes.data(), bytes.size());
  memory.flushToDevice(0, bytes.size());
  memory.unmap();
  return llvm::Error::success();
}

llvm::Error copyFromMemory(mux::Memory &memory, std::vector<std::byte> &bytes) {
  memory.flushFromDevice(0, bytes.size());
  auto pointer = memory.map(0, bytes.size());
  if (!pointer)
    return pointer.takeError();
  std::memcpy(bytes.data(), *pointer, bytes.size());
  memory.unmap();
  return llvm::Error::success();
}

/// A buffer argument on the device and, where the device's commands cannot
/// reach host memory, the host-visible buffer its bytes travel through.
struct DeviceBuffer {
  mux::support::BoundBuffer storage;
  mux::support::BoundBuffer staging;
};

} // namespace

llvm::Expected<LoadedKernel> LoadedKernel::load(mux::Device &device, compiler::Module &module,
                                                const std::string &name) {
  auto binary = module.binary();
  if (!binary)
    return binary.takeError();
  LoadedKernel loaded(device);
  auto executable = device.createExecutable(*binary);
  if (!executable)
    return executable.takeError();
  loaded.executable_ = std::move(*executable);
  auto kernel = loaded.executable_->createKernel(name);
  if (!kernel)
    return kernel.takeError();
  loaded.kernel_ = std::move(*kernel);
  return loaded;
}

LaunchResult LoadedKernel::run(const std::vector<ArgSpec> &args, const mux::NDRange &range,
                               std::chrono::seconds timeout) {
  LaunchResult result;
  auto failed = [&result](const std::string &step, llvm::Error error) {
    result.failure = step + ": " + messageOf(std::move(error));
    return result;
  };
  mux::Device &device = *device_;
  const bool staged = !device.info().commandsAccessHostMemory;
  std::vector<DeviceBuffer> buffers(args.size());
  std::vector<mux::KernelArg> kernelArgs(args.size());
  result.buffers.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSpec &spec = args[i];
    mux::KernelArg &arg = kernelArgs[i];
    switch (spec.kind) {
    case ArgSpec::Kind::Buffer: {
      auto storage = mux::support::createBoundBuffer(device, spec.bytes.size(), mux::MemoryDeviceLocal);
      if (!storage)
        return failed("allocating argument " + std::to_string(i), storage.takeError());
      buffers[i].storage = std::move(*storage);
      if (staged) {
        auto staging = mux::support::createBoundBuffer(device, spec.bytes.size(), mux::MemoryHostVisible);
        if (!staging)
          return failed("allocating staging memory", staging.takeError());
        if (llvm::Error error = copyToMemory(*staging->memory, spec.bytes))
          return failed("filling staging memory", std::move(error));
        buffers[i].staging = std::move(*staging);
      }
      result.buffers[i].resize(spec.bytes.size());
      arg.kind = mux::KernelArg::Kind::Buffer;
      arg.buffer = buffers[i].storage.buffer.get();
      break;
    }
    case ArgSpec::Kind::Null:
      arg.kind = mux::KernelArg::Kind::Buffer;
      break;
    case ArgSpec::Kind::Local:
      arg.kind = mux::KernelArg::Kind::Local;
      arg.localSize = spec.localBytes;
      break;
    case ArgSpec::Kind::Value:
      arg.kind = mux::KernelArg::Kind::Value;
      arg.value = spec.bytes;
      break;
    }
  }
  if (llvm::Error error = kernel_->prepareLaunch(kernelArgs, range))
    return failed("preparing the launch", std::move(error));
  auto commands = device.createCommandBuffer();
  if (!commands)
    return failed("creating a command buffer", commands.takeError());
  mux::CommandBuffer &cb = **commands;
  auto pool = device.createQueryPool(2);
  std::unique_ptr<mux::QueryPool> timestamps;
  if (pool)
    timestamps = std::move(*pool);
  else
    llvm::consumeError(pool.takeError()); // no kernel time, then

  // The kernel's own outcome: its exit status and retired instructions.
  auto kernelOutcome = std::make_shared<mux::Outcome>();
  auto record = [&]() -> llvm::Error {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind != ArgSpec::Kind::Buffer)
        continue;
      mux::Buffer &storage = *buffers[i].storage.buffer;
      if (llvm::Error error = staged ? cb.copyBuffer(*buffers[i].staging.buffer, 0, storage, 0, args[i].bytes.size())
                                     : cb.writeBuffer(storage, 0, args[i].bytes.data(), args[i].bytes.size()))
        return error;
    }
    if (timestamps)
      if (llvm::Error error = cb.writeTimestamp(*timestamps, 0))
        return error;
    if (llvm::Error error = cb.ndrange(*kernel_, kernelArgs, range))
      return error;
    if (llvm::Error error =
            cb.markCommandEnd([kernelOutcome](const mux::Outcome &outcome) { *kernelOutcome = outcome; }))
      return error;
    if (timestamps)
      if (llvm::Error error = cb.writeTimestamp(*timestamps, 1))
        return error;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind != ArgSpec::Kind::Buffer)
        continue;
      mux::Buffer &storage = *buffers[i].storage.buffer;
      if (llvm::Error error = staged ? cb.copyBuffer(storage, 0, *buffers[i].staging.buffer, 0, args[i].bytes.size())
                                     : cb.readBuffer(storage, 0, result.buffers[i].data(), args[i].bytes.size()))
        return error;
    }
    return cb.finalize();
  };
  if (llvm::Error error = record())
    return failed("recording the commands", std::move(error));

  auto done = std::make_shared<std::promise<mux::Outcome>>();
  std::future<mux::Outcome> completion = done->get_future();
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = device.queue().dispatch(cb, {}, {}, nullptr,
                                                  [done](const mux::Outcome &outcome) { done->set_value(outcome); }))
    return failed("dispatching", std::move(error));
  if (completion.wait_for(timeout) != std::future_status::ready) {
    // The device still uses these objects: they must outlive the process.
    commands->release();
    for (DeviceBuffer &buffer : buffers) {
      (void)buffer.storage.buffer.release(), (void)buffer.storage.memory.release();
      (void)buffer.staging.buffer.release(), (void)buffer.staging.memory.release();
    }
    (void)timestamps.release();
    result.failure = "did not complete within " + std::to_string(timeout.count()) + " s";
    return result;
  }
  mux::Outcome outcome = completion.get();
  result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.instructionsRetired = kernelOutcome->instructionsRetired;
  result.exitStatus = kernelOutcome->kernelExitStatus;
  if (outcome.status != mux::Status::Success) {
    result.failure = std::string("the launch failed (") + mux::statusName(outcome.status) + ")" +
                     (outcome.detail.empty() ? "" : ": " + outcome.detail);
    return result;
  }
  if (staged)
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind == ArgSpec::Kind::Buffer)
        if (llvm::Error error = copyFromMemory(*buffers[i].staging.memory, result.buffers[i]))
          return failed("reading staging memory", std::move(error));
  if (timestamps) {
    uint64_t begin = timestamps->timestampNs(0), end = timestamps->timestampNs(1);
    if (begin && end >= begin)
      result.kernelSeconds = double(end - begin) * 1e-9;
  }
  return result;
}

} // namespace polymux::tool
