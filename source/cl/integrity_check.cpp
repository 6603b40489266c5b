#include "integrity_check.h"

#include "compiler/target.h"
#include "mux/device.h"
#include "mux/support/bound_buffer.h"

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <vector>

namespace polymux::cl {

namespace {

/// Both checks' kernels. The pattern and the ALU sequence are repeated in
/// memPattern() and aluReference() below: change them together.
constexpr const char *kCheckSource = R"CL(
uint mem_pattern(uint index, uint pass) {
  if (pass == 0u)
    return index ^ 0xA5A5A5A5u;    /* address in address */
  if (pass == 1u)
    return ~(index ^ 0xA5A5A5A5u); /* and its complement */
  uint bit = 1u << (index & 31u);  /* walking ones, then walking zeros */
  return ((index >> 5) & 1u) ? ~bit : bit;
}

__kernel void polymux_mem_write(__global uint *block, uint words, uint pass) {
  uint stride = (uint)get_global_size(0);
  for (uint i = (uint)get_global_id(0); i < words; i += stride)
    block[i] = mem_pattern(i, pass);
}

/* result[0]: wrong global words, result[1]: the lowest wrong index,
   result[2]: wrong __local words. */
__kernel void polymux_mem_verify(__global const uint *block, uint words, uint pass, __global uint *result,
                                 __local uint *scratch) {
  uint stride = (uint)get_global_size(0);
  uint errors = 0u;
  for (uint i = (uint)get_global_id(0); i < words; i += stride) {
    if (block[i] != mem_pattern(i, pass)) {
      ++errors;
      atomic_min(&result[1], i);
    }
  }
  if (errors != 0u)
    atomic_add(&result[0], errors);
  /* __local memory: each work-item writes, its neighbour reads back. */
  uint lid = (uint)get_local_id(0);
  uint n = (uint)get_local_size(0);
  uint salt = (uint)get_group_id(0) * 977u;
  scratch[lid] = mem_pattern(lid + salt, pass);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint other = (lid + 1u) % n;
  if (scratch[other] != mem_pattern(other + salt, pass))
    atomic_inc(&result[2]);
}

__kernel void polymux_alu_check(__global uint *out, uint seed, uint rounds) {
  uint gid = (uint)get_global_id(0);
  uint x = seed ^ (gid * 2654435761u);
  uint acc = gid;
  float f = (float)(gid & 1023u) * 0.5f;
  f = f + 1.0f;
  for (uint i = 0u; i < rounds; ++i) {
    x = x * 1664525u;
    x = x + 1013904223u;
    acc += (x >> 7) ^ (x << 3);
    acc = (acc << 5) | (acc >> 27);
    acc ^= x / ((gid & 15u) + 1u);
    acc -= x % 7u;
    float g = f * 1.5f;
    f = g + 0.25f;
    if (f > 1.0e6f)
      f = f * 0.0009765625f;
  }
  ulong wide = (ulong)acc * (ulong)x;
  out[2u * gid] = acc ^ (uint)(wide >> 32);
  out[2u * gid + 1u] = as_uint(f);
}
)CL";

constexpr uint32_t kMemoryPasses = 3;
constexpr uint32_t kAluSeed = 0x9E3779B9u;
constexpr uint32_t kAluRounds = 256;
constexpr uint64_t kMinMemoryCheckBytes = 4096;

uint32_t memPattern(uint32_t index, uint32_t pass) {
  if (pass == 0)
    return index ^ 0xA5A5A5A5u;
  if (pass == 1)
    return ~(index ^ 0xA5A5A5A5u);
  uint32_t bit = 1u << (index & 31u);
  return ((index >> 5) & 1u) ? ~bit : bit;
}

/// What polymux_alu_check computes for work-item `gid`.
std::pair<uint32_t, uint32_t> aluReference(uint32_t gid) {
  uint32_t x = kAluSeed ^ (gid * 2654435761u);
  uint32_t acc = gid;
  float f = static_cast<float>(gid & 1023u) * 0.5f;
  f = f + 1.0f;
  for (uint32_t i = 0; i < kAluRounds; ++i) {
    x = x * 1664525u;
    x = x + 1013904223u;
    acc += (x >> 7) ^ (x << 3);
    acc = (acc << 5) | (acc >> 27);
    acc ^= x / ((gid & 15u) + 1u);
    acc -= x % 7u;
    float g = f * 1.5f;
    f = g + 0.25f;
    if (f > 1.0e6f)
      f = f * 0.0009765625f;
  }
  uint64_t wide = static_cast<uint64_t>(acc) * x;
  return {acc ^ static_cast<uint32_t>(wide >> 32), std::bit_cast<uint32_t>(f)};
}

std::string describe(llvm::Error error) { return llvm::toString(std::move(error)); }

mux::KernelArg bufferArg(mux::Buffer &buffer) {
  mux::KernelArg arg;
  arg.kind = mux::KernelArg::Kind::Buffer;
  arg.buffer = &buffer;
  return arg;
}

mux::KernelArg valueArg(uint32_t value) {
  mux::KernelArg arg;
  arg.kind = mux::KernelArg::Kind::Value;
  arg.value.resize(sizeof value);
  std::memcpy(arg.value.data(), &value, sizeof value);
  return arg;
}

} // namespace

