#include "lower_printf_format.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace compiler::printf_format {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Reads decimal digits at `at`, saturating at INT_MAX.
int readNumber(std::string_view format, size_t &at) {
  long value = 0;
  while (at < format.size() && isDigit(format[at])) {
    value = std::min<long>(value * 10 + (format[at] - '0'), INT_MAX);
    ++at;
  }
  return static_cast<int>(value);
}

bool validVectorWidth(unsigned width) { return width == 2 || width == 3 || width == 4 || width == 8 || width == 16; }

bool isValid(const Specification &spec) {
  if (spec.conversion == 0)
    return false;
  if (spec.conversion == '%')
    return spec.text == "%%";
  if (spec.vectorWidth != 0) {
    if (!validVectorWidth(spec.vectorWidth))
      return false;
    if (spec.isInteger())
      return true;
    // halfn (h), floatn (hl), doublen (l), or inferred from the argument.
    return spec.isFloat() && spec.length != Length::Char;
  }
  if (spec.length == Length::Int)
    return false; // hl is only defined with a vector specifier
  if (spec.isInteger())
    return true;
  if (spec.isFloat())
    return spec.length != Length::Char;
  // c, s, p: no length modifier.
  return std::strchr("csp", spec.conversion) != nullptr && spec.length == Length::None;
}

} // namespace

bool Specification::isInteger() const { return conversion && std::strchr("diouxX", conversion); }
bool Specification::isFloat() const { return conversion && std::strchr("fFeEgGaA", conversion); }

unsigned Specification::argumentCount() const {
  if (!valid)
    return 0;
  return unsigned(widthFromArgument) + unsigned(precisionFromArgument) + unsigned(conversion != '%');
}

std::vector<Piece> parse(std::string_view format) {
  std::vector<Piece> pieces;
  auto appendLiteral = [&](std::string_view text) {
    if (text.empty())
      return;
    if (pieces.empty() || pieces.back().isSpecification)
      pieces.emplace_back();
    pieces.back().literal.append(text);
  };
  size_t at = 0;
  while (at < format.size()) {
    size_t percent = format.find('%', at);
    if (percent == std::string_view::npos) {
      appendLiteral(format.substr(at));
      break;
    }
    appendLiteral(format.substr(at, percent - at));
    Specification spec;
    at = percent + 1;
    while (at < format.size() && std::strchr("-+ #0", format[at]) && format[at] != '\0')
      spec.flags.push_back(format[at++]);
    if (at < format.size() && format[at] == '*') {
      spec.widthFromArgument = true;
      ++at;
    } else if (at < format.size() && isDigit(format[at])) {
      spec.width = readNumber(format, at);
    }
    if (at < format.size() && format[at] == '.') {
      ++at;
      if (at < format.size() && format[at] == '*') {
        spec.precisionFromArgument = true;
        ++at;
      } else {
        spec.precision = readNumber(format, at);
      }
    }
    if (at < format.size() && format[at] == 'v') {
      ++at;
      spec.vectorWidth = at < format.size() && isDigit(format[at]) ? unsigned(readNumber(format, at)) : 1;
    }
    if (format.substr(at).starts_with("hh")) {
      spec.length = Length::Char;
      at += 2;
    } else if (format.substr(at).starts_with("hl")) {
      spec.length = Length::Int;
      at += 2;
    } else if (format.substr(at).starts_with("h")) {
      spec.length = Length::Short;
      at += 1;
    } else if (format.substr(at).starts_with("l")) {
      spec.length = Length::Long;
      at += 1;
    }
    if (at < format.size() && std::strchr("diouxXfFeEgGaAcsp%", format[at]) && format[at] != '\0')
      spec.conversion = format[at++];
    spec.text = format.substr(percent, at - percent);
    spec.valid = isValid(spec);
    if (spec.valid && spec.conversion == '%') {
      appendLiteral("%");
      continue;
    }
    Piece piece;
    piece.isSpecification = true;
    piece.specification = std::move(spec);
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

} // namespace compiler::printf_format
