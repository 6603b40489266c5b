// Device capability sanity: what the OpenCL layer reports must be coherent.
#include "mux_test.h"

#include <algorithm>
#include <bit>

namespace muxtest {
namespace {

using DeviceInfoTest = MuxTest;

TEST_P(DeviceInfoTest, IdentityIsFilledIn) {
  EXPECT_FALSE(info().name.empty());
  EXPECT_FALSE(info().vendor.empty());
  EXPECT_FALSE(info().driverVersion.empty());
  EXPECT_FALSE(info().targetName.empty());
  EXPECT_NE(info().uuid, (std::array<uint8_t, 16>{}));
}

TEST_P(DeviceInfoTest, LimitsMeetOpenCLMinimums) {
  EXPECT_GE(info().computeUnits, 1u);
  EXPECT_EQ(info().maxWorkItemDimensions, 3u);
  EXPECT_GE(info().maxWorkGroupSize, 1u);
  for (size_t size : info().maxWorkItemSizes) {
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, info().maxWorkGroupSize);
  }
  EXPECT_GE(info().maxMemAllocSize, std::max<uint64_t>(info().globalMemSize / 4, 1));
  EXPECT_LE(info().maxMemAllocSize, info().globalMemSize);
  EXPECT_GE(info().localMemSize, 32u * 1024);
  EXPECT_GE(info().maxConstantBufferSize, 64u * 1024);
  EXPECT_GE(info().maxParameterSize, 1024u);
  EXPECT_TRUE(std::has_single_bit(info().memBaseAddrAlign));
  EXPECT_GE(info().memBaseAddrAlign, 128u); // sizeof(long16)
  EXPECT_GT(info().profilingTimerResolutionNs, 0u);
}

TEST_P(DeviceInfoTest, FloatingPointConfigIsConsistent) {
  EXPECT_TRUE(info().singleFp.roundToNearest);
  EXPECT_TRUE(info().singleFp.infNan);
  if (info().fp64) {
    const mux::FpConfig &fp = info().doubleFp;
    // The OpenCL 3.0 minimum double configuration.
    EXPECT_TRUE(fp.fma && fp.roundToNearest && fp.infNan && fp.denorms);
    EXPECT_GT(info().preferredVectorWidth[5], 0u);
    EXPECT_NE(std::find(info().extensions.begin(), info().extensions.end(), "cl_khr_fp64"), info().extensions.end());
  } else {
    EXPECT_EQ(info().preferredVectorWidth[5], 0u);
  }
  if (!info().fp16) {
    EXPECT_EQ(info().preferredVectorWidth[6], 0u);
  }
}

TEST_P(DeviceInfoTest, TimestampClockAdvances) {
  uint64_t first = device().timestampNs();
  uint64_t second = device().timestampNs();
  EXPECT_GT(first, 0u);
  EXPECT_GE(second, first);
}

INSTANTIATE_MUX_TEST(DeviceInfoTest);

} // namespace
} // namespace muxtest
