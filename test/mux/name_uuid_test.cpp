// Name-based device UUIDs: RFC 9562 version 5 in Polymux's namespace, so any
// tool (Python's uuid.uuid5 here) computes the same value from the name.
#include "mux/support/name_uuid.h"

#include <gtest/gtest.h>

namespace {

TEST(NameUuidTest, MatchesAnIndependentVersion5Implementation) {
  // uuid.uuid5(uuid.uuid5(uuid.NAMESPACE_DNS, "polymux.devices"),
  //            "riscv_sim example") in Python 3.
  const std::array<uint8_t, 16> expected = {0x6c, 0xfc, 0x56, 0xb4, 0x31, 0x78, 0x5b, 0x1c,
                                            0x96, 0x7d, 0x6e, 0x62, 0xcd, 0x2e, 0x93, 0x4a};
  EXPECT_EQ(mux::support::nameBasedUuid("riscv_sim example"), expected);
}

TEST(NameUuidTest, DifferentNamesDifferAndCarryTheVersionAndVariant) {
  auto first = mux::support::nameBasedUuid("Polymux host: CPU A");
  auto second = mux::support::nameBasedUuid("Polymux host: CPU B");
  EXPECT_NE(first, second);
  for (const auto &uuid : {first, second}) {
    EXPECT_EQ(uuid[6] >> 4, 5);
    EXPECT_EQ(uuid[8] >> 6, 2);
  }
}

TEST(NameUuidTest, DuplicatesAreToldApartInEnumerationOrder) {
  const std::array<uint8_t, 16> card = mux::support::nameBasedUuid("card");
  const std::array<uint8_t, 16> other = mux::support::nameBasedUuid("other");
  std::array<std::array<uint8_t, 16>, 4> uuids = {card, other, card, card};
  mux::support::makeUuidsDistinct(uuids);
  EXPECT_EQ(uuids[0], card);
  EXPECT_EQ(uuids[1], other);
  EXPECT_NE(uuids[2], card);
  EXPECT_NE(uuids[3], card);
  EXPECT_NE(uuids[2], uuids[3]);
  // The same devices in the same order get the same UUIDs again.
  std::array<std::array<uint8_t, 16>, 4> again = {card, other, card, card};
  mux::support::makeUuidsDistinct(again);
  EXPECT_EQ(again, uuids);
}

} // namespace
