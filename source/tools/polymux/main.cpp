// polymux: the command-line tool of the Polymux OpenCL implementation
// (doc/tool.md).
#include "commands.h"

#include "llvm/Support/raw_ostream.h"

#include <string_view>

namespace {

const char *kHelp = R"(usage: polymux <command> [arguments]

Polymux's own tool: it uses the driver's targets and compilers directly,
without an OpenCL platform or the ICD loader.

commands:
  devices   list every device of every target in this build, with its limits
            and extensions, and why a target has no device
  compile   compile OpenCL C offline: diagnostics, program binaries that
            clCreateProgramWithBinary loads, or a stage of each target's
            compilation (LLVM IR, assembly, SPIR-V, ELF)
  run       run one kernel on several devices with the same inputs and
            compare the buffers it wrote

`polymux <command> --help` describes a command; doc/tool.md has examples.
Exit status: 0 success, 1 a build failed or devices disagree, 2 a bad command.
)";

} // namespace

int main(int argc, char **argv) {
  using namespace polymux::tool;
  if (argc < 2) {
    llvm::errs() << kHelp;
    return ExitUsage;
  }
  std::string_view command = argv[1];
  std::span<char *const> rest(argv + 2, argc - 2);
  if (command == "--help" || command == "-h" || command == "help") {
    llvm::outs() << kHelp;
    return ExitSuccess;
  }
  if (command == "--version") {
    llvm::outs() << "polymux " POLYMUX_VERSION "\n";
    return ExitSuccess;
  }
  if (command == "devices")
    return devicesCommand(rest);
  if (command == "compile")
    return compileCommand(rest);
  if (command == "run")
    return runCommand(rest);
  llvm::errs() << "polymux: unknown command '" << command << "' (polymux --help)\n";
  return ExitUsage;
}
