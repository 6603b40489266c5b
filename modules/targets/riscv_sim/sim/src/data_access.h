// Translation of guest data addresses to host pointers, with a two-entry
// cache of recently used regions per access kind so that the common case
// is one subtraction and one comparison.
#pragma once

#include "riscv_sim/address_space.h"

#include <cstddef>
#include <cstdint>

namespace riscv_sim::sim {

class DataAccess {
public:
  explicit DataAccess(const AddressSpace &memory) : memory_(memory) {}

  /// Host address of [address, address + size) if readable, else null.
  std::byte *forLoad(uint64_t address, unsigned size) { return lookup(loads_, address, size, Read); }
  /// Host address of [address, address + size) if writable, else null.
  std::byte *forStore(uint64_t address, unsigned size) { return lookup(stores_, address, size, Write); }
  /// Host address for an AMO: readable and writable.
  std::byte *forReadWrite(uint64_t address, unsigned size) { return lookup(stores_, address, size, Read | Write); }

  /// Forgets the cached regions (after the address space changed).
  void reset() { loads_ = stores_ = {}; }

private:
  struct Window {
    uint64_t base = 0;
    uint64_t limit = 0; ///< accesses of up to 8 bytes at offsets below limit fit
    std::byte *host = nullptr;
  };
  struct Cache {
    Window recent[2];
  };

  std::byte *lookup(Cache &cache, uint64_t address, unsigned size, uint8_t permissions) {
    uint64_t offset = address - cache.recent[0].base;
    if (offset < cache.recent[0].limit) [[likely]]
      return cache.recent[0].host + offset;
    offset = address - cache.recent[1].base;
    if (offset < cache.recent[1].limit)
      return cache.recent[1].host + offset;
    return miss(cache, address, size, permissions);
  }
  std::byte *miss(Cache &cache, uint64_t address, unsigned size, uint8_t permissions);

  const AddressSpace &memory_;
  Cache loads_, stores_;
};

} // namespace riscv_sim::sim
