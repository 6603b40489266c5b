// Names of the operations and a small disassembler for trap reports.
#include "riscv_sim/decoder.h"

#include <cstring>

namespace riscv_sim::sim {
namespace {

struct OpcodeInfo {
  const char *mnemonic;
  const char *operands;
};

constexpr OpcodeInfo opcodeInfo[] = {
#define OPCODE(name, mnemonic, operands) {mnemonic, operands},
#include "riscv_sim/opcodes.def"
#undef OPCODE
};
static_assert(std::size(opcodeInfo) == static_cast<size_t>(Opcode::Count));

// Appending instead of `"x" + std::to_string(...)` avoids GCC 12's false
// -Wrestrict warning on that form.
std::string prefixed(const char *prefix, int64_t number) { return std::string(prefix).append(std::to_string(number)); }
std::string integerRegister(unsigned index) { return prefixed("x", index); }
std::string floatRegister(unsigned index) { return prefixed("f", index); }

std::string relativeTarget(int32_t offset) {
  return offset < 0 ? prefixed(". - ", -int64_t{offset}) : prefixed(". + ", offset);
}

std::string operand(char letter, const DecodedInstruction &d) {
  switch (letter) {
  case 'd':
    return integerRegister(d.rd);
  case 'D':
    return floatRegister(d.rd);
  case 's':
    return integerRegister(d.rs1);
  case 'S':
    return floatRegister(d.rs1);
  case 't':
    return integerRegister(d.rs2);
  case 'T':
    return floatRegister(d.rs2);
  case 'R':
    return floatRegister(d.rs3);
  case 'i':
    if (d.op == Opcode::Lui || d.op == Opcode::Auipc)
      return std::to_string(static_cast<uint32_t>(d.imm) >> 12);
    return std::to_string(d.imm);
  case 'm':
    return std::to_string(d.imm).append("(").append(integerRegister(d.rs1)).append(")");
  case 'b':
    return relativeTarget(d.imm);
  case 'c':
    return std::to_string(d.imm);
  case 'u':
    return std::to_string(d.rs1);
  case 'A':
    return std::string("(").append(integerRegister(d.rs1)).append(")");
  default:
    return "?";
  }
}

} // namespace

const char *mnemonic(Opcode op) { return opcodeInfo[static_cast<size_t>(op)].mnemonic; }
const char *operandPattern(Opcode op) { return opcodeInfo[static_cast<size_t>(op)].operands; }
bool writesIntegerRegister(Opcode op) { return operandPattern(op)[0] == 'd'; }

std::string disassemble(uint32_t bits) {
  DecodedInstruction d = decode(bits);
  std::string text = mnemonic(d.op);
  const char *pattern = operandPattern(d.op);
  for (size_t i = 0; pattern[i]; ++i)
    text.append(i == 0 ? " " : ", ").append(operand(pattern[i], d));
  return text;
}

} // namespace riscv_sim::sim
