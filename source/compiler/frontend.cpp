#include "compiler/frontend.h"

#include "compiler/arg_entity_collector.h"
#include "mux/status.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Options/OptionUtils.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

extern "C" __attribute__((visibility("hidden"))) const char polymux_opencl_c_base_header_begin[],
    polymux_opencl_c_base_header_end[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_opencl_c_extensions_header_begin[],
    polymux_opencl_c_extensions_header_end[];

namespace compiler {
namespace {

/// Embedded headers live in this virtual directory, searched with -I.
constexpr const char *kHeaderDir = "/polymux-embedded-headers";
/// Clang's resource directory, virtual: its include/ holds the embedded
/// opencl-c-base.h alone (see source/compiler/CMakeLists.txt).
constexpr const char *kResourceDir = "/polymux-clang-resource";
/// The OpenCL C declarations of Polymux's extensions, in the resource
/// directory's include/.
constexpr const char *kExtensionsHeader = "polymux_extensions.h";

bool isPolymuxExtension(llvm::StringRef name) { return name.starts_with("cl_polymux_"); }

/// The name diagnostics show for the program source.
constexpr const char *kSourceName = "<program source>";

std::string clStdName(unsigned version) {
  return "-cl-std=CL" + std::to_string(version / 100) + "." + std::to_string(version / 10 % 10);
}

std::vector<std::string> frontendArguments(const BuildOptions &options, const FrontendConfig &config, bool hasHeaders) {
  std::vector<std::string> args = {
      "-triple", config.triple, "-emit-llvm", "-disable-llvm-passes",
      // Optimisation happens after linking; -O2 keeps Clang from marking
      // functions optnone (-cl-opt-disable is honoured at finalize time).
      "-O2", clStdName(options.clStd), "-fdeclare-opencl-builtins", "-finclude-default-header", "-cl-kernel-arg-info",
      "-resource-dir", kResourceDir, "-internal-isystem", std::string(kResourceDir) + "/include",
      "-cl-ext=" + clExtOption(config.extensions),
      // Work-item loops run many work-items per call: no stack protector.
      "-stack-protector", "0", "-ffp-contract=on",
      // Vectors are passed as the baseline CPU passes them on purpose (see
      // FrontendConfig::triple); that is not the program's concern.
      "-Wno-psabi", "-x", "cl"};
  if (config.pic) {
    args.insert(args.end(), {"-mrelocation-model", "pic", "-pic-level", "2"});
  } else {
    args.insert(args.end(), {"-mrelocation-model", "static"});
  }
  if (!config.abi.empty())
    args.insert(args.end(), {"-target-abi", config.abi});
  for (const std::string &feature : config.features)
    args.insert(args.end(), {"-target-feature", feature});
  if (hasHeaders) {
    args.push_back("-I");
    args.push_back(kHeaderDir);
  }
  for (const std::string &dir : options.includeDirs) {
    args.push_back("-I");
    args.push_back(dir);
  }
  // Clang defines __OPENCL_C_VERSION__ but not __OPENCL_VERSION__ (the
  // device's OpenCL version) for non-SPIR triples.
  args.push_back("-D__OPENCL_VERSION__=" + std::to_string(config.openclVersion));
  // Clang defines __IMAGE_SUPPORT__ for every SPIR and SPIR-V triple; it
  // must follow the device (CTS basic kernel_numeric_constants).
  if (std::find(config.extensions.begin(), config.extensions.end(), "__opencl_c_images") == config.extensions.end())
    args.insert(args.end(), {"-U", "__IMAGE_SUPPORT__"});
  else
    args.push_back("-D__IMAGE_SUPPORT__=1");
  // Clang (22) does not know the OpenCL C 3.0 feature __opencl_c_fp16, only
  // cl_khr_fp16: its macro is defined here, like the other features only
  // from OpenCL C 3.0 on.
  if (options.clStd >= 300 &&
      std::find(config.extensions.begin(), config.extensions.end(), "__opencl_c_fp16") != config.extensions.end())
    args.push_back("-D__opencl_c_fp16=1");
  // Polymux's own extensions: Clang does not know them, so their macros are
  // defined here and their declarations come from polymux_extensions.h.
  for (const std::string &extension : config.extensions)
    if (isPolymuxExtension(extension))
      args.push_back("-D" + extension + "=1");
  args.insert(args.end(), {"-include", std::string(kResourceDir) + "/include/" + kExtensionsHeader});
  for (const std::string &define : options.defines) {
    args.push_back("-D");
    args.push_back(define);
  }
  auto flag = [&](bool enabled, const char *name) {
    if (enabled)
      args.push_back(name);
  };
  flag(options.madEnable, "-cl-mad-enable");
  flag(options.noSignedZeros, "-cl-no-signed-zeros");
  flag(options.unsafeMath, "-cl-unsafe-math-optimizations");
  flag(options.finiteMathOnly, "-cl-finite-math-only");
  flag(options.fastRelaxedMath, "-cl-fast-relaxed-math");
  // -cl-denorms-are-zero is a driver option; this is what the driver passes.
  flag(options.denormsAreZero, "-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
  flag(options.singlePrecisionConstant, "-cl-single-precision-constant");
  flag(options.correctlyRoundedDivideSqrt, "-cl-fp32-correctly-rounded-divide-sqrt");
  flag(options.uniformWorkGroupSize, "-cl-uniform-work-group-size");
  flag(options.noWarnings, "-w");
  flag(options.warningsAsErrors, "-Werror");
  if (options.debugInfo) {
    args.push_back("-debug-info-kind=limited");
    args.push_back("-dwarf-version=4");
  }
  return args;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemWith(std::span<const Header> headers) {
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  llvm::SmallString<128> baseHeader(kResourceDir);
  llvm::sys::path::append(baseHeader, "include", "opencl-c-base.h");
  llvm::SmallString<128> extensionsHeader(kResourceDir);
  llvm::sys::path::append(extensionsHeader, "include", kExtensionsHeader);
  memory->addFile(extensionsHeader, 0,
                  llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(polymux_opencl_c_extensions_header_begin,
                                                                       polymux_opencl_c_extensions_header_end -
                                                                           polymux_opencl_c_extensions_header_begin),
                                                       kExtensionsHeader));
  memory->addFile(baseHeader, 0,
                  // A copy: Clang's lexer wants a null-terminated buffer.
                  llvm::MemoryBuffer::getMemBufferCopy(
                      llvm::StringRef(polymux_opencl_c_base_header_begin,
                                      polymux_opencl_c_base_header_end - polymux_opencl_c_base_header_begin),
                      "opencl-c-base.h"));
  for (const Header &header : headers) {
    llvm::SmallString<128> path(kHeaderDir);
    llvm::sys::path::append(path, header.name);
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(header.source, header.name));
  }
  overlay->pushOverlay(memory);
  return overlay;
}

/// Emits LLVM IR and, from the same AST, the kernels' argument entities.
class EmitWithArgEntities final : public clang::EmitLLVMOnlyAction {
public:
  EmitWithArgEntities(llvm::LLVMContext &context, ArgEntityMap &entities)
      : EmitLLVMOnlyAction(&context), entities_(entities) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &instance,
                                                        llvm::StringRef file) override {
    std::unique_ptr<clang::ASTConsumer> codegen = EmitLLVMOnlyAction::CreateASTConsumer(instance, file);
    if (!codegen)
      return nullptr;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::move(codegen));
    consumers.push_back(createArgEntityCollector(entities_));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  ArgEntityMap &entities_;
};

/// Writes the preprocessed source (-E output: comments dropped, line
/// markers kept) to a stream.
class PreprocessTo final : public clang::PreprocessorFrontendAction {
public:
  explicit PreprocessTo(llvm::raw_ostream &out) : out_(out) {}

protected:
  void ExecuteAction() override {
    clang::CompilerInstance &instance = getCompilerInstance();
    clang::PreprocessorOutputOptions outputOptions;
    outputOptions.ShowCPP = 1;
    outputOptions.ShowLineMarkers = 1;
    clang::DoPrintPreprocessedInput(instance.getPreprocessor(), &out_, outputOptions);
  }

private:
  llvm::raw_ostream &out_;
};

llvm::Error checkClStd(const BuildOptions &options, const FrontendConfig &config) {
  if (options.clStd <= config.maxClStd)
    return llvm::Error::success();
  return mux::makeError(mux::Status::InvalidArgument,
                        "invalid build option '" + clStdName(options.clStd) + "': the device supports up to CL" +
                            std::to_string(config.maxClStd / 100) + "." + std::to_string(config.maxClStd / 10 % 10));
}

/// A compiler instance set up for `source` as compileOpenCLC compiles it,
/// with its diagnostics printed to `diagnostics`.
struct Frontend {
  /// The input, which the instance refers to.
  std::unique_ptr<llvm::MemoryBuffer> source;
  std::unique_ptr<clang::CompilerInstance> instance;
};

llvm::Expected<Frontend> createFrontend(std::string_view source, const BuildOptions &options,
                                        std::span<const Header> headers, const FrontendConfig &config,
                                        llvm::raw_ostream &diagnostics) {
  std::vector<std::string> arguments = frontendArguments(options, config, !headers.empty());
  std::vector<const char *> argv;
  for (const std::string &argument : arguments)
    argv.push_back(argument.c_str());

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    clang::DiagnosticOptions diagnosticOptions;
    clang::TextDiagnosticPrinter printer(diagnostics, diagnosticOptions);
    clang::DiagnosticsEngine engine(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diagnosticOptions, &printer,
                                    false);
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, engine))
      return mux::makeError(mux::Status::Failure, "the front end rejected its arguments");
  }
  invocation->getDiagnosticOpts().ShowColors = false;
  Frontend frontend;
  // Clang's lexer needs a null-terminated buffer: copy.
  frontend.source = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), kSourceName);
  invocation->getFrontendOpts().Inputs = {
      clang::FrontendInputFile(frontend.source->getMemBufferRef(), clang::InputKind(clang::Language::OpenCL))};

  frontend.instance = std::make_unique<clang::CompilerInstance>(invocation);
  frontend.instance->createVirtualFileSystem(fileSystemWith(headers));
  auto *printer = new clang::TextDiagnosticPrinter(diagnostics, frontend.instance->getDiagnosticOpts());
  frontend.instance->createDiagnostics(printer, /*ShouldOwnClient=*/true);
  return frontend;
}

} // namespace

