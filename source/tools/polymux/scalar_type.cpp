#include "scalar_type.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace polymux::tool {
namespace {

constexpr ScalarType kScalarTypes[] = {
    {"char", ScalarKind::Signed, 1},     {"uchar", ScalarKind::Unsigned, 1}, {"short", ScalarKind::Signed, 2},
    {"ushort", ScalarKind::Unsigned, 2}, {"int", ScalarKind::Signed, 4},     {"uint", ScalarKind::Unsigned, 4},
    {"long", ScalarKind::Signed, 8},     {"ulong", ScalarKind::Unsigned, 8}, {"float", ScalarKind::Float, 4},
    {"double", ScalarKind::Float, 8},
};

int64_t signedMin(unsigned bytes) { return bytes == 8 ? INT64_MIN : -(int64_t(1) << (bytes * 8 - 1)); }
int64_t signedMax(unsigned bytes) { return bytes == 8 ? INT64_MAX : (int64_t(1) << (bytes * 8 - 1)) - 1; }
uint64_t unsignedMax(unsigned bytes) { return bytes == 8 ? UINT64_MAX : (uint64_t(1) << (bytes * 8)) - 1; }

void storeInteger(uint64_t bits, unsigned bytes, std::byte *out) {
  // Little endian, as every Polymux device is.
  for (unsigned i = 0; i < bytes; ++i)
    out[i] = std::byte(bits >> (8 * i));
}

uint64_t loadBits(unsigned bytes, const std::byte *value) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < bytes; ++i)
    bits |= uint64_t(value[i]) << (8 * i);
  return bits;
}

int64_t loadSigned(unsigned bytes, const std::byte *value) {
  uint64_t bits = loadBits(bytes, value);
  if (bytes < 8 && (bits >> (bytes * 8 - 1)) & 1)
    bits |= ~uint64_t(0) << (bytes * 8); // sign-extend
  return static_cast<int64_t>(bits);
}

void storeFloat(const ScalarType &type, double value, std::byte *out) {
  if (type.bytes == 4) {
    float narrow = static_cast<float>(value);
    std::memcpy(out, &narrow, 4);
  } else {
    std::memcpy(out, &value, 8);
  }
}

double loadFloat(const ScalarType &type, const std::byte *value) {
  if (type.bytes == 4) {
    float narrow;
    std::memcpy(&narrow, value, 4);
    return narrow;
  }
  double wide;
  std::memcpy(&wide, value, 8);
  return wide;
}

/// Floats mapped onto integers in value order: neighbours differ by one,
/// and +0 and -0 both map to 0.
int64_t orderedBits(const ScalarType &type, const std::byte *value) {
  uint64_t bits = loadBits(type.bytes, value);
  const uint64_t sign = uint64_t(1) << (type.bytes * 8 - 1);
  int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

llvm::Error badNumber(const ScalarType &type, std::string_view text, const char *why) {
  return llvm::createStringError("'%.*s' is not a %.*s value: %s", int(text.size()), text.data(), int(type.name.size()),
                                 type.name.data(), why);
}

} // namespace

std::string ElementType::name() const {
  std::string result(scalar->name);
  if (lanes > 1)
    result += std::to_string(lanes);
  return result;
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const ScalarType &type : kScalarTypes) {
    if (!name.starts_with(type.name))
      continue;
    std::string_view width = name.substr(type.name.size());
    if (width.empty())
      return ElementType{&type, 1, 1};
    for (unsigned lanes : {2u, 3u, 4u, 8u, 16u})
      if (width == std::to_string(lanes))
        return ElementType{&type, lanes, lanes == 3 ? 4u : lanes};
  }
  return std::nullopt;
}

llvm::Error parseScalar(const ScalarType &type, std::string_view text, std::byte *out) {
  llvm::StringRef word = llvm::StringRef(text.data(), text.size()).trim();
  if (word.empty())
    return badNumber(type, text, "empty");
  if (type.kind == ScalarKind::Float) {
    std::string copy = word.str();
    char *end = nullptr;
    double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
      return badNumber(type, text, "not a number");
    storeFloat(type, value, out);
    return llvm::Error::success();
  }
  if (type.kind == ScalarKind::Signed) {
    int64_t value;
    if (word.getAsInteger(0, value))
      return badNumber(type, text, "not an integer");
    if (value < signedMin(type.bytes) || value > signedMax(type.bytes))
      return badNumber(type, text, "out of range");
    storeInteger(static_cast<uint64_t>(value), type.bytes, out);
    return llvm::Error::success();
  }
  uint64_t value;
  if (word.getAsInteger(0, value))
    return badNumber(type, text, "not an unsigned integer");
  if (value > unsignedMax(type.bytes))
    return badNumber(type, text, "out of range");
  storeInteger(value, type.bytes, out);
  return llvm::Error::success();
}

