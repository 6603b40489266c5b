#include "instruction_generator.h"

#include "riscv_sim/encoder.h"

namespace riscv_sim::sim::test {
namespace e = riscv_sim::sim::encode;
namespace {

constexpr uint32_t scratchBaseRegister = 8, stackRegister = 2;

class Generator {
public:
  Generator(uint64_t seed) : random_(seed) {}

  std::vector<uint32_t> stream(StreamClass kind, unsigned count) {
    while (out_.size() < count)
      one(kind);
    return std::move(out_);
  }

private:
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(random_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T, size_t N> T pick(const T (&options)[N]) { return options[below(N)]; }

  /// Any integer register the stream may write.
  uint32_t rd() {
    for (;;) {
      uint32_t r = 1 + below(30);
      if (r != stackRegister && r != scratchBaseRegister)
        return r;
    }
  }
  uint32_t rs() { return below(32); }
  uint32_t fr() { return below(32); }
  uint32_t roundingMode() { return pick({0u, 1u, 2u, 3u, 4u, 7u}); }
  int32_t imm12() {
    return chance(30) ? static_cast<int32_t>(below(4096)) - 2048 : static_cast<int32_t>(below(64)) - 32;
  }

  void emit(uint32_t instruction) { out_.push_back(instruction); }

  void integer() {
    switch (below(5)) {
    case 0: { // OP
      const uint32_t ops[][2] = {{0, 0}, {0x20, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0x20, 5}, {0, 6}, {0, 7}};
      uint32_t index = below(10);
      emit(e::r(0x33, rd(), ops[index][1], rs(), rs(), ops[index][0]));
      break;
    }
    case 1: { // OP-32
      const uint32_t ops[][2] = {{0, 0}, {0x20, 0}, {0, 1}, {0, 5}, {0x20, 5}};
      uint32_t index = below(5);
      emit(e::r(0x3b, rd(), ops[index][1], rs(), rs(), ops[index][0]));
      break;
    }
    case 2: { // OP-IMM
      uint32_t funct3 = below(8);
      if (funct3 == 1)
        emit(e::i(0x13, rd(), 1, rs(), static_cast<int32_t>(below(64))));
      else if (funct3 == 5)
        emit(e::i(0x13, rd(), 5, rs(), static_cast<int32_t>(below(64) | (chance(50) ? 0x400 : 0))));
      else
        emit(e::i(0x13, rd(), funct3, rs(), imm12()));
      break;
    }
    case 3: { // OP-IMM-32
      switch (below(4)) {
      case 0:
        emit(e::i(0x1b, rd(), 0, rs(), imm12()));
        break;
      case 1:
        emit(e::i(0x1b, rd(), 1, rs(), static_cast<int32_t>(below(32))));
        break;
      case 2:
        emit(e::i(0x1b, rd(), 5, rs(), static_cast<int32_t>(below(32))));
        break;
      default:
        emit(e::i(0x1b, rd(), 5, rs(), static_cast<int32_t>(below(32) | 0x400)));
        break;
      }
      break;
    }
    default:
      emit(e::u(chance(50) ? 0x37 : 0x17, rd(), below(1u << 20)));
      break;
    }
  }

  void multiply() {
    if (chance(50))
      emit(e::r(0x33, rd(), below(8), rs(), rs(), 1));
    else
      emit(e::r(0x3b, rd(), pick({0u, 4u, 5u, 6u, 7u}), rs(), rs(), 1));
  }

  /// Offset from s0 or sp that keeps an access of `size` inside the scratch.
  int32_t scratchOffset(unsigned size, bool aligned) {
    int32_t offset = static_cast<int32_t>(below(2048 - 8)) - 1024;
    return aligned ? offset & ~static_cast<int32_t>(size - 1) : offset;
  }
  uint32_t base() { return chance(50) ? scratchBaseRegister : stackRegister; }

  void memory() {
    bool aligned = chance(60);
    switch (below(4)) {
    case 0: {
      uint32_t funct3 = below(7);
      emit(e::i(0x03, rd(), funct3, base(), scratchOffset(1u << (funct3 & 3), aligned)));
      break;
    }
    case 1: {
      uint32_t funct3 = below(4);
      emit(e::s(0x23, funct3, base(), rs(), scratchOffset(1u << funct3, aligned)));
      break;
    }
    case 2: {
      bool dbl = chance(50);
      emit(e::i(0x07, fr(), dbl ? 3 : 2, base(), scratchOffset(dbl ? 8 : 4, aligned)));
      break;
    }
    default: {
      bool dbl = chance(50);
      emit(e::s(0x27, dbl ? 3 : 2, base(), fr(), scratchOffset(dbl ? 8 : 4, aligned)));
      break;
    }
    }
  }

  /// A branch or jump over the next 1 to 3 instructions of `kind`.
  void control(StreamClass bodyKind) {
    size_t before = out_.size();
    emit(0xffffffff); // placeholder of the branch's length
    unsigned skipped = 1 + below(3);
    for (unsigned i = 0; i < skipped; ++i)
      one(bodyKind);
    int32_t offset = 0;
    for (size_t i = before; i < out_.size(); ++i)
      offset += (out_[i] & 3) == 3 ? 4 : 2;
    uint32_t choice = below(8);
    if (choice < 6)
      out_[before] = e::b(pick({0u, 1u, 4u, 5u, 6u, 7u}), rs(), rs(), offset);
    else
      out_[before] = e::j(chance(50) ? 0 : rd(), offset);
  }

  void atomic() {
    bool dbl = chance(50);
    uint32_t address = rd();
    emit(e::addi(address, base(), scratchOffset(8, true)));
    uint32_t funct3 = dbl ? 3 : 2, aqrl = below(4);
    if (chance(25)) { // lr; op; sc (succeeds), sometimes sc alone (fails)
      uint32_t value = rd();
      if (value == address)
        value = address == 5 ? 6 : 5;
      if (chance(80))
        emit(e::r(0x2f, value, funct3, address, 0, 0x02 << 2 | aqrl));
      emit(e::addi(value, value, 1));
      emit(e::r(0x2f, rd(), funct3, address, value, 0x03 << 2 | aqrl));
      return;
    }
    uint32_t funct5 = pick({0x01u, 0x00u, 0x04u, 0x0cu, 0x08u, 0x10u, 0x14u, 0x18u, 0x1cu});
    uint32_t destination = rd();
    if (destination == address)
      destination = 0;
    emit(e::r(0x2f, destination, funct3, address, rs(), funct5 << 2 | aqrl));
  }

  void floatingPoint(uint32_t format) {
    switch (below(14)) {
    case 0:
    case 1:
    case 2:
      emit(e::opFp(pick({0x00u, 0x04u, 0x08u, 0x0cu}) | format, fr(), fr(), fr(), roundingMode()));
      break;
    case 3:
      emit(e::opFp(0x2c | format, fr(), fr(), 0, roundingMode()));
      break;
    case 4:
      emit(e::r4(pick({0x43u, 0x47u, 0x4bu, 0x4fu}), fr(), roundingMode(), fr(), fr(), format, fr()));
      break;
    case 5:
      emit(e::opFp(0x10 | format, fr(), fr(), fr(), below(3)));
      break;
    case 6:
      emit(e::opFp(0x14 | format, fr(), fr(), fr(), below(2)));
      break;
    case 7:
      emit(e::opFp(0x50 | format, rd(), fr(), fr(), below(3)));
      break;
    case 8:
      emit(e::opFp(0x70 | format, rd(), fr(), 0, below(2)));
      break; // fmv.x, fclass
    case 9:
      emit(e::opFp(0x78 | format, fr(), rs(), 0, 0));
      break; // fmv.w.x / fmv.d.x
    case 10:
      emit(e::opFp(0x60 | format, rd(), fr(), below(4), roundingMode())); // to integer
      break;
    case 11:
      emit(e::opFp(0x68 | format, fr(), rs(), below(4), roundingMode())); // from integer
      break;
    case 12:
      emit(e::opFp(format ? 0x21 : 0x20, fr(), fr(), format ? 0 : 1, roundingMode()));
      break;
    default:
      floatingPointCsr();
      break;
    }
  }

  void floatingPointCsr() {
    switch (below(4)) {
    case 0:
      emit(e::csrrs(rd(), pick({1u, 2u, 3u}), 0));
      break; // read
    case 1:
      emit(e::i(0x73, chance(50) ? 0 : rd(), 5, below(5), 2));
      break; // csrrwi frm, 0..4
    case 2:
      emit(e::i(0x73, chance(50) ? 0 : rd(), 5, below(32), 1));
      break; // csrrwi fflags
    default:
      emit(e::i(0x73, rd(), pick({6u, 7u}), below(32), pick({1, 3})));
      break; // set/clear flag bits
    }
  }

  void conversion() {
    uint32_t format = below(2);
    switch (below(4)) {
    case 0:
      emit(e::opFp(0x60 | format, rd(), fr(), below(4), roundingMode()));
      break;
    case 1:
      emit(e::opFp(0x68 | format, fr(), rs(), below(4), roundingMode()));
      break;
    case 2:
      emit(e::opFp(format ? 0x21 : 0x20, fr(), fr(), format ? 0 : 1, roundingMode()));
      break;
    default:
      emit(e::opFp(0x78 | format, fr(), rs(), 0, 0));
      break;
    }
  }

  uint32_t rdPrime() { return 9 + below(7); } // x9..x15: x8 is the scratch base

  void compressed() {
    auto ci = [](uint32_t funct3, uint32_t r, int32_t imm, uint32_t quadrant) {
      uint32_t u = static_cast<uint32_t>(imm);
      return funct3 << 13 | (u >> 5 & 1) << 12 | r << 7 | (u & 0x1f) << 2 | quadrant;
    };
    switch (below(12)) {
    case 0:
      emit(ci(0, rd(), static_cast<int32_t>(below(64)) - 32, 1));
      break; // c.addi
    case 1:
      emit(ci(1, rd(), static_cast<int32_t>(below(64)) - 32, 1));
      break; // c.addiw
    case 2:
      emit(ci(2, rd(), static_cast<int32_t>(below(64)) - 32, 1));
      break;  // c.li
    case 3: { // c.lui
      int32_t imm = static_cast<int32_t>(below(63)) - 32;
      emit(ci(3, rd(), imm >= 0 ? imm + 1 : imm, 1));
      break;
    }
    case 4: { // c.srli, c.srai, c.andi
      uint32_t funct2 = below(3);
      uint32_t imm = funct2 == 2 ? below(64) : 1 + below(63); // shift by 0 is a hint
      emit(4u << 13 | (imm >> 5) << 12 | funct2 << 10 | (rdPrime() - 8) << 7 | (imm & 0x1f) << 2 | 1);
      break;
    }
    case 5: { // c.sub .. c.and, c.subw, c.addw
      uint32_t word = below(2), funct = word ? below(2) : below(4);
      emit(4u << 13 | word << 12 | 3u << 10 | (rdPrime() - 8) << 7 | funct << 5 | (below(8)) << 2 | 1);
      break;
    }
    case 6:
      emit(ci(0, rd(), static_cast<int32_t>(1 + below(63)), 2));
      break; // c.slli
    case 7:  // c.mv, c.add
      emit(4u << 13 | below(2) << 12 | rd() << 7 | (1 + below(31)) << 2 | 2);
      break;
    case 8: { // c.lw, c.ld, c.fld, c.sw, c.sd, c.fsd with s0
      uint32_t funct3 = pick({1u, 2u, 3u, 5u, 6u, 7u});
      bool word = funct3 == 2 || funct3 == 6;
      uint32_t offset = word ? below(32) * 4 : below(32) * 8;
      uint32_t encoded = word ? ((offset >> 3) & 7) << 10 | ((offset >> 2) & 1) << 6 | ((offset >> 6) & 1) << 5
                              : ((offset >> 3) & 7) << 10 | ((offset >> 6) & 3) << 5;
      uint32_t data = funct3 == 1 || funct3 == 5 ? below(8) : rdPrime() - 8;
      emit(funct3 << 13 | encoded | 0u << 7 | data << 2 | 0);
      break;
    }
    case 9: { // sp-based loads and stores
      uint32_t funct3 = pick({1u, 2u, 3u, 5u, 6u, 7u});
      bool word = funct3 == 2 || funct3 == 6;
      uint32_t offset = word ? below(64) * 4 : below(64) * 8;
      if (funct3 <= 3) {
        uint32_t encoded = word ? ((offset >> 5) & 1) << 12 | ((offset >> 2) & 7) << 4 | ((offset >> 6) & 3) << 2
                                : ((offset >> 5) & 1) << 12 | ((offset >> 3) & 3) << 5 | ((offset >> 6) & 7) << 2;
        emit(funct3 << 13 | encoded | (funct3 == 1 ? fr() : rd()) << 7 | 2);
      } else {
        uint32_t encoded = word ? ((offset >> 2) & 15) << 9 | ((offset >> 6) & 3) << 7
                                : ((offset >> 3) & 7) << 10 | ((offset >> 6) & 7) << 7;
        emit(funct3 << 13 | encoded | (funct3 == 5 ? fr() : rs()) << 2 | 2);
      }
      break;
    }
    case 10: { // c.addi4spn
      uint32_t imm = (1 + below(255)) * 4;
      emit(((imm >> 4) & 3) << 11 | ((imm >> 6) & 15) << 7 | ((imm >> 2) & 1) << 6 | ((imm >> 3) & 1) << 5 |
           (rdPrime() - 8) << 2);
      break;
    }
    default: { // c.beqz, c.bnez, c.j over the next instruction
      size_t before = out_.size();
      emit(0);
      compressedBody();
      uint32_t offset = (out_.back() & 3) == 3 ? 6 : 4;
      if (chance(30))
        out_[before] = 5u << 13 | ((offset >> 1) & 7) << 3 | ((offset >> 4) & 1) << 11 | 1; // c.j
      else
        out_[before] =
            (6u + below(2)) << 13 | ((offset >> 1) & 3) << 3 | ((offset >> 3) & 3) << 10 | (rdPrime() - 8) << 7 | 1;
      break;
    }
    }
  }
  void compressedBody() {
    size_t size = out_.size();
    do {
      out_.resize(size);
      compressed();
    } while (out_.size() != size + 1 || out_[size] == 0);
  }

  void one(StreamClass kind) {
    switch (kind) {
    case StreamClass::Integer:
      integer();
      break;
    case StreamClass::Multiply:
      chance(70) ? multiply() : integer();
      break;
    case StreamClass::Memory:
      chance(70) ? memory() : integer();
      break;
    case StreamClass::Control:
      chance(30) ? control(StreamClass::Multiply) : integer();
      break;
    case StreamClass::Atomic:
      chance(60) ? atomic() : memory();
      break;
    case StreamClass::Single:
      floatingPoint(0);
      break;
    case StreamClass::Double:
      floatingPoint(1);
      break;
    case StreamClass::Conversion:
      chance(70) ? conversion() : floatingPoint(below(2));
      break;
    case StreamClass::Compressed:
      compressed();
      break;
    case StreamClass::Mixed:
      switch (below(7)) {
      case 0:
        integer();
        break;
      case 1:
        multiply();
        break;
      case 2:
        memory();
        break;
      case 3:
        atomic();
        break;
      case 4:
        floatingPoint(below(2));
        break;
      case 5:
        compressed();
        break;
      default:
        control(StreamClass::Integer);
        break;
      }
      break;
    }
  }

  std::mt19937_64 random_;
  std::vector<uint32_t> out_;
};

} // namespace

const char *name(StreamClass kind) {
  const char *names[] = {"integer", "multiply", "memory",     "control",    "atomic",
                         "single",  "double",   "conversion", "compressed", "mixed"};
  return names[static_cast<int>(kind)];
}

std::vector<uint32_t> generateStream(StreamClass kind, uint64_t seed, unsigned count) {
  return Generator(seed).stream(kind, count);
}

uint64_t interestingInteger(std::mt19937_64 &random) {
  const uint64_t special[] = {0,
                              1,
                              2,
                              ~uint64_t(0),
                              0x8000000000000000ull,
                              0x7fffffffffffffffull,
                              0x80000000ull,
                              0x7fffffffull,
                              0xffffffff80000000ull,
                              0xffffffffull,
                              static_cast<uint64_t>(-7),
                              7,
                              0x100000000ull};
  switch (random() % 4) {
  case 0:
    return special[random() % std::size(special)];
  case 1:
    return random() % 64 - 32;
  case 2:
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(random())));
  default:
    return random();
  }
}

