#include "fp_execute.h"

#include "fp_ops.h"

namespace riscv_sim {
namespace {

/// Keeps the compiler from moving floating-point work across a change of
/// the host's rounding mode (it does not model that state).
template <typename T> inline void pin(T &value) { asm volatile("" : "+x"(value)); }

/// Runs `operation` with the host in `mode` (not RMM).
template <typename F> auto inMode(uint8_t mode, HostFpEnvironment &env, F operation) {
  if (mode == env.mode() || (mode == RNE && env.mode() == RMM))
    return operation();
  uint8_t previous = env.mode();
  env.setMode(mode);
  auto result = operation();
  pin(result);
  env.setMode(previous);
  return result;
}

template <typename T> bool executeTyped(const Decoded &d, uint64_t *x, uint64_t *f, uint32_t &fflags, uint8_t mode,
                                        HostFpEnvironment &env) {
  T a = fp::read<T>(f[d.rs1]), b = fp::read<T>(f[d.rs2]), c = fp::read<T>(f[d.rs3]);
  pin(a);
  pin(b);
  pin(c);
  using Bits = typename fp::Traits<T>::Bits;
  constexpr Bits kSign = Bits(1) << (sizeof(T) * 8 - 1);
  auto bitsOf = [](T value) { return std::bit_cast<Bits>(value); };
  auto binary = [&](auto operation, auto rmm) {
    T result = mode == RMM ? rmm() : inMode(mode, env, operation);
    f[d.rd] = fp::writeResult(result);
  };
  auto fused = [&](T multiplier, T addend) {
    if ((std::isinf(a) && b == 0) || (a == 0 && std::isinf(b)))
      fflags |= NV; // even when the addend is a quiet NaN
    T result = inMode(mode == RMM ? RNE : mode, env, [&] { return std::fma(multiplier, b, addend); });
    f[d.rd] = fp::writeResult(result);
  };
  switch (d.op) {
  case Op::FaddS:
  case Op::FaddD:
    binary([&] { return a + b; }, [&] { return fp::addRmm(a, b); });
    break;
  case Op::FsubS:
  case Op::FsubD:
    binary([&] { return a - b; }, [&] { return fp::addRmm(a, -b); });
    break;
  case Op::FmulS:
  case Op::FmulD:
    binary([&] { return a * b; }, [&] { return fp::mulRmm(a, b); });
    break;
  case Op::FdivS:
  case Op::FdivD:
    binary([&] { return a / b; }, [&] { return fp::divRmm(a, b); });
    break;
  case Op::FsqrtS:
  case Op::FsqrtD: // a square root is never exactly halfway: RMM is RNE
    f[d.rd] = fp::writeResult(inMode(mode == RMM ? RNE : mode, env, [&] { return std::sqrt(a); }));
    break;
  case Op::FmaddS:
  case Op::FmaddD:
    fused(a, c);
    break;
  case Op::FmsubS:
  case Op::FmsubD:
    fused(a, -c);
    break;
  case Op::FnmsubS:
  case Op::FnmsubD:
    fused(-a, c);
    break;
  case Op::FnmaddS:
  case Op::FnmaddD:
    fused(-a, -c);
    break;
  case Op::FsgnjS:
  case Op::FsgnjD:
    f[d.rd] = fp::write(std::bit_cast<T>((bitsOf(a) & ~kSign) | (bitsOf(b) & kSign)));
    break;
  case Op::FsgnjnS:
  case Op::FsgnjnD:
    f[d.rd] = fp::write(std::bit_cast<T>((bitsOf(a) & ~kSign) | (~bitsOf(b) & kSign)));
    break;
  case Op::FsgnjxS:
  case Op::FsgnjxD:
    f[d.rd] = fp::write(std::bit_cast<T>(bitsOf(a) ^ (bitsOf(b) & kSign)));
    break;
  case Op::FminS:
  case Op::FminD:
    f[d.rd] = fp::write(fp::minMax(a, b, false, fflags));
    break;
  case Op::FmaxS:
  case Op::FmaxD:
    f[d.rd] = fp::write(fp::minMax(a, b, true, fflags));
    break;
  case Op::FcvtWS:
  case Op::FcvtWD:
    x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(fp::toInteger<int32_t>(a, mode, fflags)));
    break;
  case Op::FcvtWuS:
  case Op::FcvtWuD:
    x[d.rd] = static_cast<uint64_t>(
        static_cast<int64_t>(static_cast<int32_t>(fp::toInteger<uint32_t>(a, mode, fflags))));
    break;
  case Op::FcvtLS:
  case Op::FcvtLD:
    x[d.rd] = static_cast<uint64_t>(fp::toInteger<int64_t>(a, mode, fflags));
    break;
  case Op::FcvtLuS:
  case Op::FcvtLuD:
    x[d.rd] = fp::toInteger<uint64_t>(a, mode, fflags);
    break;
  case Op::FeqS:
  case Op::FeqD:
    x[d.rd] = fp::equal(a, b, fflags);
    break;
  case Op::FltS:
  case Op::FltD:
    x[d.rd] = fp::less(a, b, false, fflags);
    break;
  case Op::FleS:
  case Op::FleD:
    x[d.rd] = fp::less(a, b, true, fflags);
    break;
  case Op::FclassS:
  case Op::FclassD:
    x[d.rd] = fp::classify(a);
    break;
  case Op::FcvtSW:
  case Op::FcvtDW:
    f[d.rd] = fp::write(fp::fromInteger<T>(static_cast<int32_t>(x[d.rs1]), mode, env));
    break;
  case Op::FcvtSWu:
  case Op::FcvtDWu:
    f[d.rd] = fp::write(fp::fromInteger<T>(static_cast<uint32_t>(x[d.rs1]), mode, env));
    break;
  case Op::FcvtSL:
  case Op::FcvtDL:
    f[d.rd] = fp::write(fp::fromInteger<T>(static_cast<int64_t>(x[d.rs1]), mode, env));
    break;
  case Op::FcvtSLu:
  case Op::FcvtDLu:
    f[d.rd] = fp::write(fp::fromInteger<T>(x[d.rs1], mode, env));
    break;
  default:
    return false;
  }
  return true;
}

/// Whether `op` has a rounding mode field (dynamic means frm).
bool usesRoundingMode(Op op) {
  switch (op) {
  case Op::FsgnjS: case Op::FsgnjnS: case Op::FsgnjxS: case Op::FminS: case Op::FmaxS: case Op::FmvXW:
  case Op::FeqS: case Op::FltS: case Op::FleS: case Op::FclassS: case Op::FmvWX:
  case Op::FsgnjD: case Op::FsgnjnD: case Op::FsgnjxD: case Op::FminD: case Op::FmaxD: case Op::FmvXD:
  case Op::FeqD: case Op::FltD: case Op::FleD: case Op::FclassD: case Op::FmvDX:
    return false;
  default:
    return true;
  }
}

bool isDouble(Op op) { return op >= Op::Fld; }

} // namespace

