#include "riscv_sim/run_result.h"
#include "riscv_sim/decoder.h"

#include <cstdio>

namespace riscv_sim::sim {

const char *name(StopReason reason) {
  switch (reason) {
  case StopReason::Returned:
    return "returned";
  case StopReason::EnvironmentCall:
    return "environment call";
  case StopReason::Breakpoint:
    return "breakpoint";
  case StopReason::InstructionLimit:
    return "instruction limit";
  case StopReason::IllegalInstruction:
    return "illegal instruction";
  case StopReason::InstructionAccessFault:
    return "instruction access fault";
  case StopReason::LoadAccessFault:
    return "load access fault";
  case StopReason::StoreAccessFault:
    return "store access fault";
  case StopReason::MisalignedAtomic:
    return "misaligned atomic";
  }
  return "unknown";
}

bool RunResult::isTrap() const {
  return cause != StopReason::Returned && cause != StopReason::EnvironmentCall && cause != StopReason::InstructionLimit;
}

std::string RunResult::describe() const {
  char text[96];
  std::snprintf(text, sizeof text, " at pc 0x%llx", static_cast<unsigned long long>(pc));
  std::string line = std::string(name(cause)) + text;
  bool fetched = instruction != 0 || cause == StopReason::IllegalInstruction;
  if (fetched && cause != StopReason::InstructionAccessFault) {
    bool compressed = instructionLength(static_cast<uint16_t>(instruction)) == 2;
    std::snprintf(text, sizeof text, ", instruction 0x%0*x", compressed ? 4 : 8, instruction);
    line += text + std::string(" (") + disassemble(instruction) + ")";
  }
  if (cause == StopReason::LoadAccessFault || cause == StopReason::StoreAccessFault ||
      cause == StopReason::MisalignedAtomic || cause == StopReason::InstructionAccessFault) {
    std::snprintf(text, sizeof text, ", address 0x%llx", static_cast<unsigned long long>(address));
    line += text;
  }
  std::snprintf(text, sizeof text, ", after %llu instructions", static_cast<unsigned long long>(instructionsRetired));
  return line + text;
}

} // namespace riscv_sim::sim
