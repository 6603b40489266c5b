#include "riscv_sim/decoded_code.h"

#include <cstring>

namespace riscv_sim::sim {

std::shared_ptr<const DecodedCode> DecodedCode::decode(const Region &region) {
  std::shared_ptr<DecodedCode> code(new DecodedCode(region.base, region.size));
  uint64_t halfwords = region.size / 2;
  code->entries_.resize(halfwords + 1);
  for (uint64_t i = 0; i < halfwords; ++i) {
    uint16_t low;
    std::memcpy(&low, region.host + 2 * i, 2);
    uint32_t bits = low;
    DecodedInstruction &entry = code->entries_[i];
    if (instructionLength(low) == 4) {
      if (i + 1 >= halfwords) {
        entry.op = Opcode::FetchFault;
        entry.raw = bits;
        continue;
      }
      uint16_t high;
      std::memcpy(&high, region.host + 2 * i + 2, 2);
      bits |= static_cast<uint32_t>(high) << 16;
    }
    entry = sim::decode(bits);
    if (entry.rd == 0 && writesIntegerRegister(entry.op))
      entry.rd = sinkRegister;
  }
  code->entries_[halfwords].op = Opcode::FetchFault;
  return code;
}

} // namespace riscv_sim::sim
