// Host computations of what each kernel of kernels.h writes, written
// independently of the kernels (no shared code path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stress::reference {

/// The multiplier and increment of kernels.h's `spin`.
inline constexpr uint32_t kSpinMultiplier = 1664525u, kSpinIncrement = 1013904223u;

/// x after `steps` steps of x <- x * a + c (mod 2^32), by composing the
/// affine map with itself (O(log steps)), not by running the loop.
uint32_t spin(uint32_t x, uint64_t steps);

std::vector<uint32_t> scaleAdd(const std::vector<uint32_t> &in, uint32_t a, uint32_t b);
/// `salted` of a program built with SCALE and SALT.
std::vector<uint32_t> salted(std::vector<uint32_t> data, uint32_t scale, uint32_t salt);
std::vector<uint32_t> reverseInGroups(const std::vector<uint32_t> &in, size_t group);

} // namespace stress::reference
