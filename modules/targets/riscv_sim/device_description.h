// The description of one simulated RISC-V accelerator: how many harts, its
// guest memory map, and the linker script programs are linked against. The
// device info, the compiler's link step and the runtime all read it, so the
// three agree on every address.
//
// Guest memory map (the defaults):
//   [returnAddress]            0x0000_1000  unmapped: a kernel entry returns
//                                           here, which ends its work-group
//   [programBase, +programSize) 0x1000_0000  the loaded program: text and
//                                           rodata read/execute, data and bss
//                                           read/write (linker script)
//   [scratchBase, +scratchSize) 0x2000_0000  each hart's own local memory
//                                           (TCDM): WorkGroupInfo, packed
//                                           arguments, __local area, barrier
//                                           state; an unmapped 64 KiB guard,
//                                           then the 1 MiB stack at the top
//   [dramBase, +dramSize)      0x8000_0000  DRAM, shared by all harts:
//                                           buffers and printf buffers;
//                                           Device::create moves it to the
//                                           host address of its view
//                                           (dramIdentityMapped)
#pragma once

#include <cstdint>
#include <string>

namespace riscv_sim {

/// A fault the simulated hardware has, for tests of integrity checks
/// (POLYMUX_RISCV_SIM_FAULT; sim/include/riscv_sim/opcodes.def says what
/// each does).
enum class InjectedFault { None, Alu, Memory };

struct DeviceDescription {
  std::string name = "Polymux RISC-V simulator (rv64gc)";
  /// Harts (CL_DEVICE_MAX_COMPUTE_UNITS), each run by a host thread.
  unsigned harts = 4;
  uint64_t returnAddress = 0x1000;
  uint64_t programBase = 0x1000'0000;
  uint64_t programSize = 64ull << 20;
  uint64_t scratchBase = 0x2000'0000;
  uint64_t scratchSize = 16ull << 20;
  /// Top part of the scratch window reserved for the hart's stack.
  uint64_t stackSize = 1ull << 20;
  /// Unmapped gap below the stack: an overflow traps there.
  uint64_t stackGuardSize = 64 * 1024;
  /// __local memory per work-group (CL_DEVICE_LOCAL_MEM_SIZE).
  uint64_t localMemSize = 64 * 1024;
  uint64_t dramBase = 0x8000'0000;
  uint64_t dramSize = 1ull << 30;
  /// Set by Device::create when DRAM sits at the guest addresses equal to
  /// its host view's addresses (dramBase is then where the host reserved
  /// it): host pointers into DRAM are guest pointers, so the device offers
  /// shared virtual memory.
  bool dramIdentityMapped = false;
  /// Nominal clock, for CL_DEVICE_MAX_CLOCK_FREQUENCY and timestamps of
  /// simulated time: one instruction per cycle.
  uint32_t clockMHz = 1000;
  /// Work-group limit (CL_DEVICE_MAX_WORK_GROUP_SIZE).
  uint32_t maxWorkGroupSize = 1024;
  /// Alu: every 64- and 32-bit multiply flips bit 0 of its product.
  /// Memory: a stuck-at-1 bit at offset 0x40 of every DRAM page.
  InjectedFault fault = InjectedFault::None;

  /// The GNU ld script lld links each program with: text, rodata, data and
  /// bss inside the program window, each kind in its own page-aligned
  /// segment with its own permissions.
  std::string linkerScript() const;
  /// Every field, for the device UUID and the compiler identity.
  std::string summary() const;
};

/// The description of the device this process exposes:
/// POLYMUX_RISCV_SIM_HARTS overrides the hart count (1 to 64);
/// POLYMUX_RISCV_SIM_FAULT=alu|memory makes the device faulty (tests only).
DeviceDescription defaultDeviceDescription();

} // namespace riscv_sim
