// `polymux compile`: offline compilation of an OpenCL C file for one or
// more devices, to the program binaries clCreateProgramWithBinary loads, or
// to a stage of each target's compilation (--emit).
#include "command_line.h"
#include "commands.h"
#include "device_build.h"
#include "device_list.h"
#include "diagnostics.h"
#include "file_io.h"
#include "source_options.h"
#include "stages.h"
#include "text_format.h"

#include "program_binary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace polymux::tool {
namespace {

const char *kCompileHelp = R"(usage: polymux compile FILE.cl [options]

Builds FILE.cl with each selected device's compiler, as clBuildProgram would,
and prints Clang's diagnostics (file:line:column, caret lines). Exits with 1
when the build fails on a device. A SPIR-V module (FILE.spv, recognised by
its magic number) is built as clCreateProgramWithIL's programs are.

  -D NAME[=VALUE]    define a macro (repeatable)
  -I DIR             add an include directory (repeatable; FILE's own
                     directory is always searched)
  --options "..."    more OpenCL build options (-cl-std=CL3.0, -cl-fast-relaxed-math, ...)
  --device NAMES     target names (host), device ids (vulkan:1), or all (default)
  -o FILE            write each device's program binary, which
                     clCreateProgramWithBinary loads on that device; with
                     several devices FILE gets the device's name before its
                     extension (k.bin -> k.host.bin, k.riscv_sim.bin)
  --emit=KIND        instead of the program binary, a stage of the compilation:
                       ll     the final LLVM IR (every target)
                       asm    the machine code, disassembled (targets whose
                              code is an ELF object or program: host, riscv_sim)
                       spirv  the SPIR-V module (vulkan): text on standard
                              output, the binary module with -o
                       elf    the ELF object (host) or linked program (riscv_sim)
                     to standard output, or to -o FILE; a target without the
                     stage says so
  --color=WHEN       colour diagnostics: auto (on a terminal, the default),
                     always, never

Without -o and --emit, only checks that FILE builds and lists its kernels.
)";

struct CompileOptions {
  SourceOptions source;
  std::string output;
  std::optional<EmitKind> emit;
};

/// `path` with `tag` before its extension: k.bin -> k.host.bin.
std::string taggedPath(const std::string &path, const std::string &tag) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  llvm::StringRef stem(path.data(), path.size() - extension.size());
  return (stem + "." + tag + extension).str();
}

/// Parses the command line; returns an exit status when done with it.
std::optional<int> parse(std::span<char *const> args, CompileOptions &options) {
  CommandLine line(args);
  while (line.more()) {
    std::string value;
    if (line.flag("--help") || line.flag("-h")) {
      llvm::outs() << kCompileHelp;
      return ExitSuccess;
    }
    if (readSourceOption(line, options.source))
      continue;
    if (line.option("-o", value)) {
      options.output = value;
      continue;
    }
    if (line.option("--emit", value)) {
      EmitKind kind;
      if (!parseEmitKind(value, kind)) {
        llvm::errs() << "polymux compile: --emit takes ll, asm, spirv or elf, not '" << value << "'\n";
        return ExitUsage;
      }
      options.emit = kind;
      continue;
    }
    if (line.current().starts_with("-") && line.current() != "-") {
      llvm::errs() << "polymux compile: unknown option '" << line.current() << "' (polymux compile --help)\n";
      return ExitUsage;
    }
    if (!options.source.path.empty()) {
      llvm::errs() << "polymux compile: one source file at a time ('" << options.source.path << "', '" << line.current()
                   << "')\n";
      return ExitUsage;
    }
    options.source.path = line.take();
  }
  if (line.problem()) {
    llvm::errs() << "polymux compile: " << *line.problem() << "\n";
    return ExitUsage;
  }
  if (options.source.path.empty()) {
    llvm::errs() << "polymux compile: no source file (polymux compile --help)\n";
    return ExitUsage;
  }
  return std::nullopt;
}

std::string kernelList(const compiler::Module &module) {
  std::vector<std::string> names;
  for (const compiler::KernelInfo &kernel : module.kernels())
    names.push_back(kernel.name);
  return std::to_string(names.size()) + (names.size() == 1 ? " kernel" : " kernels") +
         (names.empty() ? "" : " (" + llvm::join(names, ", ") + ")");
}

