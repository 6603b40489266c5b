// Names of the decoded instructions, for trap reports and tests.
#include "rv_interp/decoder.h"

#include <array>

namespace riscv_sim {
namespace {

constexpr std::array<const char *, static_cast<size_t>(Op::Count)> kMnemonics = {
    "illegal",
    "lui", "auipc", "jal", "jalr", "beq", "bne", "blt", "bge", "bltu", "bgeu",
    "lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", "sb", "sh", "sw", "sd",
    "addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
    "addiw", "slliw", "srliw", "sraiw", "addw", "subw", "sllw", "srlw", "sraw",
    "fence", "fence.i", "ecall", "ebreak",
    "csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci",
    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu", "mulw", "divw", "divuw", "remw", "remuw",
    "lr.w", "sc.w", "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w", "amomin.w", "amomax.w",
    "amominu.w", "amomaxu.w",
    "lr.d", "sc.d", "amoswap.d", "amoadd.d", "amoxor.d", "amoand.d", "amoor.d", "amomin.d", "amomax.d",
    "amominu.d", "amomaxu.d",
    "flw", "fsw", "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s", "fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s",
    "fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s", "fcvt.w.s", "fcvt.wu.s", "fcvt.l.s", "fcvt.lu.s",
    "fmv.x.w", "feq.s", "flt.s", "fle.s", "fclass.s", "fcvt.s.w", "fcvt.s.wu", "fcvt.s.l", "fcvt.s.lu", "fmv.w.x",
    "fld", "fsd", "fmadd.d", "fmsub.d", "fnmsub.d", "fnmadd.d", "fadd.d", "fsub.d", "fmul.d", "fdiv.d", "fsqrt.d",
    "fsgnj.d", "fsgnjn.d", "fsgnjx.d", "fmin.d", "fmax.d", "fcvt.w.d", "fcvt.wu.d", "fcvt.l.d", "fcvt.lu.d",
    "fmv.x.d", "feq.d", "flt.d", "fle.d", "fclass.d", "fcvt.d.w", "fcvt.d.wu", "fcvt.d.l", "fcvt.d.lu", "fmv.d.x",
    "fcvt.s.d", "fcvt.d.s",
};
static_assert(kMnemonics.back() != nullptr, "one mnemonic per Op");

} // namespace

const char *mnemonic(Op op) {
  size_t index = static_cast<size_t>(op);
  return index < kMnemonics.size() ? kMnemonics[index] : "?";
}

std::string disassemble(const Decoded &d) {
  std::string text = mnemonic(d.op);
  if (d.op == Op::Illegal || d.op == Op::Ecall || d.op == Op::Ebreak || d.op == Op::Fence || d.op == Op::FenceI)
    return text;
  text += " rd=x" + std::to_string(d.rd) + " rs1=x" + std::to_string(d.rs1) + " rs2=x" + std::to_string(d.rs2) +
          " imm=" + std::to_string(d.imm);
  return text;
}

} // namespace riscv_sim
