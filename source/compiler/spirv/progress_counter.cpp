// The finished work-items a kernel adds to its launch's progress counter as
// it returns (compiler/abi/vulkan_kernel_abi.h, "Progress"). One atomic per
// sub-group keeps the cost to a few instructions per sub-group; a GPU
// queue shows nothing of a running dispatch otherwise.
#include "kernel_emitter.h"

namespace compiler::spirv {

using abi::vulkan::LaunchField;

void KernelEmitter::emitProgressCount() {
  const Id counterType = builder_.typePointer(spv::StorageClass::PhysicalStorageBuffer, uint32Type());
  const Id scopeDevice = uint32(uint32_t(spv::Scope::Device));
  const Id relaxed = uint32(0);
  if (!state_.config.subgroupSize) {
    Id counter = op(spv::Op::OpConvertUToPtr, counterType, {launchField(LaunchField::Progress, 0)});
    op(spv::Op::OpAtomicIAdd, uint32Type(), {counter, scopeDevice, relaxed, uint32(1)});
    return;
  }
  // Counted where every work-item of the sub-group that returns here is
  // still active; one of them adds the count.
  builder_.capability(spv::Capability::GroupNonUniform);
  const Id scopeSubgroup = uint32(uint32_t(spv::Scope::Subgroup));
  Id finished = op(spv::Op::OpGroupNonUniformBallotBitCount, uint32Type(),
                   {scopeSubgroup, uint32_t(spv::GroupOperation::Reduce), activeLanes()});
  Id elected = op(spv::Op::OpGroupNonUniformElect, builder_.typeBool(), {scopeSubgroup});
  Id add = builder_.newId(), merge = builder_.newId();
  opNoResult(spv::Op::OpSelectionMerge, {merge, 0});
  opNoResult(spv::Op::OpBranchConditional, {elected, add, merge});
  opNoResult(spv::Op::OpLabel, {add});
  Id counter = op(spv::Op::OpConvertUToPtr, counterType, {launchField(LaunchField::Progress, 0)});
  op(spv::Op::OpAtomicIAdd, uint32Type(), {counter, scopeDevice, relaxed, finished});
  opNoResult(spv::Op::OpBranch, {merge});
  opNoResult(spv::Op::OpLabel, {merge});
}

} // namespace compiler::spirv