class IntegrityKernels {
public:
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> memWrite;
  std::unique_ptr<mux::Kernel> memVerify;
  std::unique_ptr<mux::Kernel> alu;
};

IntegrityChecker::IntegrityChecker(mux::Device &device) : device_(device) {}
IntegrityChecker::~IntegrityChecker() = default;

namespace {

llvm::Expected<std::unique_ptr<IntegrityKernels>> buildKernels(mux::Device &device) {
  std::string log;
  auto module = device.compiler().build(kCheckSource, "", log);
  if (!module)
    return mux::makeError(mux::Status::Failure,
                          "the check kernels did not build: " + describe(module.takeError()) + " " + log);
  auto binary = (*module)->binary();
  if (!binary)
    return binary.takeError();
  auto kernels = std::make_unique<IntegrityKernels>();
  auto executable = device.createExecutable(*binary);
  if (!executable)
    return executable.takeError();
  kernels->executable = std::move(*executable);
  for (auto [name, slot] :
       {std::pair{"polymux_mem_write", &kernels->memWrite}, std::pair{"polymux_mem_verify", &kernels->memVerify},
        std::pair{"polymux_alu_check", &kernels->alu}}) {
    auto kernel = kernels->executable->createKernel(name);
    if (!kernel)
      return kernel.takeError();
    *slot = std::move(*kernel);
  }
  return kernels;
}

/// Dispatches `commands` on the device's queue and waits for the outcome.
mux::Outcome runToEnd(mux::Device &device, mux::CommandBuffer &commands) {
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  mux::Outcome outcome;
  if (auto error = device.queue().dispatch(commands, {}, {}, nullptr, [&](const mux::Outcome &result) {
        std::lock_guard lock(mutex);
        outcome = result;
        finished = true;
        done.notify_all();
      }))
    return mux::Outcome(mux::Status::Failure, describe(std::move(error)));
  std::unique_lock lock(mutex);
  done.wait(lock, [&] { return finished; });
  return outcome;
}

/// One work-group per compute unit, of up to 64 work-items.
mux::NDRange perComputeUnit(const mux::Device &device, const mux::Kernel &kernel) {
  mux::NDRange range;
  size_t local = std::min<size_t>({64, kernel.maxWorkGroupSize(), device.info().maxWorkGroupSize});
  range.localSize = {std::max<size_t>(local, 1), 1, 1};
  range.globalSize = {range.localSize[0] * std::max<uint32_t>(device.info().computeUnits, 1), 1, 1};
  return range;
}

llvm::Error launch(mux::CommandBuffer &commands, mux::Kernel &kernel, std::span<const mux::KernelArg> args,
                   const mux::NDRange &range) {
  if (auto error = kernel.prepareLaunch(args, range))
    return error;
  return commands.ndrange(kernel, args, range);
}

IntegrityCheckResult couldNotRun(std::string_view what, std::string reason) {
  return {false, std::string(what) + " could not run: " + reason};
}

} // namespace