std::string clExtOption(std::span<const std::string> extensions) {
  std::string value = "-all";
  for (const std::string &extension : extensions)
    if (!isPolymuxExtension(extension))
      value += ",+" + extension;
  return value;
}

llvm::Expected<std::unique_ptr<llvm::Module>> compileOpenCLC(llvm::LLVMContext &context, std::string_view source,
                                                             const BuildOptions &options,
                                                             std::span<const Header> headers,
                                                             const FrontendConfig &config, std::string &log) {
  if (llvm::Error error = checkClStd(options, config))
    return error;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  auto frontend = createFrontend(source, options, headers, config, diagnosticStream);
  if (!frontend) {
    log += diagnostics;
    return frontend.takeError();
  }
  clang::CompilerInstance &instance = *frontend->instance;
  // "N errors generated." goes to the log too, as clang prints it.
  instance.setVerboseOutputStream(diagnosticStream);

  ArgEntityMap argEntities;
  EmitWithArgEntities action(context, argEntities);
  bool succeeded = instance.ExecuteAction(action);
  log += diagnostics;
  std::unique_ptr<llvm::Module> module = succeeded ? action.takeModule() : nullptr;
  if (!module)
    return mux::makeError(mux::Status::Failure, "the program source failed to compile");
  attachArgEntities(*module, argEntities);
  return module;
}

llvm::Expected<std::string> preprocessOpenCLC(std::string_view source, const BuildOptions &options,
                                              std::span<const Header> headers, const FrontendConfig &config) {
  if (llvm::Error error = checkClStd(options, config))
    return error;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  auto frontend = createFrontend(source, options, headers, config, diagnosticStream);
  if (!frontend)
    return frontend.takeError();
  std::string text;
  llvm::raw_string_ostream textStream(text);
  PreprocessTo action(textStream);
  if (!frontend->instance->ExecuteAction(action) || frontend->instance->getDiagnostics().hasErrorOccurred())
    return mux::makeError(mux::Status::Failure, "the program source failed to preprocess: " + diagnostics);
  return text;
}

} // namespace compiler
