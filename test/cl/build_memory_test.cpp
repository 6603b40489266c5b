// Building programs again and again does not grow the process's heap. A
// riscv_sim build links its program with lld in-process, and lld's worker
// threads, which live as long as the process, kept every link's input
// sections (about 5 KiB a build; found by test/stress over 500 builds).
#include "cl_test.h"

#include <malloc.h>

#include <cstdint>
#include <string>

using namespace cltest;

namespace {

class BuildMemoryTest : public DeviceTest {};

int64_t heapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

} // namespace

TEST_P(BuildMemoryTest, RepeatedBuildsDoNotGrowTheHeap) {
  constexpr const char *kSource = "kernel void add(global uint *data) { data[get_global_id(0)] += SALT; }";
  // Each build has options of its own, so that each one compiles and links.
  auto buildWithSalt = [&](int salt) { return bool(build(kSource, ("-DSALT=" + std::to_string(salt) + "u").c_str())); };
  for (int salt = 0; salt < 3; ++salt) // fills the caches that are meant to stay
    ASSERT_TRUE(buildWithSalt(salt));
  const int64_t before = heapInUse();
  constexpr int kBuilds = 24;
  for (int salt = 100; salt < 100 + kBuilds; ++salt)
    ASSERT_TRUE(buildWithSalt(salt));
  const int64_t grown = heapInUse() - before;
  EXPECT_LT(grown, kBuilds * 1024) << "the heap grew by " << grown / kBuilds << " bytes a build";
}

CLTEST_INSTANTIATE(BuildMemoryTest);