IntegrityCheckResult IntegrityChecker::run(IntegrityCheckKind kind, std::atomic<uint32_t> &progress) {
  const std::string what = kind == IntegrityCheckKind::Memory ? "memory check" : "ALU check";
  if (!kernels_) {
    auto built = buildKernels(device_);
    if (!built)
      return couldNotRun(what, describe(built.takeError()));
    kernels_ = std::move(*built);
  }
  // Results come back through host-visible memory, which every target
  // can map (a GPU's command buffers cannot write host pointers).
  const uint32_t resultProperties = mux::MemoryHostVisible;

  if (kind == IntegrityCheckKind::Alu) {
    const mux::NDRange range = perComputeUnit(device_, *kernels_->alu);
    const uint64_t items = range.globalSize[0];
    auto out = mux::support::createBoundBuffer(device_, items * 2 * sizeof(uint32_t), resultProperties);
    if (!out)
      return couldNotRun(what, describe(out.takeError()));
    auto commands = device_.createCommandBuffer();
    if (!commands)
      return couldNotRun(what, describe(commands.takeError()));
    const mux::KernelArg args[] = {bufferArg(*out->buffer), valueArg(kAluSeed), valueArg(kAluRounds)};
    if (auto error = launch(**commands, *kernels_->alu, args, range))
      return couldNotRun(what, describe(std::move(error)));
    if (auto error = (*commands)->finalize())
      return couldNotRun(what, describe(std::move(error)));
    mux::Outcome outcome = runToEnd(device_, **commands);
    progress.store(90, std::memory_order_relaxed);
    if (outcome.status != mux::Status::Success)
      return {false, what + " failed: the known-answer kernel did not complete (" +
                         (outcome.detail.empty() ? std::string(mux::statusName(outcome.status)) : outcome.detail) +
                         ")"};
    auto mapped = out->memory->map(0, items * 2 * sizeof(uint32_t));
    if (!mapped)
      return couldNotRun(what, describe(mapped.takeError()));
    out->memory->flushFromDevice(0, items * 2 * sizeof(uint32_t));
    const auto *values = static_cast<const uint32_t *>(*mapped);
    uint64_t wrong = 0;
    std::string first;
    for (uint32_t gid = 0; gid < items; ++gid) {
      auto [integer, real] = aluReference(gid);
      if (values[2 * gid] == integer && values[2 * gid + 1] == real)
        continue;
      if (wrong++ == 0)
        first = "work-item " + std::to_string(gid) + " (compute unit " + std::to_string(gid / range.localSize[0]) +
                ") computed " + std::to_string(values[2 * gid]) + "/" + std::to_string(values[2 * gid + 1]) +
                ", expected " + std::to_string(integer) + "/" + std::to_string(real);
    }
    out->memory->unmap();
    const std::string scope = std::to_string(items) + " work-items on " +
                              std::to_string(std::max<uint32_t>(device_.info().computeUnits, 1)) + " compute units";
    if (wrong != 0)
      return {false, what + " failed: " + std::to_string(wrong) + " of " + scope + " computed wrong answers; " + first};
    return {true, what + " passed: " + scope + " computed the known answers"};
  }

  // The memory check: a block of the free memory, bounded.
  uint64_t bytes = std::min({kMaxMemoryCheckBytes, device_.memoryAvailable() / 4, device_.info().maxMemAllocSize});
  bytes = bytes / kMinMemoryCheckBytes * kMinMemoryCheckBytes;
  if (bytes < kMinMemoryCheckBytes)
    return couldNotRun(what, "less than " + std::to_string(kMinMemoryCheckBytes * 4) + " bytes of memory are free");
  auto block = mux::support::createBoundBuffer(device_, bytes, mux::MemoryDeviceLocal);
  if (!block)
    return couldNotRun(what, describe(block.takeError()));
  auto result = mux::support::createBoundBuffer(device_, 3 * sizeof(uint32_t), resultProperties);
  if (!result)
    return couldNotRun(what, describe(result.takeError()));
  const uint32_t words = static_cast<uint32_t>(bytes / sizeof(uint32_t));
  const mux::NDRange writeRange = perComputeUnit(device_, *kernels_->memWrite);
  const mux::NDRange verifyRange = perComputeUnit(device_, *kernels_->memVerify);
  for (uint32_t pass = 0; pass < kMemoryPasses; ++pass) {
    auto mapped = result->memory->map(0, 3 * sizeof(uint32_t));
    if (!mapped)
      return couldNotRun(what, describe(mapped.takeError()));
    auto *counters = static_cast<uint32_t *>(*mapped);
    counters[0] = 0;
    counters[1] = UINT32_MAX;
    counters[2] = 0;
    result->memory->flushToDevice(0, 3 * sizeof(uint32_t));
    result->memory->unmap();

    auto commands = device_.createCommandBuffer();
    if (!commands)
      return couldNotRun(what, describe(commands.takeError()));
    const mux::KernelArg writeArgs[] = {bufferArg(*block->buffer), valueArg(words), valueArg(pass)};
    mux::KernelArg local;
    local.kind = mux::KernelArg::Kind::Local;
    local.localSize = verifyRange.localSize[0] * sizeof(uint32_t);
    const mux::KernelArg verifyArgs[] = {bufferArg(*block->buffer), valueArg(words), valueArg(pass),
                                         bufferArg(*result->buffer), local};
    if (auto error = launch(**commands, *kernels_->memWrite, writeArgs, writeRange))
      return couldNotRun(what, describe(std::move(error)));
    if (auto error = launch(**commands, *kernels_->memVerify, verifyArgs, verifyRange))
      return couldNotRun(what, describe(std::move(error)));
    if (auto error = (*commands)->finalize())
      return couldNotRun(what, describe(std::move(error)));
    mux::Outcome outcome = runToEnd(device_, **commands);
    if (outcome.status != mux::Status::Success)
      return {false, what + " failed: pass " + std::to_string(pass) + " did not complete (" +
                         (outcome.detail.empty() ? std::string(mux::statusName(outcome.status)) : outcome.detail) +
                         ")"};
    mapped = result->memory->map(0, 3 * sizeof(uint32_t));
    if (!mapped)
      return couldNotRun(what, describe(mapped.takeError()));
    result->memory->flushFromDevice(0, 3 * sizeof(uint32_t));
    uint32_t found[3];
    std::memcpy(found, *mapped, sizeof found);
    result->memory->unmap();
    if (found[0] != 0 || found[2] != 0) {
      std::string message = what + " failed in pass " + std::to_string(pass) + " over " + std::to_string(bytes) +
                            " bytes of global memory: ";
      if (found[0] != 0)
        message += std::to_string(found[0]) + " words read back wrong, the first at byte offset " +
                   std::to_string(uint64_t(found[1]) * 4) + " of the block (expected " +
                   std::to_string(memPattern(found[1], pass)) + ")";
      if (found[2] != 0)
        message += std::string(found[0] ? "; " : "") + std::to_string(found[2]) + " __local words read back wrong";
      return {false, message};
    }
    progress.store((pass + 1) * 100 / kMemoryPasses - (pass + 1 == kMemoryPasses ? 1 : 0), std::memory_order_relaxed);
  }
  return {true, what + " passed: " + std::to_string(bytes) + " bytes of free global memory and each compute unit's " +
                    "__local memory held " + std::to_string(kMemoryPasses) + " patterns"};
}

} // namespace polymux::cl
