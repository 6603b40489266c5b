// The user-level CSRs: fflags, frm, fcsr, and the read-only counters cycle,
// time and instret, which all count retired instructions (one instruction
// per cycle; simulated time has no other clock).
#include "execution.h"

namespace riscv_sim::sim {
namespace {

enum Csr : uint32_t { Fflags = 0x001, Frm = 0x002, Fcsr = 0x003, Cycle = 0xc00, Time = 0xc01, Instret = 0xc02 };

} // namespace

bool readCsr(Hart::Execution &e, uint64_t instretBefore, uint32_t csr, uint64_t &value) {
  switch (csr) {
  case Fflags:
    value = e.fpu.flags();
    return true;
  case Frm:
    value = e.frm;
    return true;
  case Fcsr:
    value = static_cast<uint64_t>(e.frm) << 5 | e.fpu.flags();
    return true;
  case Cycle:
  case Time:
  case Instret:
    value = instretBefore;
    return true;
  default:
    return false;
  }
}

bool writeCsr(Hart::Execution &e, uint32_t csr, uint64_t value) {
  switch (csr) {
  case Fflags:
    e.fpu.setFlags(value & 0x1f);
    return true;
  case Frm:
    e.frm = value & 7;
    return true;
  case Fcsr:
    e.frm = (value >> 5) & 7;
    e.fpu.setFlags(value & 0x1f);
    return true;
  default:
    return false;
  }
}

} // namespace riscv_sim::sim
