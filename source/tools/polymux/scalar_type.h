// The OpenCL C element types `polymux run` reads, writes, generates and
// compares: char to ulong, float and double, and their vectors.
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace polymux::tool {

enum class ScalarKind { Signed, Unsigned, Float };

struct ScalarType {
  std::string_view name;
  ScalarKind kind;
  unsigned bytes;
};

/// A scalar or vector type: `lanes` values of `scalar`, stored in `slots`
/// (a 3-vector takes the room of a 4-vector, as in OpenCL C).
struct ElementType {
  const ScalarType *scalar = nullptr;
  unsigned lanes = 1;
  unsigned slots = 1;

  size_t bytes() const { return size_t(scalar->bytes) * slots; }
  std::string name() const;
};

/// "int", "float4", "uchar16", ...; nothing for other names (half, structs).
std::optional<ElementType> parseElementType(std::string_view name);

/// Writes `text` (a decimal, 0x hexadecimal or, for floats, any strtod
/// number, inf or nan) as a value of `type` to `out`. Fails on text that is
/// no number or out of the type's range.
llvm::Error parseScalar(const ScalarType &type, std::string_view text, std::byte *out);

/// Writes `index` as a value of `type` (integers wrap around, floats round).
void storeIndex(const ScalarType &type, uint64_t index, std::byte *out);

/// The value at `value` as text: integers in decimal, floats with enough
/// digits to tell any two apart.
std::string formatScalar(const ScalarType &type, const std::byte *value);

/// How far apart two values are: for floats the number of representable
/// values between them (0 for equal values, +0 and -0, or two NaNs), for
/// integers 0 or, when they differ, UINT64_MAX.
uint64_t distance(const ScalarType &type, const std::byte *a, const std::byte *b);

/// Random values of a type: uniform in [low, high) for floats (default
/// [-1, 1)), uniform in [low, high] for integers (default: the whole type).
class RandomValues {
public:
  /// `range` is "LOW..HIGH" or empty for the default.
  static llvm::Expected<RandomValues> create(const ScalarType &type, std::string_view range, uint64_t seed);
  void next(std::byte *out);

private:
  RandomValues(const ScalarType &type, uint64_t seed) : type_(&type), engine_(seed) {}
  const ScalarType *type_;
  std::mt19937_64 engine_;
  double lowFloat_ = -1, highFloat_ = 1;
  int64_t lowSigned_ = 0, highSigned_ = 0;
  uint64_t lowUnsigned_ = 0, highUnsigned_ = 0;
};

} // namespace polymux::tool
