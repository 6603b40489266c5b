#include "rv_interp/program.h"

#include <cstring>

namespace riscv_sim {

DecodedProgram::DecodedProgram(uint64_t base, const std::byte *code, uint64_t size) : base_(base) {
  halves_.resize(size / 2);
  std::memcpy(halves_.data(), code, halves_.size() * 2);
  decoded_.reserve(halves_.size());
  for (size_t i = 0; i < halves_.size(); ++i) {
    uint16_t high = i + 1 < halves_.size() ? halves_[i + 1] : 0;
    Decoded instruction = decode(halves_[i], high);
    // A 32-bit instruction cut off by the end of the region cannot run.
    if (instruction.length == 4 && i + 1 >= halves_.size())
      instruction = Decoded{Op::Illegal, 0, 0, 0, 0, 0, 4, 0};
    decoded_.push_back(instruction);
  }
}

uint32_t DecodedProgram::rawAt(uint64_t pc) const {
  const Decoded *instruction = at(pc);
  if (!instruction)
    return 0;
  size_t index = (pc - base_) >> 1;
  uint32_t raw = halves_[index];
  if ((raw & 3) == 3 && index + 1 < halves_.size())
    raw |= static_cast<uint32_t>(halves_[index + 1]) << 16;
  return raw;
}

} // namespace riscv_sim
