// RV64IMAFDC + Zicsr + Zifencei instructions, decoded once into a compact
// form the hart executes. Compressed (C) instructions are expanded to the
// 32-bit instruction they stand for and decoded as that, so every C form
// shares the semantics of its base instruction.
#pragma once

#include <cstdint>
#include <string>

namespace riscv_sim {

enum class Op : uint8_t {
  Illegal,
  // RV64I
  Lui, Auipc, Jal, Jalr, Beq, Bne, Blt, Bge, Bltu, Bgeu,
  Lb, Lh, Lw, Ld, Lbu, Lhu, Lwu, Sb, Sh, Sw, Sd,
  Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai,
  Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And,
  Addiw, Slliw, Srliw, Sraiw, Addw, Subw, Sllw, Srlw, Sraw,
  Fence, FenceI, Ecall, Ebreak,
  Csrrw, Csrrs, Csrrc, Csrrwi, Csrrsi, Csrrci,
  // M
  Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, Mulw, Divw, Divuw, Remw, Remuw,
  // A (W then D)
  LrW, ScW, AmoswapW, AmoaddW, AmoxorW, AmoandW, AmoorW, AmominW, AmomaxW, AmominuW, AmomaxuW,
  LrD, ScD, AmoswapD, AmoaddD, AmoxorD, AmoandD, AmoorD, AmominD, AmomaxD, AmominuD, AmomaxuD,
  // F
  Flw, Fsw, FmaddS, FmsubS, FnmsubS, FnmaddS, FaddS, FsubS, FmulS, FdivS, FsqrtS,
  FsgnjS, FsgnjnS, FsgnjxS, FminS, FmaxS, FcvtWS, FcvtWuS, FcvtLS, FcvtLuS, FmvXW,
  FeqS, FltS, FleS, FclassS, FcvtSW, FcvtSWu, FcvtSL, FcvtSLu, FmvWX,
  // D
  Fld, Fsd, FmaddD, FmsubD, FnmsubD, FnmaddD, FaddD, FsubD, FmulD, FdivD, FsqrtD,
  FsgnjD, FsgnjnD, FsgnjxD, FminD, FmaxD, FcvtWD, FcvtWuD, FcvtLD, FcvtLuD, FmvXD,
  FeqD, FltD, FleD, FclassD, FcvtDW, FcvtDWu, FcvtDL, FcvtDLu, FmvDX, FcvtSD, FcvtDS,
  Count
};

/// Rounding modes (the rm field and frm).
inline constexpr uint8_t RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4, DYN = 7;

/// One decoded instruction. `imm` holds the immediate (or the CSR number).
struct Decoded {
  Op op = Op::Illegal;
  uint8_t rd = 0;
  uint8_t rs1 = 0;
  uint8_t rs2 = 0;
  uint8_t rs3 = 0;
  uint8_t rm = 0;     ///< rounding mode field of F/D arithmetic
  uint8_t length = 4; ///< 2 for a compressed instruction
  int64_t imm = 0;
};

/// The 32-bit instruction a 16-bit compressed one stands for, or 0 when
/// `half` is not a valid RV64C instruction.
uint32_t expandCompressed(uint16_t half);

/// Decodes the instruction whose first 16 bits are `low` and, for a 32-bit
/// instruction, whose next 16 bits are `high`. Unknown or reserved encodings
/// give Op::Illegal.
Decoded decode(uint16_t low, uint16_t high);

/// The assembler mnemonic of `op` ("addi", "fmadd.d", ...).
const char *mnemonic(Op op);

/// `mnemonic` plus operands, e.g. "addi rd=x10 rs1=x10 rs2=x0 imm=-1".
std::string disassemble(const Decoded &instruction);

} // namespace riscv_sim
