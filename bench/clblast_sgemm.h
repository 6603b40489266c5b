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

// CLBlast's C API (clblast_c.h), declared here so that the bench does not
// need the library to build: its enums are C enums, passed as int.
constexpr int kRowMajor = 101;    // CLBlastLayoutRowMajor
constexpr int kNoTranspose = 111; // CLBlastTransposeNo
using SgemmFunction = int (*)(int layout, int aTranspose, int bTranspose, size_t m, size_t n, size_t k, float alpha,
                              cl_mem a, size_t aOffset, size_t aLd, cl_mem b, size_t bOffset, size_t bLd, float beta,
                              cl_mem c, size_t cOffset, size_t cLd, cl_command_queue *queue, cl_event *event);

/// CLBlastSgemm from the installed library (loaded once), or null and why.
SgemmFunction loadSgemm(std::string &why);

/// Row labels, one per matrix size.
std::span<const std::string> clblastSgemmLabels();

/// One figure per label, C = A B on row-major n x n matrices, checked like
/// the bench's own SGEMM (matrix_check.h). `unsupported` without CLBlast,
/// on simulated devices, and for n = 2048 with --quick on a device that is
/// not a GPU.
std::vector<Figure> clblastSgemm(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
