#include "mux/support/name_uuid.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA1.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace mux::support {

namespace {

/// Polymux's namespace UUID for device names (itself the version-5 UUID of
/// "polymux.devices" in the DNS namespace of RFC 9562). Changing it changes
/// every device's identity.
constexpr std::array<uint8_t, 16> kDeviceNamespace = {0x4f, 0xfb, 0xec, 0x39, 0x3d, 0x2b, 0x59, 0xdd,
                                                      0xb0, 0x9c, 0xb2, 0x05, 0xd8, 0x51, 0xde, 0xb1};

} // namespace

std::array<uint8_t, 16> nameBasedUuid(std::string_view name) {
  llvm::SHA1 hash;
  hash.update(llvm::ArrayRef<uint8_t>(kDeviceNamespace));
  hash.update(llvm::StringRef(name.data(), name.size()));
  std::array<uint8_t, 20> digest = hash.final();
  std::array<uint8_t, 16> uuid{};
  std::copy_n(digest.begin(), uuid.size(), uuid.begin());
  uuid[6] = static_cast<uint8_t>((uuid[6] & 0x0f) | 0x50); // version 5
  uuid[8] = static_cast<uint8_t>((uuid[8] & 0x3f) | 0x80); // RFC 9562 variant
  return uuid;
}

void makeUuidsDistinct(std::span<std::array<uint8_t, 16>> uuids) {
  const std::vector<std::array<uint8_t, 16>> reported(uuids.begin(), uuids.end());
  for (size_t i = 1; i < uuids.size(); ++i) {
    size_t earlier = std::count(reported.begin(), reported.begin() + i, reported[i]);
    if (earlier == 0)
      continue;
    std::string name;
    char digits[3];
    for (uint8_t byte : uuids[i]) {
      std::snprintf(digits, sizeof digits, "%02x", byte);
      name += digits;
    }
    uuids[i] = nameBasedUuid(name + " #" + std::to_string(earlier));
  }
}

} // namespace mux::support
