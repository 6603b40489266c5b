// The hart's run loop: one switch over decoded instructions. Integer, memory
// and atomic instructions are here; floating-point semantics are in
// fp_ops.h, the host's floating-point state in host_fp_env.h.
#include "rv_interp/hart.h"

#include "fp_execute.h"
#include "fp_ops.h"
#include "host_fp_env.h"

#include <atomic>
#include <cstring>

namespace riscv_sim {
namespace {

enum Csr : uint32_t {
  kFflags = 0x001,
  kFrm = 0x002,
  kFcsr = 0x003,
  kCycle = 0xc00,
  kTime = 0xc01,
  kInstret = 0xc02,
};

int64_t sext32(uint64_t value) { return static_cast<int32_t>(static_cast<uint32_t>(value)); }

uint64_t mulhSigned(int64_t a, int64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(a) * static_cast<__int128>(b)) >> 64);
}
uint64_t mulhUnsigned(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}
uint64_t mulhSignedUnsigned(int64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(a) * static_cast<__int128>(b)) >> 64);
}

template <typename S> S divide(S a, S b) {
  using U = std::make_unsigned_t<S>;
  if (b == 0)
    return static_cast<S>(~U(0));
  if constexpr (std::is_signed_v<S>)
    if (a == std::numeric_limits<S>::min() && b == -1)
      return a;
  return a / b;
}
template <typename S> S remainder(S a, S b) {
  if (b == 0)
    return a;
  if constexpr (std::is_signed_v<S>)
    if (a == std::numeric_limits<S>::min() && b == -1)
      return 0;
  return a % b;
}

} // namespace

const char *stopCauseName(StopCause cause) {
  switch (cause) {
  case StopCause::Returned:
    return "returned";
  case StopCause::EnvironmentCall:
    return "environment call";
  case StopCause::Breakpoint:
    return "breakpoint (ebreak)";
  case StopCause::IllegalInstruction:
    return "illegal instruction";
  case StopCause::InstructionAccessFault:
    return "instruction access fault";
  case StopCause::LoadAccessFault:
    return "load access fault";
  case StopCause::StoreAccessFault:
    return "store access fault";
  case StopCause::MisalignedAtomic:
    return "misaligned atomic access";
  case StopCause::InstructionLimit:
    return "instruction limit reached";
  }
  return "?";
}

std::string RunResult::describe() const {
  char text[160];
  std::string result = stopCauseName(cause);
  std::snprintf(text, sizeof(text), " at pc 0x%llx", static_cast<unsigned long long>(pc));
  result += text;
  if (instruction != 0 || !mnemonic.empty()) {
    std::snprintf(text, sizeof(text), (instruction & 3) == 3 ? ", instruction 0x%08x" : ", instruction 0x%04x",
                  instruction);
    result += text;
    if (!mnemonic.empty())
      result += " (" + mnemonic + ")";
  }
  if (cause == StopCause::LoadAccessFault || cause == StopCause::StoreAccessFault ||
      cause == StopCause::MisalignedAtomic) {
    std::snprintf(text, sizeof(text), ", address 0x%llx", static_cast<unsigned long long>(address));
    result += text;
  }
  return result;
}

Hart::Hart(const AddressSpace &memory, const DecodedProgram &program)
    : memory_(memory), program_(program), lastLoad_(&none_), lastStore_(&none_) {}

template <typename T> bool Hart::load(uint64_t address, T &value) {
  const Region *region = lastLoad_;
  if (!region->contains(address, sizeof(T))) {
    region = memory_.find(address, sizeof(T), Read);
    if (!region)
      return false;
    lastLoad_ = region;
  }
  std::memcpy(&value, region->host + (address - region->base), sizeof(T));
  return true;
}

template <typename T> bool Hart::store(uint64_t address, T value) {
  const Region *region = lastStore_;
  if (!region->contains(address, sizeof(T))) {
    region = memory_.find(address, sizeof(T), Read | Write);
    if (!region)
      return false;
    lastStore_ = region;
  }
  std::memcpy(region->host + (address - region->base), &value, sizeof(T));
  return true;
}

