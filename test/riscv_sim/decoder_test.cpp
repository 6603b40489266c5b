// Decoding of known encodings (produced by the LLVM 22 assembler) into the
// right operation and operands, compressed forms included, and rejection
// of reserved encodings.
#include "riscv_sim/decoder.h"

#include <gtest/gtest.h>

using namespace riscv_sim::sim;

namespace {

struct Expected {
  uint32_t bits;
  Opcode op;
  int rd, rs1, rs2; ///< -1: not checked
  int32_t imm;
  const char *assembly; ///< what llvm-objdump-22 printed
};

void check(const Expected &e) {
  DecodedInstruction d = decode(e.bits);
  SCOPED_TRACE(e.assembly);
  EXPECT_EQ(d.op, e.op) << mnemonic(d.op);
  if (e.rd >= 0) {
    EXPECT_EQ(d.rd, e.rd);
  }
  if (e.rs1 >= 0) {
    EXPECT_EQ(d.rs1, e.rs1);
  }
  if (e.rs2 >= 0) {
    EXPECT_EQ(d.rs2, e.rs2);
  }
  EXPECT_EQ(d.imm, e.imm);
  EXPECT_EQ(d.length, instructionLength(static_cast<uint16_t>(e.bits)));
}

} // namespace

TEST(Decoder, IntegerInstructions) {
  const Expected table[] = {
      {0x00b50533, Opcode::Add, 10, 10, 11, 0, "add a0, a0, a1"},
      {0x407302b3, Opcode::Sub, 5, 6, 7, 0, "sub t0, t1, t2"},
      {0x00c5853b, Opcode::Addw, 10, 11, 12, 0, "addw a0, a1, a2"},
      {0x4035d51b, Opcode::Sraiw, 10, 11, -1, 3, "sraiw a0, a1, 3"},
      {0x43f5d513, Opcode::Srai, 10, 11, -1, 63, "srai a0, a1, 63"},
      {0x12345537, Opcode::Lui, 10, -1, -1, 0x12345000, "lui a0, 0x12345"},
      {0xfffff297, Opcode::Auipc, 5, -1, -1, -4096, "auipc t0, 0xfffff"},
      {0x801ff0ef, Opcode::Jal, 1, -1, -1, -2048, "jal ra, -2048"},
      {0xff450367, Opcode::Jalr, 6, 10, -1, -12, "jalr t1, -12(a0)"},
      {0xfe051ce3, Opcode::Bne, -1, 10, 0, -8, "bne a0, zero, -8"},
      {0x7ec5ffe3, Opcode::Bgeu, -1, 11, 12, 4094, "bgeu a1, a2, 4094"},
      {0xfff10503, Opcode::Lb, 10, 2, -1, -1, "lb a0, -1(sp)"},
      {0x7ff5e503, Opcode::Lwu, 10, 11, -1, 2047, "lwu a0, 2047(a1)"},
      {0x00113423, Opcode::Sd, -1, 2, 1, 8, "sd ra, 8(sp)"},
      {0x02c5a533, Opcode::Mulhsu, 10, 11, 12, 0, "mulhsu a0, a1, a2"},
      {0x02c5f53b, Opcode::Remuw, 10, 11, 12, 0, "remuw a0, a1, a2"},
      {0x0330000f, Opcode::Fence, -1, -1, -1, 0, "fence rw, rw"},
      {0x0000100f, Opcode::FenceI, -1, -1, -1, 0, "fence.i"},
      {0x00000073, Opcode::Ecall, -1, -1, -1, 0, "ecall"},
      {0x00100073, Opcode::Ebreak, -1, -1, -1, 1, "ebreak"},
      {0x00102573, Opcode::Csrrs, 10, 0, -1, 1, "csrrs a0, fflags, zero"},
      {0x0021d073, Opcode::Csrrwi, 0, 3, -1, 2, "csrrwi zero, frm, 3"},
      {0xc0202573, Opcode::Csrrs, 10, 0, -1, 0xc02, "rdinstret a0"},
  };
  for (const Expected &e : table)
    check(e);
}

TEST(Decoder, AtomicInstructionsKeepOrdering) {
  const Expected table[] = {
      {0x1405a52f, Opcode::LrW, 10, 11, 0, 0, "lr.w.aq a0, (a1)"},
      {0x1ac5b52f, Opcode::ScD, 10, 11, 12, 0, "sc.d.rl a0, a2, (a1)"},
      {0xe6c5b52f, Opcode::AmomaxuD, 10, 11, 12, 0, "amomaxu.d.aqrl a0, a2, (a1)"},
  };
  for (const Expected &e : table)
    check(e);
  EXPECT_EQ(decode(0x1405a52f).rm, 2); // aq
  EXPECT_EQ(decode(0x1ac5b52f).rm, 1); // rl
  EXPECT_EQ(decode(0xe6c5b52f).rm, 3);
}

