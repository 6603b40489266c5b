// How long an application's first CLBlast SGEMM call takes in a new process
// once the driver's kernel cache holds CLBlast's programs: the time users
// wait at start-up. The bench runs itself as a child process
// (--clblast-first-call) twice per device: the first child fills the
// driver's cache, the second is measured.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <string>

namespace bench {

/// The row's label.
const std::string &clblastFirstCallLabel();

/// Milliseconds of the first n=512 CLBlastSgemm call (clFinish included) in
/// a fresh process for device `deviceIndex` of the platform named `platform`;
/// `unsupported` without CLBlast or on a simulated device.
Figure clblastFirstCallMs(cl_device_id device, const std::string &platform, unsigned deviceIndex);

/// The child's side: runs the call on that device and prints its
/// milliseconds on stdout. Returns the process's exit status.
int runClblastFirstCall(const std::string &platform, unsigned deviceIndex);

} // namespace bench
