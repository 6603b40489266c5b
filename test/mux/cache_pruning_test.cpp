// POLYMUX_CACHE_MAX and the least-recently-used pruning of the cache
// directory (mux/support/cache_pruning.h).
#include "mux/support/cache_pruning.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

class CachePruningTest : public testing::Test {
protected:
  void SetUp() override {
    std::string model = (fs::temp_directory_path() / "polymux-pruning-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(model.data()), nullptr);
    dir_ = model;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    unsetenv("POLYMUX_CACHE_MAX");
  }
  // A file of `bytes` bytes last modified `age` ago.
  fs::path file(const std::string &name, size_t bytes, std::chrono::minutes age) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(path, fs::file_time_type::clock::now() - age);
    return path;
  }
  fs::path dir_;
};

TEST_F(CachePruningTest, SizeLimitParsesUnits) {
  unsetenv("POLYMUX_CACHE_MAX");
  EXPECT_EQ(mux::support::cacheSizeLimit(), mux::support::kDefaultCacheSizeLimit);
  const std::pair<const char *, uint64_t> cases[] = {
      {"4096", 4096}, {"64K", 64u << 10}, {"512M", 512u << 20}, {"2g", uint64_t{2} << 30}, {"0", 0}};
  for (const auto &[text, bytes] : cases) {
    setenv("POLYMUX_CACHE_MAX", text, 1);
    EXPECT_EQ(mux::support::cacheSizeLimit(), bytes) << text;
  }
  for (const char *unreadable : {"lots", "12T", "-5", "M", "99999999999999999999"}) {
    setenv("POLYMUX_CACHE_MAX", unreadable, 1);
    EXPECT_EQ(mux::support::cacheSizeLimit(), mux::support::kDefaultCacheSizeLimit) << unreadable;
  }
}

TEST_F(CachePruningTest, OldestEntriesGoFirst) {
  fs::path oldest = file("a.bin", 1000, std::chrono::minutes(30));
  fs::path middle = file("b.bin", 1000, std::chrono::minutes(20));
  fs::path newest = file("c.bin", 1000, std::chrono::minutes(10));
  mux::support::pruneCacheDirectory(dir_.string(), 3000);
  EXPECT_TRUE(fs::exists(oldest)) << "within the limit nothing is deleted";
  mux::support::pruneCacheDirectory(dir_.string(), 2500);
  EXPECT_FALSE(fs::exists(oldest));
  EXPECT_TRUE(fs::exists(middle));
  EXPECT_TRUE(fs::exists(newest));
  mux::support::pruneCacheDirectory(dir_.string(), 0);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(CachePruningTest, UseMakesAnEntryRecent) {
  fs::path used = file("a.bin", 1000, std::chrono::minutes(30));
  fs::path unused = file("b.bin", 1000, std::chrono::minutes(20));
  mux::support::markCacheEntryUsed(used.string());
  mux::support::pruneCacheDirectory(dir_.string(), 1500);
  EXPECT_TRUE(fs::exists(used));
  EXPECT_FALSE(fs::exists(unused));
  // A vanished entry is not an error.
  mux::support::markCacheEntryUsed((dir_ / "gone.bin").string());
}

TEST_F(CachePruningTest, TemporariesAreKeptForAWhile) {
  fs::path writing = file("entry.bin-1234.tmp", 5000, std::chrono::minutes(1));
  fs::path abandoned = file("entry.bin-5678.tmp", 5000, std::chrono::minutes(90));
  mux::support::pruneCacheDirectory(dir_.string(), 0);
  EXPECT_TRUE(fs::exists(writing)) << "another process may still be writing it";
  EXPECT_FALSE(fs::exists(abandoned));
}

} // namespace
