#include "rv_interp/decoder.h"

#include <array>

namespace riscv_sim {
namespace {

constexpr uint32_t bits(uint32_t value, unsigned high, unsigned low) {
  return (value >> low) & ((1u << (high - low + 1)) - 1);
}
constexpr uint32_t bit(uint32_t value, unsigned index) { return (value >> index) & 1; }
constexpr int64_t signExtend(uint64_t value, unsigned width) {
  return static_cast<int64_t>(value << (64 - width)) >> (64 - width);
}

// Encoders of the base formats, for expanding compressed instructions.
constexpr uint32_t encodeR(uint32_t opcode, uint32_t rd, uint32_t funct3, uint32_t rs1, uint32_t rs2,
                           uint32_t funct7) {
  return opcode | rd << 7 | funct3 << 12 | rs1 << 15 | rs2 << 20 | funct7 << 25;
}
constexpr uint32_t encodeI(uint32_t opcode, uint32_t rd, uint32_t funct3, uint32_t rs1, int32_t imm) {
  return opcode | rd << 7 | funct3 << 12 | rs1 << 15 | (static_cast<uint32_t>(imm) & 0xfff) << 20;
}
constexpr uint32_t encodeS(uint32_t opcode, uint32_t funct3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return opcode | (u & 0x1f) << 7 | funct3 << 12 | rs1 << 15 | rs2 << 20 | bits(u, 11, 5) << 25;
}
constexpr uint32_t encodeB(uint32_t funct3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return 0x63 | bit(u, 11) << 7 | bits(u, 4, 1) << 8 | funct3 << 12 | rs1 << 15 | rs2 << 20 | bits(u, 10, 5) << 25 |
         bit(u, 12) << 31;
}
constexpr uint32_t encodeJ(uint32_t rd, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return 0x6f | rd << 7 | bits(u, 19, 12) << 12 | bit(u, 11) << 20 | bits(u, 10, 1) << 21 | bit(u, 20) << 31;
}
constexpr uint32_t encodeU(uint32_t opcode, uint32_t rd, int32_t imm) {
  return opcode | rd << 7 | (static_cast<uint32_t>(imm) & 0xfffff000u);
}

enum : uint32_t {
  kLoad = 0x03, kLoadFp = 0x07, kOpImm = 0x13, kOpImm32 = 0x1b, kStore = 0x23, kStoreFp = 0x27,
  kOp = 0x33, kLui = 0x37, kOp32 = 0x3b, kJalr = 0x67, kSystem = 0x73,
};

uint32_t expandQuadrant0(uint32_t c) {
  const uint32_t rdp = bits(c, 4, 2) + 8, rs1p = bits(c, 9, 7) + 8;
  const int32_t offsetD = static_cast<int32_t>(bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6);
  const int32_t offsetW = static_cast<int32_t>(bits(c, 12, 10) << 3 | bit(c, 6) << 2 | bit(c, 5) << 6);
  switch (bits(c, 15, 13)) {
  case 0: { // c.addi4spn
    int32_t imm = static_cast<int32_t>(bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bit(c, 6) << 2 | bit(c, 5) << 3);
    return imm == 0 ? 0 : encodeI(kOpImm, rdp, 0, 2, imm);
  }
  case 1:
    return encodeI(kLoadFp, rdp, 3, rs1p, offsetD); // c.fld
  case 2:
    return encodeI(kLoad, rdp, 2, rs1p, offsetW); // c.lw
  case 3:
    return encodeI(kLoad, rdp, 3, rs1p, offsetD); // c.ld
  case 5:
    return encodeS(kStoreFp, 3, rs1p, rdp, offsetD); // c.fsd
  case 6:
    return encodeS(kStore, 2, rs1p, rdp, offsetW); // c.sw
  case 7:
    return encodeS(kStore, 3, rs1p, rdp, offsetD); // c.sd
  default:
    return 0;
  }
}

uint32_t expandQuadrant1(uint32_t c) {
  const uint32_t rd = bits(c, 11, 7);
  const int32_t imm6 = static_cast<int32_t>(signExtend(bit(c, 12) << 5 | bits(c, 6, 2), 6));
  const uint32_t rdp = bits(c, 9, 7) + 8, rs2p = bits(c, 4, 2) + 8;
  switch (bits(c, 15, 13)) {
  case 0:
    return encodeI(kOpImm, rd, 0, rd, imm6); // c.addi, c.nop
  case 1:
    return rd == 0 ? 0 : encodeI(kOpImm32, rd, 0, rd, imm6); // c.addiw
  case 2:
    return encodeI(kOpImm, rd, 0, 0, imm6); // c.li
  case 3:
    if (rd == 2) { // c.addi16sp
      int32_t imm = static_cast<int32_t>(signExtend(
          bit(c, 12) << 9 | bit(c, 6) << 4 | bit(c, 5) << 6 | bits(c, 4, 3) << 7 | bit(c, 2) << 5, 10));
      return imm == 0 ? 0 : encodeI(kOpImm, 2, 0, 2, imm);
    } else { // c.lui
      int32_t imm = static_cast<int32_t>(signExtend(bit(c, 12) << 17 | bits(c, 6, 2) << 12, 18));
      return imm == 0 ? 0 : encodeU(kLui, rd, imm);
    }
  case 4: {
    const uint32_t shamt = bit(c, 12) << 5 | bits(c, 6, 2);
    switch (bits(c, 11, 10)) {
    case 0:
      return encodeI(kOpImm, rdp, 5, rdp, static_cast<int32_t>(shamt)); // c.srli
    case 1:
      return encodeI(kOpImm, rdp, 5, rdp, static_cast<int32_t>(shamt | 0x400)); // c.srai
    case 2:
      return encodeI(kOpImm, rdp, 7, rdp, imm6); // c.andi
    default:
      break;
    }
    static constexpr uint32_t funct3[4] = {0, 4, 6, 7}; // sub, xor, or, and
    if (bit(c, 12) == 0)
      return encodeR(kOp, rdp, funct3[bits(c, 6, 5)], rdp, rs2p, bits(c, 6, 5) == 0 ? 0x20 : 0);
    if (bits(c, 6, 5) == 0)
      return encodeR(kOp32, rdp, 0, rdp, rs2p, 0x20); // c.subw
    if (bits(c, 6, 5) == 1)
      return encodeR(kOp32, rdp, 0, rdp, rs2p, 0); // c.addw
    return 0;
  }
  case 5: { // c.j
    int32_t imm = static_cast<int32_t>(signExtend(bit(c, 12) << 11 | bit(c, 11) << 4 | bits(c, 10, 9) << 8 |
                                                      bit(c, 8) << 10 | bit(c, 7) << 6 | bit(c, 6) << 7 |
                                                      bits(c, 5, 3) << 1 | bit(c, 2) << 5,
                                                  12));
    return encodeJ(0, imm);
  }
  default: { // c.beqz, c.bnez
    int32_t imm = static_cast<int32_t>(
        signExtend(bit(c, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 | bit(c, 2) << 5,
                   9));
    return encodeB(bits(c, 15, 13) == 6 ? 0 : 1, rdp, 0, imm);
  }
  }
}

uint32_t expandQuadrant2(uint32_t c) {
  const uint32_t rd = bits(c, 11, 7), rs2 = bits(c, 6, 2);
  const int32_t offsetDsp = static_cast<int32_t>(bit(c, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6);
  const int32_t storeDsp = static_cast<int32_t>(bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6);
  switch (bits(c, 15, 13)) {
  case 0:
    return encodeI(kOpImm, rd, 1, rd, static_cast<int32_t>(bit(c, 12) << 5 | rs2)); // c.slli
  case 1:
    return encodeI(kLoadFp, rd, 3, 2, offsetDsp); // c.fldsp
  case 2: {
    int32_t offset = static_cast<int32_t>(bit(c, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6);
    return rd == 0 ? 0 : encodeI(kLoad, rd, 2, 2, offset); // c.lwsp
  }
  case 3:
    return rd == 0 ? 0 : encodeI(kLoad, rd, 3, 2, offsetDsp); // c.ldsp
  case 4:
    if (bit(c, 12) == 0) {
      if (rs2 == 0)
        return rd == 0 ? 0 : encodeI(kJalr, 0, 0, rd, 0); // c.jr
      return encodeR(kOp, rd, 0, 0, rs2, 0);              // c.mv
    }
    if (rd == 0 && rs2 == 0)
      return 0x00100073; // c.ebreak
    if (rs2 == 0)
      return encodeI(kJalr, 1, 0, rd, 0); // c.jalr
    return encodeR(kOp, rd, 0, rd, rs2, 0); // c.add
  case 5:
    return encodeS(kStoreFp, 3, 2, rs2, storeDsp); // c.fsdsp
  case 6:
    return encodeS(kStore, 2, 2, rs2, static_cast<int32_t>(bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6)); // c.swsp
  default:
    return encodeS(kStore, 3, 2, rs2, storeDsp); // c.sdsp
  }
}

int64_t immI(uint32_t r) { return signExtend(r >> 20, 12); }
int64_t immS(uint32_t r) { return signExtend(bits(r, 31, 25) << 5 | bits(r, 11, 7), 12); }
int64_t immB(uint32_t r) {
  return signExtend(bit(r, 31) << 12 | bit(r, 7) << 11 | bits(r, 30, 25) << 5 | bits(r, 11, 8) << 1, 13);
}
int64_t immU(uint32_t r) { return signExtend(r & 0xfffff000u, 32); }
int64_t immJ(uint32_t r) {
  return signExtend(bit(r, 31) << 20 | bits(r, 19, 12) << 12 | bit(r, 20) << 11 | bits(r, 30, 21) << 1, 21);
}

bool validStaticRm(uint32_t rm) { return rm <= 4 || rm == 7; }

Op decodeOpFp(uint32_t r, Decoded &d) {
  const uint32_t funct7 = bits(r, 31, 25), rs2 = bits(r, 24, 20), f3 = bits(r, 14, 12);
  const bool isDouble = funct7 & 1;
  auto pick = [&](Op single, Op dbl) { return isDouble ? dbl : single; };
  auto arithmetic = [&](Op single, Op dbl) { return validStaticRm(f3) ? pick(single, dbl) : Op::Illegal; };
  switch (funct7 & ~1u) {
  case 0x00:
    return arithmetic(Op::FaddS, Op::FaddD);
  case 0x04:
    return arithmetic(Op::FsubS, Op::FsubD);
  case 0x08:
    return arithmetic(Op::FmulS, Op::FmulD);
  case 0x0c:
    return arithmetic(Op::FdivS, Op::FdivD);
  case 0x2c:
    return rs2 == 0 ? arithmetic(Op::FsqrtS, Op::FsqrtD) : Op::Illegal;
  case 0x10:
    return f3 == 0 ? pick(Op::FsgnjS, Op::FsgnjD)
           : f3 == 1 ? pick(Op::FsgnjnS, Op::FsgnjnD)
           : f3 == 2 ? pick(Op::FsgnjxS, Op::FsgnjxD)
                     : Op::Illegal;
  case 0x14:
    return f3 == 0 ? pick(Op::FminS, Op::FminD) : f3 == 1 ? pick(Op::FmaxS, Op::FmaxD) : Op::Illegal;
  case 0x20: // fcvt.s.d (funct7 0x20, rs2 1) / fcvt.d.s (funct7 0x21, rs2 0)
    if (!validStaticRm(f3))
      return Op::Illegal;
    if (!isDouble && rs2 == 1)
      return Op::FcvtSD;
    if (isDouble && rs2 == 0)
      return Op::FcvtDS;
    return Op::Illegal;
  case 0x50:
    return f3 == 0 ? pick(Op::FleS, Op::FleD)
           : f3 == 1 ? pick(Op::FltS, Op::FltD)
           : f3 == 2 ? pick(Op::FeqS, Op::FeqD)
                     : Op::Illegal;
  case 0x60: {
    static constexpr Op single[4] = {Op::FcvtWS, Op::FcvtWuS, Op::FcvtLS, Op::FcvtLuS};
    static constexpr Op dbl[4] = {Op::FcvtWD, Op::FcvtWuD, Op::FcvtLD, Op::FcvtLuD};
    return rs2 < 4 && validStaticRm(f3) ? pick(single[rs2], dbl[rs2]) : Op::Illegal;
  }
  case 0x68: {
    static constexpr Op single[4] = {Op::FcvtSW, Op::FcvtSWu, Op::FcvtSL, Op::FcvtSLu};
    static constexpr Op dbl[4] = {Op::FcvtDW, Op::FcvtDWu, Op::FcvtDL, Op::FcvtDLu};
    return rs2 < 4 && validStaticRm(f3) ? pick(single[rs2], dbl[rs2]) : Op::Illegal;
  }
  case 0x70:
    if (rs2 != 0)
      return Op::Illegal;
    return f3 == 0 ? pick(Op::FmvXW, Op::FmvXD) : f3 == 1 ? pick(Op::FclassS, Op::FclassD) : Op::Illegal;
  case 0x78:
    return rs2 == 0 && f3 == 0 ? pick(Op::FmvWX, Op::FmvDX) : Op::Illegal;
  default:
    (void)d;
    return Op::Illegal;
  }
}

Op decodeAmo(uint32_t r) {
  const uint32_t f3 = bits(r, 14, 12), funct5 = bits(r, 31, 27);
  if (f3 != 2 && f3 != 3)
    return Op::Illegal;
  const int base = f3 == 2 ? static_cast<int>(Op::LrW) : static_cast<int>(Op::LrD);
  int index;
  switch (funct5) {
  case 0x02:
    if (bits(r, 24, 20) != 0)
      return Op::Illegal;
    index = 0;
    break;
  case 0x03: index = 1; break;
  case 0x01: index = 2; break;
  case 0x00: index = 3; break;
  case 0x04: index = 4; break;
  case 0x0c: index = 5; break;
  case 0x08: index = 6; break;
  case 0x10: index = 7; break;
  case 0x14: index = 8; break;
  case 0x18: index = 9; break;
  case 0x1c: index = 10; break;
  default: return Op::Illegal;
  }
  return static_cast<Op>(base + index);
}

Op decode32(uint32_t r, Decoded &d) {
  const uint32_t opcode = r & 0x7f, f3 = bits(r, 14, 12), funct7 = bits(r, 31, 25);
  d.rd = static_cast<uint8_t>(bits(r, 11, 7));
  d.rs1 = static_cast<uint8_t>(bits(r, 19, 15));
  d.rs2 = static_cast<uint8_t>(bits(r, 24, 20));
  d.rs3 = static_cast<uint8_t>(bits(r, 31, 27));
  d.rm = static_cast<uint8_t>(f3);
  switch (opcode) {
  case 0x37: d.imm = immU(r); return Op::Lui;
  case 0x17: d.imm = immU(r); return Op::Auipc;
  case 0x6f: d.imm = immJ(r); return Op::Jal;
  case 0x67: d.imm = immI(r); return f3 == 0 ? Op::Jalr : Op::Illegal;
  case 0x63: {
    d.imm = immB(r);
    static constexpr Op ops[8] = {Op::Beq, Op::Bne, Op::Illegal, Op::Illegal, Op::Blt, Op::Bge, Op::Bltu, Op::Bgeu};
    return ops[f3];
  }
  case 0x03: {
    d.imm = immI(r);
    static constexpr Op ops[8] = {Op::Lb, Op::Lh, Op::Lw, Op::Ld, Op::Lbu, Op::Lhu, Op::Lwu, Op::Illegal};
    return ops[f3];
  }
  case 0x23: {
    d.imm = immS(r);
    static constexpr Op ops[8] = {Op::Sb, Op::Sh, Op::Sw, Op::Sd, Op::Illegal, Op::Illegal, Op::Illegal, Op::Illegal};
    return ops[f3];
  }
  case 0x13:
    d.imm = immI(r);
    switch (f3) {
    case 0: return Op::Addi;
    case 2: return Op::Slti;
    case 3: return Op::Sltiu;
    case 4: return Op::Xori;
    case 6: return Op::Ori;
    case 7: return Op::Andi;
    case 1: d.imm &= 0x3f; return bits(r, 31, 26) == 0 ? Op::Slli : Op::Illegal;
    default:
      d.imm &= 0x3f;
      return bits(r, 31, 26) == 0 ? Op::Srli : bits(r, 31, 26) == 0x10 ? Op::Srai : Op::Illegal;
    }
  case 0x1b:
    d.imm = immI(r);
    if (f3 == 0)
      return Op::Addiw;
    d.imm &= 0x1f;
    if (f3 == 1)
      return funct7 == 0 ? Op::Slliw : Op::Illegal;
    if (f3 == 5)
      return funct7 == 0 ? Op::Srliw : funct7 == 0x20 ? Op::Sraiw : Op::Illegal;
    return Op::Illegal;
  case 0x33: {
    if (funct7 == 0x01) {
      static constexpr Op ops[8] = {Op::Mul, Op::Mulh, Op::Mulhsu, Op::Mulhu, Op::Div, Op::Divu, Op::Rem, Op::Remu};
      return ops[f3];
    }
    if (funct7 == 0x00) {
      static constexpr Op ops[8] = {Op::Add, Op::Sll, Op::Slt, Op::Sltu, Op::Xor, Op::Srl, Op::Or, Op::And};
      return ops[f3];
    }
    if (funct7 == 0x20)
      return f3 == 0 ? Op::Sub : f3 == 5 ? Op::Sra : Op::Illegal;
    return Op::Illegal;
  }
  case 0x3b:
    if (funct7 == 0x01) {
      static constexpr Op ops[8] = {Op::Mulw,    Op::Illegal, Op::Illegal, Op::Illegal,
                                    Op::Divw,    Op::Divuw,   Op::Remw,    Op::Remuw};
      return ops[f3];
    }
    if (funct7 == 0x00)
      return f3 == 0 ? Op::Addw : f3 == 1 ? Op::Sllw : f3 == 5 ? Op::Srlw : Op::Illegal;
    if (funct7 == 0x20)
      return f3 == 0 ? Op::Subw : f3 == 5 ? Op::Sraw : Op::Illegal;
    return Op::Illegal;
  case 0x0f:
    return f3 == 0 ? Op::Fence : f3 == 1 ? Op::FenceI : Op::Illegal;
  case 0x73:
    if (r == 0x00000073)
      return Op::Ecall;
    if (r == 0x00100073)
      return Op::Ebreak;
    d.imm = r >> 20; // the CSR
    switch (f3) {
    case 1: return Op::Csrrw;
    case 2: return Op::Csrrs;
    case 3: return Op::Csrrc;
    case 5: return Op::Csrrwi;
    case 6: return Op::Csrrsi;
    case 7: return Op::Csrrci;
    default: return Op::Illegal;
    }
  case 0x2f:
    return decodeAmo(r);
  case 0x07:
    d.imm = immI(r);
    return f3 == 2 ? Op::Flw : f3 == 3 ? Op::Fld : Op::Illegal;
  case 0x27:
    d.imm = immS(r);
    return f3 == 2 ? Op::Fsw : f3 == 3 ? Op::Fsd : Op::Illegal;
  case 0x43:
  case 0x47:
  case 0x4b:
  case 0x4f: {
    const uint32_t fmt = bits(r, 26, 25);
    if (fmt > 1 || !validStaticRm(f3))
      return Op::Illegal;
    static constexpr Op single[4] = {Op::FmaddS, Op::FmsubS, Op::FnmsubS, Op::FnmaddS};
    static constexpr Op dbl[4] = {Op::FmaddD, Op::FmsubD, Op::FnmsubD, Op::FnmaddD};
    return fmt ? dbl[(opcode >> 2) & 3] : single[(opcode >> 2) & 3];
  }
  case 0x53:
    return decodeOpFp(r, d);
  default:
    return Op::Illegal;
  }
}

} // namespace

uint32_t expandCompressed(uint16_t half) {
  switch (half & 3) {
  case 0:
    return half == 0 ? 0 : expandQuadrant0(half);
  case 1:
    return expandQuadrant1(half);
  case 2:
    return expandQuadrant2(half);
  default:
    return 0;
  }
}

Decoded decode(uint16_t low, uint16_t high) {
  Decoded d;
  uint32_t raw;
  if ((low & 3) != 3) {
    d.length = 2;
    raw = expandCompressed(low);
    if (raw == 0)
      return d;
  } else {
    d.length = 4;
    raw = static_cast<uint32_t>(low) | static_cast<uint32_t>(high) << 16;
    if ((raw & 0x1c) == 0x1c) // 48-bit and longer encodings
      return d;
  }
  uint8_t length = d.length;
  d.op = decode32(raw, d);
  d.length = length;
  if (d.op == Op::Illegal)
    d = Decoded{Op::Illegal, 0, 0, 0, 0, 0, length, 0};
  return d;
}

} // namespace riscv_sim
