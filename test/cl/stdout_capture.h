// Captures what a test's process writes to stdout (kernel printf output).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace cltest {

/// Sends file descriptor 1 (what stdout writes to) to a temporary file
/// between begin() and end(). Nothing that may print (gtest assertions)
/// belongs between the two.
class StdoutCapture {
public:
  bool begin() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    if (!file_)
      return false;
    saved_ = dup(STDOUT_FILENO);
    return saved_ >= 0 && dup2(fileno(file_), STDOUT_FILENO) >= 0;
  }
  std::string end() {
    std::fflush(stdout);
    if (saved_ >= 0) {
      dup2(saved_, STDOUT_FILENO);
      close(saved_);
      saved_ = -1;
    }
    std::string text;
    if (!file_)
      return text;
    std::rewind(file_);
    char chunk[4096];
    size_t got;
    while ((got = std::fread(chunk, 1, sizeof(chunk), file_)) > 0)
      text.append(chunk, got);
    std::fclose(file_);
    file_ = nullptr;
    return text;
  }
  ~StdoutCapture() {
    if (saved_ >= 0 || file_)
      end();
  }

private:
  FILE *file_ = nullptr;
  int saved_ = -1;
};

} // namespace cltest