TEST(Decoder, FloatingPointInstructions) {
  const Expected table[] = {
      {0x0045a507, Opcode::Flw, 10, 11, -1, 4, "flw fa0, 4(a1)"},
      {0xfeb13c27, Opcode::Fsd, -1, 2, 11, -8, "fsd fa1, -8(sp)"},
      {0x68c5c543, Opcode::FmaddS, 10, 11, 12, 0, "fmadd.s fa0, fa1, fa2, fa3, rmm"},
      {0x6ac5f54b, Opcode::FnmsubD, 10, 11, 12, 0, "fnmsub.d fa0, fa1, fa2, fa3, dyn"},
      {0x1ac59553, Opcode::FdivD, 10, 11, 12, 0, "fdiv.d fa0, fa1, fa2, rtz"},
      {0x5805b553, Opcode::FsqrtS, 10, 11, -1, 0, "fsqrt.s fa0, fa1, rup"},
      {0x22c5a553, Opcode::FsgnjxD, 10, 11, 12, 0, "fsgnjx.d fa0, fa1, fa2"},
      {0x28c59553, Opcode::FmaxS, 10, 11, 12, 0, "fmax.s fa0, fa1, fa2"},
      {0x4015a553, Opcode::FcvtSD, 10, 11, -1, 0, "fcvt.s.d fa0, fa1, rdn"},
      {0x42058553, Opcode::FcvtDS, 10, 11, -1, 0, "fcvt.d.s fa0, fa1"},
      {0xc0359553, Opcode::FcvtLuS, 10, 11, -1, 0, "fcvt.lu.s a0, fa1, rtz"},
      {0xd2158553, Opcode::FcvtDWu, 10, 11, -1, 0, "fcvt.d.wu fa0, a1"},
      {0xe0058553, Opcode::FmvXW, 10, 11, -1, 0, "fmv.x.w a0, fa1"},
      {0xe2059553, Opcode::FclassD, 10, 11, -1, 0, "fclass.d a0, fa1"},
      {0xa0c5a553, Opcode::FeqS, 10, 11, 12, 0, "feq.s a0, fa1, fa2"},
      {0xf2058553, Opcode::FmvDX, 10, 11, -1, 0, "fmv.d.x fa0, a1"},
  };
  for (const Expected &e : table)
    check(e);
  EXPECT_EQ(decode(0x68c5c543).rs3, 13);
  EXPECT_EQ(decode(0x68c5c543).rm, RoundNearestMaxMagnitude);
  EXPECT_EQ(decode(0x6ac5f54b).rm, RoundDynamic);
  EXPECT_EQ(decode(0x1ac59553).rm, RoundTowardZero);
}

