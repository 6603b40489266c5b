// Name-based UUIDs (RFC 9562 version 5) for devices whose identity is a
// description rather than a number the hardware reports.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace mux::support {

/// The version-5 UUID of `name` in Polymux's device namespace: the same
/// name gives the same UUID in every process, run and build; different
/// names give different UUIDs (SHA-1, truncated to 122 bits).
std::array<uint8_t, 16> nameBasedUuid(std::string_view name);

/// Makes the UUIDs of a platform's devices, in enumeration order, distinct:
/// the first device with a UUID keeps it, the k-th other device reporting
/// the same one (identical simulated devices, a driver that does not tell
/// two cards apart) gets nameBasedUuid("<uuid in hex> #k"). Stable as long
/// as the devices are enumerated in the same order.
void makeUuidsDistinct(std::span<std::array<uint8_t, 16>> uuids);

} // namespace mux::support
