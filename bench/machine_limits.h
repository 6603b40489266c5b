// What the host machine itself can do, measured by native C++ on every core:
// a STREAM triad (the memory limit) and multiply-add peaks in float and
// double with the widest vectors the CPU has (the compute limit). The table
// gives each CPU device's row a "fraction of the machine" column against
// them, so an OpenCL figure reads as a share of what the hardware does,
// whatever machine the run is on (AVX2 one day, AVX-512 the next).
#pragma once

#include "workloads.h"

#include <string>

namespace bench {

struct MachineLimits {
  Figure triad;     ///< GB/s, 12 bytes per element as the OpenCL triad
  Figure fmaFloat;  ///< GFLOPS, 2 per multiply-add
  Figure fmaDouble; ///< GFLOPS
  unsigned threads = 1;
  std::string vectors;   ///< the instruction set the peak loops ran ("avx512f", "avx2+fma", ...)
  std::string triadLoop; ///< the triad loop that was fastest ("avx2", "avx512f", "baseline")
};

/// Runs the native loops on std::thread::hardware_concurrency() threads;
/// the triad over sizes.triadElements floats per array on huge-page memory,
/// in each vector width the CPU has, best of sizes.triadRuns runs of each,
/// its result checked like the OpenCL triad's.
MachineLimits measureMachineLimits(const Sizes &sizes);

} // namespace bench
