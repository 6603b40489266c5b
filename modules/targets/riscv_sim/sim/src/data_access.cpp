#include "data_access.h"

namespace riscv_sim::sim {

std::byte *DataAccess::miss(Cache &cache, uint64_t address, unsigned size, uint8_t permissions) {
  const Region *region = memory_.find(address, size);
  if (!region || (region->permissions & permissions) != permissions)
    return nullptr;
  // Store windows serve AMOs too, so they only hold read-write regions.
  bool cacheable = region->size >= 8 && (&cache == &loads_ || (region->permissions & (Read | Write)) == (Read | Write));
  if (cacheable) {
    cache.recent[1] = cache.recent[0];
    cache.recent[0] = {region->base, region->size - 7, region->host};
  }
  return region->host + (address - region->base);
}

} // namespace riscv_sim::sim
