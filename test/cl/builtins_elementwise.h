// Shared harness for the element-wise builtin tests (integer, common,
// geometric, relational): one kernel evaluates several builtin calls over
// host arrays, with every argument a vector of `width` lanes (or a scalar
// per work-item), and hands back each call's results lane by lane so the
// tests can compare them with host references.
#pragma once

#include "cl_test.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace cltest::builtins {

/// One kernel argument: a0, a1, a2 in the expressions.
struct Input {
  std::string type; ///< scalar element type name ("int", "float"...)
  std::vector<unsigned char> bytes;
  size_t elementSize = 0;
  bool perItem = false; ///< a scalar per work-item instead of a vector
};

/// One builtin call: an expression over a0, a1, a2.
struct Output {
  std::string expr;
  std::string type; ///< scalar element type of the result
  size_t elementSize = 0;
  bool perItem = false; ///< the result is a scalar per work-item (length, any...)
};

template <class T> Input input(const char *type, const std::vector<T> &values, bool perItem = false) {
  Input in{type, std::vector<unsigned char>(values.size() * sizeof(T)), sizeof(T), perItem};
  std::memcpy(in.bytes.data(), values.data(), in.bytes.size());
  return in;
}

template <class T> Output output(std::string expr, const char *type, bool perItem = false) {
  return Output{std::move(expr), type, sizeof(T), perItem};
}

template <class T> std::vector<T> valuesOf(const std::vector<unsigned char> &bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

/// Appends every part to `out` (one append per part: no temporaries).
template <class... Parts> void append(std::string &out, const Parts &...parts) { (out.append(parts), ...); }

inline std::string vectorType(const std::string &scalar, unsigned width) {
  return width == 1 ? scalar : scalar + std::to_string(width);
}

class ElementwiseTest : public DeviceTest {
protected:
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  /// Evaluates every output over `lanes` lanes (a multiple of `width`) and
  /// returns each one's bytes; empty on failure (a test failure is recorded).
  std::vector<std::vector<unsigned char>> evaluate(unsigned width, size_t lanes, const std::vector<Input> &inputs,
                                                   const std::vector<Output> &outputs) {
    const size_t items = lanes / width;
    std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nkernel void run(";
    for (size_t i = 0; i < inputs.size(); ++i)
      append(source, "global const ", inputs[i].type, " *in", std::to_string(i), ", ");
    for (size_t o = 0; o < outputs.size(); ++o)
      append(source, std::string(o ? ", " : ""), "global ", outputs[o].type, " *out", std::to_string(o));
    source += ") {\n  size_t i = get_global_id(0);\n";
    const std::string w = std::to_string(width);
    for (size_t a = 0; a < inputs.size(); ++a) {
      const std::string index = std::to_string(a);
      std::string name = "a", in = "in";
      name += index;
      in += index;
      if (inputs[a].perItem || width == 1)
        append(source, "  ", inputs[a].type, " ", name, " = ", in, "[i];\n");
      else
        append(source, "  ", vectorType(inputs[a].type, width), " ", name, ";\n  for (int k = 0; k < ", w, "; ++k) ",
               name, "[k] = ", in, "[i * ", w, " + k];\n");
    }
    for (size_t o = 0; o < outputs.size(); ++o) {
      std::string out = "out";
      out += std::to_string(o);
      if (outputs[o].perItem || width == 1)
        append(source, "  ", out, "[i] = ", outputs[o].expr, ";\n");
      else
        append(source, "  { ", vectorType(outputs[o].type, width), " r = ", outputs[o].expr,
               ";\n    for (int k = 0; k < ", w, "; ++k) ", out, "[i * ", w, " + k] = r[k]; }\n");
    }
    source += "}\n";

    Program program = build(source);
    if (!program)
      return {};
    Kernel k = kernel(program, "run");
    std::vector<Mem> buffers;
    for (const Input &in : inputs) {
      std::vector<unsigned char> bytes = in.bytes;
      bytes.resize((in.perItem ? items : lanes) * in.elementSize);
      buffers.push_back(buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data()));
    }
    for (const Output &out : outputs)
      buffers.push_back(buffer(CL_MEM_WRITE_ONLY, (out.perItem ? items : lanes) * out.elementSize));
    for (cl_uint b = 0; b < buffers.size(); ++b)
      EXPECT_CL(setArg(k, b, buffers[b].get()));
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    std::vector<std::vector<unsigned char>> results;
    for (size_t o = 0; o < outputs.size(); ++o)
      results.push_back(read<unsigned char>(buffers[inputs.size() + o],
                                            (outputs[o].perItem ? items : lanes) * outputs[o].elementSize));
    if (testing::Test::HasFailure())
      return {};
    return results;
  }
};

/// The vector widths the tests cover, scalars (1) included.
inline const std::vector<unsigned> &allWidths() {
  static const std::vector<unsigned> widths = {1, 2, 3, 4, 8, 16};
  return widths;
}

/// Lanes per run: a multiple of every width (48 = lcm(1, 2, 3, 4, 8, 16)).
constexpr size_t kLaneUnit = 48;

/// Rounds n up to a multiple of kLaneUnit.
inline size_t laneCount(size_t n) { return (n + kLaneUnit - 1) / kLaneUnit * kLaneUnit; }

/// Distance in units in the last place of `expected` (as T), for checks of
/// floating-point results against a more precise reference.
template <class T> double ulpError(T actual, long double expected) {
  if (std::isnan(expected))
    return std::isnan(actual) ? 0 : INFINITY;
  if (std::isinf(static_cast<T>(expected))) // beyond the range of T
    return actual == static_cast<T>(expected) ? 0 : INFINITY;
  if (std::isinf(actual))
    return INFINITY;
  int exponent = 0;
  if (static_cast<T>(expected) != 0)
    std::frexp(static_cast<T>(expected), &exponent);
  else
    exponent = std::numeric_limits<T>::min_exponent;
  // The ulp of the expected magnitude, never below the smallest denormal.
  const int minExponent = std::numeric_limits<T>::min_exponent;
  const int digits = std::numeric_limits<T>::digits;
  long double ulp = std::ldexp(1.0L, std::max(exponent, minExponent) - digits);
  return static_cast<double>(std::fabs(static_cast<long double>(actual) - expected) / ulp);
}

template <class T> std::string hex(T value) {
  char text[64];
  std::snprintf(text, sizeof text, "%La", static_cast<long double>(value));
  return text;
}

/// Floating-point edge values (zeros, denormals, extremes, infinities, NaN)
/// and a few ordinary ones, shared by the floating-point builtin tests.
template <class T> std::vector<T> specialValues() {
  using L = std::numeric_limits<T>;
  return {0,
          -0.0,
          1,
          -1,
          L::denorm_min(),
          -L::denorm_min(),
          L::min(),
          -L::min(),
          L::max(),
          -L::max(),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          T(3.14159265),
          T(-2.5e-30),
          T(1.25e30),
          T(0.5),
          T(-1e-40),
          T(7e-310),
          T(180),
          T(-360)};
}

} // namespace cltest::builtins
