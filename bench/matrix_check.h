// The matrices of the SGEMM rows (the bench's own kernel and CLBlast's) and
// the check of their product.
#pragma once

#include <cstddef>
#include <cstdint>
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

} // namespace bench
