#include "rv_interp/address_space.h"

namespace riscv_sim {

bool AddressSpace::map(Region region) {
  if (region.size == 0 || region.base + region.size < region.base)
    return false;
  for (const Region &existing : regions_)
    if (region.base < existing.base + existing.size && existing.base < region.base + region.size)
      return false;
  regions_.push_back(std::move(region));
  return true;
}

const Region *AddressSpace::find(uint64_t address, uint64_t bytes, uint8_t permissions) const {
  for (const Region &region : regions_)
    if (region.contains(address, bytes))
      return (region.permissions & permissions) == permissions ? &region : nullptr;
  return nullptr;
}

const Region *AddressSpace::regionOf(uint64_t address) const {
  for (const Region &region : regions_)
    if (region.contains(address, 1))
      return &region;
  return nullptr;
}

} // namespace riscv_sim