uint64_t interestingFloatRegister(std::mt19937_64 &random) {
  const uint32_t singles[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000,
                              0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
                              0xff800abc, 0x3f000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x4f000000, 0xcf000000,
                              0x5f000000, 0x5f800000, 0xdf000000, 0x33800000, 0x34400000, 0x3f800001, 0x4effffff,
                              0x4f800000, 0x3eaaaaab, 0x0c000000, 0x20000000};
  const uint64_t doubles[] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x0000000000000001ull,
      0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff4000000000000ull, 0x3fe0000000000000ull, 0x3ff8000000000000ull,
      0x4004000000000000ull, 0xc004000000000000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull, 0x41dfffffffc00000ull,
      0x43e0000000000000ull, 0x43f0000000000000ull, 0xc3e0000000000000ull, 0x3ca0000000000000ull, 0x3cb8000000000000ull,
      0x3ff0000000000001ull, 0x47efffffe0000000ull, 0x36a0000000000000ull, 0x3810000000000000ull, 0x380fffffffffffffull,
      0x41efffffffe00000ull, 0x3fd5555555555555ull};
  switch (random() % 8) {
  case 0:
  case 1:
  case 2:
    return 0xffffffff00000000ull | singles[random() % std::size(singles)];
  case 3:
  case 4:
  case 5:
    return doubles[random() % std::size(doubles)];
  case 6:
    return 0xffffffff00000000ull | static_cast<uint32_t>(random());
  default:
    return random() % 16 == 0 ? static_cast<uint32_t>(random()) : random(); // sometimes improperly boxed
  }
}

} // namespace riscv_sim::sim::test
