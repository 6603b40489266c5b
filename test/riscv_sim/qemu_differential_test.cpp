// Differential test against qemu-riscv64: each seeded random instruction
// stream is wrapped in a static Linux executable (prologue loading x, f and
// fcsr from a data block; the stream; an epilogue storing them next to a
// scratch area and writing all of it to stdout). qemu runs the executable;
// the simulator runs the same image up to its first ecall; the bytes must
// be identical.
#include "elf_writer.h"
#include "instruction_generator.h"

#include "riscv_sim/decoder.h"
#include "riscv_sim/encoder.h"
#include "riscv_sim/hart.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

using namespace riscv_sim::sim;
using namespace riscv_sim::sim::test;
namespace e = riscv_sim::sim::encode;

namespace {

constexpr uint64_t loadAddress = 0x10000;
constexpr uint64_t codeOffset = 0x1000;
constexpr uint64_t dataOffset = 0x10000;             // x[32], f[32], fcsr: the initial state
constexpr uint64_t outputOffset = 0x400;             // from the data block: x, f, fcsr after the stream
constexpr uint64_t scratchOffset = 0x800;            // 2 KiB that loads, stores and atomics use
constexpr uint64_t dumpSize = 0x1000 - outputOffset; // even, and half of it fits an addi
constexpr uint64_t imageSize = dataOffset + 0x1000;
constexpr uint32_t base = 31; // the data block's address during prologue and epilogue

std::string findQemu() {
  if (const char *path = std::getenv("QEMU_RISCV64"))
    return path;
  for (const char *directory : {"/usr/bin", "/usr/local/bin", "/bin"}) {
    std::string candidate = std::string(directory) + "/qemu-riscv64";
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

struct Program {
  std::vector<uint8_t> image;
  uint64_t streamStart = 0, streamEnd = 0; ///< guest addresses
};

void appendInstruction(std::vector<uint8_t> &image, uint64_t &offset, uint32_t instruction) {
  size_t length = (instruction & 3) == 3 ? 4 : 2;
  std::memcpy(image.data() + offset, &instruction, length);
  offset += length;
}

Program buildProgram(const std::vector<uint32_t> &stream, uint64_t seed) {
  Program program;
  program.image.assign(imageSize, 0);
  std::mt19937_64 random(seed * 7919 + 17);
  uint64_t data = loadAddress + dataOffset, scratch = data + scratchOffset;
  auto put64 = [&](uint64_t offset, uint64_t value) { std::memcpy(program.image.data() + offset, &value, 8); };
  for (unsigned i = 0; i < 32; ++i) {
    put64(dataOffset + 8 * i, interestingInteger(random));
    put64(dataOffset + 256 + 8 * i, interestingFloatRegister(random));
  }
  put64(dataOffset + 8 * 2, scratch + 1024);                      // sp
  put64(dataOffset + 8 * 8, scratch + 1024);                      // s0
  put64(dataOffset + 512, (random() % 5) << 5 | (random() % 32)); // fcsr: valid frm, some flags
  for (uint64_t i = 0; i < 2048; ++i)
    program.image[dataOffset + scratchOffset + i] = static_cast<uint8_t>(random());

  uint64_t offset = codeOffset;
  int64_t toData = static_cast<int64_t>(dataOffset - codeOffset);
  appendInstruction(program.image, offset, e::u(0x17, base, static_cast<uint32_t>((toData + 0x800) >> 12)));
  appendInstruction(program.image, offset,
                    e::addi(base, base, static_cast<int32_t>(toData & 0xfff) - ((toData & 0x800) ? 0x1000 : 0)));
  for (uint32_t i = 0; i < 32; ++i)
    appendInstruction(program.image, offset, e::fld(i, base, static_cast<int32_t>(256 + 8 * i)));
  appendInstruction(program.image, offset, e::ld(1, base, 512));
  appendInstruction(program.image, offset, e::csrrw(0, 3, 1));
  for (uint32_t i = 1; i < 31; ++i)
    appendInstruction(program.image, offset, e::ld(i, base, static_cast<int32_t>(8 * i)));

  program.streamStart = loadAddress + offset;
  for (uint32_t instruction : stream)
    appendInstruction(program.image, offset, instruction);
  program.streamEnd = loadAddress + offset;

  for (uint32_t i = 1; i < 32; ++i)
    appendInstruction(program.image, offset, e::sd(i, base, static_cast<int32_t>(outputOffset + 8 * i)));
  for (uint32_t i = 0; i < 32; ++i)
    appendInstruction(program.image, offset, e::fsd(i, base, static_cast<int32_t>(outputOffset + 256 + 8 * i)));
  appendInstruction(program.image, offset, e::csrrs(1, 3, 0));
  appendInstruction(program.image, offset, e::sd(1, base, static_cast<int32_t>(outputOffset + 512)));
  appendInstruction(program.image, offset, e::addi(10, 0, 1));                                     // stdout
  appendInstruction(program.image, offset, e::addi(11, base, static_cast<int32_t>(outputOffset))); // buffer
  appendInstruction(program.image, offset, e::addi(12, 0, static_cast<int32_t>(dumpSize / 2)));
  appendInstruction(program.image, offset, e::slli(12, 12, 1));
  appendInstruction(program.image, offset, e::addi(17, 0, 64)); // write
  appendInstruction(program.image, offset, e::ecall());
  appendInstruction(program.image, offset, e::addi(10, 0, 0));
  appendInstruction(program.image, offset, e::addi(17, 0, 93)); // exit
  appendInstruction(program.image, offset, e::ecall());
  EXPECT_LT(offset, dataOffset);
  return program;
}

/// Runs the executable under qemu; its stdout, or a failure message.
testing::AssertionResult runQemu(const std::string &qemu, const Program &program, std::vector<uint8_t> &output) {
  std::vector<uint8_t> elf = writeElf(program.image, loadAddress, loadAddress + codeOffset, imageSize);
  char path[] = "/tmp/riscv_sim_differential_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return testing::AssertionFailure() << "cannot create a temporary file";
  bool written = write(fd, elf.data(), elf.size()) == static_cast<ssize_t>(elf.size());
  fchmod(fd, 0700);
  close(fd);
  if (!written)
    return testing::AssertionFailure() << "cannot write " << path;
  std::string command = qemu + " " + path + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return testing::AssertionFailure() << "cannot run " << command;
  output.clear();
  uint8_t buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.insert(output.end(), buffer, buffer + n);
  int status = pclose(pipe);
  std::filesystem::remove(path);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || output.size() != dumpSize)
    return testing::AssertionFailure() << "qemu-riscv64 failed (status " << status
                                       << "): " << std::string(output.begin(), output.end()).substr(0, 300);
  return testing::AssertionSuccess();
}

/// Runs the same image on the simulator up to the first ecall.
testing::AssertionResult runSimulator(const Program &program, std::vector<uint8_t> &output) {
  std::vector<uint8_t> memory = program.image;
  AddressSpace space;
  space.map(
      {loadAddress, memory.size(), reinterpret_cast<std::byte *>(memory.data()), Read | Write | Execute, "image"});
  Hart hart(space);
  hart.state().pc = loadAddress + codeOffset;
  RunResult result = hart.run(0, 1'000'000);
  if (result.cause != StopReason::EnvironmentCall || hart.state().x[17] != 64)
    return testing::AssertionFailure() << "simulator: " << result.describe();
  const uint8_t *dump = memory.data() + dataOffset + outputOffset;
  output.assign(dump, dump + dumpSize);
  return testing::AssertionSuccess();
}

std::string registerName(uint64_t offset) {
  if (offset < 256)
    return std::string("x").append(std::to_string(offset / 8));
  if (offset < 512)
    return std::string("f").append(std::to_string((offset - 256) / 8));
  if (offset < 520)
    return "fcsr";
  return std::string("scratch+").append(std::to_string(offset - (scratchOffset - outputOffset)));
}

std::string listing(const Program &program) {
  std::string text;
  uint64_t address = program.streamStart;
  while (address < program.streamEnd) {
    uint32_t bits;
    std::memcpy(&bits, program.image.data() + (address - loadAddress), 4);
    size_t length = instructionLength(static_cast<uint16_t>(bits));
    if (length == 2)
      bits &= 0xffff;
    char line[64];
    std::snprintf(line, sizeof line, "  %6llx: %08x  ", static_cast<unsigned long long>(address), bits);
    text += line + disassemble(bits) + "\n";
    address += length;
  }
  return text;
}

std::string differences(const std::vector<uint8_t> &qemu, const std::vector<uint8_t> &simulator) {
  std::string text;
  for (uint64_t offset = 0; offset + 8 <= dumpSize; offset += 8) {
    uint64_t q, s;
    std::memcpy(&q, qemu.data() + offset, 8);
    std::memcpy(&s, simulator.data() + offset, 8);
    if (q != s) {
      char line[128];
      std::snprintf(line, sizeof line, "  %-12s qemu %016llx simulator %016llx\n", registerName(offset).c_str(),
                    static_cast<unsigned long long>(q), static_cast<unsigned long long>(s));
      text += line;
    }
  }
  return text;
}

/// Whether qemu and the simulator agree on `stream`; `report` says how not.
bool agree(const std::string &qemu, const std::vector<uint32_t> &stream, uint64_t seed, std::string &report) {
  Program program = buildProgram(stream, seed);
  std::vector<uint8_t> fromQemu, fromSimulator;
  testing::AssertionResult ran = runQemu(qemu, program, fromQemu);
  if (ran)
    ran = runSimulator(program, fromSimulator);
  if (!ran) {
    report = ran.message() + std::string("\n") + listing(program);
    return false;
  }
  if (fromQemu == fromSimulator)
    return true;
  report = differences(fromQemu, fromSimulator) + listing(program);
  return false;
}

/// The shortest prefix of a failing stream that still fails (the state
/// rarely converges again once it differed), for a readable report.
std::vector<uint32_t> shortestFailingPrefix(const std::string &qemu, const std::vector<uint32_t> &stream,
                                            uint64_t seed) {
  size_t low = 0, high = stream.size(); // prefix of `high` fails
  std::string ignored;
  while (high - low > 1) {
    size_t middle = (low + high) / 2;
    std::vector<uint32_t> prefix(stream.begin(), stream.begin() + middle);
    (agree(qemu, prefix, seed, ignored) ? low : high) = middle;
  }
  return {stream.begin(), stream.begin() + high};
}

class QemuDifferential : public testing::TestWithParam<StreamClass> {};

TEST_P(QemuDifferential, SameStateAsQemu) {
  std::string qemu = findQemu();
  ASSERT_FALSE(qemu.empty()) << "qemu-riscv64 is required for the differential test (Debian package qemu-user; "
                                "or set QEMU_RISCV64 to its path)";
  constexpr unsigned seeds = 24, streamLength = 300;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    uint64_t fullSeed = seed * 1000 + static_cast<uint64_t>(GetParam());
    std::vector<uint32_t> stream = generateStream(GetParam(), fullSeed, streamLength);
    std::string report;
    if (agree(qemu, stream, fullSeed, report))
      continue;
    agree(qemu, shortestFailingPrefix(qemu, stream, fullSeed), fullSeed, report);
    FAIL() << name(GetParam()) << " stream, seed " << fullSeed << ", shortest failing prefix:\n" << report;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryClass, QemuDifferential,
                         testing::Values(StreamClass::Integer, StreamClass::Multiply, StreamClass::Memory,
                                         StreamClass::Control, StreamClass::Atomic, StreamClass::Single,
                                         StreamClass::Double, StreamClass::Conversion, StreamClass::Compressed,
                                         StreamClass::Mixed),
                         [](const testing::TestParamInfo<StreamClass> &info) { return std::string(name(info.param)); });

} // namespace
