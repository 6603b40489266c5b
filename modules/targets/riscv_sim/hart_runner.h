// Runs work-groups of one launch on one hart: the hart's view of guest
// memory (the program's segments, DRAM, its own local memory) and the call
// of a kernel entry point, `entry(args, info)`, as the lp64d ABI makes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace riscv_sim {

class Device;
class LoadedProgram;

struct GroupResult {
  bool completed = false; ///< the entry point returned
  uint64_t instructions = 0;
  std::string trap; ///< why it did not complete: cause, pc, instruction, address
  /// The trap's kernel exit code (mux/kernel_exit.h) when it did not.
  int32_t exitStatus = 0;
};

class HartRunner {
public:
  HartRunner(Device &device, const LoadedProgram &program, unsigned hart);
  ~HartRunner();

  /// Calls the entry point at `entry` with a0 = `args` and a1 = `info`
  /// (guest addresses), the stack at the top of the hart's local memory, and
  /// runs until it returns or traps, or `abandon` is set (checked every few
  /// million instructions, so a launch stops soon after one group faulted).
  GroupResult runGroup(uint64_t entry, uint64_t args, uint64_t info, const std::atomic<bool> &abandon);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace riscv_sim
