// Pieces of OpenCL C text the generated kernels of several widths share.
#pragma once

#include <cstdio>
#include <string>

namespace bench {

/// "float" for width 1, else "float<width>".
inline std::string floatType(unsigned width) { return width == 1 ? "float" : "float" + std::to_string(width); }

/// The sum of `variable`'s lanes, left to right ("v.s0 + v.s1 + ..."); the
/// variable itself for width 1.
inline std::string laneSum(const std::string &variable, unsigned width) {
  if (width == 1)
    return variable;
  std::string sum = variable + ".s0";
  for (unsigned lane = 1; lane < width; ++lane) {
    char text[16];
    std::snprintf(text, sizeof text, ".s%X", lane);
    sum += " + " + variable + text;
  }
  return sum;
}

} // namespace bench
