// Code decoded once: every 2-byte aligned position of an executable region,
// so the hart never decodes while it runs. Immutable after construction and
// shared by every hart that runs the program.
#pragma once

#include "rv_interp/decoder.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace riscv_sim {

class DecodedProgram {
public:
  /// Decodes [base, base + size) whose bytes are at `code`.
  DecodedProgram(uint64_t base, const std::byte *code, uint64_t size);

  uint64_t base() const { return base_; }
  uint64_t size() const { return static_cast<uint64_t>(decoded_.size()) * 2; }
  /// The instruction at `pc`, or null outside the program or at an odd pc.
  const Decoded *at(uint64_t pc) const {
    uint64_t index = (pc - base_) >> 1;
    return (pc & 1) == 0 && index < decoded_.size() ? &decoded_[index] : nullptr;
  }
  const Decoded *data() const { return decoded_.data(); }
  /// The raw bits at `pc` (16 or 32 of them), for trap reports.
  uint32_t rawAt(uint64_t pc) const;

private:
  uint64_t base_;
  std::vector<Decoded> decoded_;
  std::vector<uint16_t> halves_;
};

} // namespace riscv_sim
