// polymux: the command-line tool of the Polymux OpenCL implementation.
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

`polymux <command> --help` describes a command.
Exit status: 0 success, 1 a build failed, 2 a bad command.
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
  llvm::errs() << "polymux: unknown command '" << command << "' (polymux --help)\n";
  return ExitUsage;
}
