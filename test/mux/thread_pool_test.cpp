// The CPU targets' thread pool: every item runs exactly once, and
// participants done with their own share take over the rest of the others'.
#include "mux/support/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <vector>

namespace {

struct Record {
  std::vector<std::atomic<unsigned>> runs;
  std::vector<std::atomic<unsigned>> worker;
  std::chrono::microseconds slowItem{0};
  uint64_t slowItems = 0; ///< items [0, slowItems) take slowItem each

  explicit Record(uint64_t count) : runs(count), worker(count) {}

  static void body(void *context, unsigned worker, std::byte *scratch, uint64_t begin, uint64_t end) {
    auto &record = *static_cast<Record *>(context);
    EXPECT_NE(scratch, nullptr);
    for (uint64_t item = begin; item < end; ++item) {
      record.runs[item].fetch_add(1);
      record.worker[item].store(worker);
      if (item < record.slowItems) {
        auto until = std::chrono::steady_clock::now() + record.slowItem;
        while (std::chrono::steady_clock::now() < until) {
        }
      }
    }
  }
};

TEST(ThreadPool, EveryItemRunsExactlyOnce) {
  for (unsigned participants : {1u, 2u, 3u, 8u}) {
    mux::support::ThreadPool pool(participants);
    for (uint64_t count : {0ull, 1ull, 2ull, 3ull, 7ull, 1000ull, 100003ull}) {
      Record record(count);
      ASSERT_TRUE(pool.parallelFor(count, 64, &Record::body, &record));
      for (uint64_t item = 0; item < count; ++item)
        ASSERT_EQ(record.runs[item].load(), 1u)
            << participants << " participants, " << count << " items, item " << item;
    }
  }
}

TEST(ThreadPool, IdleParticipantsTakeOverSlowShares) {
  // The caller's share (the first half) is slow; the other participant
  // finishes its own half at once and must take some of the caller's.
  mux::support::ThreadPool pool(2);
  const uint64_t count = 200;
  Record record(count);
  record.slowItems = count / 2;
  record.slowItem = std::chrono::microseconds(500);
  ASSERT_TRUE(pool.parallelFor(count, 64, &Record::body, &record));
  unsigned takenOver = 0;
  for (uint64_t item = 0; item < count; ++item) {
    ASSERT_EQ(record.runs[item].load(), 1u) << item;
    takenOver += item < record.slowItems && record.worker[item].load() != 0;
  }
  EXPECT_GT(takenOver, 0u);
}

} // namespace
