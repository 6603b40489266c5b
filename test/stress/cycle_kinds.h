// The create/release cycles of every kind of OpenCL object Polymux offers,
// one function per kind, run many times by cycles.cpp while it measures the
// process. Each cycle creates the object (with whatever it needs to be
// used), uses it where that takes little, and releases it.
#pragma once

#include "cl_calls.h"
#include "tally.h"

#include <functional>
#include <string>
#include <vector>

namespace stress {

/// The objects that outlive the cycles of a kind: a context, a queue, a
/// built program and a buffer.
struct CycleFixture {
  explicit CycleFixture(const DeviceFacts &device);
  const DeviceFacts &device;
  Tally tally; ///< callbacks of the cycles; errors
  Context context;
  Queue queue;
  Program program; ///< kernels::kWorkload
  Mem parent;      ///< of sub-buffers
};

struct CycleKind {
  using Cycle = std::function<void(CycleFixture &, unsigned long i)>;
  CycleKind(std::string name, double share, Cycle cycle, std::function<void()> before = {},
            std::function<void()> after = {})
      : name(std::move(name)), share(share), cycle(std::move(cycle)), before(std::move(before)),
        after(std::move(after)) {}

  std::string name;
  /// Cycles of this kind per requested cycle (program builds that compile
  /// are run fewer times).
  double share = 1;
  /// One cycle; `i` counts from 0.
  Cycle cycle;
  /// Run once before the first cycle and once after the last (optional).
  std::function<void()> before, after;
};

/// The kinds for `device`; a kind the device does not offer (samplers
/// without image support) is checked to be refused as specified and left
/// out, with a note in `notes`.
std::vector<CycleKind> cycleKinds(CycleFixture &fixture, std::vector<std::string> &notes);

} // namespace stress