void storeIndex(const ScalarType &type, uint64_t index, std::byte *out) {
  if (type.kind == ScalarKind::Float)
    storeFloat(type, static_cast<double>(index), out);
  else
    storeInteger(index, type.bytes, out);
}

std::string formatScalar(const ScalarType &type, const std::byte *value) {
  char text[64];
  switch (type.kind) {
  case ScalarKind::Float:
    std::snprintf(text, sizeof text, "%.*g", type.bytes == 4 ? 9 : 17, loadFloat(type, value));
    return text;
  case ScalarKind::Signed:
    return std::to_string(loadSigned(type.bytes, value));
  case ScalarKind::Unsigned:
    return std::to_string(loadBits(type.bytes, value));
  }
  return "?";
}

uint64_t distance(const ScalarType &type, const std::byte *a, const std::byte *b) {
  if (type.kind != ScalarKind::Float)
    return std::memcmp(a, b, type.bytes) == 0 ? 0 : UINT64_MAX;
  double x = loadFloat(type, a);
  double y = loadFloat(type, b);
  if (std::isnan(x) || std::isnan(y))
    return std::isnan(x) && std::isnan(y) ? 0 : UINT64_MAX;
  int64_t i = orderedBits(type, a);
  int64_t j = orderedBits(type, b);
  return i > j ? uint64_t(i) - uint64_t(j) : uint64_t(j) - uint64_t(i);
}

llvm::Expected<RandomValues> RandomValues::create(const ScalarType &type, std::string_view range, uint64_t seed) {
  RandomValues values(type, seed);
  values.lowSigned_ = signedMin(type.bytes);
  values.highSigned_ = signedMax(type.bytes);
  values.highUnsigned_ = unsignedMax(type.bytes);
  if (range.empty())
    return values;
  size_t dots = range.find("..");
  if (dots == std::string_view::npos)
    return llvm::createStringError("a random range is LOW..HIGH, not '%.*s'", int(range.size()), range.data());
  std::byte low[8] = {}, high[8] = {};
  if (llvm::Error error = parseScalar(type, range.substr(0, dots), low))
    return error;
  if (llvm::Error error = parseScalar(type, range.substr(dots + 2), high))
    return error;
  switch (type.kind) {
  case ScalarKind::Float:
    values.lowFloat_ = loadFloat(type, low);
    values.highFloat_ = loadFloat(type, high);
    if (!(values.lowFloat_ < values.highFloat_) || !std::isfinite(values.highFloat_ - values.lowFloat_))
      return llvm::createStringError("random range '%.*s' is empty or not finite", int(range.size()), range.data());
    break;
  case ScalarKind::Signed:
    values.lowSigned_ = loadSigned(type.bytes, low);
    values.highSigned_ = loadSigned(type.bytes, high);
    break;
  case ScalarKind::Unsigned:
    values.lowUnsigned_ = loadBits(type.bytes, low);
    values.highUnsigned_ = loadBits(type.bytes, high);
    break;
  }
  if ((type.kind == ScalarKind::Signed && values.lowSigned_ > values.highSigned_) ||
      (type.kind == ScalarKind::Unsigned && values.lowUnsigned_ > values.highUnsigned_))
    return llvm::createStringError("random range '%.*s' is empty", int(range.size()), range.data());
  return values;
}

void RandomValues::next(std::byte *out) {
  switch (type_->kind) {
  case ScalarKind::Float: {
    double value = std::uniform_real_distribution<double>(lowFloat_, highFloat_)(engine_);
    storeFloat(*type_, value, out);
    return;
  }
  case ScalarKind::Signed:
    storeInteger(static_cast<uint64_t>(std::uniform_int_distribution<int64_t>(lowSigned_, highSigned_)(engine_)),
                 type_->bytes, out);
    return;
  case ScalarKind::Unsigned:
    storeInteger(std::uniform_int_distribution<uint64_t>(lowUnsigned_, highUnsigned_)(engine_), type_->bytes, out);
    return;
  }
}

} // namespace polymux::tool
