// printf on CPU targets: the decoder on hand-made tables and buffers
// (including corrupt ones), and LowerPrintfPass end to end through the host
// compiler and JIT, checked against the C library's snprintf.
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/abi/printf_abi.h"
#include "compiler/printf_decoder.h"

#include "test_support.h"

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace compiler::test {
namespace {

using abi::PrintfArgInfo;
using abi::PrintfArgKind;

std::string cFormat(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string cFormat(const char *format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  int size = std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return std::string(text, size > 0 ? std::min<size_t>(size, sizeof(text) - 1) : 0);
}

// ---- Hand-made tables and buffers ------------------------------------------

void appendRaw(std::vector<std::byte> &out, const void *data, size_t size) {
  const auto *bytes = static_cast<const std::byte *>(data);
  out.insert(out.end(), bytes, bytes + size);
}
void appendU32(std::vector<std::byte> &out, uint32_t value) { appendRaw(out, &value, sizeof(value)); }

PrintfArgInfo valueArg(PrintfArgKind kind, uint8_t elementSize, uint8_t width = 1) {
  uint32_t payload = uint32_t(elementSize) * (width == 3 ? 4 : width);
  return PrintfArgInfo{kind, elementSize, width, 0, payload};
}
PrintfArgInfo intArg(uint8_t size = 4) { return valueArg(PrintfArgKind::Integer, size); }
PrintfArgInfo doubleArg() { return valueArg(PrintfArgKind::Float, 8); }

struct TableArg {
  TableArg(PrintfArgInfo info, std::string text = {}) : info(info), text(std::move(text)) {}
  PrintfArgInfo info;
  std::string text; // ConstantString
};

class TableBuilder {
public:
  TableBuilder &add(const std::string &format, const std::vector<TableArg> &args) {
    ++count_;
    appendU32(entries_, uint32_t(format.size()));
    appendRaw(entries_, format.data(), format.size());
    appendU32(entries_, uint32_t(args.size()));
    for (const TableArg &arg : args) {
      appendRaw(entries_, &arg.info, sizeof(arg.info));
      if (arg.info.kind == PrintfArgKind::ConstantString) {
        appendU32(entries_, uint32_t(arg.text.size()));
        appendRaw(entries_, arg.text.data(), arg.text.size());
      }
    }
    return *this;
  }
  std::vector<std::byte> bytes() const {
    std::vector<std::byte> out;
    appendRaw(out, abi::kPrintfTableMagic, sizeof(abi::kPrintfTableMagic));
    appendU32(out, count_);
    out.insert(out.end(), entries_.begin(), entries_.end());
    return out;
  }

private:
  uint32_t count_ = 0;
  std::vector<std::byte> entries_;
};

/// A printf buffer: header then records, as kernels write it.
class BufferBuilder {
public:
  explicit BufferBuilder(uint64_t capacity = 4096) : words_((sizeof(abi::PrintfBufferHeader) + capacity + 7) / 8) {
    header().capacity = capacity;
    header().used = 0;
  }
  /// Appends a record with the given payload bytes (size rounded up).
  BufferBuilder &record(uint32_t index, const std::vector<std::byte> &payload) {
    uint32_t size = uint32_t((abi::kPrintfRecordHeaderSize + payload.size() + 7) / 8 * 8);
    std::byte *at = records() + header().used;
    std::memcpy(at, &index, 4);
    std::memcpy(at + 4, &size, 4);
    if (!payload.empty()) // memcpy from an empty vector's null data() is undefined
      std::memcpy(at + 8, payload.data(), payload.size());
    header().used += size;
    return *this;
  }
  abi::PrintfBufferHeader &header() { return *reinterpret_cast<abi::PrintfBufferHeader *>(words_.data()); }
  std::byte *records() { return reinterpret_cast<std::byte *>(words_.data()) + sizeof(abi::PrintfBufferHeader); }
  const void *data() const { return words_.data(); }

private:
  std::vector<uint64_t> words_;
};

struct Payload {
  std::vector<std::byte> bytes;
  template <typename T> Payload &add(const T &value) {
    appendRaw(bytes, &value, sizeof(value));
    return *this;
  }
  Payload &string(const std::string &text) {
    add(uint32_t(text.size()));
    appendRaw(bytes, text.data(), text.size());
    return *this;
  }
};

std::string decodeOne(const std::string &format, const std::vector<TableArg> &args, const Payload &payload) {
  auto table = TableBuilder().add(format, args).bytes();
  BufferBuilder buffer;
  buffer.record(0, payload.bytes);
  return decodePrintfBuffer(table, buffer.data());
}

TEST(PrintfDecoder, IntegerConversionsMatchSnprintf) {
  struct Case {
    const char *format;
    int value;
  } cases[] = {{"%d", -42},   {"%5d", 10},    {"%-5d|", 10},     {"%05d", -10}, {"%+5d", 10}, {"% d", 7},
               {"%.5i", 100}, {"%6.5i", 100}, {"%-06i|", 100},   {"%o", 8},     {"%#o", 8},   {"%.5o", 10},
               {"%u", 10},    {"%.0u", 0},    {"%#x", 0xabcdef}, {"%#X", 0},    {"%8x", 399}, {"%04x", 399},
               {"%x", -1},    {"%c", 'B'},    {"%-4c|", '1'}};
  for (const Case &c : cases)
    EXPECT_EQ(decodeOne(c.format, {{intArg()}}, Payload().add(int32_t(c.value))), cFormat(c.format, c.value))
        << c.format;
}

TEST(PrintfDecoder, LengthModifiersTruncatePromotedScalars) {
  // char and short reach printf promoted to int; hh and h convert back.
  EXPECT_EQ(decodeOne("%hhd %hhu %hd %hx", {{intArg()}, {intArg()}, {intArg()}, {intArg()}},
                      Payload().add(int32_t(300)).add(int32_t(-1)).add(int32_t(70000)).add(int32_t(-2))),
            cFormat("%hhd %hhu %hd %hx", 300, -1, 70000, -2));
  EXPECT_EQ(decodeOne("%ld %lu %lx", {{intArg(8)}, {intArg(8)}, {intArg(8)}},
                      Payload().add(int64_t(-1234567890123)).add(uint64_t(18446744073709551615u)).add(int64_t(-1))),
            cFormat("%ld %lu %lx", -1234567890123L, 18446744073709551615UL, -1L));
}

TEST(PrintfDecoder, FloatConversionsMatchSnprintf) {
  const char *formats[] = {"%f",     "%.1f",  "%8.3f", "%08.2f",     "%-8.2f|",  "%+8.2f", "%.0f",
                           "%e",     "%E",    "%g",    "%4.2g",      "%G",       "%a",     "%.6a",
                           "%10.2A", "%#.0f", "%F",    "%-#20.15e|", "%+#21.15E"};
  const double values[] = {10.3456, -0.6, 12345.6789, 0.0000023, 789456123.0, INFINITY, -INFINITY, NAN};
  for (const char *format : formats)
    for (double value : values)
      EXPECT_EQ(decodeOne(format, {{doubleArg()}}, Payload().add(value)), cFormat(format, value))
          << format << " " << value;
}

TEST(PrintfDecoder, VectorsJoinElementsWithCommas) {
  float floats[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  EXPECT_EQ(decodeOne("%2.2v4hlf", {{valueArg(PrintfArgKind::Float, 4, 4)}}, Payload().add(floats)),
            "1.00,2.00,3.00,4.00");
  uint8_t chars[2] = {0xfa, 0xfb};
  EXPECT_EQ(decodeOne("%#v2hhx", {{valueArg(PrintfArgKind::Integer, 1, 2)}}, Payload().add(chars)), "0xfa,0xfb");
  int16_t shorts[4] = {-1, 2, -3, 0x7777}; // a 3-vector is stored as 4 elements
  EXPECT_EQ(decodeOne("%v3hd", {{valueArg(PrintfArgKind::Integer, 2, 3)}}, Payload().add(shorts)), "-1,2,-3");
  int64_t longs[2] = {12345678, -98765432};
  EXPECT_EQ(decodeOne("%v2ld", {{valueArg(PrintfArgKind::Integer, 8, 2)}}, Payload().add(longs)), "12345678,-98765432");
  uint16_t halves[2] = {0x3c00, 0xc000}; // 1.0, -2.0
  EXPECT_EQ(decodeOne("%v2hf", {{valueArg(PrintfArgKind::Float, 2, 2)}}, Payload().add(halves)), "1.000000,-2.000000");
  uint32_t words[16];
  std::string expected;
  for (int i = 0; i < 16; ++i) {
    words[i] = uint32_t(i * 1000);
    expected += std::string(i ? "," : "").append(std::to_string(i * 1000));
  }
  EXPECT_EQ(decodeOne("%v16hlu", {{valueArg(PrintfArgKind::Integer, 4, 16)}}, Payload().add(words)), expected);
}

TEST(PrintfDecoder, StarWidthAndPrecision) {
  EXPECT_EQ(decodeOne("[%*d]", {{intArg()}, {intArg()}}, Payload().add(int32_t(6)).add(int32_t(42))), "[    42]");
  EXPECT_EQ(decodeOne("[%*d]", {{intArg()}, {intArg()}}, Payload().add(int32_t(-6)).add(int32_t(42))), "[42    ]");
  EXPECT_EQ(decodeOne("[%.*f]", {{intArg()}, {doubleArg()}}, Payload().add(int32_t(2)).add(3.14159)), "[3.14]");
  EXPECT_EQ(decodeOne("[%.*f]", {{intArg()}, {doubleArg()}}, Payload().add(int32_t(-1)).add(3.5)), "[3.500000]");
  EXPECT_EQ(decodeOne("[%*.*s]", {{intArg()}, {intArg()}, {{PrintfArgKind::ConstantString, 0, 1, 0, 0}, "hello"}},
                      Payload().add(int32_t(4)).add(int32_t(2))),
            "[  he]");
}

// Found by fuzz_printf (issue 15): a float printed with an integer
// conversion, or as a `*` width, outside int64_t's range or NaN, was an
// undefined float-to-integer conversion; it saturates (NaN prints 0).
TEST(PrintfDecoder, FloatsWithIntegerConversionsSaturate) {
  EXPECT_EQ(decodeOne("%ld", {{doubleArg()}}, Payload().add(2.5e117)), cFormat("%ld", INT64_MAX));
  EXPECT_EQ(decodeOne("%ld", {{doubleArg()}}, Payload().add(-double(INFINITY))), cFormat("%ld", INT64_MIN));
  EXPECT_EQ(decodeOne("%ld", {{doubleArg()}}, Payload().add(double(NAN))), "0");
  EXPECT_EQ(decodeOne("%ld", {{doubleArg()}}, Payload().add(-7.9)), "-7");
  EXPECT_EQ(decodeOne("[%*d]", {{doubleArg()}, {intArg()}}, Payload().add(1e300).add(int32_t(5))),
            decodeOne("[%*d]", {{intArg()}, {intArg()}}, Payload().add(INT32_MAX).add(int32_t(5))));
}

TEST(PrintfDecoder, StringsConstantRuntimeAndNull) {
  TableArg constant{{PrintfArgKind::ConstantString, 0, 1, 0, 0}, "foo"};
  TableArg runtime{{PrintfArgKind::RuntimeString, 0, 1, 0, 0}, ""};
  EXPECT_EQ(decodeOne("%4s|%.1s|%s", {constant, constant, constant}, Payload()), " foo|f|foo");
  EXPECT_EQ(decodeOne("<%s>", {runtime}, Payload().string("run time")), "<run time>");
  EXPECT_EQ(decodeOne("<%s>", {runtime}, Payload().add(abi::kPrintfNullString)), "<(null)>");
  EXPECT_EQ(decodeOne("%s", {{{PrintfArgKind::ConstantString, 0, 1, 0, 0}, "%%"}}, Payload()), "%%");
}

TEST(PrintfDecoder, PointersPercentAndInvalidSpecifications) {
  uint64_t address = 0x1234abcd;
  EXPECT_EQ(decodeOne("%p", {{valueArg(PrintfArgKind::Pointer, 8)}}, Payload().add(address)),
            cFormat("%p", reinterpret_cast<void *>(address)));
  EXPECT_EQ(decodeOne("100%% %d", {{intArg()}}, Payload().add(int32_t(5))), "100% 5");
  // Undefined in OpenCL C: printed as written, taking no argument.
  EXPECT_EQ(decodeOne("%hlf %y %lc %v5hd %v4c %d", {{intArg()}}, Payload().add(int32_t(9))),
            "%hlf %y %lc %v5hd %v4c 9");
  // Fewer arguments than the format needs.
  EXPECT_EQ(decodeOne("%d %d", {{intArg()}}, Payload().add(int32_t(1))), "1 %d");
  // An argument that could not be stored.
  EXPECT_EQ(decodeOne("[%v4hlf]", {{{PrintfArgKind::Unprintable, 0, 1, 0, 0}}}, Payload()), "[%v4hlf]");
}

TEST(PrintfDecoder, RecordsInBufferOrderUpToUsed) {
  auto table = TableBuilder()
                   .add("a%d\n", {{intArg()}})
                   .add("b%s\n", {{{PrintfArgKind::ConstantString, 0, 1, 0, 0}, "x"}})
                   .bytes();
  BufferBuilder buffer;
  buffer.record(0, Payload().add(int32_t(1)).bytes).record(1, {}).record(0, Payload().add(int32_t(2)).bytes);
  EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "a1\nbx\na2\n");
  // Only [0, used) counts.
  buffer.header().used -= 16;
  EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "a1\nbx\n");
}

TEST(PrintfDecoder, EndMarkerAndOverflowedClaims) {
  auto table = TableBuilder().add("%d\n", {{intArg()}}).bytes();
  BufferBuilder buffer(64);
  buffer.record(0, Payload().add(int32_t(1)).bytes).record(0, Payload().add(int32_t(2)).bytes);
  // A claim straddled the end: it left the marker, and `used` passed capacity.
  uint32_t marker = abi::kPrintfEndOfRecords;
  std::memcpy(buffer.records() + buffer.header().used, &marker, 4);
  buffer.header().used += 1000;
  EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "1\n2\n");
  // Records filling the buffer exactly, and `used` beyond capacity.
  BufferBuilder full(32);
  full.record(0, Payload().add(int32_t(3)).bytes).record(0, Payload().add(int32_t(4)).bytes);
  full.header().used = 4096;
  EXPECT_EQ(decodePrintfBuffer(table, full.data()), "3\n4\n");
}

TEST(PrintfDecoder, CorruptRecordsAreSkippedOrEndDecoding) {
  auto table =
      TableBuilder().add("%d\n", {{intArg()}}).add("%s\n", {{{PrintfArgKind::RuntimeString, 0, 1, 0, 0}, ""}}).bytes();
  {
    // Unknown format index: skipped.
    BufferBuilder buffer;
    buffer.record(7, Payload().add(int32_t(1)).bytes).record(0, Payload().add(int32_t(2)).bytes);
    EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "2\n");
  }
  {
    // A record too short for its arguments: skipped.
    BufferBuilder buffer;
    buffer.record(1, Payload().add(uint32_t(100)).bytes).record(0, Payload().add(int32_t(5)).bytes);
    EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "5\n");
  }
  for (uint32_t badSize : {0u, 4u, 12u, 1u << 30}) {
    // A size that is impossible: decoding stops there.
    BufferBuilder buffer;
    buffer.record(0, Payload().add(int32_t(1)).bytes).record(0, Payload().add(int32_t(2)).bytes);
    std::memcpy(buffer.records() + 16 + 4, &badSize, 4);
    EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "1\n") << badSize;
  }
  {
    // A partial header at the end of the used space is ignored.
    BufferBuilder buffer;
    buffer.record(0, Payload().add(int32_t(1)).bytes);
    buffer.header().used += 4;
    EXPECT_EQ(decodePrintfBuffer(table, buffer.data()), "1\n");
  }
  EXPECT_EQ(decodePrintfBuffer(table, nullptr), "");
}

