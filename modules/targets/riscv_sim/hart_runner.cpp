#include "hart_runner.h"

#include "mux/kernel_exit.h"

#include "device.h"
#include "executable.h"

#include "riscv_sim/address_space.h"
#include "riscv_sim/hart.h"

#include <string>

namespace riscv_sim {
namespace {

/// Instructions a hart runs between checks of whether its launch should
/// stop early (another work-group faulted).
constexpr uint64_t kSlice = uint64_t(1) << 24;

} // namespace

using sim::AddressSpace;
using sim::Region;
using sim::StopReason;

struct HartRunner::State {
  AddressSpace memory;
  const LoadedProgram &program;
  uint64_t returnAddress;
  uint64_t stackTop;
  uint64_t stackBottom = 0;
  sim::Hart hart;

  State(AddressSpace space, const LoadedProgram &program, uint64_t returnAddress, uint64_t stackTop)
      : memory(std::move(space)), program(program), returnAddress(returnAddress), stackTop(stackTop), hart(memory) {}
};

HartRunner::HartRunner(Device &device, const LoadedProgram &program, unsigned hart) {
  const DeviceDescription &description = device.description();
  AddressSpace space;
  for (const Segment &segment : program.segments())
    space.map({segment.base, segment.size, segment.host.get(),
               static_cast<uint8_t>(sim::Read | (segment.writable ? sim::Write : 0) |
                                    (segment.executable ? sim::Execute : 0)),
               segment.executable ? "program code" : segment.writable ? "program data" : "program constants"},
              segment.executable ? program.code() : nullptr);
  space.map({description.dramBase, description.dramSize, device.dram().host(), sim::Read | sim::Write, "DRAM"});
  // The hart's local memory, with an unmapped guard between its data and
  // its stack so that a stack overflow traps instead of overwriting data.
  const uint64_t stackBottom = description.scratchBase + description.scratchSize - description.stackSize;
  const uint64_t dataSize = description.scratchSize - description.stackSize - description.stackGuardSize;
  std::byte *scratch = device.harts().scratch(hart);
  space.map({description.scratchBase, dataSize, scratch, sim::Read | sim::Write,
             "hart " + std::to_string(hart) + " local memory"});
  space.map({stackBottom, description.stackSize, scratch + (stackBottom - description.scratchBase),
             sim::Read | sim::Write, "hart " + std::to_string(hart) + " stack"});
  state_ = std::make_unique<State>(std::move(space), program, description.returnAddress,
                                   stackBottom + description.stackSize);
  state_->stackBottom = stackBottom;
}

HartRunner::~HartRunner() = default;

GroupResult HartRunner::runGroup(uint64_t entry, uint64_t args, uint64_t info, const std::atomic<bool> &abandon) {
  sim::HartState &registers = state_->hart.state();
  for (uint64_t &reg : registers.x)
    reg = 0;
  registers.x[1] = state_->returnAddress; // ra
  registers.x[2] = state_->stackTop;      // sp
  registers.x[10] = args;                 // a0
  registers.x[11] = info;                 // a1
  registers.pc = entry;
  registers.fcsr = 0;
  GroupResult group;
  for (;;) {
    sim::RunResult result = state_->hart.run(state_->returnAddress, kSlice);
    group.instructions += result.instructionsRetired;
    if (result.cause == StopReason::Returned) {
      group.completed = true;
      return group;
    }
    if (result.cause == StopReason::InstructionLimit) {
      if (abandon.load(std::memory_order_relaxed)) {
        group.trap = "abandoned: another work-group of the launch faulted";
        return group;
      }
      continue;
    }
    result.instructionsRetired = group.instructions; // the work-group's, not this slice's
    group.trap = result.describe();
    group.exitStatus = mux::kernel_exit::DeviceFault;
    if (result.cause == StopReason::LoadAccessFault || result.cause == StopReason::StoreAccessFault) {
      const Region *region = state_->memory.find(result.address);
      group.trap += region ? " (in " + region->name + ", which does not allow it)" : " (not mapped)";
      group.exitStatus = mux::kernel_exit::OutOfBounds;
      if (registers.x[2] < state_->stackBottom) { // sp left the stack
        group.trap = "stack overflow: the work-item stack of " +
                     std::to_string((state_->stackTop - state_->stackBottom) >> 10) + " KiB is exhausted (" +
                     group.trap + ")";
        group.exitStatus = mux::kernel_exit::StackOverflow;
      }
    }
    if (result.cause == StopReason::EnvironmentCall)
      group.trap = "unexpected environment call (" + group.trap + ")";
    return group;
  }
}

} // namespace riscv_sim
