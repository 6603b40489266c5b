// CLBlast's SGEMM (the tuned OpenCL BLAS that applications use) on every
// device, where the library is installed (Debian's libclblast1): it is
// loaded at run time, so the bench needs it neither to build nor to run,
// and its rows read n/a without it. GFLOPS = 2 n^3 / second.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// Row labels, one per matrix size.
std::span<const std::string> clblastSgemmLabels();

/// One figure per label, C = A B on row-major n x n matrices, checked like
/// the bench's own SGEMM (matrix_check.h). `unsupported` without CLBlast,
/// on simulated devices, and for n = 2048 with --quick on a device that is
/// not a GPU.
std::vector<Figure> clblastSgemm(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
