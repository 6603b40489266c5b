// compiler::Target / Module / Kernel for every target that builds programs
// from OpenCL C through LLVM bitcode; the target's own part is its finalize
// step (ProgramTargetConfig).
#include "compiler/program_target.h"

#include "compiler_stack.h"

#include "compiler/build_options.h"
#include "compiler/cpu_pipeline.h"
#include "compiler/il/spirv_frontend.h"
#include "compiler/kernel_metadata.h"
#include "mux/status.h"
#include "mux/support/log.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <chrono>
#include <cstdlib>

namespace compiler {
namespace {

thread_local const BuildObserver *currentObserver = nullptr;

/// onCompilerStack, with the calling thread's build observer installed on
/// the compiler's thread too (ScopedBuildObserver is per thread).
template <typename Work> std::invoke_result_t<Work &> onObservedCompilerStack(Work &&work) {
  const BuildObserver *observer = currentObserver;
  return onCompilerStack([&] {
    // Restored even on exceptions, and when the work runs on this thread.
    auto restore = llvm::make_scope_exit([previous = currentObserver] { currentObserver = previous; });
    currentObserver = observer;
    return work();
  });
}

} // namespace
namespace {

std::vector<char> writeBitcode(const llvm::Module &module) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::WriteBitcodeToFile(module, stream);
  return {buffer.begin(), buffer.end()};
}

llvm::Expected<std::unique_ptr<llvm::Module>> readBitcode(const std::vector<char> &bitcode,
                                                          llvm::LLVMContext &context) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(bitcode.data(), bitcode.size()), "module");
  auto module = llvm::parseBitcodeFile(buffer, context);
  if (!module)
    return mux::makeError(mux::Status::InvalidArgument,
                          "invalid program binary: bad bitcode: " + llvm::toString(module.takeError()));
  return module;
}

/// Appends LLVM diagnostics (linker errors) to a build log.
void captureDiagnostics(llvm::LLVMContext &context, std::string &log) {
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *logPointer) {
        std::string &log = *static_cast<std::string *>(logPointer);
        llvm::raw_string_ostream stream(log);
        llvm::DiagnosticPrinterRawOStream printer(stream);
        stream << llvm::LLVMContext::getDiagnosticMessagePrefix(info->getSeverity()) << ": ";
        info->print(printer);
        stream << "\n";
      },
      &log);
}

