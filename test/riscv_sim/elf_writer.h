// A minimal static ELF64 executable for Linux/RISC-V: one loadable,
// readable, writable and executable segment holding the whole image.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace riscv_sim::sim::test {

/// The image is loaded at `loadAddress` from file offset 0, so its first
/// 120 bytes are overwritten by the ELF and program headers: the caller
/// starts code and data beyond headerSize. `memorySize` (>= image size)
/// adds zero-filled memory after the image.
std::vector<uint8_t> writeElf(const std::vector<uint8_t> &image, uint64_t loadAddress, uint64_t entry,
                              uint64_t memorySize);

constexpr uint64_t elfHeaderSize = 64 + 56;

} // namespace riscv_sim::sim::test
