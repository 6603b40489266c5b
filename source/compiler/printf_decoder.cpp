// Formats printf records (compiler/abi/printf_abi.h) on the host: each
// conversion specification is printed with the C library's snprintf, and
// vector elements are joined with ',' as OpenCL C specifies. Everything
// read from the table and the buffer is bounds-checked: a corrupt record is
// skipped, a corrupt record size ends decoding.
#include "compiler/printf_decoder.h"

#include "compiler/abi/printf_abi.h"
#include "passes/lower_printf_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace compiler {
namespace {

using abi::PrintfArgInfo;
using abi::PrintfArgKind;
using printf_format::Length;
using printf_format::Specification;

/// Field widths and precisions are clamped to this, so that a corrupt or
/// absurd `*` argument cannot make the output huge.
constexpr int kMaxFieldWidth = 1 << 16;

/// Sequential bounds-checked reads from a byte range.
class Reader {
public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  bool read(void *out, size_t size) {
    if (size > bytes_.size() - at_)
      return false;
    std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
    return true;
  }
  template <typename T> bool read(T &value) { return read(&value, sizeof(T)); }
  bool readText(std::string &out, size_t size) {
    if (size > bytes_.size() - at_)
      return false;
    out.assign(reinterpret_cast<const char *>(bytes_.data() + at_), size);
    at_ += size;
    return true;
  }
  /// The next `size` bytes, consumed; empty when fewer remain.
  std::optional<std::span<const std::byte>> take(size_t size) {
    if (size > bytes_.size() - at_)
      return std::nullopt;
    auto part = bytes_.subspan(at_, size);
    at_ += size;
    return part;
  }
  size_t remaining() const { return bytes_.size() - at_; }

private:
  std::span<const std::byte> bytes_;
  size_t at_ = 0;
};

struct Argument {
  PrintfArgInfo info{};
  std::string text; ///< ConstantString
};

struct Format {
  std::string text;
  std::vector<printf_format::Piece> pieces; ///< views into `text`
  std::vector<Argument> arguments;
};

bool validArgument(const PrintfArgInfo &info) {
  auto oneOf = [](unsigned value, std::initializer_list<unsigned> allowed) {
    return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
  };
  switch (info.kind) {
  case PrintfArgKind::Integer:
  case PrintfArgKind::Float:
    return oneOf(info.elementSize, info.kind == PrintfArgKind::Float ? std::initializer_list<unsigned>{2, 4, 8}
                                                                     : std::initializer_list<unsigned>{1, 2, 4, 8}) &&
           info.vectorWidth >= 1 && info.vectorWidth <= 16 &&
           info.payloadSize >= uint32_t(info.elementSize) * info.vectorWidth;
  case PrintfArgKind::Pointer:
    return info.elementSize == 8 && info.vectorWidth == 1 && info.payloadSize == 8;
  case PrintfArgKind::ConstantString:
  case PrintfArgKind::RuntimeString:
  case PrintfArgKind::Unprintable:
    return true;
  }
  return false;
}

/// The table's formats, or nothing when it is malformed.
std::optional<std::vector<std::unique_ptr<Format>>> parseTable(std::span<const std::byte> table) {
  Reader reader(table);
  char magic[sizeof(abi::kPrintfTableMagic)];
  uint32_t count = 0;
  if (!reader.read(magic, sizeof(magic)) || std::memcmp(magic, abi::kPrintfTableMagic, sizeof(magic)) != 0 ||
      !reader.read(count) || count > reader.remaining() / 8)
    return std::nullopt;
  std::vector<std::unique_ptr<Format>> formats;
  formats.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    auto format = std::make_unique<Format>();
    uint32_t length = 0, arguments = 0;
    if (!reader.read(length) || !reader.readText(format->text, length) || !reader.read(arguments) ||
        arguments > reader.remaining() / sizeof(PrintfArgInfo))
      return std::nullopt;
    format->arguments.resize(arguments);
    for (Argument &argument : format->arguments) {
      if (!reader.read(argument.info) || !validArgument(argument.info))
        return std::nullopt;
      if (argument.info.kind == PrintfArgKind::ConstantString) {
        uint32_t textLength = 0;
        if (!reader.read(textLength) || !reader.readText(argument.text, textLength))
          return std::nullopt;
      }
    }
    format->pieces = printf_format::parse(format->text);
    formats.push_back(std::move(format));
  }
  return formats;
}

