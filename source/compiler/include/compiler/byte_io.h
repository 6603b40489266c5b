// Little-endian writer and bounds-checked reader for the compiler's binary
// formats (cpu_binary.h, serialized modules).
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

class ByteWriter {
public:
  void u32(uint32_t value) { integer(value, 4); }
  void u64(uint64_t value) { integer(value, 8); }
  void bytes(std::span<const std::byte> data) {
    u64(data.size());
    raw(data.data(), data.size());
  }
  void string(std::string_view text) {
    u32(static_cast<uint32_t>(text.size()));
    raw(text.data(), text.size());
  }
  void raw(const void *data, size_t size) {
    const auto *begin = static_cast<const std::byte *>(data);
    out_.insert(out_.end(), begin, begin + size);
  }
  std::vector<std::byte> &data() { return out_; }
  std::vector<std::byte> take() { return std::move(out_); }

private:
  void integer(uint64_t value, unsigned size) {
    for (unsigned i = 0; i < size; ++i)
      out_.push_back(static_cast<std::byte>(value >> (8 * i)));
  }
  std::vector<std::byte> out_;
};

/// Every read fails (sets failed()) instead of reading past the end.
class ByteReader {
public:
  explicit ByteReader(std::span<const std::byte> data) : data_(data) {}
  bool failed() const { return failed_; }
  bool atEnd() const { return position_ == data_.size(); }
  size_t position() const { return position_; }

  uint32_t u32() { return static_cast<uint32_t>(integer(4)); }
  uint64_t u64() { return integer(8); }
  std::span<const std::byte> raw(size_t size) {
    if (failed_ || size > data_.size() - position_) {
      failed_ = true;
      return {};
    }
    auto result = data_.subspan(position_, size);
    position_ += size;
    return result;
  }
  std::vector<std::byte> bytes() {
    auto span = raw(u64());
    return {span.begin(), span.end()};
  }
  std::string string() {
    auto span = raw(u32());
    return {reinterpret_cast<const char *>(span.data()), span.size()};
  }

private:
  uint64_t integer(unsigned size) {
    auto span = raw(size);
    uint64_t value = 0;
    for (unsigned i = 0; i < span.size(); ++i)
      value |= static_cast<uint64_t>(span[i]) << (8 * i);
    return value;
  }
  std::span<const std::byte> data_;
  size_t position_ = 0;
  bool failed_ = false;
};

} // namespace compiler
