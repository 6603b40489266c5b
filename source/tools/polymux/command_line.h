// The words of a subcommand's command line, read front to back.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::tool {

class CommandLine {
public:
  explicit CommandLine(std::span<char *const> words) : words_(words.begin(), words.end()) {}

  /// False once every word is read.
  bool more() const { return index_ < words_.size(); }
  /// The word being read.
  std::string_view current() const { return words_[index_]; }
  /// Consumes the current word.
  std::string take() { return std::string(words_[index_++]); }

  /// Consumes the current word when it is the option `name` with its value
  /// (`--name value` or `--name=value`; a one-letter option such as -D also
  /// as `-DVALUE`). False, consuming nothing, for any other word; a missing
  /// value is recorded in problem().
  bool option(std::string_view name, std::string &value);
  /// Consumes the current word when it is `name`.
  bool flag(std::string_view name);

  /// The first problem seen, e.g. an option without its value.
  const std::optional<std::string> &problem() const { return problem_; }
  /// Records a problem with a word already consumed (a bad value).
  void reject(std::string problem) {
    if (!problem_)
      problem_ = std::move(problem);
  }

private:
  std::vector<std::string_view> words_;
  size_t index_ = 0;
  std::optional<std::string> problem_;
};

} // namespace polymux::tool
