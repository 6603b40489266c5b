// Encoders for RV64GC instruction formats, for hand-assembled code: tests,
// benchmarks and small trampolines. Register numbers are plain integers.
#pragma once

#include <cstdint>

namespace riscv_sim::sim::encode {

constexpr uint32_t r(uint32_t opcode, uint32_t rd, uint32_t funct3, uint32_t rs1, uint32_t rs2, uint32_t funct7) {
  return funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}
constexpr uint32_t r4(uint32_t opcode, uint32_t rd, uint32_t rm, uint32_t rs1, uint32_t rs2, uint32_t format,
                      uint32_t rs3) {
  return rs3 << 27 | format << 25 | rs2 << 20 | rs1 << 15 | rm << 12 | rd << 7 | opcode;
}
constexpr uint32_t i(uint32_t opcode, uint32_t rd, uint32_t funct3, uint32_t rs1, int32_t imm) {
  return static_cast<uint32_t>(imm) << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}
constexpr uint32_t s(uint32_t opcode, uint32_t funct3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | (u & 0x1f) << 7 | opcode;
}
constexpr uint32_t b(uint32_t funct3, uint32_t rs1, uint32_t rs2, int32_t offset) {
  uint32_t u = static_cast<uint32_t>(offset);
  return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | (u >> 1 & 0xf) << 8 |
         (u >> 11 & 1) << 7 | 0x63;
}
constexpr uint32_t u(uint32_t opcode, uint32_t rd, uint32_t upper20) { return upper20 << 12 | rd << 7 | opcode; }
constexpr uint32_t j(uint32_t rd, int32_t offset) {
  uint32_t v = static_cast<uint32_t>(offset);
  return (v >> 20 & 1) << 31 | (v >> 1 & 0x3ff) << 21 | (v >> 11 & 1) << 20 | (v >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

// A few common instructions by name.
constexpr uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x13, rd, 0, rs1, imm); }
constexpr uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r(0x33, rd, 0, rs1, rs2, 0); }
constexpr uint32_t mul(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r(0x33, rd, 0, rs1, rs2, 1); }
constexpr uint32_t xor_(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r(0x33, rd, 4, rs1, rs2, 0); }
constexpr uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t shamt) { return i(0x13, rd, 1, rs1, shamt); }
constexpr uint32_t ld(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x03, rd, 3, rs1, imm); }
constexpr uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x03, rd, 2, rs1, imm); }
constexpr uint32_t sd(uint32_t rs2, uint32_t rs1, int32_t imm) { return s(0x23, 3, rs1, rs2, imm); }
constexpr uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return s(0x23, 2, rs1, rs2, imm); }
constexpr uint32_t flw(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x07, rd, 2, rs1, imm); }
constexpr uint32_t fsw(uint32_t rs2, uint32_t rs1, int32_t imm) { return s(0x27, 2, rs1, rs2, imm); }
constexpr uint32_t fld(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x07, rd, 3, rs1, imm); }
constexpr uint32_t fsd(uint32_t rs2, uint32_t rs1, int32_t imm) { return s(0x27, 3, rs1, rs2, imm); }
constexpr uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t offset) { return b(1, rs1, rs2, offset); }
constexpr uint32_t blt(uint32_t rs1, uint32_t rs2, int32_t offset) { return b(4, rs1, rs2, offset); }
constexpr uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return i(0x67, rd, 0, rs1, imm); }
constexpr uint32_t ret() { return jalr(0, 1, 0); }
constexpr uint32_t ecall() { return 0x00000073; }
constexpr uint32_t ebreak() { return 0x00100073; }
/// fmadd.s/.d rd = rs1 * rs2 + rs3 with rounding mode rm (7 = dynamic).
constexpr uint32_t fmadd(bool dbl, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3, uint32_t rm = 7) {
  return r4(0x43, rd, rm, rs1, rs2, dbl ? 1 : 0, rs3);
}
/// OP-FP with funct7 `funct7` (format in its low bits) and funct3 `rm`.
constexpr uint32_t opFp(uint32_t funct7, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rm = 7) {
  return r(0x53, rd, rm, rs1, rs2, funct7);
}
constexpr uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return i(0x73, rd, 1, rs1, static_cast<int32_t>(csr));
}
constexpr uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return i(0x73, rd, 2, rs1, static_cast<int32_t>(csr));
}

} // namespace riscv_sim::sim::encode
