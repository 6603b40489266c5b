// mux::support::ContentCache: objects shared by the content of the bytes
// they were made from, the most recently used kept alive.
#include "mux/support/content_cache.h"

#include "mux/status.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

/// Counts how many are alive, to see what the cache destroys.
struct Made {
  static inline int alive = 0;
  std::string from;
  explicit Made(std::string from) : from(std::move(from)) { ++alive; }
  ~Made() { --alive; }
};

std::span<const std::byte> bytesOf(const std::string &text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

class ContentCacheTest : public testing::Test {
protected:
  void SetUp() override { Made::alive = 0; }

  /// The object for `text`, counting how often one was made.
  std::shared_ptr<Made> get(mux::support::ContentCache<Made> &cache, const std::string &text) {
    auto made = cache.getOrMake(bytesOf(text), [&]() -> llvm::Expected<std::shared_ptr<Made>> {
      ++makes;
      return std::make_shared<Made>(text);
    });
    EXPECT_TRUE(!!made) << llvm::toString(made.takeError());
    return made ? *made : nullptr;
  }
  int makes = 0;
};

TEST_F(ContentCacheTest, EqualBytesGiveTheSameObject) {
  mux::support::ContentCache<Made> cache(4);
  auto a = get(cache, "program one");
  auto b = get(cache, std::string("program ") + "one"); // equal content, another string
  auto c = get(cache, "program two");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(c->from, "program two");
  EXPECT_EQ(makes, 2);
  EXPECT_EQ(cache.size(), 2u);
}

TEST_F(ContentCacheTest, RecentlyUsedObjectsOutliveTheirUsers) {
  mux::support::ContentCache<Made> cache(2);
  get(cache, "a");
  get(cache, "b");
  EXPECT_EQ(Made::alive, 2); // nobody holds them but the cache
  get(cache, "a");           // a hit: "a" is now the most recent
  EXPECT_EQ(makes, 2);
  get(cache, "c"); // "b", the least recently used, goes
  EXPECT_EQ(Made::alive, 2);
  get(cache, "a");
  EXPECT_EQ(makes, 3);
  get(cache, "b");
  EXPECT_EQ(makes, 4); // made again
}

TEST_F(ContentCacheTest, ObjectsStillHeldAreFoundBeyondTheRetainedCount) {
  mux::support::ContentCache<Made> cache(1);
  auto held = get(cache, "held");
  get(cache, "x");
  get(cache, "y");
  EXPECT_EQ(get(cache, "held"), held);
  EXPECT_EQ(makes, 3);
  held.reset();
  cache.clear();
  EXPECT_EQ(Made::alive, 0);
  EXPECT_EQ(cache.size(), 0u);
}

TEST_F(ContentCacheTest, FailuresAreNotRemembered) {
  mux::support::ContentCache<Made> cache(4);
  auto failed = cache.getOrMake(bytesOf("bad"), []() -> llvm::Expected<std::shared_ptr<Made>> {
    return mux::makeError(mux::Status::InvalidArgument, "does not load");
  });
  ASSERT_FALSE(!!failed);
  EXPECT_EQ(mux::takeStatus(failed.takeError()), mux::Status::InvalidArgument);
  auto made = get(cache, "bad");
  ASSERT_TRUE(made);
  EXPECT_EQ(makes, 1);
}

TEST_F(ContentCacheTest, ThreadsLoadingEqualBytesShareOneObject) {
  mux::support::ContentCache<Made> cache(8);
  std::vector<std::shared_ptr<Made>> got(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = get(cache, i % 2 ? "odd" : "even"); });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(makes, 2);
  for (size_t i = 2; i < got.size(); ++i)
    EXPECT_EQ(got[i], got[i % 2]);
}

} // namespace
