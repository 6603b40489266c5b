#include "matrix_check.h"

#include "workload_support.h"

#include <algorithm>
#include <cmath>

namespace bench {

/// Deterministic values in [-1, 1) (xorshift64*), so runs are comparable.
std::vector<float> randomMatrix(size_t n, uint64_t seed) {
  std::vector<float> values(n * n);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float &value : values) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    const uint64_t bits = state * 0x2545F4914F6CDD1Dull;
    value = static_cast<float>(static_cast<double>(bits >> 40) / static_cast<double>(1 << 23) - 1.0);
  }
  return values;
}

/// Whether `value` is within the worst-case error of an n-term float dot
/// product (any summation order, fused or not: (n + 2) u sum |a b|, u = 2^-24)
/// of the exact `reference`.
static bool withinRounding(float value, double reference, double magnitude, size_t n) {
  return std::fabs(static_cast<double>(value) - reference) <= static_cast<double>(n + 2) * 0x1p-24 * magnitude;
}

/// Checks rows and columns of C spread over tiles and positions in a tile;
/// returns the first mismatch, or nothing.
std::string checkProduct(const std::vector<float> &a, const std::vector<float> &b, const std::vector<float> &c,
                         size_t n) {
  const size_t picks[] = {0, n / 3 + 5, (2 * n) / 3 + 17, n - 1};
  std::vector<double> exact(n), magnitude(n), column(n);
  auto mismatch = [&](size_t row, size_t col, double reference) {
    return "C[" + std::to_string(row) + "][" + std::to_string(col) + "] = " + std::to_string(c[row * n + col]) +
           ", expected " + std::to_string(reference);
  };
  for (size_t row : picks) { // C[row][*], streaming through B's rows
    std::fill(exact.begin(), exact.end(), 0.0);
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    for (size_t k = 0; k < n; ++k) {
      const double aik = a[row * n + k];
      for (size_t j = 0; j < n; ++j) {
        exact[j] += aik * b[k * n + j];
        magnitude[j] += std::fabs(aik * b[k * n + j]);
      }
    }
    for (size_t j = 0; j < n; ++j)
      if (!withinRounding(c[row * n + j], exact[j], magnitude[j], n))
        return mismatch(row, j, exact[j]);
  }
  for (size_t col : picks) { // C[*][col]: each row of A against B's column
    for (size_t k = 0; k < n; ++k)
      column[k] = b[k * n + col];
    for (size_t i = 0; i < n; ++i) {
      double sum = 0, size = 0;
      for (size_t k = 0; k < n; ++k) {
        sum += a[i * n + k] * column[k];
        size += std::fabs(a[i * n + k] * column[k]);
      }
      if (!withinRounding(c[i * n + col], sum, size, n))
        return mismatch(i, col, sum);
    }
  }
  return "";
}

Figure measureProduct(const DeviceSession &session, size_t n, cl_mem_flags cFlags, const std::string &what,
                      const std::function<double(cl_mem a, cl_mem b, cl_mem c)> &secondsPerProduct) {
  try {
    const size_t bytes = n * n * sizeof(float);
    std::vector<float> a = randomMatrix(n, 1), b = randomMatrix(n, 2), c(n * n);
    MemPtr aBuffer = createBuffer(session, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a.data());
    MemPtr bBuffer = createBuffer(session, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b.data());
    MemPtr cBuffer = createBuffer(session, cFlags, bytes);
    const double seconds = secondsPerProduct(aBuffer.get(), bBuffer.get(), cBuffer.get());
    check(clEnqueueReadBuffer(session.queue(), cBuffer.get(), CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    if (std::string mismatch = checkProduct(a, b, c, n); !mismatch.empty())
      return wrongResult(what + mismatch);
    const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    return {flops / seconds / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace bench