template <typename T> T *Hart::atomicTarget(uint64_t address, RunResult &result) {
  result.address = address;
  if (address % sizeof(T) != 0) {
    result.cause = StopCause::MisalignedAtomic;
    return nullptr;
  }
  const Region *region = memory_.find(address, sizeof(T), Read | Write);
  std::byte *host = region ? region->host + (address - region->base) : nullptr;
  if (!host || reinterpret_cast<uintptr_t>(host) % sizeof(T) != 0) {
    result.cause = StopCause::StoreAccessFault;
    return nullptr;
  }
  return reinterpret_cast<T *>(host);
}

RunResult Hart::run(uint64_t returnAddress, uint64_t instructionLimit) {
  RunResult result;
  uint64_t *const x = state_.x;
  uint64_t *const f = state_.f;
  uint64_t pc = state_.pc;
  uint64_t retired = 0;
  uint32_t fflags = state_.fcsr & 0x1f;
  uint8_t frm = static_cast<uint8_t>((state_.fcsr >> 5) & 7);
  HostFpEnvironment env(frm <= RMM ? frm : RNE);

  auto stop = [&](StopCause cause) {
    result.cause = cause;
    return true;
  };

  for (;;) {
    const Decoded *instruction = program_.at(pc);
    if (!instruction) {
      result.cause = pc == returnAddress ? StopCause::Returned : StopCause::InstructionAccessFault;
      break;
    }
    const Decoded &d = *instruction;
    uint64_t next = pc + d.length;
    const uint64_t a = x[d.rs1], b = x[d.rs2];
    bool stopped = false;

    switch (d.op) {
    case Op::Illegal:
      stopped = stop(StopCause::IllegalInstruction);
      break;
    // ---- RV64I
    case Op::Lui:
      x[d.rd] = static_cast<uint64_t>(d.imm);
      break;
    case Op::Auipc:
      x[d.rd] = pc + d.imm;
      break;
    // The budget is checked before a jump or taken branch has any effect,
    // so run() can resume there.
    case Op::Jal:
      if (retired >= instructionLimit) {
        stopped = stop(StopCause::InstructionLimit);
        break;
      }
      x[d.rd] = next;
      next = pc + d.imm;
      break;
    case Op::Jalr:
      if (retired >= instructionLimit) {
        stopped = stop(StopCause::InstructionLimit);
        break;
      }
      x[d.rd] = next;
      next = (a + d.imm) & ~1ull;
      break;
#define POLYMUX_BRANCH(OP, CONDITION)                                                                                  \
  case Op::OP:                                                                                                         \
    if (CONDITION) {                                                                                                   \
      if (retired >= instructionLimit)                                                                                 \
        stopped = stop(StopCause::InstructionLimit);                                                                   \
      else                                                                                                             \
        next = pc + d.imm;                                                                                             \
    }                                                                                                                  \
    break;
      POLYMUX_BRANCH(Beq, a == b)
      POLYMUX_BRANCH(Bne, a != b)
      POLYMUX_BRANCH(Blt, static_cast<int64_t>(a) < static_cast<int64_t>(b))
      POLYMUX_BRANCH(Bge, static_cast<int64_t>(a) >= static_cast<int64_t>(b))
      POLYMUX_BRANCH(Bltu, a < b)
      POLYMUX_BRANCH(Bgeu, a >= b)
#undef POLYMUX_BRANCH
#define POLYMUX_LOAD(OP, TYPE, TARGET, CONVERT)                                                                        \
  case Op::OP: {                                                                                                       \
    TYPE value;                                                                                                        \
    if (!load(a + d.imm, value)) {                                                                                     \
      result.address = a + d.imm;                                                                                      \
      stopped = stop(StopCause::LoadAccessFault);                                                                      \
    } else {                                                                                                           \
      TARGET[d.rd] = CONVERT;                                                                                          \
    }                                                                                                                  \
    break;                                                                                                             \
  }
      POLYMUX_LOAD(Lb, int8_t, x, static_cast<uint64_t>(static_cast<int64_t>(value)))
      POLYMUX_LOAD(Lh, int16_t, x, static_cast<uint64_t>(static_cast<int64_t>(value)))
      POLYMUX_LOAD(Lw, int32_t, x, static_cast<uint64_t>(static_cast<int64_t>(value)))
      POLYMUX_LOAD(Ld, uint64_t, x, value)
      POLYMUX_LOAD(Lbu, uint8_t, x, value)
      POLYMUX_LOAD(Lhu, uint16_t, x, value)
      POLYMUX_LOAD(Lwu, uint32_t, x, value)
      POLYMUX_LOAD(Flw, uint32_t, f, fp::kBoxMask | value)
      POLYMUX_LOAD(Fld, uint64_t, f, value)
#undef POLYMUX_LOAD
#define POLYMUX_STORE(OP, TYPE, SOURCE)                                                                                \
  case Op::OP:                                                                                                         \
    if (!store(a + d.imm, static_cast<TYPE>(SOURCE[d.rs2]))) {                                                         \
      result.address = a + d.imm;                                                                                      \
      stopped = stop(StopCause::StoreAccessFault);                                                                     \
    }                                                                                                                  \
    break;
      POLYMUX_STORE(Sb, uint8_t, x)
      POLYMUX_STORE(Sh, uint16_t, x)
      POLYMUX_STORE(Sw, uint32_t, x)
      POLYMUX_STORE(Sd, uint64_t, x)
      POLYMUX_STORE(Fsw, uint32_t, f)
      POLYMUX_STORE(Fsd, uint64_t, f)
#undef POLYMUX_STORE
    case Op::Addi:
      x[d.rd] = a + d.imm;
      break;
    case Op::Slti:
      x[d.rd] = static_cast<int64_t>(a) < d.imm;
      break;
    case Op::Sltiu:
      x[d.rd] = a < static_cast<uint64_t>(d.imm);
      break;
    case Op::Xori:
      x[d.rd] = a ^ d.imm;
      break;
    case Op::Ori:
      x[d.rd] = a | d.imm;
      break;
    case Op::Andi:
      x[d.rd] = a & d.imm;
      break;
    case Op::Slli:
      x[d.rd] = a << d.imm;
      break;
    case Op::Srli:
      x[d.rd] = a >> d.imm;
      break;
    case Op::Srai:
      x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(a) >> d.imm);
      break;
    case Op::Add:
      x[d.rd] = a + b;
      break;
    case Op::Sub:
      x[d.rd] = a - b;
      break;
    case Op::Sll:
      x[d.rd] = a << (b & 63);
      break;
    case Op::Slt:
      x[d.rd] = static_cast<int64_t>(a) < static_cast<int64_t>(b);
      break;
    case Op::Sltu:
      x[d.rd] = a < b;
      break;
    case Op::Xor:
      x[d.rd] = a ^ b;
      break;
    case Op::Srl:
      x[d.rd] = a >> (b & 63);
      break;
    case Op::Sra:
      x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63));
      break;
    case Op::Or:
      x[d.rd] = a | b;
      break;
    case Op::And:
      x[d.rd] = a & b;
      break;
    case Op::Addiw:
      x[d.rd] = sext32(a + d.imm);
      break;
    case Op::Slliw:
      x[d.rd] = sext32(a << d.imm);
      break;
    case Op::Srliw:
      x[d.rd] = sext32(static_cast<uint32_t>(a) >> d.imm);
      break;
    case Op::Sraiw:
      x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a) >> d.imm));
      break;
    case Op::Addw:
      x[d.rd] = sext32(a + b);
      break;
    case Op::Subw:
      x[d.rd] = sext32(a - b);
      break;
    case Op::Sllw:
      x[d.rd] = sext32(a << (b & 31));
      break;
    case Op::Srlw:
      x[d.rd] = sext32(static_cast<uint32_t>(a) >> (b & 31));
      break;
    case Op::Sraw:
      x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a) >> (b & 31)));
      break;
    case Op::Fence:
      std::atomic_thread_fence(std::memory_order_seq_cst);
      break;
    case Op::FenceI: // code is decoded once and never written
      break;
    case Op::Ecall:
      state_.pc = next; // resumes after the call
      result.cause = StopCause::EnvironmentCall;
      result.pc = pc;
      ++retired;
      state_.instret += retired;
      result.instructionsRetired = retired;
      state_.fcsr = (frm << 5) | fflags | env.takeFlags();
      return result;
    case Op::Ebreak:
      stopped = stop(StopCause::Breakpoint);
      break;
    case Op::Csrrw:
    case Op::Csrrs:
    case Op::Csrrc:
    case Op::Csrrwi:
    case Op::Csrrsi:
    case Op::Csrrci: {
      const bool immediate = d.op >= Op::Csrrwi;
      const uint64_t operand = immediate ? d.rs1 : a;
      const bool writes = d.op == Op::Csrrw || d.op == Op::Csrrwi || d.rs1 != 0;
      const uint32_t csr = static_cast<uint32_t>(d.imm);
      fflags |= env.takeFlags();
      uint64_t old;
      switch (csr) {
      case kFflags:
        old = fflags;
        break;
      case kFrm:
        old = frm;
        break;
      case kFcsr:
        old = (frm << 5) | fflags;
        break;
      case kCycle:
      case kTime:
      case kInstret:
        old = state_.instret + retired;
        break;
      default:
        stopped = stop(StopCause::IllegalInstruction);
        break;
      }
      if (stopped)
        break;
      if (writes && (csr == kCycle || csr == kTime || csr == kInstret)) {
        stopped = stop(StopCause::IllegalInstruction); // read-only counters
        break;
      }
      if (writes) {
        uint64_t value = d.op == Op::Csrrw || d.op == Op::Csrrwi ? operand
                         : d.op == Op::Csrrs || d.op == Op::Csrrsi ? old | operand
                                                                     : old & ~operand;
        if (csr == kFflags) {
          fflags = value & 0x1f;
        } else if (csr == kFrm) {
          frm = value & 7;
        } else {
          fflags = value & 0x1f;
          frm = (value >> 5) & 7;
        }
        env.setMode(frm <= RMM ? frm : RNE);
      }
      x[d.rd] = old;
      break;
    }
    // ---- M
    case Op::Mul:
      x[d.rd] = a * b;
      break;
    case Op::Mulh:
      x[d.rd] = mulhSigned(static_cast<int64_t>(a), static_cast<int64_t>(b));
      break;
    case Op::Mulhsu:
      x[d.rd] = mulhSignedUnsigned(static_cast<int64_t>(a), b);
      break;
    case Op::Mulhu:
      x[d.rd] = mulhUnsigned(a, b);
      break;
    case Op::Div:
      x[d.rd] = static_cast<uint64_t>(divide(static_cast<int64_t>(a), static_cast<int64_t>(b)));
      break;
    case Op::Divu:
      x[d.rd] = divide(a, b);
      break;
    case Op::Rem:
      x[d.rd] = static_cast<uint64_t>(remainder(static_cast<int64_t>(a), static_cast<int64_t>(b)));
      break;
    case Op::Remu:
      x[d.rd] = remainder(a, b);
      break;
    case Op::Mulw:
      x[d.rd] = sext32(a * b);
      break;
    case Op::Divw:
      x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(divide(static_cast<int32_t>(a), static_cast<int32_t>(b))));
      break;
    case Op::Divuw:
      x[d.rd] = sext32(divide(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
      break;
    case Op::Remw:
      x[d.rd] =
          static_cast<uint64_t>(static_cast<int64_t>(remainder(static_cast<int32_t>(a), static_cast<int32_t>(b))));
      break;
    case Op::Remuw:
      x[d.rd] = sext32(remainder(static_cast<uint32_t>(a), static_cast<uint32_t>(b)));
      break;
    // ---- A
#define POLYMUX_ATOMICS(W, TYPE, EXTEND)                                                                               \
  case Op::Lr##W: {                                                                                                    \
    TYPE *target = atomicTarget<TYPE>(a, result);                                                                      \
    if (!target) {                                                                                                     \
      stopped = true;                                                                                                  \
      break;                                                                                                           \
    }                                                                                                                  \
    TYPE value = std::atomic_ref<TYPE>(*target).load(std::memory_order_seq_cst);                                      \
    reserved_ = true;                                                                                                  \
    reservedAddress_ = a;                                                                                              \
    reservedValue_ = value;                                                                                            \
    x[d.rd] = EXTEND(value);                                                                                           \
    break;                                                                                                             \
  }                                                                                                                    \
  case Op::Sc##W: {                                                                                                    \
    TYPE *target = atomicTarget<TYPE>(a, result);                                                                      \
    if (!target) {                                                                                                     \
      stopped = true;                                                                                                  \
      break;                                                                                                           \
    }                                                                                                                  \
    TYPE expected = static_cast<TYPE>(reservedValue_);                                                                 \
    bool success = reserved_ && reservedAddress_ == a &&                                                               \
                   std::atomic_ref<TYPE>(*target).compare_exchange_strong(expected, static_cast<TYPE>(b),            \
                                                                          std::memory_order_seq_cst);                 \
    reserved_ = false;                                                                                                 \
    x[d.rd] = success ? 0 : 1;                                                                                         \
    break;                                                                                                             \
  }                                                                                                                    \
  case Op::Amoswap##W:                                                                                                 \
  case Op::Amoadd##W:                                                                                                  \
  case Op::Amoxor##W:                                                                                                  \
  case Op::Amoand##W:                                                                                                  \
  case Op::Amoor##W:                                                                                                   \
  case Op::Amomin##W:                                                                                                  \
  case Op::Amomax##W:                                                                                                  \
  case Op::Amominu##W:                                                                                                 \
  case Op::Amomaxu##W: {                                                                                               \
    TYPE *target = atomicTarget<TYPE>(a, result);                                                                      \
    if (!target) {                                                                                                     \
      stopped = true;                                                                                                  \
      break;                                                                                                           \
    }                                                                                                                  \
    std::atomic_ref<TYPE> cell(*target);                                                                               \
    using Signed = std::make_signed_t<TYPE>;                                                                           \
    const TYPE operand = static_cast<TYPE>(b);                                                                         \
    TYPE old = cell.load(std::memory_order_relaxed);                                                                   \
    TYPE desired;                                                                                                      \
    do {                                                                                                               \
      switch (d.op) {                                                                                                  \
      case Op::Amoswap##W: desired = operand; break;                                                                   \
      case Op::Amoadd##W: desired = old + operand; break;                                                              \
      case Op::Amoxor##W: desired = old ^ operand; break;                                                              \
      case Op::Amoand##W: desired = old & operand; break;                                                              \
      case Op::Amoor##W: desired = old | operand; break;                                                               \
      case Op::Amomin##W: desired = static_cast<Signed>(old) < static_cast<Signed>(operand) ? old : operand; break;    \
      case Op::Amomax##W: desired = static_cast<Signed>(old) > static_cast<Signed>(operand) ? old : operand; break;    \
      case Op::Amominu##W: desired = old < operand ? old : operand; break;                                             \
      default: desired = old > operand ? old : operand; break;                                                         \
      }                                                                                                                \
    } while (!cell.compare_exchange_weak(old, desired, std::memory_order_seq_cst));                                    \
    x[d.rd] = EXTEND(old);                                                                                             \
    break;                                                                                                             \
  }
      POLYMUX_ATOMICS(W, uint32_t, sext32)
      POLYMUX_ATOMICS(D, uint64_t, static_cast<uint64_t>)
#undef POLYMUX_ATOMICS
    default: {
      // ---- F and D
      stopped = !executeFloatingPoint(d, x, f, fflags, frm, env);
      if (stopped)
        result.cause = StopCause::IllegalInstruction;
      break;
    }
    }

    if (stopped)
      break;
    x[0] = 0;
    pc = next;
    ++retired;
  }

  x[0] = 0;
  state_.pc = pc;
  state_.instret += retired;
  state_.fcsr = (frm << 5) | fflags | env.takeFlags();
  result.pc = pc;
  result.instructionsRetired = retired;
  if (result.cause != StopCause::Returned && result.cause != StopCause::InstructionLimit) {
    result.instruction = program_.rawAt(pc);
    if (const Decoded *instruction = program_.at(pc); instruction && instruction->op != Op::Illegal)
      result.mnemonic = mnemonic(instruction->op);
  }
  return result;
}

} // namespace riscv_sim
