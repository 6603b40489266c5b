#include "reference.h"

#include <algorithm>

namespace stress::reference {

uint32_t spin(uint32_t x, uint64_t steps) {
  // (a, c) is the map x -> a x + c; applying (a2, c2) after (a1, c1) gives
  // (a2 a1, a2 c1 + c2). Square the map for every bit of `steps`.
  uint32_t a = 1, c = 0; // the identity, accumulated
  uint32_t pa = kSpinMultiplier, pc = kSpinIncrement;
  for (; steps; steps >>= 1) {
    if (steps & 1) {
      c = pa * c + pc;
      a = pa * a;
    }
    pc = pa * pc + pc;
    pa = pa * pa;
  }
  return a * x + c;
}

std::vector<uint32_t> scaleAdd(const std::vector<uint32_t> &in, uint32_t a, uint32_t b) {
  std::vector<uint32_t> out(in.size());
  std::transform(in.begin(), in.end(), out.begin(), [&](uint32_t v) { return v * a + b; });
  return out;
}

std::vector<uint32_t> salted(std::vector<uint32_t> data, uint32_t scale, uint32_t salt) {
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = data[i] * scale + salt + static_cast<uint32_t>(i);
  return data;
}

std::vector<uint32_t> reverseInGroups(const std::vector<uint32_t> &in, size_t group) {
  std::vector<uint32_t> out(in);
  for (size_t base = 0; base + group <= out.size(); base += group)
    std::reverse(out.begin() + base, out.begin() + base + group);
  return out;
}

} // namespace stress::reference
