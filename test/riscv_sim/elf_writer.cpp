#include "elf_writer.h"

#include <cstring>

namespace riscv_sim::sim::test {
namespace {

template <class T> void put(std::vector<uint8_t> &out, size_t offset, T value) {
  std::memcpy(out.data() + offset, &value, sizeof value);
}

} // namespace

std::vector<uint8_t> writeElf(const std::vector<uint8_t> &image, uint64_t loadAddress, uint64_t entry,
                              uint64_t memorySize) {
  std::vector<uint8_t> out = image;
  if (out.size() < elfHeaderSize)
    out.resize(elfHeaderSize);
  const uint8_t identification[16] = {0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little endian */, 1 /* version */};
  std::memcpy(out.data(), identification, sizeof identification);
  put<uint16_t>(out, 16, 2);     // e_type: executable
  put<uint16_t>(out, 18, 243);   // e_machine: RISC-V
  put<uint32_t>(out, 20, 1);     // e_version
  put<uint64_t>(out, 24, entry); // e_entry
  put<uint64_t>(out, 32, 64);    // e_phoff
  put<uint64_t>(out, 40, 0);     // e_shoff
  put<uint32_t>(out, 48, 0x5);   // e_flags: RVC, double-float ABI
  put<uint16_t>(out, 52, 64);    // e_ehsize
  put<uint16_t>(out, 54, 56);    // e_phentsize
  put<uint16_t>(out, 56, 1);     // e_phnum
  put<uint16_t>(out, 58, 64);    // e_shentsize
  put<uint16_t>(out, 60, 0);     // e_shnum
  put<uint16_t>(out, 62, 0);     // e_shstrndx
  size_t ph = 64;
  put<uint32_t>(out, ph + 0, 1); // PT_LOAD
  put<uint32_t>(out, ph + 4, 7); // PF_R | PF_W | PF_X
  put<uint64_t>(out, ph + 8, 0); // p_offset
  put<uint64_t>(out, ph + 16, loadAddress);
  put<uint64_t>(out, ph + 24, loadAddress);
  put<uint64_t>(out, ph + 32, out.size());
  put<uint64_t>(out, ph + 40, memorySize < out.size() ? out.size() : memorySize);
  put<uint64_t>(out, ph + 48, 0x1000); // p_align
  return out;
}

} // namespace riscv_sim::sim::test