TEST(Decoder, CompressedFormsExpand) {
  const Expected table[] = {
      {0x1fe0, Opcode::Addi, 8, 2, -1, 1020, "c.addi4spn s0, sp, 1020"},
      {0x3de8, Opcode::Fld, 10, 11, -1, 248, "c.fld fa0, 248(a1)"},
      {0x5de8, Opcode::Lw, 10, 11, -1, 124, "c.lw a0, 124(a1)"},
      {0x7de8, Opcode::Ld, 10, 11, -1, 248, "c.ld a0, 248(a1)"},
      {0xa588, Opcode::Fsd, -1, 11, 10, 8, "c.fsd fa0, 8(a1)"},
      {0xc1c8, Opcode::Sw, -1, 11, 10, 4, "c.sw a0, 4(a1)"},
      {0xe988, Opcode::Sd, -1, 11, 10, 16, "c.sd a0, 16(a1)"},
      {0x0001, Opcode::Addi, 0, 0, -1, 0, "c.nop"},
      {0x1501, Opcode::Addi, 10, 10, -1, -32, "c.addi a0, -32"},
      {0x257d, Opcode::Addiw, 10, 10, -1, 31, "c.addiw a0, 31"},
      {0x557d, Opcode::Addi, 10, 0, -1, -1, "c.li a0, -1"},
      {0x7101, Opcode::Addi, 2, 2, -1, -512, "c.addi16sp sp, -512"},
      {0x7505, Opcode::Lui, 10, -1, -1, static_cast<int32_t>(0xfffe1000), "c.lui a0, 0xfffe1"},
      {0x917d, Opcode::Srli, 10, 10, -1, 63, "c.srli a0, 63"},
      {0x8585, Opcode::Srai, 11, 11, -1, 1, "c.srai a1, 1"},
      {0x9a7d, Opcode::Andi, 12, 12, -1, -1, "c.andi a2, -1"},
      {0x8d0d, Opcode::Sub, 10, 10, 11, 0, "c.sub a0, a1"},
      {0x8d2d, Opcode::Xor, 10, 10, 11, 0, "c.xor a0, a1"},
      {0x8d4d, Opcode::Or, 10, 10, 11, 0, "c.or a0, a1"},
      {0x8d6d, Opcode::And, 10, 10, 11, 0, "c.and a0, a1"},
      {0x9d0d, Opcode::Subw, 10, 10, 11, 0, "c.subw a0, a1"},
      {0x9d2d, Opcode::Addw, 10, 10, 11, 0, "c.addw a0, a1"},
      {0xb001, Opcode::Jal, 0, -1, -1, -2048, "c.j -2048"},
      {0xd101, Opcode::Beq, -1, 10, 0, -256, "c.beqz a0, -256"},
      {0xedfd, Opcode::Bne, -1, 11, 0, 254, "c.bnez a1, 254"},
      {0x157e, Opcode::Slli, 10, 10, -1, 63, "c.slli a0, 63"},
      {0x357e, Opcode::Fld, 10, 2, -1, 504, "c.fldsp fa0, 504(sp)"},
      {0x557e, Opcode::Lw, 10, 2, -1, 252, "c.lwsp a0, 252(sp)"},
      {0x757e, Opcode::Ld, 10, 2, -1, 504, "c.ldsp a0, 504(sp)"},
      {0x8082, Opcode::Jalr, 0, 1, -1, 0, "c.jr ra"},
      {0x852e, Opcode::Add, 10, 0, 11, 0, "c.mv a0, a1"},
      {0x9002, Opcode::Ebreak, -1, -1, -1, 0, "c.ebreak"},
      {0x9502, Opcode::Jalr, 1, 10, -1, 0, "c.jalr a0"},
      {0x952e, Opcode::Add, 10, 10, 11, 0, "c.add a0, a1"},
      {0xbfaa, Opcode::Fsd, -1, 2, 10, 504, "c.fsdsp fa0, 504(sp)"},
      {0xdfaa, Opcode::Sw, -1, 2, 10, 252, "c.swsp a0, 252(sp)"},
      {0xffaa, Opcode::Sd, -1, 2, 10, 504, "c.sdsp a0, 504(sp)"},
      {0xe406, Opcode::Sd, -1, 2, 1, 8, "c.sdsp ra, 8(sp)"},
  };
  for (const Expected &e : table)
    check(e);
}

TEST(Decoder, ReservedEncodingsAreIllegal) {
  const uint32_t illegal[] = {
      0x00000000,                              // all zeros (c.addi4spn with zero immediate)
      0xffffffff,                              // all ones
      0x0000007f,                              // unused major opcode
      0x00007003,                              // load with funct3 7
      0x00c5c53b,                              // OP-32 funct3 4 with funct7 0 (there is no xorw)
      0x00005513 | (0x11u << 26),              // srli with a bad funct6
      0x0000202f | (0x02u << 27) | (1u << 20), // lr.w with rs2 != 0
      0x0000402f,                              // AMO with funct3 4
      0x00c5d553 | (0x00u << 25) | (5u << 12), // fadd.s with reserved rm 5
      0x6ac5e54b,                              // fnmsub.d with reserved rm 6
      0x04c58553,                              // fadd.q (format 3)
      0x30200073,                              // mret: not at user level
      0x10500073,                              // wfi
      0x0000400f,                              // MISC-MEM funct3 4
      0x00004073,                              // SYSTEM funct3 4
  };
  for (uint32_t bits : illegal)
    EXPECT_EQ(decode(bits).op, Opcode::Illegal) << std::hex << bits << " " << disassemble(bits);
  const uint16_t compressedIllegal[] = {
      0x0000, // c.addi4spn, zero immediate
      0x8000, // quadrant 0 funct3 4: reserved
      0x2001, // c.addiw with rd = 0
      0x6101, // c.addi16sp with zero immediate
      0x6501, // c.lui with zero immediate
      0x9c41, // c.subw's neighbour funct 2 with bit 12: reserved
      0x9c61, // and funct 3
      0x4002, // c.lwsp with rd = 0
      0x6002, // c.ldsp with rd = 0
      0x8002, // c.jr with rs1 = 0
  };
  for (uint16_t bits : compressedIllegal)
    EXPECT_EQ(decodeCompressed(bits).op, Opcode::Illegal) << std::hex << bits;
}

TEST(Decoder, DisassemblesForTrapReports) {
  EXPECT_EQ(disassemble(0x00b50533), "add x10, x10, x11");
  EXPECT_EQ(disassemble(0xfff10503), "lb x10, -1(x2)");
  EXPECT_EQ(disassemble(0x68c5c543), "fmadd.s f10, f11, f12, f13");
  EXPECT_EQ(disassemble(0xfe051ce3), "bne x10, x0, . - 8");
  EXPECT_EQ(disassemble(0x8082), "jalr x0, 0(x1)");
  EXPECT_EQ(disassemble(0xffffffff), "illegal");
}
