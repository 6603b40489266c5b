#include "tally.h"

#include <cstdio>

namespace stress {
namespace {
constexpr size_t kMessagesKept = 50;
} // namespace

void Tally::wrongResult(const std::string &what) {
  ++wrongResults;
  record("WRONG RESULT: " + what);
}

void Tally::error(const std::string &what) {
  ++errors;
  record("ERROR: " + what);
}

void Tally::record(const std::string &what) {
  std::lock_guard lock(mutex_);
  if (messages_.size() < kMessagesKept) {
    messages_.push_back(what);
    std::fprintf(stderr, "polymux_stress: %s\n", what.c_str());
  }
}

std::vector<std::string> Tally::failureMessages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

} // namespace stress
