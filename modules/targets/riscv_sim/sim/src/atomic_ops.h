// The A extension on host memory shared with harts on other host threads:
// each AMO is one std::atomic_ref operation (or a compare-exchange loop for
// min/max) with the memory order named by its aq/rl bits.
#pragma once

#include "riscv_sim/decoder.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace riscv_sim::sim::atomic {

enum class Operation { Swap, Add, Xor, And, Or, Min, Max, MinUnsigned, MaxUnsigned };

/// aq = 2, rl = 1 (DecodedInstruction::rm).
constexpr std::memory_order order(uint8_t aqrl) {
  constexpr std::memory_order orders[4] = {std::memory_order_relaxed, std::memory_order_release,
                                           std::memory_order_acquire, std::memory_order_seq_cst};
  return orders[aqrl & 3];
}
/// Order for the load part of an LR or the failure of a compare-exchange.
constexpr std::memory_order loadOrder(uint8_t aqrl) {
  return (aqrl & 2) ? std::memory_order_acquire : std::memory_order_relaxed;
}

template <class T> std::atomic_ref<T> at(std::byte *host) { return std::atomic_ref<T>(*reinterpret_cast<T *>(host)); }

/// Applies `operation` with `operand` and returns the old value.
template <class T> T apply(std::byte *host, Operation operation, T operand, uint8_t aqrl) {
  using Signed = std::make_signed_t<T>;
  std::atomic_ref<T> target = at<T>(host);
  std::memory_order mo = order(aqrl);
  switch (operation) {
  case Operation::Swap:
    return target.exchange(operand, mo);
  case Operation::Add:
    return target.fetch_add(operand, mo);
  case Operation::Xor:
    return target.fetch_xor(operand, mo);
  case Operation::And:
    return target.fetch_and(operand, mo);
  case Operation::Or:
    return target.fetch_or(operand, mo);
  default:
    break;
  }
  T old = target.load(loadOrder(aqrl));
  for (;;) {
    T desired = old;
    switch (operation) {
    case Operation::Min:
      desired = static_cast<Signed>(operand) < static_cast<Signed>(old) ? operand : old;
      break;
    case Operation::Max:
      desired = static_cast<Signed>(operand) > static_cast<Signed>(old) ? operand : old;
      break;
    case Operation::MinUnsigned:
      desired = operand < old ? operand : old;
      break;
    default:
      desired = operand > old ? operand : old;
      break;
    }
    if (target.compare_exchange_weak(old, desired, mo, loadOrder(aqrl)))
      return old;
  }
}

} // namespace riscv_sim::sim::atomic
