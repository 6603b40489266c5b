// Worker operation on programs: the worker's own program, rebuilt with new
// -D options (SCALE and SALT) now and then, by clBuildProgram or by
// clCompileProgram and clLinkProgram, while the other workers run.
#include "kernels.h"
#include "run_state.h"
#include "worker.h"

namespace stress {

void Worker::rebuildOwnProgram() {
  const uint32_t scale = random32() | 1, salt = random32();
  const std::string options = "-DSCALE=" + std::to_string(scale) + "u -DSALT=" + std::to_string(salt) + "u";
  state_.beat("building its own program");
  Program program = buildProgram(run_, kernels::kWorkload, options, below(3) == 0);
  ownSalted_ = createKernel(program, "salted");
  own_ = std::move(program);
  ownScale_ = scale;
  ownSalt_ = salt;
  ownBuilt_ = std::chrono::steady_clock::now();
}

} // namespace stress