TEST(PrintfDecoder, MalformedTablesDecodeNothing) {
  BufferBuilder buffer;
  buffer.record(0, Payload().add(int32_t(1)).bytes);
  auto good = TableBuilder().add("%d\n", {{intArg()}}).bytes();
  ASSERT_EQ(decodePrintfBuffer(good, buffer.data()), "1\n");
  EXPECT_EQ(decodePrintfBuffer({}, buffer.data()), "");
  for (size_t cut = 1; cut < good.size(); ++cut)
    EXPECT_EQ(decodePrintfBuffer(std::span(good).first(good.size() - cut), buffer.data()), "") << cut;
  auto badMagic = good;
  badMagic[0] = std::byte{'X'};
  EXPECT_EQ(decodePrintfBuffer(badMagic, buffer.data()), "");
  auto hugeCount = good;
  uint32_t count = 0x7fffffff;
  std::memcpy(hugeCount.data() + 4, &count, 4);
  EXPECT_EQ(decodePrintfBuffer(hugeCount, buffer.data()), "");
  // Argument descriptions that would read outside their payload.
  for (PrintfArgInfo bad :
       {PrintfArgInfo{PrintfArgKind::Integer, 3, 1, 0, 3}, PrintfArgInfo{PrintfArgKind::Integer, 4, 4, 0, 8},
        PrintfArgInfo{PrintfArgKind::Pointer, 16, 1, 0, 8}, PrintfArgInfo{PrintfArgKind(9), 4, 1, 0, 4}})
    EXPECT_EQ(decodePrintfBuffer(TableBuilder().add("%d\n", {{bad}}).bytes(), buffer.data()), "");
}

