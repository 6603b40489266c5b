// The pre-decoded form of an executable region: one DecodedInstruction per
// halfword (instructions may start at any even address with the C
// extension), decoded once and read by the harts' dispatch loops.
#pragma once

#include "riscv_sim/address_space.h"
#include "riscv_sim/decoder.h"

#include <memory>
#include <vector>

namespace riscv_sim::sim {

class DecodedCode {
public:
  /// Decodes every halfword of `region`. Integer destinations x0 are
  /// redirected to a sink register (index 32) so that executing never needs
  /// to test for x0. An instruction that would run past the region's end
  /// decodes to FetchFault, as does the entry one past the end.
  static std::shared_ptr<const DecodedCode> decode(const Region &region);

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  /// Entry for the instruction at `address`, which must be inside.
  const DecodedInstruction *at(uint64_t address) const { return &entries_[(address - base_) >> 1]; }
  const DecodedInstruction *entries() const { return entries_.data(); }
  /// Replaces every `from` by `to` (fault injection: opcodes.def).
  void substitute(Opcode from, Opcode to) {
    for (DecodedInstruction &entry : entries_)
      if (entry.op == from)
        entry.op = to;
  }

  /// Index of the register that absorbs writes to x0.
  static constexpr uint8_t sinkRegister = 32;

private:
  DecodedCode(uint64_t base, uint64_t size) : base_(base), size_(size) {}
  uint64_t base_, size_;
  std::vector<DecodedInstruction> entries_;
};

} // namespace riscv_sim::sim
