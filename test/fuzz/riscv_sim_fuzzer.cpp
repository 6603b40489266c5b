// Random instruction streams into the RISC-V simulator (riscv_sim::sim):
// one hart over a code region that is also writable (self-modifying code,
// fence.i), a data region, a read-only region and nothing else. An input is
//
//   u8 mode, u64 seed, then
//   mode even: the code itself, raw bytes (any encoding, compressed or not)
//   mode odd:  u8 class, u8 length: a stream of test/riscv_sim's generator
//              (instruction_generator.h) of that class, seed and length
//
// Registers start from the seed (interesting integers and floating-point
// values; sp and s0 in the middle of the data, as the generator's streams
// expect). The hart runs to a bounded instruction count; after a trap or an
// ecall it goes on at the next instruction a few times, as the device model
// does after an ecall. The simulator must stay inside the mapped regions
// (AddressSanitizer watches the host memory behind them) and always stop.
#include "instruction_generator.h"

#include "riscv_sim/address_space.h"
#include "riscv_sim/hart.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace riscv_sim::sim;

namespace {
constexpr uint64_t codeBase = 0x10000, dataBase = 0x100000, readOnlyBase = 0x200000;
constexpr uint64_t returnAddress = 0x7fff0000; // mapped nowhere
constexpr size_t regionSize = 4096;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 9)
    return 0;
  uint8_t mode = data[0];
  uint64_t seed;
  std::memcpy(&seed, data + 1, sizeof seed);
  data += 9;
  size -= 9;

  // Exactly the regions' sizes, so that AddressSanitizer sees any access past them.
  std::vector<std::byte> code(regionSize), memory(regionSize), readOnly(regionSize);
  if (mode % 2 == 0) {
    std::memcpy(code.data(), data, std::min(size, regionSize));
  } else {
    auto kind = static_cast<riscv_sim::sim::test::StreamClass>(size > 0 ? data[0] % 10 : 0);
    unsigned length = size > 1 ? data[1] : 64;
    std::vector<uint32_t> stream = riscv_sim::sim::test::generateStream(kind, seed, length);
    size_t offset = 0;
    for (uint32_t instruction : stream) {
      size_t bytes = (instruction & 3) == 3 ? 4 : 2;
      if (offset + bytes > regionSize)
        break;
      std::memcpy(code.data() + offset, &instruction, bytes);
      offset += bytes;
    }
  }
  std::mt19937_64 random(seed);
  for (auto &byte : memory)
    byte = static_cast<std::byte>(random());
  for (auto &byte : readOnly)
    byte = static_cast<std::byte>(random());

  AddressSpace space;
  space.map({codeBase, regionSize, code.data(), Read | Write | Execute, "code"});
  space.map({dataBase, regionSize, memory.data(), Read | Write, "data"});
  space.map({readOnlyBase, regionSize, readOnly.data(), Read, "rodata"});
  Hart hart(space);
  HartState &state = hart.state();
  for (uint64_t &x : state.x)
    x = riscv_sim::sim::test::interestingInteger(random);
  for (uint64_t &f : state.f)
    f = riscv_sim::sim::test::interestingFloatRegister(random);
  state.x[0] = 0;
  state.x[1] = returnAddress;
  state.x[2] = state.x[8] = dataBase + regionSize / 2;
  state.x[31] = dataBase;
  state.fcsr = static_cast<uint32_t>(random()) & 0xff;
  state.pc = codeBase;

  for (int resume = 0; resume < 8; ++resume) {
    RunResult result = hart.run(returnAddress, 20'000);
    (void)result.describe();
    if (result.cause == StopReason::Returned || result.cause == StopReason::InstructionLimit)
      break;
    if (result.cause != StopReason::EnvironmentCall) {
      // Go on after the trapping instruction, as a debugger would.
      uint32_t instruction = result.instruction;
      state.pc = result.pc + ((instruction & 3) == 3 || instruction == 0 ? 4 : 2);
    }
  }
  return 0;
}
