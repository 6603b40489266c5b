// The F/D operations in rounding mode RMM: computed in RNE, then moved one
// unit away from zero when the exact result was a midpoint.
#include "execution.h"
#include "fp_nearest_max_magnitude.h"
#include "fp_ops.h"

namespace riscv_sim::sim {
namespace {

using fp::ExactTerm;
using fp::exactValue;
using fp::negated;
using fp::product;
using fp::sumIsZero;

/// Runs `compute` in RNE with the host flags cleared; returns its result
/// and whether the host found it inexact.
template <class Compute> auto inNearestEven(fp::Environment &env, Compute compute) {
  env.setRounding(RoundNearestEven);
  env.clearHostFlags();
  auto result = compute();
  return std::pair{result, env.hostInexact()};
}

template <class Float> void arithmetic(const DecodedInstruction &d, uint64_t *f, fp::Environment &env) {
  using Bits = fp::BitsOf<Float>;
  Bits a = fp::fromRegister<Float>(f[d.rs1]), b = fp::fromRegister<Float>(f[d.rs2]);
  ExactTerm ea = exactValue<Float>(a), eb = exactValue<Float>(b);
  Bits result = 0;
  switch (d.op) {
  case Opcode::FaddS:
  case Opcode::FaddD: {
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::add<Float>(a, b); });
    result = fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) { return sumIsZero({ea, eb, negated(m)}); });
    break;
  }
  case Opcode::FsubS:
  case Opcode::FsubD: {
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::subtract<Float>(a, b); });
    result = fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
      return sumIsZero({ea, negated(eb), negated(m)});
    });
    break;
  }
  case Opcode::FmulS:
  case Opcode::FmulD: {
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::multiply<Float>(a, b); });
    result = fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
      return sumIsZero({product(ea, eb), negated(m)});
    });
    break;
  }
  case Opcode::FdivS:
  case Opcode::FdivD: {
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::divide<Float>(a, b); });
    result = fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
      return sumIsZero({ea, negated(product(m, eb))});
    });
    break;
  }
  default: { // square root
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::squareRoot<Float>(a); });
    result = fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
      return sumIsZero({ea, negated(product(m, m))});
    });
    break;
  }
  }
  f[d.rd] = fp::toRegister(result);
}

template <class Float>
void fused(const DecodedInstruction &d, uint64_t *f, fp::Environment &env, bool negateProduct, bool negateAddend) {
  using Bits = fp::BitsOf<Float>;
  Bits a = fp::fromRegister<Float>(f[d.rs1]), b = fp::fromRegister<Float>(f[d.rs2]);
  Bits c = fp::fromRegister<Float>(f[d.rs3]);
  if (negateProduct)
    a = fp::negate<Float>(a);
  if (negateAddend)
    c = fp::negate<Float>(c);
  auto [rne, inexact] = inNearestEven(env, [&] { return fp::fusedMultiplyAdd<Float>(env, a, b, c); });
  f[d.rd] = fp::toRegister(fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
    return sumIsZero({product(exactValue<Float>(a), exactValue<Float>(b)), exactValue<Float>(c), negated(m)});
  }));
}

template <class Float, class Integer>
void fromInteger(const DecodedInstruction &d, const uint64_t *x, uint64_t *f, fp::Environment &env) {
  Integer value = static_cast<Integer>(x[d.rs1]);
  bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  auto [rne, inexact] = inNearestEven(env, [&] { return fp::fromInteger<Float, Integer>(x[d.rs1]); });
  f[d.rd] = fp::toRegister(fp::nearestMaxMagnitude<Float>(rne, inexact, [&](ExactTerm m) {
    return sumIsZero({exactValue(magnitude, negative), negated(m)});
  }));
}

} // namespace

void executeNearestMaxMagnitude(const DecodedInstruction &d, const uint64_t *x, uint64_t *f, fp::Environment &env) {
  switch (d.op) {
  case Opcode::FaddS:
  case Opcode::FsubS:
  case Opcode::FmulS:
  case Opcode::FdivS:
  case Opcode::FsqrtS:
    arithmetic<float>(d, f, env);
    return;
  case Opcode::FaddD:
  case Opcode::FsubD:
  case Opcode::FmulD:
  case Opcode::FdivD:
  case Opcode::FsqrtD:
    arithmetic<double>(d, f, env);
    return;
  case Opcode::FmaddS:
    fused<float>(d, f, env, false, false);
    return;
  case Opcode::FmsubS:
    fused<float>(d, f, env, false, true);
    return;
  case Opcode::FnmsubS:
    fused<float>(d, f, env, true, false);
    return;
  case Opcode::FnmaddS:
    fused<float>(d, f, env, true, true);
    return;
  case Opcode::FmaddD:
    fused<double>(d, f, env, false, false);
    return;
  case Opcode::FmsubD:
    fused<double>(d, f, env, false, true);
    return;
  case Opcode::FnmsubD:
    fused<double>(d, f, env, true, false);
    return;
  case Opcode::FnmaddD:
    fused<double>(d, f, env, true, true);
    return;
  case Opcode::FcvtSW:
    fromInteger<float, int32_t>(d, x, f, env);
    return;
  case Opcode::FcvtSWu:
    fromInteger<float, uint32_t>(d, x, f, env);
    return;
  case Opcode::FcvtSL:
    fromInteger<float, int64_t>(d, x, f, env);
    return;
  case Opcode::FcvtSLu:
    fromInteger<float, uint64_t>(d, x, f, env);
    return;
  case Opcode::FcvtDL:
    fromInteger<double, int64_t>(d, x, f, env);
    return;
  case Opcode::FcvtDLu:
    fromInteger<double, uint64_t>(d, x, f, env);
    return;
  case Opcode::FcvtSD: {
    uint64_t a = f[d.rs1];
    auto [rne, inexact] = inNearestEven(env, [&] { return fp::narrow(a); });
    f[d.rd] = fp::box(fp::nearestMaxMagnitude<float>(rne, inexact, [&](ExactTerm m) {
      return sumIsZero({exactValue<double>(a), negated(m)});
    }));
    return;
  }
  default:
    return; // the caller only passes the operations above
  }
}

} // namespace riscv_sim::sim
