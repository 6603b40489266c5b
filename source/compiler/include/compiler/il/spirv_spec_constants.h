// Specialization constants of a SPIR-V module (clSetProgramSpecializationConstant):
// which ones it has, and the module with new default values, so that the
// translator reads the specialised module like any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace compiler::il {

/// SpecId -> size in bytes of the constant's type (1 for a bool), for every
/// OpSpecConstant, OpSpecConstantTrue and OpSpecConstantFalse with a SpecId
/// decoration. std::nullopt when `il` is not a readable SPIR-V module.
std::optional<std::map<uint32_t, size_t>> specConstantSizes(std::span<const std::byte> il);

/// `il` with the default of each constant in `values` (SpecId -> value bytes,
/// as many as specConstantSizes gives, little-endian words as the host
/// stores them) replaced; a bool is true when any byte is nonzero.
std::vector<std::byte> specialize(std::span<const std::byte> il,
                                  const std::map<uint32_t, std::vector<std::byte>> &values);

} // namespace compiler::il
