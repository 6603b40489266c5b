// Program builds of the stress workload, each with a counted pfn_notify,
// and the programs every worker shares: one built by the main thread before
// the workers start, and variants with other -D options that whichever
// worker first needs one builds while the others wait for it.
#pragma once

#include "cl_calls.h"

#include <array>
#include <mutex>
#include <string>

namespace stress {

struct RunState;

/// Builds `source` with `options` for the run's device (clBuildProgram, or
/// clCompileProgram then clLinkProgram when `separately`); throws ApiError
/// with the build log on failure.
Program buildProgram(RunState &run, const char *source, const std::string &options, bool separately = false);

class SharedPrograms {
public:
  static constexpr unsigned kVariants = 4;
  /// The SCALE of variant v (SALT is 0 in every shared program).
  static constexpr uint32_t scaleOf(unsigned variant) { return variant + 2; }
  /// The SCALE and SALT of the main shared program.
  static constexpr uint32_t kMainScale = 3, kMainSalt = 7;

  explicit SharedPrograms(RunState &run) : run_(run) {}
  /// Built by the main thread before the workers start.
  void buildMain();
  cl_program main() const { return main_; }
  /// Variant `v`, built on first use by whichever thread asks first.
  cl_program variant(unsigned v);

private:
  RunState &run_;
  Program main_;
  std::array<std::once_flag, kVariants> built_;
  std::array<Program, kVariants> variants_;
};

} // namespace stress
