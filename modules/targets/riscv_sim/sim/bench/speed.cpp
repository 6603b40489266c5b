// Prints simulated instructions per second of one hart on four loops:
// integer and floating-point, compute-bound and memory-bound. A figure, not
// a test: it never fails on a time.
#include "riscv_sim/encoder.h"
#include "riscv_sim/hart.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace riscv_sim::sim;
namespace e = riscv_sim::sim::encode;

namespace {

constexpr uint64_t codeBase = 0x10000, dataBase = 0x80000000, returnAddress = 0xdead0000;
constexpr uint64_t arrayElements = 64 * 1024; // 512 KiB of doubles

enum Register : uint32_t { ra = 1, t0 = 5, t1 = 6, t2 = 7, a0 = 10, a1 = 11, a2 = 12, a3 = 13 };

/// Wraps `body` (which must not touch a0) in a loop run a0 times, then ret.
std::vector<uint32_t> repeated(std::vector<uint32_t> body) {
  int32_t bodyBytes = static_cast<int32_t>(body.size() * 4);
  body.push_back(e::addi(a0, a0, -1));
  body.push_back(e::bne(a0, 0, -(bodyBytes + 4)));
  body.push_back(e::ret());
  return body;
}

struct Loop {
  const char *name;
  std::vector<uint32_t> code;
  uint64_t iterations;
};

std::vector<Loop> loops() {
  // a1 walks the array of `arrayElements` doubles; a2 counts down.
  auto walk = [](std::vector<uint32_t> perElement) {
    std::vector<uint32_t> code;
    code.push_back(e::addi(a1, a3, 0)); // a3 holds the array's address
    code.push_back(e::addi(a2, 0, 1024));
    code.push_back(e::slli(a2, a2, 6)); // 65536 elements
    size_t inner = code.size();
    code.insert(code.end(), perElement.begin(), perElement.end());
    code.push_back(e::addi(a1, a1, 8));
    code.push_back(e::addi(a2, a2, -1));
    code.push_back(e::bne(a2, 0, -static_cast<int32_t>((code.size() - inner) * 4)));
    return repeated(code);
  };
  return {
      {"integer compute",
       repeated({e::add(t0, t0, t1), e::xor_(t1, t1, t0), e::slli(t2, t0, 3), e::add(t0, t0, t2), e::mul(t1, t1, t0),
                 e::addi(t2, t2, 7), e::add(t0, t0, t2), e::xor_(t1, t1, t2)}),
       20'000'000},
      {"integer memory", walk({e::ld(t0, a1, 0), e::add(t1, t1, t0), e::sd(t1, a1, 0)}), 150},
      {"float compute",
       repeated({e::fmadd(false, 0, 1, 2, 0), e::fmadd(false, 3, 1, 2, 3), e::opFp(0x00, 4, 4, 1),
                 e::opFp(0x08, 5, 5, 2), e::fmadd(false, 6, 1, 2, 6), e::opFp(0x00, 7, 7, 2)}),
       20'000'000},
      {"float memory", walk({e::flw(0, a1, 0), e::fmadd(false, 1, 0, 2, 1), e::fsw(1, a1, 4)}), 150},
  };
}

} // namespace

int main() {
  std::vector<std::byte> code(64 * 1024), data(arrayElements * 8);
  for (const Loop &loop : loops()) {
    std::memcpy(code.data(), loop.code.data(), loop.code.size() * 4);
    AddressSpace memory;
    memory.map({codeBase, code.size(), code.data(), Read | Execute, "code"});
    memory.map({dataBase, data.size(), data.data(), Read | Write, "data"});
    Hart hart(memory);
    hart.state().pc = codeBase;
    hart.state().x[ra] = returnAddress;
    hart.state().x[a0] = loop.iterations;
    hart.state().x[a3] = dataBase;
    hart.state().f[1] = 0xffffffff3f800001ull; // boxed singles near 1
    hart.state().f[2] = 0xffffffff3f7ffffeull;
    auto start = std::chrono::steady_clock::now();
    RunResult result = hart.run(returnAddress, ~uint64_t(0));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.cause != StopReason::Returned) {
      std::printf("%s: %s\n", loop.name, result.describe().c_str());
      return 1;
    }
    std::printf("%-16s %6.0f M instructions/s (%llu instructions in %.3f s)\n", loop.name,
                result.instructionsRetired / seconds / 1e6, static_cast<unsigned long long>(result.instructionsRetired),
                seconds);
  }
  return 0;
}