float halfToFloat(uint16_t half) {
  uint32_t sign = (half >> 15) & 1, exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), int(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

/// Element `index` of a value argument, as raw bits (zero-extended).
uint64_t elementBits(std::span<const std::byte> payload, const PrintfArgInfo &info, unsigned index) {
  uint64_t bits = 0;
  std::memcpy(&bits, payload.data() + size_t(index) * info.elementSize, info.elementSize);
  return bits;
}

int64_t signExtend(uint64_t bits, unsigned bytes) {
  if (bytes >= 8)
    return static_cast<int64_t>(bits);
  unsigned shift = 64 - bytes * 8;
  return static_cast<int64_t>(bits << shift) >> shift;
}

uint64_t truncate(uint64_t bits, unsigned bytes) {
  return bytes >= 8 ? bits : bits & ((uint64_t(1) << (bytes * 8)) - 1);
}

double elementAsDouble(std::span<const std::byte> payload, const PrintfArgInfo &info, unsigned index) {
  uint64_t bits = elementBits(payload, info, index);
  if (info.kind != PrintfArgKind::Float)
    return static_cast<double>(signExtend(bits, info.elementSize));
  if (info.elementSize == 2)
    return halfToFloat(static_cast<uint16_t>(bits));
  if (info.elementSize == 4) {
    float value;
    uint32_t word = static_cast<uint32_t>(bits);
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// `value` truncated towards zero, saturated to int64_t's range; NaN is 0.
/// (A plain conversion of a value out of range is undefined behaviour, and
/// a kernel may print any float with an integer conversion.)
int64_t saturatingInt64(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 0x1p63)
    return INT64_MAX;
  if (value < -0x1p63)
    return INT64_MIN;
  return static_cast<int64_t>(value);
}

/// The integer an integer conversion prints, as bits of its C type.
uint64_t elementAsInteger(std::span<const std::byte> payload, const PrintfArgInfo &info, unsigned index) {
  if (info.kind == PrintfArgKind::Float)
    return static_cast<uint64_t>(saturatingInt64(elementAsDouble(payload, info, index)));
  return elementBits(payload, info, index);
}

template <typename T> void appendFormatted(std::string &out, const std::string &format, T value) {
  char small[256];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  int size = std::snprintf(small, sizeof(small), format.c_str(), value);
  if (size < 0)
    return;
  if (size_t(size) < sizeof(small)) {
    out.append(small, size_t(size));
    return;
  }
  size_t old = out.size();
  out.resize(old + size_t(size) + 1);
  std::snprintf(out.data() + old, size_t(size) + 1, format.c_str(), value);
#pragma GCC diagnostic pop
  out.resize(old + size_t(size));
}

/// How one specification prints, once `*` arguments are applied.
struct Conversion {
  const Specification &spec;
  std::string flags;
  int width;
  int precision;

  /// "%<flags><width>.<precision><length><conversion>" for the host's
  /// snprintf.
  std::string hostFormat(const char *length, char conversion) const {
    std::string format(1, '%');
    format += flags;
    if (width >= 0)
      format += std::to_string(width);
    if (precision >= 0) {
      format += '.';
      format += std::to_string(precision);
    }
    format += length;
    format += conversion;
    return format;
  }
};

/// Bytes of the C type an integer conversion of a scalar prints.
unsigned scalarIntegerBytes(Length length) {
  switch (length) {
  case Length::Char:
    return 1;
  case Length::Short:
    return 2;
  case Length::Long:
    return 8;
  default:
    return 4;
  }
}

void appendElement(std::string &out, const Conversion &conversion, std::span<const std::byte> payload,
                   const PrintfArgInfo &info, unsigned index) {
  const Specification &spec = conversion.spec;
  char letter = spec.conversion;
  if (spec.isFloat()) {
    appendFormatted(out, conversion.hostFormat("", letter), elementAsDouble(payload, info, index));
    return;
  }
  uint64_t bits = elementAsInteger(payload, info, index);
  if (letter == 'c') {
    appendFormatted(out, conversion.hostFormat("", 'c'), static_cast<int>(static_cast<unsigned char>(bits)));
    return;
  }
  if (letter == 'p') {
    appendFormatted(out, conversion.hostFormat("", 'p'), reinterpret_cast<void *>(static_cast<uintptr_t>(bits)));
    return;
  }
  // A vector's elements have the vector's element type; a scalar has the
  // type its length modifier names (it was promoted when passed).
  unsigned bytes = spec.vectorWidth != 0 ? info.elementSize : scalarIntegerBytes(spec.length);
  if (letter == 'd' || letter == 'i')
    appendFormatted(out, conversion.hostFormat("ll", letter), static_cast<long long>(signExtend(bits, bytes)));
  else
    appendFormatted(out, conversion.hostFormat("ll", letter), static_cast<unsigned long long>(truncate(bits, bytes)));
}

/// Formats one record's arguments; nothing when the payload does not match
/// the table.
class RecordFormatter {
public:
  RecordFormatter(const Format &format, std::span<const std::byte> payload) : format_(format), reader_(payload) {}

  std::optional<std::string> run() {
    std::string out;
    for (const printf_format::Piece &piece : format_.pieces) {
      if (!piece.isSpecification) {
        out += piece.literal;
        continue;
      }
      if (!appendSpecification(out, piece.specification))
        return std::nullopt;
    }
    return out;
  }

private:
  /// The next argument, or null when the call passed too few.
  const Argument *next() { return argument_ < format_.arguments.size() ? &format_.arguments[argument_++] : nullptr; }

  /// Reads an Integer argument for a `*`; false on a short payload.
  bool readStar(const Argument &argument, std::optional<int64_t> &value) {
    if (argument.info.kind != PrintfArgKind::Integer && argument.info.kind != PrintfArgKind::Float)
      return skip(argument);
    auto payload = reader_.take(argument.info.payloadSize);
    if (!payload)
      return false;
    value = argument.info.kind == PrintfArgKind::Float
                ? saturatingInt64(elementAsDouble(*payload, argument.info, 0))
                : signExtend(elementBits(*payload, argument.info, 0), std::min<unsigned>(argument.info.elementSize, 4));
    return true;
  }

  /// Consumes an argument's payload without printing it.
  bool skip(const Argument &argument) {
    switch (argument.info.kind) {
    case PrintfArgKind::Integer:
    case PrintfArgKind::Float:
    case PrintfArgKind::Pointer:
      return reader_.take(argument.info.payloadSize).has_value();
    case PrintfArgKind::RuntimeString: {
      uint32_t length = 0;
      if (!reader_.read(length))
        return false;
      return length == abi::kPrintfNullString || reader_.take(length).has_value();
    }
    default:
      return true;
    }
  }

  bool appendSpecification(std::string &out, const Specification &spec) {
    if (!spec.valid) {
      out += spec.text;
      return true;
    }
    Conversion conversion{spec, spec.flags, std::min(spec.width, kMaxFieldWidth),
                          std::min(spec.precision, kMaxFieldWidth)};
    for (bool isWidth : {true, false}) {
      if (!(isWidth ? spec.widthFromArgument : spec.precisionFromArgument))
        continue;
      const Argument *argument = next();
      if (!argument) {
        out += spec.text;
        return true;
      }
      std::optional<int64_t> value;
      if (!readStar(*argument, value))
        return false;
      if (!value)
        continue;
      if (isWidth) {
        // A negative width is a '-' flag and a positive width.
        if (*value < 0)
          conversion.flags += '-';
        conversion.width =
            static_cast<int>(std::min<int64_t>(std::abs(std::max<int64_t>(*value, -INT32_MAX)), kMaxFieldWidth));
      } else {
        // A negative precision is as if it were omitted.
        conversion.precision = *value < 0 ? -1 : static_cast<int>(std::min<int64_t>(*value, kMaxFieldWidth));
      }
    }
    const Argument *argument = next();
    if (!argument) {
      out += spec.text; // fewer arguments than the format needs
      return true;
    }
    return appendValue(out, conversion, *argument);
  }

  bool appendValue(std::string &out, const Conversion &conversion, const Argument &argument) {
    const Specification &spec = conversion.spec;
    const PrintfArgInfo &info = argument.info;
    switch (info.kind) {
    case PrintfArgKind::Unprintable:
      out += spec.text;
      return true;
    case PrintfArgKind::ConstantString:
    case PrintfArgKind::RuntimeString: {
      std::string text = argument.text;
      bool isNull = false;
      if (info.kind == PrintfArgKind::RuntimeString) {
        uint32_t length = 0;
        if (!reader_.read(length))
          return false;
        isNull = length == abi::kPrintfNullString;
        if (!isNull && !reader_.readText(text, length))
          return false;
      }
      if (spec.conversion != 's') {
        out += spec.text;
        return true;
      }
      appendFormatted(out, conversion.hostFormat("", 's'), isNull ? "(null)" : text.c_str());
      return true;
    }
    default:
      break;
    }
    auto payload = reader_.take(info.payloadSize);
    if (!payload)
      return false;
    if (spec.conversion == 's') {
      out += spec.text; // not a string
      return true;
    }
    unsigned width = spec.vectorWidth != 0 ? spec.vectorWidth : 1;
    if (width > info.vectorWidth) {
      out += spec.text;
      return true;
    }
    for (unsigned i = 0; i < width; ++i) {
      if (i != 0)
        out += ',';
      appendElement(out, conversion, *payload, info, i);
    }
    return true;
  }

  const Format &format_;
  Reader reader_;
  size_t argument_ = 0;
};

} // namespace

std::string decodePrintfBuffer(std::span<const std::byte> table, const void *buffer) {
  if (!buffer)
    return {};
  auto formats = parseTable(table);
  if (!formats)
    return {};
  abi::PrintfBufferHeader header;
  std::memcpy(&header, buffer, sizeof(header));
  const uint64_t limit = std::min(header.used, header.capacity);
  const auto *records = static_cast<const std::byte *>(buffer) + sizeof(header);
  std::string out;
  uint64_t offset = 0;
  while (limit - offset >= abi::kPrintfRecordHeaderSize) {
    uint32_t index = 0, size = 0;
    std::memcpy(&index, records + offset, sizeof(index));
    std::memcpy(&size, records + offset + 4, sizeof(size));
    if (index == abi::kPrintfEndOfRecords)
      break;
    // A size that cannot be right leaves no way to find the next record.
    if (size < abi::kPrintfRecordHeaderSize || size % abi::kPrintfRecordAlignment != 0 || size > limit - offset)
      break;
    if (index < formats->size()) {
      std::span<const std::byte> payload(records + offset + abi::kPrintfRecordHeaderSize,
                                         size - abi::kPrintfRecordHeaderSize);
      if (std::optional<std::string> text = RecordFormatter(*(*formats)[index], payload).run())
        out += *text;
    }
    offset += size;
  }
  return out;
}

} // namespace compiler