// ---- Through the host compiler and JIT --------------------------------------

/// A compiled kernel with a printf buffer, run on one thread.
class PrintfKernel {
public:
  PrintfKernel(const std::string &source, const char *name, std::string_view options = "") {
    auto compiler = hostCompiler();
    auto module = compiler->build(source, options, log_);
    if (!module) {
      error_ = errorText(module.takeError());
      return;
    }
    auto binary = (*module)->binary();
    if (!binary) {
      error_ = errorText(binary.takeError());
      return;
    }
    auto executable = host::loadExecutable(*binary, hostDeviceInfo());
    if (!executable) {
      error_ = errorText(executable.takeError());
      return;
    }
    executable_ = std::move(*executable);
    auto kernel = executable_->createKernel(name);
    if (!kernel) {
      error_ = errorText(kernel.takeError());
      return;
    }
    kernel_ = std::move(*kernel);
  }

  bool ok() const { return kernel_ != nullptr; }
  const std::string &error() const { return error_; }
  const std::string &log() const { return log_; }
  host::HostKernel &kernel() { return static_cast<host::HostKernel &>(*kernel_); }

  /// Runs `global` work-items in groups of `local` and returns the decoded
  /// output.
  std::string run(const void *args, size_t global, size_t local, uint64_t capacity = 1 << 16) {
    std::vector<uint64_t> buffer((sizeof(abi::PrintfBufferHeader) + capacity + 7) / 8, 0xdeadbeefdeadbeef);
    auto *header = reinterpret_cast<abi::PrintfBufferHeader *>(buffer.data());
    header->capacity = capacity;
    header->used = 0;
    abi::WorkGroupInfo info{};
    info.workDim = 1;
    info.globalSize[0] = global;
    info.enqueuedLocalSize[0] = local;
    info.numGroups[0] = (global + local - 1) / local;
    for (int d = 1; d < 3; ++d)
      info.globalSize[d] = info.enqueuedLocalSize[d] = info.localSize[d] = info.numGroups[d] = 1;
    info.printfBuffer = reinterpret_cast<uint64_t>(buffer.data());
    for (size_t group = 0; group < info.numGroups[0]; ++group) {
      info.groupId[0] = group;
      info.localSize[0] = std::min(local, global - group * local);
      kernel().entry()(args, &info);
    }
    used_ = header->used;
    return decodePrintfBuffer(kernel().printfTable(), buffer.data());
  }
  uint64_t used() const { return used_; }

private:
  std::string log_, error_;
  std::unique_ptr<mux::Executable> executable_;
  std::unique_ptr<mux::Kernel> kernel_;
  uint64_t used_ = 0;
};

