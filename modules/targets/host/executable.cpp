// Host executables: the object file of a host binary linked into the process
// with ORC (one process-wide LLJIT, one JITDylib per executable).
#include "executable.h"

#include "compiler/cpu_binary.h"
#include "mux/status.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace host {
namespace {

/// Process functions JIT'd kernels may call: the memory functions and the
/// math and compiler-runtime routines LLVM's code generator emits calls to.
bool isRuntimeSymbol(llvm::StringRef name) {
  static const llvm::StringSet<> allowed = {
      "memcpy", "memset", "memmove",    "memcmp",    "fmaf",      "fma",      "roundf", "round",
      "rintf",  "rint",   "nearbyintf", "nearbyint", "floorf",    "floor",    "ceilf",  "ceil",
      "truncf", "trunc",  "sqrtf",      "sqrt",      "fminf",     "fmin",     "fmaxf",  "fmax",
      "fmodf",  "fmod",   "ldexpf",     "ldexp",     "copysignf", "copysign", "fabsf",  "fabs"};
  // libgcc / compiler-rt helpers (__divti3, __extendhfsf2, ...).
  return allowed.contains(name) || name.starts_with("__");
}

llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> createJit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  return llvm::orc::LLJITBuilder()
      .setNumCompileThreads(0)
      .setProcessSymbolsJITDylibSetup([](llvm::orc::LLJIT &jit) -> llvm::Expected<llvm::orc::JITDylibSP> {
        auto &dylib = jit.getExecutionSession().createBareJITDylib("<polymux process symbols>");
        auto generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            jit.getDataLayout().getGlobalPrefix(),
            [](const llvm::orc::SymbolStringPtr &name) { return isRuntimeSymbol(*name); });
        if (!generator)
          return generator.takeError();
        dylib.addGenerator(std::move(*generator));
        return &dylib;
      })
      .create();
}

/// The process-wide JIT, created on first use and never destroyed: a queue's
/// worker thread may drop the last reference to a program (and unload its
/// object from this JIT) while exit handlers run, for an application that
/// exits with work in flight or objects unreleased. A static unique_ptr was
/// destroyed under it there; the operating system reclaims the JIT instead.
llvm::Expected<llvm::orc::LLJIT &> sharedJit() {
  static std::once_flag once;
  static llvm::orc::LLJIT *jit = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    auto created = createJit();
    if (created)
      jit = created->release();
    else
      failure = llvm::toString(created.takeError());
  });
  if (!jit)
    return mux::makeError(mux::Status::Failure, "cannot start the JIT: " + failure);
  return *jit;
}

/// One loaded object file; kernels keep it alive after their executable.
class LoadedObject {
public:
  LoadedObject(llvm::orc::LLJIT &jit, llvm::orc::JITDylib &dylib, std::vector<std::byte> printfTable)
      : jit_(jit), dylib_(dylib), printfTable_(std::move(printfTable)) {}
  ~LoadedObject() { llvm::consumeError(jit_.getExecutionSession().removeJITDylib(dylib_)); }
  llvm::orc::LLJIT &jit() { return jit_; }
  llvm::orc::JITDylib &dylib() { return dylib_; }
  std::span<const std::byte> printfTable() const { return printfTable_; }

private:
  llvm::orc::LLJIT &jit_;
  llvm::orc::JITDylib &dylib_;
  std::vector<std::byte> printfTable_;
};

size_t preferredWorkGroupMultiple() {
  static const size_t multiple = [] {
    auto features = llvm::sys::getHostCPUFeatures();
    auto has = [&](const char *name) {
      auto it = features.find(name);
      return it != features.end() && it->second;
    };
    return has("avx512f") ? 16 : has("avx") ? 8 : 4;
  }();
  return multiple;
}

struct KernelEntry {
  compiler::CpuKernelBinaryInfo info;
  compiler::abi::CpuKernelEntry entry = nullptr;
};

