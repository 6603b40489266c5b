// What the SGEMM rows (the bench's own kernel and CLBlast's) share: their
// matrices, the check of the product, and the figure of a timed product.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

/// An n x n matrix of deterministic values in [-1, 1) (xorshift64*), so
/// runs are comparable.
std::vector<float> randomMatrix(size_t n, uint64_t seed);

/// Checks four rows and four columns of C = A B (row-major n x n), spread
/// over tiles and positions in a tile, against a double-precision product
/// within the worst-case rounding error of an n-term float dot product;
/// returns the first mismatch, or nothing.
std::string checkProduct(const std::vector<float> &a, const std::vector<float> &b, const std::vector<float> &c,
                         size_t n);

/// GFLOPS (2 n^3 / second) of C = A B on n x n matrices in buffers of the
/// session: A and B random (read-only), C with `cFlags`. `secondsPerProduct`
/// computes the product (more than once, as it times it) and returns the
/// seconds one takes; C is then read back and checked, a mismatch reported
/// after `what`. OpenCL errors give a figure-less Figure.
Figure measureProduct(const DeviceSession &session, size_t n, cl_mem_flags cFlags, const std::string &what,
                      const std::function<double(cl_mem a, cl_mem b, cl_mem c)> &secondsPerProduct);

} // namespace bench
