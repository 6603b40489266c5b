// Decoding of the 32-bit instruction encodings.
#include "riscv_sim/decoder.h"

namespace riscv_sim::sim {
namespace {

constexpr uint32_t field(uint32_t bits, unsigned low, unsigned width) { return (bits >> low) & ((1u << width) - 1); }

int32_t immediateI(uint32_t bits) { return static_cast<int32_t>(bits) >> 20; }
int32_t immediateS(uint32_t bits) {
  return ((static_cast<int32_t>(bits) >> 25) << 5) | static_cast<int32_t>(field(bits, 7, 5));
}
int32_t immediateB(uint32_t bits) {
  return ((static_cast<int32_t>(bits) >> 31) << 12) | static_cast<int32_t>(field(bits, 7, 1) << 11) |
         static_cast<int32_t>(field(bits, 25, 6) << 5) | static_cast<int32_t>(field(bits, 8, 4) << 1);
}
int32_t immediateU(uint32_t bits) { return static_cast<int32_t>(bits & 0xfffff000u); }
int32_t immediateJ(uint32_t bits) {
  return ((static_cast<int32_t>(bits) >> 31) << 20) | static_cast<int32_t>(field(bits, 12, 8) << 12) |
         static_cast<int32_t>(field(bits, 20, 1) << 11) | static_cast<int32_t>(field(bits, 21, 10) << 1);
}

bool validStaticRoundingMode(uint32_t rm) { return rm <= RoundNearestMaxMagnitude || rm == RoundDynamic; }

Opcode decodeLoad(uint32_t funct3) {
  constexpr Opcode ops[8] = {Opcode::Lb,  Opcode::Lh,  Opcode::Lw,  Opcode::Ld,
                             Opcode::Lbu, Opcode::Lhu, Opcode::Lwu, Opcode::Illegal};
  return ops[funct3];
}

Opcode decodeOpImm(uint32_t bits, uint32_t funct3) {
  uint32_t funct6 = field(bits, 26, 6);
  switch (funct3) {
  case 0:
    return Opcode::Addi;
  case 1:
    return funct6 == 0 ? Opcode::Slli : Opcode::Illegal;
  case 2:
    return Opcode::Slti;
  case 3:
    return Opcode::Sltiu;
  case 4:
    return Opcode::Xori;
  case 5:
    return funct6 == 0 ? Opcode::Srli : funct6 == 0x10 ? Opcode::Srai : Opcode::Illegal;
  case 6:
    return Opcode::Ori;
  default:
    return Opcode::Andi;
  }
}

Opcode decodeOpImm32(uint32_t bits, uint32_t funct3) {
  uint32_t funct7 = field(bits, 25, 7);
  switch (funct3) {
  case 0:
    return Opcode::Addiw;
  case 1:
    return funct7 == 0 ? Opcode::Slliw : Opcode::Illegal;
  case 5:
    return funct7 == 0 ? Opcode::Srliw : funct7 == 0x20 ? Opcode::Sraiw : Opcode::Illegal;
  default:
    return Opcode::Illegal;
  }
}

Opcode decodeOp(uint32_t funct7, uint32_t funct3) {
  constexpr Opcode base[8] = {Opcode::Add, Opcode::Sll, Opcode::Slt, Opcode::Sltu,
                              Opcode::Xor, Opcode::Srl, Opcode::Or,  Opcode::And};
  constexpr Opcode multiply[8] = {Opcode::Mul, Opcode::Mulh, Opcode::Mulhsu, Opcode::Mulhu,
                                  Opcode::Div, Opcode::Divu, Opcode::Rem,    Opcode::Remu};
  if (funct7 == 0)
    return base[funct3];
  if (funct7 == 1)
    return multiply[funct3];
  if (funct7 == 0x20)
    return funct3 == 0 ? Opcode::Sub : funct3 == 5 ? Opcode::Sra : Opcode::Illegal;
  return Opcode::Illegal;
}

Opcode decodeOp32(uint32_t funct7, uint32_t funct3) {
  constexpr Opcode base[8] = {Opcode::Addw,    Opcode::Sllw, Opcode::Illegal, Opcode::Illegal,
                              Opcode::Illegal, Opcode::Srlw, Opcode::Illegal, Opcode::Illegal};
  constexpr Opcode multiply[8] = {Opcode::Mulw, Opcode::Illegal, Opcode::Illegal, Opcode::Illegal,
                                  Opcode::Divw, Opcode::Divuw,   Opcode::Remw,    Opcode::Remuw};
  if (funct7 == 0)
    return base[funct3];
  if (funct7 == 1)
    return multiply[funct3];
  if (funct7 == 0x20)
    return funct3 == 0 ? Opcode::Subw : funct3 == 5 ? Opcode::Sraw : Opcode::Illegal;
  return Opcode::Illegal;
}

Opcode decodeBranch(uint32_t funct3) {
  constexpr Opcode ops[8] = {Opcode::Beq, Opcode::Bne, Opcode::Illegal, Opcode::Illegal,
                             Opcode::Blt, Opcode::Bge, Opcode::Bltu,    Opcode::Bgeu};
  return ops[funct3];
}

Opcode decodeAtomic(uint32_t bits, uint32_t funct3) {
  if (funct3 != 2 && funct3 != 3)
    return Opcode::Illegal;
  bool isDouble = funct3 == 3;
  switch (field(bits, 27, 5)) {
  case 0x02:
    return field(bits, 20, 5) != 0 ? Opcode::Illegal : isDouble ? Opcode::LrD : Opcode::LrW;
  case 0x03:
    return isDouble ? Opcode::ScD : Opcode::ScW;
  case 0x01:
    return isDouble ? Opcode::AmoswapD : Opcode::AmoswapW;
  case 0x00:
    return isDouble ? Opcode::AmoaddD : Opcode::AmoaddW;
  case 0x04:
    return isDouble ? Opcode::AmoxorD : Opcode::AmoxorW;
  case 0x0c:
    return isDouble ? Opcode::AmoandD : Opcode::AmoandW;
  case 0x08:
    return isDouble ? Opcode::AmoorD : Opcode::AmoorW;
  case 0x10:
    return isDouble ? Opcode::AmominD : Opcode::AmominW;
  case 0x14:
    return isDouble ? Opcode::AmomaxD : Opcode::AmomaxW;
  case 0x18:
    return isDouble ? Opcode::AmominuD : Opcode::AmominuW;
  case 0x1c:
    return isDouble ? Opcode::AmomaxuD : Opcode::AmomaxuW;
  default:
    return Opcode::Illegal;
  }
}

/// Picks the single- or double-precision form; other formats are illegal.
Opcode byFormat(uint32_t format, Opcode single, Opcode dbl) {
  return format == 0 ? single : format == 1 ? dbl : Opcode::Illegal;
}

Opcode decodeFused(uint32_t majorOpcode, uint32_t format) {
  switch (majorOpcode) {
  case 0x43:
    return byFormat(format, Opcode::FmaddS, Opcode::FmaddD);
  case 0x47:
    return byFormat(format, Opcode::FmsubS, Opcode::FmsubD);
  case 0x4b:
    return byFormat(format, Opcode::FnmsubS, Opcode::FnmsubD);
  default:
    return byFormat(format, Opcode::FnmaddS, Opcode::FnmaddD);
  }
}

/// OP-FP; `usesRoundingMode` is set for the operations whose funct3 is rm.
Opcode decodeOpFp(uint32_t bits, bool &usesRoundingMode) {
  uint32_t funct7 = field(bits, 25, 7), funct3 = field(bits, 12, 3), rs2 = field(bits, 20, 5);
  uint32_t format = funct7 & 3;
  usesRoundingMode = true;
  switch (funct7 >> 2) {
  case 0x00:
    return byFormat(format, Opcode::FaddS, Opcode::FaddD);
  case 0x01:
    return byFormat(format, Opcode::FsubS, Opcode::FsubD);
  case 0x02:
    return byFormat(format, Opcode::FmulS, Opcode::FmulD);
  case 0x03:
    return byFormat(format, Opcode::FdivS, Opcode::FdivD);
  case 0x0b:
    return rs2 == 0 ? byFormat(format, Opcode::FsqrtS, Opcode::FsqrtD) : Opcode::Illegal;
  case 0x08:
    if (funct7 == 0x20 && rs2 == 1)
      return Opcode::FcvtSD;
    if (funct7 == 0x21 && rs2 == 0)
      return Opcode::FcvtDS;
    return Opcode::Illegal;
  case 0x18: {
    constexpr Opcode single[4] = {Opcode::FcvtWS, Opcode::FcvtWuS, Opcode::FcvtLS, Opcode::FcvtLuS};
    constexpr Opcode dbl[4] = {Opcode::FcvtWD, Opcode::FcvtWuD, Opcode::FcvtLD, Opcode::FcvtLuD};
    return rs2 < 4 ? byFormat(format, single[rs2], dbl[rs2]) : Opcode::Illegal;
  }
  case 0x1a: {
    constexpr Opcode single[4] = {Opcode::FcvtSW, Opcode::FcvtSWu, Opcode::FcvtSL, Opcode::FcvtSLu};
    constexpr Opcode dbl[4] = {Opcode::FcvtDW, Opcode::FcvtDWu, Opcode::FcvtDL, Opcode::FcvtDLu};
    return rs2 < 4 ? byFormat(format, single[rs2], dbl[rs2]) : Opcode::Illegal;
  }
  default:
    break;
  }
  usesRoundingMode = false;
  switch (funct7 >> 2) {
  case 0x04: {
    constexpr Opcode single[3] = {Opcode::FsgnjS, Opcode::FsgnjnS, Opcode::FsgnjxS};
    constexpr Opcode dbl[3] = {Opcode::FsgnjD, Opcode::FsgnjnD, Opcode::FsgnjxD};
    return funct3 < 3 ? byFormat(format, single[funct3], dbl[funct3]) : Opcode::Illegal;
  }
  case 0x05:
    return funct3 == 0   ? byFormat(format, Opcode::FminS, Opcode::FminD)
           : funct3 == 1 ? byFormat(format, Opcode::FmaxS, Opcode::FmaxD)
                         : Opcode::Illegal;
  case 0x14: {
    constexpr Opcode single[3] = {Opcode::FleS, Opcode::FltS, Opcode::FeqS};
    constexpr Opcode dbl[3] = {Opcode::FleD, Opcode::FltD, Opcode::FeqD};
    return funct3 < 3 ? byFormat(format, single[funct3], dbl[funct3]) : Opcode::Illegal;
  }
  case 0x1c:
    if (rs2 != 0)
      return Opcode::Illegal;
    return funct3 == 0   ? byFormat(format, Opcode::FmvXW, Opcode::FmvXD)
           : funct3 == 1 ? byFormat(format, Opcode::FclassS, Opcode::FclassD)
                         : Opcode::Illegal;
  case 0x1e:
    return rs2 == 0 && funct3 == 0 ? byFormat(format, Opcode::FmvWX, Opcode::FmvDX) : Opcode::Illegal;
  default:
    return Opcode::Illegal;
  }
}

Opcode decodeSystem(uint32_t bits, uint32_t funct3) {
  constexpr Opcode csr[8] = {Opcode::Illegal, Opcode::Csrrw,  Opcode::Csrrs,  Opcode::Csrrc,
                             Opcode::Illegal, Opcode::Csrrwi, Opcode::Csrrsi, Opcode::Csrrci};
  if (funct3 != 0)
    return csr[funct3];
  if (bits == 0x00000073)
    return Opcode::Ecall;
  if (bits == 0x00100073)
    return Opcode::Ebreak;
  return Opcode::Illegal;
}

} // namespace

DecodedInstruction decode(uint32_t bits) {
  if ((bits & 3) != 3)
    return decodeCompressed(static_cast<uint16_t>(bits));
  DecodedInstruction d;
  d.raw = bits;
  d.length = 4;
  d.rd = field(bits, 7, 5);
  d.rs1 = field(bits, 15, 5);
  d.rs2 = field(bits, 20, 5);
  d.rs3 = field(bits, 27, 5);
  uint32_t funct3 = field(bits, 12, 3);
  uint32_t funct7 = field(bits, 25, 7);
  switch (bits & 0x7f) {
  case 0x03:
    d.op = decodeLoad(funct3), d.imm = immediateI(bits);
    break;
  case 0x07:
    d.op = funct3 == 2 ? Opcode::Flw : funct3 == 3 ? Opcode::Fld : Opcode::Illegal;
    d.imm = immediateI(bits);
    break;
  case 0x0f:
    d.op = funct3 == 0 ? Opcode::Fence : funct3 == 1 ? Opcode::FenceI : Opcode::Illegal;
    break;
  case 0x13:
    d.op = decodeOpImm(bits, funct3);
    d.imm = (funct3 == 1 || funct3 == 5) ? static_cast<int32_t>(field(bits, 20, 6)) : immediateI(bits);
    break;
  case 0x17:
    d.op = Opcode::Auipc, d.imm = immediateU(bits);
    break;
  case 0x1b:
    d.op = decodeOpImm32(bits, funct3);
    d.imm = (funct3 == 1 || funct3 == 5) ? static_cast<int32_t>(field(bits, 20, 5)) : immediateI(bits);
    break;
  case 0x23:
    d.op = funct3 < 4 ? static_cast<Opcode>(static_cast<int>(Opcode::Sb) + funct3) : Opcode::Illegal;
    d.imm = immediateS(bits);
    break;
  case 0x27:
    d.op = funct3 == 2 ? Opcode::Fsw : funct3 == 3 ? Opcode::Fsd : Opcode::Illegal;
    d.imm = immediateS(bits);
    break;
  case 0x2f:
    d.op = decodeAtomic(bits, funct3), d.rm = field(bits, 25, 2);
    break;
  case 0x33:
    d.op = decodeOp(funct7, funct3);
    break;
  case 0x37:
    d.op = Opcode::Lui, d.imm = immediateU(bits);
    break;
  case 0x3b:
    d.op = decodeOp32(funct7, funct3);
    break;
  case 0x43:
  case 0x47:
  case 0x4b:
  case 0x4f:
    d.op = validStaticRoundingMode(funct3) ? decodeFused(bits & 0x7f, field(bits, 25, 2)) : Opcode::Illegal;
    d.rm = funct3;
    break;
  case 0x53: {
    bool usesRoundingMode = false;
    d.op = decodeOpFp(bits, usesRoundingMode);
    if (usesRoundingMode && !validStaticRoundingMode(funct3))
      d.op = Opcode::Illegal;
    d.rm = funct3;
    break;
  }
  case 0x63:
    d.op = decodeBranch(funct3), d.imm = immediateB(bits);
    break;
  case 0x67:
    d.op = funct3 == 0 ? Opcode::Jalr : Opcode::Illegal, d.imm = immediateI(bits);
    break;
  case 0x6f:
    d.op = Opcode::Jal, d.imm = immediateJ(bits);
    break;
  case 0x73:
    d.op = decodeSystem(bits, funct3);
    d.imm = static_cast<int32_t>(field(bits, 20, 12));
    break;
  default:
    d.op = Opcode::Illegal;
    break;
  }
  return d;
}

} // namespace riscv_sim::sim
