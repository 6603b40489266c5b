// The printf ABI shared by the compiler (LowerPrintfPass) and the runtimes of
// CPU-like targets: the launch's printf buffer, how records are laid out in
// it, and the format table that says how to read them. The runtime allocates
// the buffer, zeroes `used`, sets `capacity`, hands it to the kernel through
// WorkGroupInfo::printfBuffer, and decodes it with decodePrintfBuffer
// (compiler/printf_decoder.h) when the launch ends.
//
// All integers are little-endian; nothing in the record space is aligned
// beyond what is stated, so readers use memcpy.
//
// Record space (after the header): records one after another from offset 0.
//   uint32 formatIndex   index into the format table
//   uint32 size          bytes of the whole record, header included; a
//                        multiple of 8 (records start 8-aligned)
//   the payload of each argument of the format's argument list, in order,
//   packed without padding (see PrintfArgKind), then padding up to `size`.
// A printf call claims `size` bytes with one atomic add on `used`; when the
// claim ends past `capacity` it writes nothing and returns -1. Targets
// without 64-bit atomics (vulkan) add to the low 32 bits of `used`, and only
// while they are below `capacity` (which is then below 2^31), so they never
// wrap; the high word stays 0. The one claim
// that straddles `capacity` writes kPrintfEndOfRecords as formatIndex at its
// offset when 8 bytes fit there, so readers stop at
// min(used, capacity), at kPrintfEndOfRecords, or where fewer than 8 bytes
// remain, whichever comes first.
//
// Format table (takePrintfTable() / CpuBinary::printfTable):
//   char   magic[4]        kPrintfTableMagic
//   uint32 formatCount
//   formatCount times:
//     uint32 formatLength, char format[formatLength]   the format string
//     uint32 argCount
//     argCount times: PrintfArgInfo (8 bytes), then, for ConstantString
//                     only, uint32 length, char text[length]
// Arguments pair with the format's conversion specifications in order:
// each `*` width or precision takes one (an Integer), then the conversion's
// value (none for %%). Specifications the format parser rejects take none.
#pragma once

#include <cstdint>

namespace compiler::abi {

struct PrintfBufferHeader {
  /// Bytes of record space after the header.
  uint64_t capacity;
  /// Bytes of record space claimed so far; kernels claim with an atomic add
  /// and write nothing when the claim would pass `capacity`.
  uint64_t used;
};

inline constexpr char kPrintfTableMagic[4] = {'P', 'M', 'X', 'F'};
/// formatIndex of the marker after the last complete record.
inline constexpr uint32_t kPrintfEndOfRecords = 0xffffffffu;
/// Bytes of a record's header (formatIndex, size).
inline constexpr uint32_t kPrintfRecordHeaderSize = 8;
/// Records start at multiples of this.
inline constexpr uint32_t kPrintfRecordAlignment = 8;

/// How one argument is stored in a record's payload.
enum class PrintfArgKind : uint8_t {
  /// payloadSize bytes: the argument's bytes as the kernel passed them;
  /// element i (of vectorWidth) at i * elementSize, two's complement.
  Integer = 0,
  /// As Integer, elements are IEEE binary16/32/64 by elementSize 2/4/8.
  Float = 1,
  /// 8 bytes: the address.
  Pointer = 2,
  /// No payload: the text is in the table (a %s of a string the compiler
  /// could resolve).
  ConstantString = 3,
  /// uint32 length (kPrintfNullString for a null pointer), then `length`
  /// bytes of text without the terminating NUL (a %s of a pointer only known
  /// at run time).
  RuntimeString = 4,
  /// No payload: the argument cannot be printed with its specification
  /// (e.g. a vector of another size); the specification is printed as
  /// written.
  Unprintable = 5,
};

inline constexpr uint32_t kPrintfNullString = 0xffffffffu;

/// One argument's entry in the format table.
struct PrintfArgInfo {
  PrintfArgKind kind;
  uint8_t elementSize; ///< bytes per element (Integer, Float, Pointer)
  uint8_t vectorWidth; ///< elements printed: 1 for scalars, else 2,3,4,8,16
  uint8_t reserved;
  uint32_t payloadSize; ///< bytes in the record (Integer, Float, Pointer)
};
static_assert(sizeof(PrintfArgInfo) == 8);

} // namespace compiler::abi
