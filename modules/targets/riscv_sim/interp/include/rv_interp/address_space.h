// The guest memory a hart sees: a few non-overlapping regions of guest
// addresses, each backed by host memory its owner keeps alive (a device's
// DRAM window, a hart's local memory, a program's segments).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace riscv_sim {

enum Permission : uint8_t { Read = 1, Write = 2, Execute = 4 };

struct Region {
  uint64_t base = 0;
  uint64_t size = 0;
  std::byte *host = nullptr;
  uint8_t permissions = 0;
  std::string name; ///< for trap reports ("DRAM", "local memory", ...)

  bool contains(uint64_t address, uint64_t bytes) const {
    uint64_t offset = address - base;
    return offset < size && size - offset >= bytes;
  }
};

class AddressSpace {
public:
  /// Adds `region`; false (and nothing added) when it is empty or overlaps
  /// one already mapped.
  bool map(Region region);
  /// The region holding [address, address + bytes) with every bit of
  /// `permissions`, or null.
  const Region *find(uint64_t address, uint64_t bytes, uint8_t permissions) const;
  /// The region holding `address` whatever its permissions, or null.
  const Region *regionOf(uint64_t address) const;
  const std::vector<Region> &regions() const { return regions_; }

private:
  std::vector<Region> regions_;
};

} // namespace riscv_sim
