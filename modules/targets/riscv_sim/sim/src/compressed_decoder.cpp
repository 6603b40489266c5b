// Decoding of the RV64 compressed (C) encodings into the operations they
// expand to.
#include "riscv_sim/decoder.h"

namespace riscv_sim::sim {
namespace {

constexpr uint32_t bit(uint32_t bits, unsigned position) { return (bits >> position) & 1; }
constexpr uint32_t field(uint32_t bits, unsigned low, unsigned width) { return (bits >> low) & ((1u << width) - 1); }
constexpr int32_t signExtend(uint32_t value, unsigned width) {
  return static_cast<int32_t>(value << (32 - width)) >> (32 - width);
}
/// The 3-bit register fields name x8..x15 (or f8..f15).
constexpr uint8_t compressedRegister(uint32_t bits, unsigned low) { return 8 + field(bits, low, 3); }

DecodedInstruction make(Opcode op, uint8_t rd, uint8_t rs1, uint8_t rs2, int32_t imm) {
  DecodedInstruction d;
  d.op = op;
  d.rd = rd;
  d.rs1 = rs1;
  d.rs2 = rs2;
  d.imm = imm;
  return d;
}

// Scaled unsigned offsets of the register-based loads and stores.
uint32_t offsetWord(uint32_t b) { return field(b, 10, 3) << 3 | bit(b, 6) << 2 | bit(b, 5) << 6; }
uint32_t offsetDouble(uint32_t b) { return field(b, 10, 3) << 3 | field(b, 5, 2) << 6; }
// Stack-pointer-based offsets.
uint32_t offsetLoadWordSp(uint32_t b) { return bit(b, 12) << 5 | field(b, 4, 3) << 2 | field(b, 2, 2) << 6; }
uint32_t offsetLoadDoubleSp(uint32_t b) { return bit(b, 12) << 5 | field(b, 5, 2) << 3 | field(b, 2, 3) << 6; }
uint32_t offsetStoreWordSp(uint32_t b) { return field(b, 9, 4) << 2 | field(b, 7, 2) << 6; }
uint32_t offsetStoreDoubleSp(uint32_t b) { return field(b, 10, 3) << 3 | field(b, 7, 3) << 6; }
int32_t immediate6(uint32_t b) { return signExtend(bit(b, 12) << 5 | field(b, 2, 5), 6); }
uint32_t shiftAmount(uint32_t b) { return bit(b, 12) << 5 | field(b, 2, 5); }

int32_t jumpOffset(uint32_t b) {
  uint32_t offset = bit(b, 12) << 11 | bit(b, 11) << 4 | field(b, 9, 2) << 8 | bit(b, 8) << 10 | bit(b, 7) << 6 |
                    bit(b, 6) << 7 | field(b, 3, 3) << 1 | bit(b, 2) << 5;
  return signExtend(offset, 12);
}

int32_t branchOffset(uint32_t b) {
  uint32_t offset = bit(b, 12) << 8 | field(b, 10, 2) << 3 | field(b, 5, 2) << 6 | field(b, 3, 2) << 1 | bit(b, 2) << 5;
  return signExtend(offset, 9);
}

DecodedInstruction quadrant0(uint32_t b) {
  uint8_t rdPrime = compressedRegister(b, 2), rs1Prime = compressedRegister(b, 7);
  switch (field(b, 13, 3)) {
  case 0: {
    uint32_t imm = field(b, 11, 2) << 4 | field(b, 7, 4) << 6 | bit(b, 6) << 2 | bit(b, 5) << 3;
    return imm == 0 ? DecodedInstruction{} : make(Opcode::Addi, rdPrime, 2, 0, static_cast<int32_t>(imm));
  }
  case 1:
    return make(Opcode::Fld, rdPrime, rs1Prime, 0, static_cast<int32_t>(offsetDouble(b)));
  case 2:
    return make(Opcode::Lw, rdPrime, rs1Prime, 0, static_cast<int32_t>(offsetWord(b)));
  case 3:
    return make(Opcode::Ld, rdPrime, rs1Prime, 0, static_cast<int32_t>(offsetDouble(b)));
  case 5:
    return make(Opcode::Fsd, 0, rs1Prime, rdPrime, static_cast<int32_t>(offsetDouble(b)));
  case 6:
    return make(Opcode::Sw, 0, rs1Prime, rdPrime, static_cast<int32_t>(offsetWord(b)));
  case 7:
    return make(Opcode::Sd, 0, rs1Prime, rdPrime, static_cast<int32_t>(offsetDouble(b)));
  default:
    return {};
  }
}

DecodedInstruction arithmetic(uint32_t b) {
  uint8_t rd = compressedRegister(b, 7), rs2 = compressedRegister(b, 2);
  switch (field(b, 10, 2)) {
  case 0:
    return make(Opcode::Srli, rd, rd, 0, static_cast<int32_t>(shiftAmount(b)));
  case 1:
    return make(Opcode::Srai, rd, rd, 0, static_cast<int32_t>(shiftAmount(b)));
  case 2:
    return make(Opcode::Andi, rd, rd, 0, immediate6(b));
  default:
    break;
  }
  constexpr Opcode full[4] = {Opcode::Sub, Opcode::Xor, Opcode::Or, Opcode::And};
  constexpr Opcode word[4] = {Opcode::Subw, Opcode::Addw, Opcode::Illegal, Opcode::Illegal};
  Opcode op = bit(b, 12) ? word[field(b, 5, 2)] : full[field(b, 5, 2)];
  return op == Opcode::Illegal ? DecodedInstruction{} : make(op, rd, rd, rs2, 0);
}

DecodedInstruction quadrant1(uint32_t b) {
  uint8_t rd = field(b, 7, 5);
  switch (field(b, 13, 3)) {
  case 0:
    return make(Opcode::Addi, rd, rd, 0, immediate6(b));
  case 1:
    return rd == 0 ? DecodedInstruction{} : make(Opcode::Addiw, rd, rd, 0, immediate6(b));
  case 2:
    return make(Opcode::Addi, rd, 0, 0, immediate6(b));
  case 3:
    if (rd == 2) {
      uint32_t imm = bit(b, 12) << 9 | bit(b, 6) << 4 | bit(b, 5) << 6 | field(b, 3, 2) << 7 | bit(b, 2) << 5;
      return imm == 0 ? DecodedInstruction{} : make(Opcode::Addi, 2, 2, 0, signExtend(imm, 10));
    } else {
      int32_t imm = immediate6(b) * 4096;
      return imm == 0 ? DecodedInstruction{} : make(Opcode::Lui, rd, 0, 0, imm);
    }
  case 4:
    return arithmetic(b);
  case 5:
    return make(Opcode::Jal, 0, 0, 0, jumpOffset(b));
  case 6:
    return make(Opcode::Beq, 0, compressedRegister(b, 7), 0, branchOffset(b));
  default:
    return make(Opcode::Bne, 0, compressedRegister(b, 7), 0, branchOffset(b));
  }
}

DecodedInstruction quadrant2(uint32_t b) {
  uint8_t rd = field(b, 7, 5), rs2 = field(b, 2, 5);
  switch (field(b, 13, 3)) {
  case 0:
    return make(Opcode::Slli, rd, rd, 0, static_cast<int32_t>(shiftAmount(b)));
  case 1:
    return make(Opcode::Fld, rd, 2, 0, static_cast<int32_t>(offsetLoadDoubleSp(b)));
  case 2:
    return rd == 0 ? DecodedInstruction{} : make(Opcode::Lw, rd, 2, 0, static_cast<int32_t>(offsetLoadWordSp(b)));
  case 3:
    return rd == 0 ? DecodedInstruction{} : make(Opcode::Ld, rd, 2, 0, static_cast<int32_t>(offsetLoadDoubleSp(b)));
  case 4:
    if (bit(b, 12) == 0) {
      if (rs2 != 0)
        return make(Opcode::Add, rd, 0, rs2, 0);                               // c.mv
      return rd == 0 ? DecodedInstruction{} : make(Opcode::Jalr, 0, rd, 0, 0); // c.jr
    }
    if (rs2 != 0)
      return make(Opcode::Add, rd, rd, rs2, 0);
    return rd == 0 ? make(Opcode::Ebreak, 0, 0, 0, 0) : make(Opcode::Jalr, 1, rd, 0, 0); // c.ebreak, c.jalr
  case 5:
    return make(Opcode::Fsd, 0, 2, rs2, static_cast<int32_t>(offsetStoreDoubleSp(b)));
  case 6:
    return make(Opcode::Sw, 0, 2, rs2, static_cast<int32_t>(offsetStoreWordSp(b)));
  default:
    return make(Opcode::Sd, 0, 2, rs2, static_cast<int32_t>(offsetStoreDoubleSp(b)));
  }
}

} // namespace

DecodedInstruction decodeCompressed(uint16_t bits) {
  DecodedInstruction d;
  switch (bits & 3) {
  case 0:
    d = quadrant0(bits);
    break;
  case 1:
    d = quadrant1(bits);
    break;
  case 2:
    d = quadrant2(bits);
    break;
  default:
    return decode(bits); // not compressed; only meaningful with the upper half
  }
  d.length = 2;
  d.raw = bits;
  return d;
}

} // namespace riscv_sim::sim
