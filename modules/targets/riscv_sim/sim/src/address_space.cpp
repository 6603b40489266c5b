#include "riscv_sim/address_space.h"
#include "riscv_sim/decoded_code.h"

namespace riscv_sim::sim {

AddressSpace::AddressSpace() = default;
AddressSpace::~AddressSpace() = default;
AddressSpace::AddressSpace(AddressSpace &&) noexcept = default;
AddressSpace &AddressSpace::operator=(AddressSpace &&) noexcept = default;

bool AddressSpace::map(Region region, std::shared_ptr<const DecodedCode> code) {
  if (region.size == 0 || region.host == nullptr || region.base + region.size - 1 < region.base)
    return false;
  for (const Region &other : regions_)
    if (region.base <= other.base + (other.size - 1) && other.base <= region.base + (region.size - 1))
      return false;
  if (!(region.permissions & Execute) || (code && (code->base() != region.base || code->size() != region.size)))
    code = nullptr;
  regions_.push_back(std::move(region));
  code_.push_back(std::move(code));
  return true;
}

const Region *AddressSpace::find(uint64_t address, uint64_t length) const {
  for (const Region &region : regions_)
    if (region.contains(address, length))
      return &region;
  return nullptr;
}

std::shared_ptr<const DecodedCode> AddressSpace::codeAt(uint64_t address) {
  for (size_t i = 0; i < regions_.size(); ++i) {
    if (!(regions_[i].permissions & Execute) || !regions_[i].contains(address))
      continue;
    if (!code_[i])
      code_[i] = DecodedCode::decode(regions_[i]);
    return code_[i];
  }
  return nullptr;
}

void AddressSpace::invalidateCode() {
  for (auto &code : code_)
    code = nullptr;
}

} // namespace riscv_sim::sim
