// A hart's view of guest memory: a few non-overlapping regions, each backed
// by host memory that the caller owns and keeps alive while harts run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace riscv_sim::sim {

class DecodedCode;

enum Permission : uint8_t { Read = 1, Write = 2, Execute = 4 };

struct Region {
  uint64_t base = 0;
  uint64_t size = 0;
  std::byte *host = nullptr;
  uint8_t permissions = 0; ///< Permission bits
  std::string name;

  bool contains(uint64_t address, uint64_t length = 1) const {
    return address - base < size && size - (address - base) >= length;
  }
};

class AddressSpace {
public:
  AddressSpace();
  ~AddressSpace();
  AddressSpace(AddressSpace &&) noexcept;
  AddressSpace &operator=(AddressSpace &&) noexcept;

  /// Adds `region`. False (and no change) when it is empty, has no host
  /// memory, wraps around the end of the address space or overlaps a mapped
  /// region. For an executable region, `code` may give its decoded form
  /// (built once with DecodedCode::decode and shared by the harts that run
  /// the same program); otherwise it is decoded on first execution.
  bool map(Region region, std::shared_ptr<const DecodedCode> code = nullptr);

  /// The region holding all of [address, address + length), or null.
  const Region *find(uint64_t address, uint64_t length = 1) const;
  const std::vector<Region> &regions() const { return regions_; }

  /// The decoded form of the executable region holding `address` (decoding
  /// it now if needed), or null when no executable region holds it.
  std::shared_ptr<const DecodedCode> codeAt(uint64_t address);
  /// Forgets every decoded form (what fence.i asks for): the next execution
  /// decodes the current memory contents again.
  void invalidateCode();

private:
  std::vector<Region> regions_;
  std::vector<std::shared_ptr<const DecodedCode>> code_; ///< parallel to regions_
};

} // namespace riscv_sim::sim