struct Args {
  std::vector<std::byte> bytes;
  template <typename T> Args &add(const T &value) {
    size_t offset = abi::alignTo(bytes.size(), abi::packedArgAlignment(sizeof(T)));
    bytes.resize(offset + sizeof(T));
    std::memcpy(bytes.data() + offset, &value, sizeof(T));
    return *this;
  }
};

TEST(PrintfJit, ScalarConversionsMatchSnprintf) {
  PrintfKernel k(R"(
kernel void p(int i, long l, float f, double d, char c, short s, uchar uc, ulong ul) {
  printf("%d|%5i|%-5d|%05d|%+d|% d|%.3d\n", i, i, i, i, i, i, i);
  printf("%o|%#o|%u|%x|%#X|%8.4x\n", i, i, i, i, i, i);
  printf("%ld|%lu|%lx|%lo\n", l, ul, l, ul);
  printf("%hhd|%hhu|%hd|%hu|%c|%4c|%-3c|\n", c, uc, s, s, c, c, c);
  printf("%f|%.2f|%10.3e|%E|%g|%G|%a|%A|%F\n", f, f, f, f, f, f, f, f, f);
  printf("%f|%.10f|%-12.4e|%+g|%.3a\n", d, d, d, d, d);
  printf("%*d|%-*d|%.*f|%*.*f\n", 6, i, 6, i, 1, f, 9, 3, d);
  printf("%%|100%%|%%d\n");
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  EXPECT_TRUE(k.kernel().usesPrintf());
  const int32_t i = -123456;
  const int64_t l = -9876543210123;
  const float f = 10.3456f;
  const double d = 789456123.0625;
  const int8_t c = 'A';
  const int16_t s = -300;
  const uint8_t uc = 200;
  const uint64_t ul = 0xfedcba9876543210u;
  Args args;
  args.add(i).add(l).add(f).add(d).add(c).add(s).add(uc).add(ul);
  std::string expected;
  expected += cFormat("%d|%5i|%-5d|%05d|%+d|% d|%.3d\n", i, i, i, i, i, i, i);
  expected += cFormat("%o|%#o|%u|%x|%#X|%8.4x\n", i, i, i, i, i, i);
  expected += cFormat("%ld|%lu|%lx|%lo\n", long(l), (unsigned long)ul, long(l), (unsigned long)ul);
  expected += cFormat("%hhd|%hhu|%hd|%hu|%c|%4c|%-3c|\n", c, uc, s, s, c, c, c);
  expected += cFormat("%f|%.2f|%10.3e|%E|%g|%G|%a|%A|%F\n", f, f, f, f, f, f, f, f, f);
  expected += cFormat("%f|%.10f|%-12.4e|%+g|%.3a\n", d, d, d, d, d);
  expected += cFormat("%*d|%-*d|%.*f|%*.*f\n", 6, i, 6, i, 1, f, 9, 3, d);
  expected += "%|100%|%d\n";
  EXPECT_EQ(k.run(args.bytes.data(), 1, 1), expected);
}

TEST(PrintfJit, VectorsOfEveryWidthAndElementType) {
  PrintfKernel k(R"(
kernel void p(void) {
  printf("%v2hhd|%#v3hhx|%v4hd|%v8hu|%v16hld\n", (char2)(-1, 2), (uchar3)(0xfa, 0xfb, 0xfc),
         (short4)(-3, 4, -5, 6), (ushort8)(1, 2, 3, 4, 5, 6, 7, 60000),
         (int16)(0, -1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12, -13, 14, -15));
  printf("%v2ld|%v3lx|%2.2v4hlf|%v3hlg|%v8hle|%v2lf|%v3la|%.1v16lf\n", (long2)(-12345678901, 2),
         (ulong3)(1, 0xff, 0xfffffffffff), (float4)(1.0f, 2.0f, 3.0f, 4.0f), (float3)(0.5f, 1e10f, -2.0f),
         (float8)(1.0f), (double2)(0.25, -0.5), (double3)(1.0, 2.0, 3.0), (double16)(7.0));
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  std::string expected = "-1,2|0xfa,0xfb,0xfc|-3,4,-5,6|1,2,3,4,5,6,7,60000|"
                         "0,-1,2,-3,4,-5,6,-7,8,-9,10,-11,12,-13,14,-15\n";
  expected +=
      "-12345678901,2|1,ff,fffffffffff|1.00,2.00,3.00,4.00|" + cFormat("%g,%g,%g", 0.5, double(1e10f), -2.0) + "|";
  for (int e = 0; e < 8; ++e)
    expected += std::string(e ? "," : "").append(cFormat("%e", 1.0));
  expected += "|" + cFormat("%f,%f", 0.25, -0.5) + "|" + cFormat("%a,%a,%a", 1.0, 2.0, 3.0) + "|";
  for (int e = 0; e < 16; ++e)
    expected += e ? ",7.0" : "7.0";
  expected += "\n";
  EXPECT_EQ(k.run(nullptr, 1, 1), expected);
}

TEST(PrintfJit, VectorsWithoutLengthModifierTakeTheArgumentsElementSize) {
  // Undefined in OpenCL C, accepted by Intel's printf extension.
  PrintfKernel k(R"(
kernel void p(void) {
  printf("%v4f|%v3f|%v2d|%v4x|%v2f\n", (float4)(1.5f, 2.0f, 3.0f, 4.0f), (float3)(0.5f, 1.0f, 2.0f), (short2)(-1, 2),
         (uchar4)(1, 2, 0xab, 0xff), (double2)(0.25, 0.5));
  printf("[%v4hhd]\n", (int4)(1));
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  std::string expected =
      cFormat("%f,%f,%f,%f|%f,%f,%f|-1,2|1,2,ab,ff|%f,%f\n", 1.5, 2.0, 3.0, 4.0, 0.5, 1.0, 2.0, 0.25, 0.5);
  // An int4 printed as a char4 is the int4's first four bytes.
  expected += "[1,0,0,0]\n";
  EXPECT_EQ(k.run(nullptr, 1, 1), expected);
}

TEST(PrintfJit, StringsConstantAndRunTime) {
  PrintfKernel k(R"(
constant char greeting[] = "hello";
void say(constant char *format, constant char *what) { printf(format, what); }
kernel void p(constant char *text, int pick) {
  printf("%s|%4s|%.2s|%-6s|\n", "lit", "ab", greeting, greeting);
  say("<%s>\n", "through a helper");
  printf("[%s]\n", text);
  printf("[%s]\n", pick ? greeting : "other");
  printf("[%s]\n", (constant char *)0);
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  const char *text = "from the host";
  Args args;
  args.add(text).add(int32_t(1));
  EXPECT_EQ(k.run(args.bytes.data(), 1, 1),
            "lit|  ab|he|hello |\n<through a helper>\n[from the host]\n[hello]\n[(null)]\n");
}

TEST(PrintfJit, WorkItemsKeepTheirOrderAndReturnZero) {
  PrintfKernel k(R"(
kernel void p(global int *results) {
  size_t id = get_global_id(0);
  int r = 0;
  for (int line = 0; line < 3; ++line)
    r |= printf("item %d line %d\n", (int)id, line);
  results[id] = r;
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  std::vector<int32_t> results(10, 7);
  Args args;
  args.add(results.data());
  std::string expected;
  for (int id = 0; id < 10; ++id)
    for (int line = 0; line < 3; ++line)
      expected += "item " + std::to_string(id) + " line " + std::to_string(line) + "\n";
  EXPECT_EQ(k.run(args.bytes.data(), 10, 4), expected);
  for (int32_t r : results)
    EXPECT_EQ(r, 0);
}

TEST(PrintfJit, FullBufferReturnsMinusOneAndKeepsWhatFits) {
  PrintfKernel k(R"(
kernel void p(global int *results) {
  for (int i = 0; i < 100; ++i)
    results[i] = printf("%d\n", i);
}
)",
                 "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  std::vector<int32_t> results(100, 7);
  Args args;
  args.add(results.data());
  // Each record is 16 bytes (header and an int, rounded up to 8): 10 fit.
  std::string output = k.run(args.bytes.data(), 1, 1, 10 * 16 + 12);
  std::string expected;
  for (int i = 0; i < 10; ++i)
    expected += std::to_string(i) + "\n";
  EXPECT_EQ(output, expected);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(results[i], i < 10 ? 0 : -1) << i;
}

TEST(PrintfJit, FormatMustBeACompileTimeString) {
  PrintfKernel k(R"(
kernel void p(constant char *format) { printf(format, 1); }
)",
                 "p");
  EXPECT_FALSE(k.ok());
  EXPECT_NE(k.error().find("printf with a format that is not a string literal"), std::string::npos) << k.error();
}

TEST(PrintfJit, KernelsWithoutPrintfDoNotUseTheBuffer) {
  PrintfKernel k("kernel void p(global int *x) { *x = 1; }", "p");
  ASSERT_TRUE(k.ok()) << k.error() << k.log();
  EXPECT_FALSE(k.kernel().usesPrintf());
  EXPECT_TRUE(k.kernel().printfTable().empty());
}

} // namespace
} // namespace compiler::test
