// One RV64IMAFDC hart (user level): its registers and the loop that runs
// decoded code over an address space until the code returns, traps, calls
// the environment or exceeds an instruction budget.
#pragma once

#include "rv_interp/address_space.h"
#include "rv_interp/decoder.h"
#include "rv_interp/program.h"

#include <cstdint>
#include <string>

namespace riscv_sim {

struct HartState {
  uint64_t x[32] = {};
  /// f registers; single values are NaN-boxed (upper 32 bits all ones).
  uint64_t f[32] = {};
  uint64_t pc = 0;
  /// fflags in bits 4:0 (NX UF OF DZ NV from bit 0), frm in bits 7:5.
  uint32_t fcsr = 0;
  /// Instructions retired since the hart was created or reset.
  uint64_t instret = 0;
};

/// Why run() stopped.
enum class StopCause {
  Returned,               ///< pc reached the return address
  EnvironmentCall,        ///< ecall; pc is past it, a7 holds the call number
  Breakpoint,             ///< ebreak
  IllegalInstruction,     ///< an unknown encoding, an unknown CSR, a bad rounding mode
  InstructionAccessFault, ///< pc outside the program
  LoadAccessFault,        ///< a load outside readable memory
  StoreAccessFault,       ///< a store outside writable memory
  MisalignedAtomic,       ///< an LR/SC/AMO address not aligned to its size
  InstructionLimit,       ///< the budget ran out (pc is the next instruction)
};

const char *stopCauseName(StopCause cause);

struct RunResult {
  StopCause cause = StopCause::Returned;
  uint64_t pc = 0;          ///< of the instruction that trapped (or where it stopped)
  uint32_t instruction = 0; ///< its raw bits (16 or 32), 0 when not fetchable
  uint64_t address = 0;     ///< the data address of an access fault or misaligned atomic
  uint64_t instructionsRetired = 0; ///< by this run() call
  std::string mnemonic;     ///< of the trapping instruction, when decodable

  bool trapped() const { return cause != StopCause::Returned && cause != StopCause::EnvironmentCall; }
  /// One line: cause, pc, instruction (hex and mnemonic), address.
  std::string describe() const;
};

class Hart {
public:
  /// `memory` and `program` must outlive the hart. Instructions are fetched
  /// from `program` only: its region is the executable one.
  Hart(const AddressSpace &memory, const DecodedProgram &program);

  HartState &state() { return state_; }
  const HartState &state() const { return state_; }

  /// Runs from state().pc. Stops when pc == `returnAddress` (Returned), on a
  /// trap, an ecall or ebreak, or when about `instructionLimit` more
  /// instructions have retired (checked at taken branches and jumps). A
  /// trapping instruction does not retire and leaves the registers as they
  /// were before it.
  RunResult run(uint64_t returnAddress, uint64_t instructionLimit);

private:
  template <typename T> bool load(uint64_t address, T &value);
  template <typename T> bool store(uint64_t address, T value);
  template <typename T> T *atomicTarget(uint64_t address, RunResult &result);

  const AddressSpace &memory_;
  const DecodedProgram &program_;
  HartState state_;
  // Last regions hit by loads and stores (never null: an empty sentinel).
  const Region *lastLoad_;
  const Region *lastStore_;
  Region none_;
  // LR/SC reservation.
  bool reserved_ = false;
  uint64_t reservedAddress_ = 0;
  uint64_t reservedValue_ = 0;
};

} // namespace riscv_sim
