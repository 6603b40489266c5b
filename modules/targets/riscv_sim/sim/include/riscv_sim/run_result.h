// Why a hart stopped, and where.
#pragma once

#include <cstdint>
#include <string>

namespace riscv_sim::sim {

enum class StopReason : uint8_t {
  Returned,               ///< jumped to the return address: normal completion
  EnvironmentCall,        ///< ecall; pc is after it, a7 holds the call number
  Breakpoint,             ///< ebreak; pc is the ebreak
  InstructionLimit,       ///< the limit was reached; pc is the next instruction
  IllegalInstruction,     ///< reserved or unsupported encoding, bad CSR, bad rounding mode
  InstructionAccessFault, ///< fetch outside executable memory
  LoadAccessFault,        ///< load (or LR) outside readable memory
  StoreAccessFault,       ///< store, SC or AMO outside writable memory
  MisalignedAtomic,       ///< LR, SC or AMO address not aligned to its size
};

const char *name(StopReason reason);

struct RunResult {
  StopReason cause = StopReason::Returned;
  /// Where it stopped: the return address, the instruction after an ecall,
  /// the next instruction at the limit, or the trapping instruction.
  uint64_t pc = 0;
  /// Raw bits of the instruction at pc for traps (16 significant bits when
  /// compressed); 0 when not fetched.
  uint32_t instruction = 0;
  /// The faulting data address for access faults and misaligned atomics.
  uint64_t address = 0;
  /// Instructions retired by this run call (an ecall counts as retired).
  uint64_t instructionsRetired = 0;

  /// Whether the hart stopped on an error (not a return, ecall or limit).
  bool isTrap() const;
  /// One line: cause, pc, instruction (hex and disassembly), address.
  std::string describe() const;
};

} // namespace riscv_sim::sim
