// The dispatch loop: threaded code over the pre-decoded instructions (GCC
// computed goto, one indirect jump per instruction). The operation
// handlers live in the execute_*.inc files included below, inside run().
#include "riscv_sim/hart.h"
#include "atomic_ops.h"
#include "execution.h"
#include "fp_ops.h"
#include "integer_ops.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace riscv_sim::sim {

Hart::Hart(AddressSpace &memory) : memory_(memory), execution_(std::make_unique<Execution>(memory)) {}
Hart::~Hart() = default;

void Hart::clearReservation() { execution_->reservation.valid = false; }

RunResult Hart::run(uint64_t returnAddress, uint64_t limit) {
  Execution &e = *execution_;
  uint64_t *const x = e.x;
  uint64_t *const f = state_.f;
  fp::Environment &fpu = e.fpu;
  std::copy(std::begin(state_.x), std::end(state_.x), x);
  x[0] = 0;
  e.frm = (state_.fcsr >> 5) & 7;
  fpu.enter(e.frm < 4 ? e.frm : unsigned{RoundNearestEven});
  fpu.setFlags(state_.fcsr & 0x1f);
  e.data.reset();

  static const void *const handlers[] = {
#define OPCODE(name, mnemonic, operands) &&op_##name,
#include "riscv_sim/opcodes.def"
#undef OPCODE
  };

  RunResult result;
  uint64_t retired = 0;
  uint64_t pc = state_.pc;
  std::shared_ptr<const DecodedCode> code;
  const DecodedInstruction *entries = nullptr, *d = nullptr;
  uint64_t codeBase = 0, codeSize = 0;

#define PC() (codeBase + (static_cast<uint64_t>(d - entries) << 1))
#define DISPATCH()                                                                                                     \
  do {                                                                                                                 \
    if (retired >= limit) [[unlikely]]                                                                                 \
      goto limitReached;                                                                                               \
    ++retired;                                                                                                         \
    goto *handlers[static_cast<unsigned>(d->op)];                                                                      \
  } while (0)
#define NEXT()                                                                                                         \
  do {                                                                                                                 \
    d += d->length >> 1;                                                                                               \
    DISPATCH();                                                                                                        \
  } while (0)
#define JUMP(targetExpression)                                                                                         \
  do {                                                                                                                 \
    uint64_t target_ = (targetExpression);                                                                             \
    if (target_ == returnAddress) [[unlikely]] {                                                                       \
      pc = target_;                                                                                                    \
      goto returned;                                                                                                   \
    }                                                                                                                  \
    uint64_t offset_ = target_ - codeBase;                                                                             \
    if (offset_ < codeSize) [[likely]] {                                                                               \
      d = entries + (offset_ >> 1);                                                                                    \
      DISPATCH();                                                                                                      \
    }                                                                                                                  \
    pc = target_;                                                                                                      \
    goto farJump;                                                                                                      \
  } while (0)
#define TRAP(reason, faultAddress)                                                                                     \
  do {                                                                                                                 \
    result.cause = StopReason::reason;                                                                                 \
    result.address = (faultAddress);                                                                                   \
    goto trap;                                                                                                         \
  } while (0)
#define RD x[d->rd]
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define IMM static_cast<uint64_t>(static_cast<int64_t>(d->imm))

  if (pc == returnAddress) {
    result.cause = StopReason::Returned;
    goto finish;
  }

farJump:
  code = memory_.codeAt(pc);
  if (!code) {
    result.cause = StopReason::InstructionAccessFault;
    result.address = pc;
    goto finish;
  }
  codeBase = code->base();
  codeSize = code->size();
  entries = code->entries();
  d = code->at(pc);
  DISPATCH();

#include "execute_atomic.inc"
#include "execute_float.inc"
#include "execute_integer.inc"
#include "execute_memory.inc"
#include "execute_system.inc"

op_FetchFault:
  // Sequential execution ran off the end of the region (perhaps into the
  // next one) or into an instruction that crosses its end.
  --retired;
  pc = PC();
  if (pc == returnAddress) {
    result.cause = StopReason::Returned;
    goto finish;
  }
  if (pc == codeBase + (codeSize & ~uint64_t(1)))
    goto farJump;
  result.cause = StopReason::InstructionAccessFault;
  result.address = pc;
  goto finish;

op_Illegal:
illegalInstruction:
  result.cause = StopReason::IllegalInstruction;
trap:
  --retired;
  pc = PC();
  result.instruction = d->raw;
  goto finish;

limitReached:
  pc = PC();
  result.cause = StopReason::InstructionLimit;
  goto finish;

returned:
  result.cause = StopReason::Returned;

finish:
  state_.fcsr = static_cast<uint32_t>(e.frm) << 5 | fpu.flags();
  fpu.leave();
  std::copy(x, x + 32, std::begin(state_.x));
  state_.pc = pc;
  state_.instret += retired;
  result.pc = pc;
  result.instructionsRetired = retired;
  return result;

#undef PC
#undef DISPATCH
#undef NEXT
#undef JUMP
#undef TRAP
#undef RD
#undef RS1
#undef RS2
#undef IMM
}

} // namespace riscv_sim::sim