bool executeFloatingPoint(const Decoded &d, uint64_t *x, uint64_t *f, uint32_t &fflags, uint8_t frm,
                          HostFpEnvironment &env) {
  uint8_t mode = RNE;
  if (usesRoundingMode(d.op)) {
    mode = d.rm == DYN ? frm : d.rm;
    if (mode > RMM)
      return false;
  }
  switch (d.op) {
  case Op::FmvXW:
    x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(f[d.rs1])));
    return true;
  case Op::FmvWX:
    f[d.rd] = fp::kBoxMask | static_cast<uint32_t>(x[d.rs1]);
    return true;
  case Op::FmvXD:
    x[d.rd] = f[d.rs1];
    return true;
  case Op::FmvDX:
    f[d.rd] = x[d.rs1];
    return true;
  case Op::FcvtSD: {
    double value = fp::read<double>(f[d.rs1]);
    pin(value);
    float result = fp::narrow(value, mode, env);
    pin(result);
    f[d.rd] = fp::writeResult(result);
    return true;
  }
  case Op::FcvtDS: {
    float value = fp::read<float>(f[d.rs1]);
    pin(value);
    double result = value;
    pin(result);
    f[d.rd] = fp::writeResult(result);
    return true;
  }
  default:
    return isDouble(d.op) ? executeTyped<double>(d, x, f, fflags, mode, env)
                          : executeTyped<float>(d, x, f, fflags, mode, env);
  }
}

} // namespace riscv_sim