class HostKernelImpl final : public HostKernel {
public:
  HostKernelImpl(const KernelEntry &kernel, size_t maxWorkGroupSize, std::shared_ptr<LoadedObject> object)
      : info_(kernel.info), entry_(kernel.entry), maxWorkGroupSize_(maxWorkGroupSize), object_(std::move(object)) {}
  const std::string &name() const override { return info_.name; }
  size_t maxWorkGroupSize() const override { return maxWorkGroupSize_; }
  size_t preferredWorkGroupSizeMultiple() const override { return preferredWorkGroupMultiple(); }
  /// A sub-group is the whole work-group on the host.
  uint32_t subGroupSize(size_t localSize) const override {
    return static_cast<uint32_t>(std::min<size_t>(info_.subGroupSize, localSize));
  }
  uint64_t localMemSize() const override { return info_.localMemSize; }
  uint64_t privateMemSize() const override { return info_.privateMemSize; }
  compiler::abi::CpuKernelEntry entry() const override { return entry_; }
  uint64_t workItemStateSize() const override { return info_.workItemStateSize; }
  bool usesPrintf() const override { return (info_.flags & compiler::KernelUsesPrintf) != 0; }
  std::span<const std::byte> printfTable() const override { return object_->printfTable(); }

private:
  compiler::CpuKernelBinaryInfo info_;
  compiler::abi::CpuKernelEntry entry_;
  size_t maxWorkGroupSize_;
  std::shared_ptr<LoadedObject> object_;
};

class HostExecutable final : public mux::Executable {
public:
  HostExecutable(std::vector<KernelEntry> kernels, size_t maxWorkGroupSize, std::shared_ptr<LoadedObject> object)
      : kernels_(std::move(kernels)), maxWorkGroupSize_(maxWorkGroupSize), object_(std::move(object)) {}

  llvm::Expected<std::unique_ptr<mux::Kernel>> createKernel(std::string_view name) override {
    for (const KernelEntry &kernel : kernels_)
      if (kernel.info.name == name)
        return std::make_unique<HostKernelImpl>(kernel, maxWorkGroupSize_, object_);
    return mux::makeError(mux::Status::InvalidArgument, "no kernel named '" + std::string(name) + "'");
  }

private:
  std::vector<KernelEntry> kernels_;
  size_t maxWorkGroupSize_;
  std::shared_ptr<LoadedObject> object_;
};

} // namespace

llvm::Expected<std::unique_ptr<mux::Executable>> loadExecutable(std::span<const std::byte> binary,
                                                                const mux::DeviceInfo &info) {
  auto decoded = compiler::decodeCpuBinary(binary, compiler::kHostBinaryMagic);
  if (!decoded)
    return decoded.takeError();
  auto jit = sharedJit();
  if (!jit)
    return jit.takeError();
  static std::atomic<uint64_t> counter{0};
  auto dylib = jit->createJITDylib("polymux-executable-" + std::to_string(counter++));
  if (!dylib)
    return mux::makeError(mux::Status::Failure, "cannot create a JITDylib: " + llvm::toString(dylib.takeError()));
  auto object = std::make_shared<LoadedObject>(*jit, *dylib, std::move(decoded->printfTable));
  llvm::StringRef objectBytes(reinterpret_cast<const char *>(decoded->object.data()), decoded->object.size());
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(objectBytes, "polymux-kernels.o");
  if (llvm::Error error = jit->addObjectFile(object->dylib(), std::move(buffer)))
    return mux::makeError(mux::Status::InvalidArgument, "invalid device binary: " + llvm::toString(std::move(error)));
  // Look every entry up now: linking happens here, so a binary that does not
  // link fails to load instead of failing at first launch.
  std::vector<KernelEntry> kernels;
  for (const compiler::CpuKernelBinaryInfo &kernel : decoded->kernels) {
    auto address = jit->lookup(object->dylib(), compiler::abi::kEntryPrefix + kernel.name);
    if (!address)
      return mux::makeError(mux::Status::InvalidArgument,
                            "device binary does not link: " + llvm::toString(address.takeError()));
    kernels.push_back({kernel, address->toPtr<compiler::abi::CpuKernelEntry>()});
  }
  size_t maxWorkGroupSize = info.maxWorkGroupSize > 1 ? info.maxWorkGroupSize : 1024;
  return std::make_unique<HostExecutable>(std::move(kernels), maxWorkGroupSize, std::move(object));
}

} // namespace host
