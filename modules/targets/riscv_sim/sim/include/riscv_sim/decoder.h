// Decoding of RV64IMAFDC + Zicsr + Zifencei instruction bits into one
// operation with its operands. Compressed (16-bit) instructions decode to
// the 32-bit operation they expand to.
#pragma once

#include <cstdint>
#include <string>

namespace riscv_sim::sim {

enum class Opcode : uint16_t {
#define OPCODE(name, mnemonic, operands) name,
#include "riscv_sim/opcodes.def"
#undef OPCODE
  Count
};

/// Rounding-mode field values (frm and the instruction's rm field).
enum RoundingMode : uint8_t {
  RoundNearestEven = 0,
  RoundTowardZero = 1,
  RoundDown = 2,
  RoundUp = 3,
  RoundNearestMaxMagnitude = 4,
  RoundDynamic = 7,
};

struct DecodedInstruction {
  Opcode op = Opcode::Illegal;
  uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;
  /// Rounding mode for FP operations; aq (2) | rl (1) for atomics.
  uint8_t rm = 0;
  /// 2 for a compressed instruction, else 4.
  uint8_t length = 4;
  /// Sign-extended immediate; the csr number for Zicsr operations.
  int32_t imm = 0;
  /// The raw instruction bits (16 significant bits when compressed).
  uint32_t raw = 0;
};

/// Length of the instruction whose first halfword is `lowHalf`: 2 or 4.
constexpr unsigned instructionLength(uint16_t lowHalf) { return (lowHalf & 3) == 3 ? 4 : 2; }

/// Decodes one instruction. `bits` holds at least the instruction's length
/// (its upper half is ignored when the instruction is compressed). Reserved
/// and unsupported encodings give Opcode::Illegal.
DecodedInstruction decode(uint32_t bits);
DecodedInstruction decodeCompressed(uint16_t bits);

const char *mnemonic(Opcode op);
/// Operand pattern of `op` (see opcodes.def).
const char *operandPattern(Opcode op);
/// Whether `op` writes the integer register rd.
bool writesIntegerRegister(Opcode op);

/// One line of assembly for `bits`, e.g. "addi x10, x10, -1"; branch and
/// jump targets are given relative to the instruction (". + 8").
std::string disassemble(uint32_t bits);

} // namespace riscv_sim::sim
