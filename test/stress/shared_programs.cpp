#include "shared_programs.h"

#include "callbacks.h"
#include "cl_platform.h"
#include "kernels.h"
#include "run_state.h"

namespace stress {

Program buildProgram(RunState &run, const char *source, const std::string &options, bool separately) {
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(run.context, 1, &source, nullptr, &err));
  ok(err, "clCreateProgramWithSource");
  const cl_device_id device = run.device.id;
  if (separately) {
    err = clCompileProgram(program, 1, &device, options.c_str(), 0, nullptr, nullptr, onProgramBuilt,
                           expectBuildCallback(run.tally));
    if (err == CL_SUCCESS) {
      cl_program compiled = program;
      Program linked(clLinkProgram(run.context, 1, &device, "", 1, &compiled, onProgramBuilt,
                                   expectBuildCallback(run.tally), &err));
      if (err == CL_SUCCESS) {
        ++run.tally.programsBuilt;
        return linked;
      }
      throw ApiError("clLinkProgram(" + options + "): " + cltest::programBuildLog(linked, device), err);
    }
  } else {
    err = clBuildProgram(program, 1, &device, options.c_str(), onProgramBuilt, expectBuildCallback(run.tally));
    if (err == CL_SUCCESS) {
      ++run.tally.programsBuilt;
      return program;
    }
  }
  throw ApiError("building with \"" + options + "\": " + cltest::programBuildLog(program, device), err);
}

void SharedPrograms::buildMain() {
  main_ = buildProgram(run_, kernels::kWorkload,
                       "-DSCALE=" + std::to_string(kMainScale) + "u -DSALT=" + std::to_string(kMainSalt) + "u");
}

cl_program SharedPrograms::variant(unsigned v) {
  std::call_once(built_[v], [&] {
    variants_[v] = buildProgram(run_, kernels::kWorkload, "-DSCALE=" + std::to_string(scaleOf(v)) + "u");
  });
  return variants_[v];
}

} // namespace stress