/// The clCreateProgramWithBinary container for `build`, as
/// clGetProgramInfo(CL_PROGRAM_BINARIES) returns it after clBuildProgram.
llvm::Expected<std::vector<std::byte>> programBinary(mux::Device &device, const DeviceBuild &build,
                                                     const std::string &options) {
  auto module = build.module->serialize();
  if (!module)
    return module.takeError();
  cl::ProgramBinary binary;
  binary.type = cl::binaryTypeOf(build.module->kind());
  binary.flags = cl::buildFlagsFromOptions(options);
  binary.compilerIdentity = device.compiler().identity();
  binary.options = options;
  binary.module = std::move(*module);
  return cl::encodeProgramBinary(binary);
}

std::string_view asText(const std::vector<std::byte> &bytes) {
  return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

} // namespace

int compileCommand(std::span<char *const> args) {
  CompileOptions options;
  if (std::optional<int> status = parse(args, options))
    return *status;
  applyColorMode(llvm::errs(), options.source.color);
  auto source = readSource(options.source);
  if (!source) {
    llvm::errs() << "polymux compile: " << llvm::toString(source.takeError()) << "\n";
    return ExitUsage;
  }
  DeviceList list;
  auto selected = list.select(options.source.devices);
  if (!selected) {
    llvm::errs() << "polymux compile: " << llvm::toString(selected.takeError()) << "\n";
    return ExitUsage;
  }
  const std::vector<const ToolDevice *> &devices = *selected;
  const bool toStdout = options.output == "-" || (options.emit && options.output.empty());
  if (toStdout && (!options.emit || options.emit == EmitKind::Elf)) {
    if (isatty(STDOUT_FILENO)) {
      llvm::errs() << "polymux compile: binary output; give -o FILE or redirect standard output\n";
      return ExitUsage;
    }
    if (devices.size() > 1) {
      llvm::errs() << "polymux compile: standard output takes one device's binary; choose one with --device or "
                      "give -o FILE\n";
      return ExitUsage;
    }
  }
  const std::string buildOptions = buildOptionString(options.source);

  std::vector<DeviceBuild> builds;
  for (const ToolDevice *device : devices)
    builds.push_back(buildForDevice(*device->device, *source, buildOptions, options.emit.has_value()));
  std::vector<std::string> ids;
  for (const ToolDevice *device : devices)
    ids.push_back(device->id);
  printBuildLogs(ids, builds, options.source.path);

  // Status lines go where the output does not.
  llvm::raw_ostream &status = toStdout ? llvm::errs() : llvm::outs();
  int result = ExitSuccess;
  size_t stagesWritten = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    const ToolDevice &device = *devices[i];
    DeviceBuild &build = builds[i];
    if (!build.ok()) {
      llvm::errs() << device.id << ": build failed" << (build.error.empty() ? "" : ": " + build.error) << "\n";
      result = ExitProblem;
      // The IR a target's last step refused is still worth seeing.
      if (options.emit != EmitKind::IR || build.ir.empty())
        continue;
    }
    const std::string path = devices.size() > 1 && !toStdout && !options.output.empty()
                                 ? taggedPath(options.output, device.fileTag)
                                 : options.output;
    std::string bytes;
    if (options.emit) {
      auto stage = stageOf(build, *options.emit, !toStdout);
      if (!stage) {
        llvm::errs() << device.id << ": " << llvm::toString(stage.takeError()) << "\n";
        result = ExitProblem;
        continue;
      }
      if (!stage->absent.empty()) {
        llvm::errs() << device.id << ": the " << device.target->name() << " target " << stage->absent << "\n";
        continue;
      }
      bytes = std::move(stage->bytes);
      if (toStdout && devices.size() > 1 && !stage->binary)
        llvm::outs() << commentLeader(*options.emit) << " ---- " << device.id << " (" << device.device->info().name
                     << ") ----\n";
      ++stagesWritten;
    } else if (!options.output.empty()) {
      auto binary = programBinary(*device.device, build, buildOptions);
      if (!binary) {
        llvm::errs() << device.id << ": " << llvm::toString(binary.takeError()) << "\n";
        result = ExitProblem;
        continue;
      }
      bytes.assign(asText(*binary));
    }
    if (toStdout) {
      llvm::outs() << bytes;
      llvm::outs().flush();
    } else if (!path.empty()) {
      if (llvm::Error error = writeFile(path, bytes)) {
        llvm::errs() << "polymux compile: " << llvm::toString(std::move(error)) << "\n";
        return ExitProblem;
      }
    }
    if (build.ok())
      status << device.id << ": " << kernelList(*build.module) << ", built in " << formatSeconds(build.seconds)
             << (path.empty() || toStdout ? "" : " -> " + path) << "\n";
  }
  if (options.emit && stagesWritten == 0 && result == ExitSuccess)
    result = ExitProblem;
  return result;
}

} // namespace polymux::tool
