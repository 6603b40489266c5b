// POLYMUX_LOG (mux/support/log.h): levels, categories and the line format.
// The setting is read once per process, so each case runs in a freshly
// started copy of this test program with the variable set.
#include "mux/support/log.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using mux::support::log;
using mux::support::LogLevel;

// One line: "polymux[<level>] <UTC time with microseconds> <category>: <text>".
#define LINE(level, category, text)                                                                                    \
  "polymux\\[" level "\\] [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z " category ": " text "\n"

void logOneOfEach() {
  log(LogLevel::Debug, "compiler", "compiler debug");
  log(LogLevel::Info, "compiler", "compiler info");
  log(LogLevel::Info, "queue", "queue info");
  log(LogLevel::Warning, "memory", "memory warning");
  log(LogLevel::Error, "queue", "queue error");
  std::exit(0);
}

class LogTest : public testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
  void TearDown() override { unsetenv("POLYMUX_LOG"); }
};

TEST_F(LogTest, ALevelPrintsItselfAndMoreSevereLevels) {
  // (Categories keep the targets' own lines, which this program's targets
  // print as they start, out of the output.)
  setenv("POLYMUX_LOG", "info:compiler,queue,memory", 1);
  EXPECT_EXIT(logOneOfEach(), testing::ExitedWithCode(0),
              "^" LINE("info", "compiler", "compiler info") LINE("info", "queue", "queue info")
                  LINE("warn", "memory", "memory warning") LINE("error", "queue", "queue error") "$");
}

TEST_F(LogTest, CategoriesNarrowEverythingButErrors) {
  setenv("POLYMUX_LOG", "debug:compiler", 1);
  EXPECT_EXIT(logOneOfEach(), testing::ExitedWithCode(0),
              "^" LINE("debug", "compiler", "compiler debug") LINE("info", "compiler", "compiler info")
                  LINE("error", "queue", "queue error") "$");
}

TEST_F(LogTest, SeveralCategoriesAndLevelNumbers) {
  setenv("POLYMUX_LOG", "2:memory, queue", 1);
  EXPECT_EXIT(logOneOfEach(), testing::ExitedWithCode(0),
              "^" LINE("warn", "memory", "memory warning") LINE("error", "queue", "queue error") "$");
}

TEST_F(LogTest, UnsetOrZeroPrintsNothing) {
  EXPECT_EXIT(logOneOfEach(), testing::ExitedWithCode(0), "^$");
  setenv("POLYMUX_LOG", "0", 1);
  EXPECT_EXIT(logOneOfEach(), testing::ExitedWithCode(0), "^$");
}

} // namespace