/// Moves the message of `error` into `log` and returns an error with the
/// same status.
llvm::Error logged(llvm::Error error, std::string &log) {
  mux::Status status = mux::Status::Failure;
  std::string message;
  llvm::handleAllErrors(
      std::move(error),
      [&](const mux::StatusError &e) {
        status = e.status();
        message = e.message();
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  if (!log.empty() && log.back() != '\n')
    log += '\n';
  log += message + "\n";
  return mux::makeError(status, message);
}

class ProgramKernel final : public Kernel {
public:
  ProgramKernel(KernelInfo info, std::shared_ptr<const ModuleData> data)
      : info_(std::move(info)), data_(std::move(data)) {}
  const KernelInfo &info() const override { return info_; }
  llvm::Expected<std::vector<std::byte>> specialize(const std::array<size_t, 3> &) override {
    // One binary serves every local size (the CPU work-item loops read it at
    // run time; SPIR-V takes it from specialization constants).
    return data_->binary;
  }

private:
  KernelInfo info_;
  std::shared_ptr<const ModuleData> data_;
};

class ProgramTarget;

class ProgramModule final : public Module {
public:
  ProgramModule(const ProgramTarget &target, std::shared_ptr<const ModuleData> data)
      : target_(target), data_(std::move(data)) {}

  ModuleKind kind() const override { return data_->kind; }
  std::span<const KernelInfo> kernels() const override {
    if (data_->kind != ModuleKind::Executable)
      return {};
    return data_->kernels;
  }
  llvm::Expected<std::unique_ptr<Kernel>> createKernel(std::string_view name) override {
    for (const KernelInfo &kernel : kernels())
      if (kernel.name == name)
        return std::make_unique<ProgramKernel>(kernel, data_);
    return mux::makeError(mux::Status::InvalidArgument, "no kernel named '" + std::string(name) + "'");
  }
  llvm::Expected<std::vector<std::byte>> binary() override {
    if (data_->kind != ModuleKind::Executable)
      return mux::makeError(mux::Status::InvalidArgument, "only an executable module has a target binary");
    return data_->binary;
  }
  uint64_t globalVariableTotalSize() const override;
  llvm::Expected<std::vector<std::byte>> serialize() const override;

  const ModuleData &data() const { return *data_; }
  const ProgramTarget &target() const { return target_; }

private:
  const ProgramTarget &target_;
  std::shared_ptr<const ModuleData> data_;
};

class ProgramTarget final : public Target {
public:
  explicit ProgramTarget(ProgramTargetConfig config) : config_(std::move(config)) {}

  std::string identity() const override { return config_.identity; }
  const ProgramTargetConfig &config() const { return config_; }

  llvm::Expected<std::unique_ptr<Module>> compile(std::string_view source, std::string_view options,
                                                  std::span<const Header> headers, std::string &log) override {
    return onObservedCompilerStack([&] { return compileModule(source, options, headers, log); });
  }

  llvm::Expected<std::unique_ptr<Module>> link(std::span<Module *const> modules, std::string_view options,
                                               std::string &log) override {
    return onObservedCompilerStack([&] { return linkModule(modules, options, log); });
  }

  llvm::Expected<std::unique_ptr<Module>> compileModule(std::string_view source, std::string_view options,
                                                        std::span<const Header> headers, std::string &log) {
    auto parsed = parseBuildOptions(options, OptionsUse::Compile);
    if (!parsed)
      return logged(parsed.takeError(), log);
    llvm::LLVMContext context;
    auto module = compileOpenCLC(context, source, *parsed, headers, config_.frontend, log);
    if (!module)
      return module.takeError();
    return compiledObject(**module, options, *parsed);
  }

  std::string ilVersions() const override { return config_.readsSpirv ? il::spirvVersionsRead() : std::string(); }

  llvm::Expected<std::unique_ptr<Module>> compileIL(std::span<const std::byte> il, std::string_view options,
                                                    std::string &log) override {
    return withIL(il, options, OptionsUse::Compile, log,
                  [&](std::unique_ptr<llvm::Module> module, const BuildOptions &parsed) {
                    return llvm::Expected<std::unique_ptr<Module>>(compiledObject(*module, options, parsed));
                  });
  }

  llvm::Expected<std::unique_ptr<Module>> buildIL(std::span<const std::byte> il, std::string_view options,
                                                  std::string &log) override {
    return withIL(il, options, OptionsUse::Build, log,
                  [&](std::unique_ptr<llvm::Module> module,
                      const BuildOptions &parsed) -> llvm::Expected<std::unique_ptr<Module>> {
                    auto data = std::make_shared<ModuleData>();
                    data->options = std::string(options);
                    data->optDisable = parsed.optDisable;
                    if (llvm::Error error = finalize(std::move(module), *data))
                      return logged(std::move(error), log);
                    return std::make_unique<ProgramModule>(*this, std::move(data));
                  });
  }

  llvm::Expected<std::unique_ptr<Module>> linkModule(std::span<Module *const> modules, std::string_view options,
                                                     std::string &log) {
    auto parsed = parseBuildOptions(options, OptionsUse::Link);
    if (!parsed)
      return logged(parsed.takeError(), log);
    llvm::LLVMContext context;
    captureDiagnostics(context, log);
    auto linked = std::make_unique<llvm::Module>("linked", context);
    bool optDisable = false;
    llvm::Linker linker(*linked);
    for (Module *input : modules) {
      auto *programModule = dynamic_cast<ProgramModule *>(input);
      if (!programModule || programModule->target().identity() != config_.identity ||
          programModule->kind() == ModuleKind::Executable)
        return logged(mux::makeError(mux::Status::InvalidArgument,
                                     "error: only compiled objects and libraries of this device can be linked"),
                      log);
      optDisable |= programModule->data().optDisable;
      auto module = readBitcode(programModule->data().bitcode, context);
      if (!module)
        return logged(module.takeError(), log);
      if (linker.linkInModule(std::move(*module)))
        return mux::makeError(mux::Status::Failure, "linking failed");
    }
    if (parsed->fastRelaxedMath || parsed->unsafeMath || parsed->finiteMathOnly || parsed->noSignedZeros ||
        parsed->denormsAreZero)
      applyFastMathFlags(*linked, parsed->finiteMathOnly || parsed->fastRelaxedMath,
                         parsed->noSignedZeros || parsed->fastRelaxedMath,
                         parsed->unsafeMath || parsed->fastRelaxedMath, parsed->denormsAreZero);
    auto data = std::make_shared<ModuleData>();
    data->options = std::string(options);
    data->optDisable = optDisable;
    if (parsed->createLibrary) {
      data->kind = ModuleKind::Library;
      data->kernels = kernelInfos(*linked);
      data->bitcode = writeBitcode(*linked);
      return std::make_unique<ProgramModule>(*this, std::move(data));
    }
    if (llvm::Error error = finalize(std::move(linked), *data))
      return logged(std::move(error), log);
    return std::make_unique<ProgramModule>(*this, std::move(data));
  }

  llvm::Expected<std::unique_ptr<Module>> build(std::string_view source, std::string_view options,
                                                std::string &log) override {
    const auto start = std::chrono::steady_clock::now();
    auto module = onObservedCompilerStack([&] { return buildModule(source, options, log); });
    if (mux::support::logEnabled(mux::support::LogLevel::Info, "compiler")) {
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::string line = config_.name;
      if (module) {
        line += ": built " + std::to_string((*module)->kernels().size()) + " kernel(s)";
        for (const KernelInfo &kernel : (*module)->kernels())
          line += " " + kernel.name;
      } else {
        line += ": build failed";
      }
      line += " in " + llvm::formatv("{0:f1}", ms).str() + " ms";
      mux::support::log(mux::support::LogLevel::Info, "compiler", line);
    }
    return module;
  }

  llvm::Expected<std::unique_ptr<Module>> deserialize(std::span<const std::byte> bytes) override {
    auto data = deserializeModule(bytes, config_.identity);
    if (!data)
      return data.takeError();
    if (data->kind == ModuleKind::Executable && data->binary.empty()) {
      // Rebuild the target binary from the bitcode.
      llvm::LLVMContext context;
      auto module = readBitcode(data->bitcode, context);
      if (!module)
        return module.takeError();
      if (llvm::Error error = finalize(std::move(*module), *data))
        return error;
    } else if (data->kind == ModuleKind::Executable) {
      if (llvm::Error error = config_.checkBinary(data->binary))
        return error;
    }
    return std::make_unique<ProgramModule>(*this, std::make_shared<ModuleData>(std::move(*data)));
  }

  llvm::Expected<std::string> buildCacheKey(std::string_view source, std::string_view options) override {
    return onCompilerStack([&]() -> llvm::Expected<std::string> {
      auto parsed = parseBuildOptions(options, OptionsUse::Build);
      if (!parsed)
        return parsed.takeError();
      auto text = preprocessOpenCLC(source, *parsed, {}, config_.frontend);
      // Debug information records columns, which the preprocessed text does
      // not keep (comments and macros change them): key on the source too.
      // The length prefix keeps the two parts apart.
      if (text && parsed->debugInfo)
        *text = std::to_string(text->size()) + "\n" + *text + std::string(source);
      return text;
    });
  }

private:
  /// On the compiler's stack: parses `options` for `use`, reads `il` and
  /// hands both to `next`; failures go to the log.
  template <typename Next>
  llvm::Expected<std::unique_ptr<Module>> withIL(std::span<const std::byte> il, std::string_view options,
                                                 OptionsUse use, std::string &log, Next next) {
    return onObservedCompilerStack([&]() -> llvm::Expected<std::unique_ptr<Module>> {
      auto parsed = parseBuildOptions(options, use);
      if (!parsed)
        return logged(parsed.takeError(), log);
      if (!config_.readsSpirv)
        return logged(mux::makeError(mux::Status::Unsupported, "this device reads no SPIR-V"), log);
      llvm::LLVMContext context;
      auto module = il::readSpirvProgram(context, il, config_.frontend, log);
      if (!module)
        return logged(module.takeError(), log);
      return next(std::move(*module), *parsed);
    });
  }

  std::unique_ptr<Module> compiledObject(llvm::Module &module, std::string_view options, const BuildOptions &parsed) {
    auto data = std::make_shared<ModuleData>();
    data->kind = ModuleKind::CompiledObject;
    data->options = std::string(options);
    data->optDisable = parsed.optDisable;
    data->kernels = kernelInfos(module);
    data->bitcode = writeBitcode(module);
    return std::make_unique<ProgramModule>(*this, std::move(data));
  }

  /// build() without its log line.
  llvm::Expected<std::unique_ptr<Module>> buildModule(std::string_view source, std::string_view options,
                                                      std::string &log) {
    auto parsed = parseBuildOptions(options, OptionsUse::Build);
    if (!parsed)
      return logged(parsed.takeError(), log);
    llvm::LLVMContext context;
    auto module = compileOpenCLC(context, source, *parsed, {}, config_.frontend, log);
    if (!module)
      return module.takeError();
    auto data = std::make_shared<ModuleData>();
    data->options = std::string(options);
    data->optDisable = parsed->optDisable;
    if (llvm::Error error = finalize(std::move(*module), *data))
      return logged(std::move(error), log);
    return std::make_unique<ProgramModule>(*this, std::move(data));
  }

  /// Records a linked module's kernels and bitcode in `data` and runs the
  /// target's finalize step (kind Executable).
  llvm::Error finalize(std::unique_ptr<llvm::Module> module, ModuleData &data) const {
    data.kind = ModuleKind::Executable;
    data.kernels = kernelInfos(*module);
    data.bitcode = writeBitcode(*module);
    auto binary = config_.finalize(std::move(module), data);
    if (!binary)
      return binary.takeError();
    data.binary = std::move(*binary);
    return llvm::Error::success();
  }

  ProgramTargetConfig config_;
};

uint64_t ProgramModule::globalVariableTotalSize() const {
  if (data_->kind != ModuleKind::Executable)
    return 0;
  return target_.config().globalVariableSize(data_->binary);
}

llvm::Expected<std::vector<std::byte>> ProgramModule::serialize() const {
  return serializeModule(*data_, target_.identity());
}

} // namespace

std::unique_ptr<Target> createProgramTarget(ProgramTargetConfig config) {
  return std::make_unique<ProgramTarget>(std::move(config));
}

ScopedBuildObserver::ScopedBuildObserver(BuildObserver observer)
    : observer_(std::move(observer)), previous_(currentObserver) {
  currentObserver = &observer_;
}

ScopedBuildObserver::~ScopedBuildObserver() { currentObserver = previous_; }

void dumpBuild(const llvm::Module &module, std::span<const std::byte> binary, llvm::StringRef extension) {
  if (currentObserver && *currentObserver)
    (*currentObserver)(module, binary, extension);
  const char *directory = std::getenv("POLYMUX_DUMP");
  if (!directory || !*directory)
    return;
  static std::atomic<unsigned> counter{0};
  std::string stem = std::string(directory) + "/polymux-" + std::to_string(llvm::sys::Process::getProcessId()) + "-" +
                     std::to_string(counter++);
  std::error_code error;
  llvm::raw_fd_ostream ir(stem + ".ll", error);
  if (!error)
    module.print(ir, nullptr);
  llvm::raw_fd_ostream file(stem + "." + extension.str(), error);
  if (!error)
    file.write(reinterpret_cast<const char *>(binary.data()), binary.size());
}

std::string identityHash(llvm::StringRef bytes) { return llvm::utohexstr(llvm::xxh3_64bits(bytes)); }

} // namespace compiler
