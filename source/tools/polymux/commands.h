// The subcommands of `polymux`. Each takes the words after its name and
// returns the process's exit status.
#pragma once

#include <span>

namespace polymux::tool {

/// Exit statuses every subcommand shares.
enum ExitStatus : int {
  ExitSuccess = 0,
  /// The work was done and found a problem: a build failed, devices
  /// disagree, a kernel failed.
  ExitProblem = 1,
  /// The command could not start: a bad command line, an unreadable file,
  /// no such device or kernel.
  ExitUsage = 2,
};

int devicesCommand(std::span<char *const> args);
int compileCommand(std::span<char *const> args);
int runCommand(std::span<char *const> args);

} // namespace polymux::tool
