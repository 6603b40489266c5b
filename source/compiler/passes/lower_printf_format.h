// The OpenCL C printf format grammar (OpenCL C 3.0, 6.15.14.2), shared by
// LowerPrintfPass, which stores each conversion's argument, and the decoder,
// which prints them: both must split a format into the same specifications
// and give each the same arguments.
//
//   %[flags][width][.precision][vector][length]conversion
//   flags: - + space # 0     width, precision: digits or *
//   vector: vN with N in 2, 3, 4, 8, 16
//   length: hh h hl l (hl only with a vector)
//   conversion: d i o u x X f F e E g G a A c s p %
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace compiler::printf_format {

enum class Length : uint8_t { None, Char, Short, Int, Long }; // -, hh, h, hl, l

struct Specification {
  /// The whole specification as written, from '%' to the conversion (or to
  /// where parsing stopped).
  std::string_view text;
  std::string flags;
  int width = -1; ///< -1 when absent
  bool widthFromArgument = false;
  int precision = -1; ///< -1 when absent
  bool precisionFromArgument = false;
  unsigned vectorWidth = 0; ///< 0 for a scalar
  Length length = Length::None;
  char conversion = 0;
  /// False for specifications OpenCL C leaves undefined (unknown
  /// conversion, hl without a vector, a vector of %c, ...): they take no
  /// argument and are printed as written.
  bool valid = false;

  bool isInteger() const;
  bool isFloat() const;
  /// Arguments the specification consumes: the `*`s and the value.
  unsigned argumentCount() const;
};

/// Literal text (with "%%" already turned into "%") or a specification.
struct Piece {
  std::string literal;
  bool isSpecification = false;
  Specification specification;
};

std::vector<Piece> parse(std::string_view format);

} // namespace compiler::printf_format
