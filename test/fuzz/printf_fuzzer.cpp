// The printf decoder (compiler/printf_decoder.h): a format table and a
// printf buffer, both fuzzed. An input is
//
//   u32 table size, table bytes, u64 `used`, u64 `capacity`, record space
//
// The runtime guarantees only that the buffer holds `capacity` bytes of
// record space; everything else (the table, `used`, the records the kernels
// wrote) is taken as it comes, so `capacity` is cut to the record space the
// input has and the rest is fuzzed freely.
#include "compiler/abi/printf_abi.h"
#include "compiler/printf_decoder.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using compiler::abi::PrintfBufferHeader;
  uint32_t tableSize = 0;
  if (size < sizeof tableSize)
    return 0;
  std::memcpy(&tableSize, data, sizeof tableSize);
  data += sizeof tableSize;
  size -= sizeof tableSize;
  tableSize = static_cast<uint32_t>(std::min<size_t>(tableSize, size));
  std::vector<std::byte> table(reinterpret_cast<const std::byte *>(data),
                               reinterpret_cast<const std::byte *>(data) + tableSize);
  data += tableSize;
  size -= tableSize;

  PrintfBufferHeader header{};
  size_t headerBytes = std::min(size, sizeof header);
  // used, then capacity, as the fields are laid out in the input.
  uint64_t fields[2] = {0, 0};
  std::memcpy(fields, data, headerBytes);
  data += headerBytes;
  size -= headerBytes;
  header.used = fields[0];
  header.capacity = std::min<uint64_t>(fields[1], size);

  // The header and exactly `capacity` bytes of record space, in one block
  // (decodePrintfBuffer reads the records after the header).
  std::vector<std::byte> buffer(sizeof header + header.capacity);
  std::memcpy(buffer.data(), &header, sizeof header);
  std::memcpy(buffer.data() + sizeof header, data, header.capacity);
  std::string text = compiler::decodePrintfBuffer(table, buffer.data());
  (void)text;
  return 0;
}
