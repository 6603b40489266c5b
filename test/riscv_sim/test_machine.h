// A hart over a small code region and a data region, for running hand-
// assembled instruction sequences in tests.
#pragma once

#include "riscv_sim/encoder.h"
#include "riscv_sim/hart.h"

#include <cstring>
#include <vector>

namespace riscv_sim::sim::test {

constexpr uint64_t codeBase = 0x1000;
constexpr uint64_t dataBase = 0x100000;
constexpr uint64_t readOnlyBase = 0x200000;
constexpr uint64_t returnAddress = 0x7fff0000; ///< mapped nowhere: reached only by the final ret

enum Register : uint32_t { zero = 0, ra = 1, sp = 2, t0 = 5, t1 = 6, t2 = 7, a0 = 10, a1 = 11, a2 = 12, a3 = 13 };

class TestMachine {
public:
  /// `program` is a list of instructions; a 16-bit one occupies the low
  /// half of its element and only two bytes of code.
  explicit TestMachine(const std::vector<uint32_t> &program)
      : code_(4096), data_(4096), readOnly_(4096), hart_(memory_) {
    size_t offset = 0;
    for (uint32_t instruction : program) {
      size_t length = (instruction & 3) == 3 ? 4 : 2;
      std::memcpy(code_.data() + offset, &instruction, length);
      offset += length;
    }
    memory_.map({codeBase, code_.size(), code_.data(), Read | Execute, "code"});
    memory_.map({dataBase, data_.size(), data_.data(), Read | Write, "data"});
    memory_.map({readOnlyBase, readOnly_.size(), readOnly_.data(), Read, "rodata"});
    reset();
  }

  /// Registers cleared, pc at the code, ra the return address, a0 the data.
  void reset() {
    hart_.state() = {};
    hart_.state().pc = codeBase;
    hart_.state().x[ra] = returnAddress;
    hart_.state().x[a0] = dataBase;
  }

  RunResult run(uint64_t limit = 1'000'000) { return hart_.run(returnAddress, limit); }

  HartState &state() { return hart_.state(); }
  Hart &hart() { return hart_; }
  AddressSpace &memory() { return memory_; }
  std::byte *data() { return data_.data(); }

  template <class T> T load(uint64_t offset) {
    T value;
    std::memcpy(&value, data_.data() + offset, sizeof value);
    return value;
  }
  template <class T> void store(uint64_t offset, T value) { std::memcpy(data_.data() + offset, &value, sizeof value); }

private:
  std::vector<std::byte> code_, data_, readOnly_;
  AddressSpace memory_;
  Hart hart_;
};

} // namespace riscv_sim::sim::test
