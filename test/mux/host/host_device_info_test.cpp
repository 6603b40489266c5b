// Host target only: the widths the host device reports follow what its
// compiler does with kernels (the work-item vectoriser, sub-groups of a
// float register's lanes).
#include "device_info.h"

#include <gtest/gtest.h>

namespace {

// indices in the width arrays
constexpr size_t kChar = 0, kShort = 1, kInt = 2, kLong = 3, kFloat = 4, kDouble = 5;

TEST(HostDeviceInfo, PreferredWidthsFollowTheWorkItemVectoriser) {
  mux::DeviceInfo info = host::queryHostDeviceInfo(1);
  EXPECT_GE(info.nativeVectorWidth[kFloat], 4u);
  EXPECT_GE(info.nativeVectorWidth[kDouble], 2u);
  if (host::workItemVectorBits() == 0) {
    // Scalar work-item loops: code written with vector types is faster.
    EXPECT_EQ(info.preferredVectorWidth[kFloat], info.nativeVectorWidth[kFloat]);
    EXPECT_EQ(info.preferredVectorWidth[kDouble], info.nativeVectorWidth[kDouble]);
  } else {
    // The vectoriser packs scalar work-items into the lanes; scalar char
    // and short code computes in int, their vector types do not.
    for (size_t type : {kInt, kLong, kFloat, kDouble})
      EXPECT_EQ(info.preferredVectorWidth[type], 1u) << type;
    EXPECT_EQ(info.preferredVectorWidth[kChar], 8u);
    EXPECT_EQ(info.preferredVectorWidth[kShort], 4u);
  }
}

TEST(HostDeviceInfo, SubGroupsHoldAFloatRegistersLanes) {
  mux::DeviceInfo info = host::queryHostDeviceInfo(1);
  ASSERT_EQ(info.subGroupSizes.size(), 1u);
  EXPECT_EQ(info.subGroupSizes.front(), info.nativeVectorWidth[kFloat]);
  EXPECT_EQ(info.maxNumSubGroups,
            (info.maxWorkGroupSize + info.subGroupSizes.front() - 1) / info.subGroupSizes.front());
  EXPECT_FALSE(info.subGroupIndependentForwardProgress);
}

} // namespace
