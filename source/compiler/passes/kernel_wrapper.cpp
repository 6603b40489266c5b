// Emits the CPU entry point of each kernel: unpack the packed argument block,
// then run every work-item of the group in z/y/x loops. When
// VectorizeWorkItemsPass gave the kernel a vector form of width N, the x loop
// runs it for each full group of N work-items and the scalar form for the
// rest of the row; otherwise the innermost loop is kept trivial (one
// induction variable, invariant bound) so that LLVM's loop vectoriser can
// still run consecutive work-items in SIMD lanes.
//
// A kernel with barriers is first cut into barrier regions
// (barrier_regions.h); the entry then runs the loops once per region reached:
//   next = region 0 for every work-item;
//   while (next != 0) run region `next` for every work-item;
// where a region returns the barrier its work-item stopped at (the same for
// all work-items of a group, as OpenCL requires) or 0 at the end.
//
// Sub-group barriers need only the work-items of one sub-group, and the
// sub-groups of a work-group may reach different ones (or none). A kernel
// with sub-group barriers therefore keeps, per work-item, the region it
// resumes at (kFinished once done) and runs in rounds:
//   every work-item resumes at region 0;  phase = sub-group;
//   do: each work-item whose resume point is region 0 or follows a
//       sub-group barrier (phase sub-group), or any unfinished one (phase
//       work-group), runs that region and records where it stopped;
//       phase = something ran ? sub-group : phase == sub-group ? work-group : done
// The members of a sub-group reach the same barriers, so they pass each
// sub-group barrier together, one round after the other; a work-item
// waiting at a work-group barrier runs again only when no work-item can
// move without passing one, i.e. when all have reached one (or finished).
// A kernel with a vector form of one sub-group per vector
// (VectorizeWorkItemsPass) runs it instead, without rounds, whenever the
// work-group's size along x is a multiple of the sub-group size; one with
// work-group barriers too runs its regions' such forms
// (sub_group_region_forms.h) in turn then, as the loops above do.
#include "barrier_regions.h"
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/passes.h"
#include "sub_group_region_forms.h"
#include "vectorize_work_item.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/MathExtras.h"

#include <tuple>

namespace compiler {
namespace {

/// Loads the kernel arguments from the packed block `packed`.
llvm::SmallVector<llvm::Value *, 12> unpackArguments(llvm::IRBuilder<> &builder, llvm::Function &workItem,
                                                     llvm::Value *packed) {
  const llvm::DataLayout &layout = workItem.getDataLayout();
  llvm::SmallVector<llvm::Value *, 12> values;
  uint64_t offset = 0;
  unsigned count = workItem.arg_size() - 4;
  for (unsigned i = 0; i < count; ++i) {
    llvm::Argument *argument = workItem.getArg(i);
    llvm::Type *type = argument->getType();
    bool byValue = argument->hasByValAttr();
    uint64_t size = byValue ? layout.getTypeAllocSize(argument->getParamByValType()).getFixedValue()
                            : layout.getTypeAllocSize(type).getFixedValue();
    offset = abi::alignTo(offset, abi::packedArgAlignment(size));
    llvm::Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), packed, offset);
    if (byValue) {
      // byval: the callee works on its own copy, so the packed bytes serve.
      values.push_back(address);
    } else {
      // The block's base alignment is the runtime's choice: assume none.
      values.push_back(builder.CreateAlignedLoad(type, address, llvm::Align(1), argument->getName()));
    }
    offset += size;
  }
  return values;
}

struct Loop {
  llvm::PHINode *index;
  llvm::BasicBlock *body;
  llvm::BasicBlock *latch; ///< branch back here when the body is done
};

/// Opens `for (index = start; index < bound; index += step)` at the
/// builder's position, leaving the builder in the body. `exit` is where the
/// loop leaves to.
Loop openLoop(llvm::IRBuilder<> &builder, llvm::Value *bound, llvm::BasicBlock *exit, llvm::StringRef name,
              llvm::Value *start = nullptr, uint64_t step = 1) {
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = function->getContext();
  llvm::BasicBlock *preheader = builder.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(context, name + ".header", function, exit);
  auto *body = llvm::BasicBlock::Create(context, name + ".body", function, exit);
  auto *latch = llvm::BasicBlock::Create(context, name + ".latch", function, exit);
  builder.CreateBr(header);
  builder.SetInsertPoint(header);
  llvm::PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, name);
  index->addIncoming(start ? start : builder.getInt64(0), preheader);
  builder.CreateCondBr(builder.CreateICmpULT(index, bound), body, exit);
  builder.SetInsertPoint(latch);
  llvm::Value *next = builder.CreateNUWAdd(index, builder.getInt64(step), name + ".next");
  index->addIncoming(next, latch);
  builder.CreateBr(header);
  builder.SetInsertPoint(body);
  return {index, body, latch};
}

/// The per-work-item state of the work-item with local ids x, y, z.
llvm::Value *workItemState(llvm::IRBuilder<> &builder, const std::array<llvm::Value *, 3> &localSize, llvm::Value *x,
                           llvm::Value *y, llvm::Value *z, llvm::Value *stateBase, uint64_t stateStride) {
  if (!stateStride)
    return stateBase;
  llvm::Value *row = builder.CreateNUWAdd(builder.CreateNUWMul(z, localSize[1]), y);
  llvm::Value *linear = builder.CreateNUWAdd(builder.CreateNUWMul(row, localSize[0]), x, "local.linear");
  return builder.CreateInBoundsGEP(builder.getInt8Ty(), stateBase,
                                   builder.CreateNUWMul(linear, builder.getInt64(stateStride)), "wi.state");
}

/// Calls `region` for the work-item (or, for a vector form, the lanes
/// starting at the work-item) x, y, z and stores where it stopped to `next`.
void emitRegionCall(llvm::IRBuilder<> &builder, llvm::Function &region, llvm::ArrayRef<llvm::Value *> arguments,
                    llvm::Value *info, const std::array<llvm::Value *, 3> &localSize, llvm::Value *x, llvm::Value *y,
                    llvm::Value *z, llvm::Value *stateBase, uint64_t stateStride, llvm::Value *next) {
  llvm::SmallVector<llvm::Value *, 16> callArguments(arguments);
  callArguments.append({info, x, y, z, workItemState(builder, localSize, x, y, z, stateBase, stateStride)});
  llvm::CallInst *call = builder.CreateCall(&region, callArguments, "next.region");
  call->setCallingConv(region.getCallingConv());
  builder.CreateStore(call, next);
}

/// Runs `region` for every work-item of the group, from the builder's
/// position to `exit`; each work-item's result goes to `next`. With a
/// vector form, full groups of its width along x run through it; without
/// `region`, the size along x must be a multiple of that width.
void emitRegionLoops(llvm::IRBuilder<> &builder, llvm::Function *region, const VectorForm &vectorForm,
                     llvm::ArrayRef<llvm::Value *> arguments, llvm::Value *info,
                     const std::array<llvm::Value *, 3> &localSize, llvm::Value *stateBase, uint64_t stateStride,
                     llvm::Value *next, llvm::BasicBlock *exit) {
  Loop z = openLoop(builder, localSize[2], exit, "wi.z");
  Loop y = openLoop(builder, localSize[1], z.latch, "wi.y");
  llvm::Value *tailStart = nullptr;
  if (vectorForm.function) {
    tailStart = builder.CreateAnd(localSize[0], ~uint64_t(vectorForm.width - 1), "lanes.end");
    auto *tail =
        llvm::BasicBlock::Create(builder.getContext(), "wi.x.tail", builder.GetInsertBlock()->getParent(), y.latch);
    Loop lanes = openLoop(builder, tailStart, tail, "wi.x.lanes", nullptr, vectorForm.width);
    emitRegionCall(builder, *vectorForm.function, arguments, info, localSize, lanes.index, y.index, z.index, stateBase,
                   stateStride, next);
    builder.CreateBr(lanes.latch);
    builder.SetInsertPoint(tail);
  }
  if (!region) {
    builder.CreateBr(y.latch);
    return;
  }
  Loop x = openLoop(builder, localSize[0], y.latch, "wi.x", tailStart);
  emitRegionCall(builder, *region, arguments, info, localSize, x.index, y.index, z.index, stateBase, stateStride, next);
  builder.CreateBr(x.latch);
}

/// Runs region 0 for every work-item of the group, then each region the
/// work-items stopped before (the same for all), until they finish; from
/// the builder's position to `exit`. Region r runs through `scalarRegions[r]`
/// (none: only the vector forms) and `vectorForms[r]` (none: only the
/// scalar regions).
void emitRegionsInTurn(llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Function *> scalarRegions,
                       llvm::ArrayRef<VectorForm> vectorForms, llvm::ArrayRef<llvm::Value *> arguments,
                       llvm::Value *info, const std::array<llvm::Value *, 3> &localSize, llvm::Value *stateBase,
                       uint64_t stateStride, llvm::BasicBlock *exit) {
  llvm::Function *entry = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = entry->getContext();
  const size_t count = scalarRegions.empty() ? vectorForms.size() : scalarRegions.size();
  llvm::Value *next = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "next.region.addr");
  builder.CreateStore(builder.getInt32(0), next);
  // After each region: the barrier the work-items stopped at, or 0.
  auto *advance = llvm::BasicBlock::Create(context, "next.region", entry, exit);
  llvm::IRBuilder<> advanceBuilder(advance);
  llvm::SwitchInst *dispatch = advanceBuilder.CreateSwitch(
      advanceBuilder.CreateLoad(advanceBuilder.getInt32Ty(), next, "next"), exit, count - 1);
  for (size_t index = 0; index < count; ++index) {
    auto *block = llvm::BasicBlock::Create(context, "region." + llvm::Twine(index), entry, advance);
    if (index == 0)
      builder.CreateBr(block);
    else
      dispatch->addCase(builder.getInt32(index), block);
    builder.SetInsertPoint(block);
    emitRegionLoops(builder, scalarRegions.empty() ? nullptr : scalarRegions[index],
                    vectorForms.empty() ? VectorForm{} : vectorForms[index], arguments, info, localSize, stateBase,
                    stateStride, next, advance);
  }
}

/// What a work-item of a kernel with sub-group barriers keeps as its resume
/// point once it has finished.
constexpr uint32_t kFinished = ~0u;

/// Emits the rounds described at the top of the file for `regions`, from the
/// builder's position to `exit`. Each work-item's resume point is an i32 at
/// `resumeOffset` in its state (`stateStride` bytes per work-item).
void emitPerWorkItemRegions(llvm::IRBuilder<> &builder, const BarrierRegions &regions,
                            llvm::ArrayRef<llvm::Value *> arguments, llvm::Value *info,
                            const std::array<llvm::Value *, 3> &localSize, llvm::Value *stateBase, uint64_t stateStride,
                            uint64_t resumeOffset, llvm::BasicBlock *exit) {
  llvm::Function *entry = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = entry->getContext();
  llvm::Type *i32 = builder.getInt32Ty();
  auto openItemLoops = [&](llvm::BasicBlock *loopExit, llvm::StringRef name) {
    Loop z = openLoop(builder, localSize[2], loopExit, (name + ".z").str());
    Loop y = openLoop(builder, localSize[1], z.latch, (name + ".y").str());
    Loop x = openLoop(builder, localSize[0], y.latch, (name + ".x").str());
    llvm::Value *state = workItemState(builder, localSize, x.index, y.index, z.index, stateBase, stateStride);
    llvm::Value *resume = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), state, resumeOffset, "wi.resume");
    return std::tuple{x, y, z, state, resume};
  };

  // Which regions follow a sub-group barrier, as a table indexed by region.
  llvm::SmallVector<uint8_t, 8> kinds(regions.afterSubGroupBarrier.begin(), regions.afterSubGroupBarrier.end());
  kinds[0] = 1; // the start runs in the sub-group phase
  auto *kindsInit = llvm::ConstantDataArray::get(context, kinds);
  auto *kindsTable = new llvm::GlobalVariable(*entry->getParent(), kindsInit->getType(), /*isConstant=*/true,
                                              llvm::GlobalValue::PrivateLinkage, kindsInit,
                                              entry->getName() + ".resumes.in.sub.group.phase");
  kindsTable->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);

  llvm::Value *workGroupPhase = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "phase.work.group");
  llvm::Value *ran = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "round.ran");
  builder.CreateStore(builder.getFalse(), workGroupPhase);

  auto *round = llvm::BasicBlock::Create(context, "round", entry, exit);
  auto *roundDone = llvm::BasicBlock::Create(context, "round.done", entry, exit);
  {
    auto [x, y, z, state, resume] = openItemLoops(round, "init");
    builder.CreateStore(builder.getInt32(0), resume);
    builder.CreateBr(x.latch);
  }

  builder.SetInsertPoint(round);
  builder.CreateStore(builder.getFalse(), ran);
  auto [x, y, z, state, resume] = openItemLoops(roundDone, "wi");
  llvm::Value *region = builder.CreateLoad(i32, resume, "resume.region");
  llvm::Value *finished = builder.CreateICmpEQ(region, builder.getInt32(kFinished));
  llvm::Value *kindIndex =
      builder.CreateZExt(builder.CreateSelect(finished, builder.getInt32(0), region), builder.getInt64Ty());
  llvm::Value *inSubGroupPhase = builder.CreateICmpNE(
      builder.CreateLoad(builder.getInt8Ty(),
                         builder.CreateInBoundsGEP(kindsInit->getType(), kindsTable, {builder.getInt64(0), kindIndex})),
      builder.getInt8(0));
  llvm::Value *runnable = builder.CreateAnd(
      builder.CreateNot(finished),
      builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), workGroupPhase), inSubGroupPhase), "runnable");
  auto *run = llvm::BasicBlock::Create(context, "wi.run", entry, x.latch);
  auto *stopped = llvm::BasicBlock::Create(context, "wi.stopped", entry, x.latch);
  builder.CreateCondBr(runnable, run, x.latch);

  builder.SetInsertPoint(stopped);
  llvm::PHINode *stop = builder.CreatePHI(i32, regions.functions.size(), "stopped.at");
  builder.CreateStore(
      builder.CreateSelect(builder.CreateICmpEQ(stop, builder.getInt32(0)), builder.getInt32(kFinished), stop), resume);
  builder.CreateStore(builder.getTrue(), ran);
  builder.CreateBr(x.latch);

  builder.SetInsertPoint(run);
  llvm::SwitchInst *dispatch = nullptr;
  for (auto [index, function] : llvm::enumerate(regions.functions)) {
    auto *block = llvm::BasicBlock::Create(context, "wi.region." + llvm::Twine(index), entry, stopped);
    if (index == 0)
      dispatch = builder.CreateSwitch(region, block, regions.functions.size() - 1);
    else
      dispatch->addCase(builder.getInt32(index), block);
    builder.SetInsertPoint(block);
    llvm::SmallVector<llvm::Value *, 16> callArguments(arguments);
    callArguments.append({info, x.index, y.index, z.index, state});
    llvm::CallInst *call = builder.CreateCall(function, callArguments, "next.region");
    call->setCallingConv(function->getCallingConv());
    stop->addIncoming(call, block);
    builder.CreateBr(stopped);
  }

  // Another sub-group round while anything ran; a work-group round once
  // nothing could; done when a work-group round ran nothing either.
  builder.SetInsertPoint(roundDone);
  llvm::Value *anyRan = builder.CreateLoad(builder.getInt1Ty(), ran);
  llvm::Value *wasWorkGroupPhase = builder.CreateLoad(builder.getInt1Ty(), workGroupPhase);
  builder.CreateStore(builder.CreateNot(anyRan), workGroupPhase);
  builder.CreateCondBr(builder.CreateOr(anyRan, builder.CreateNot(wasWorkGroupPhase)), round, exit);
}

/// The vector form VectorizeWorkItemsPass made of `workItem`, if any.
llvm::Function *findVectorForm(llvm::Function &workItem) {
  if (!workItem.hasFnAttribute(kVectorFormAttribute))
    return nullptr;
  return workItem.getParent()->getFunction(workItem.getFnAttribute(kVectorFormAttribute).getValueAsString());
}

/// The most instructions a vector form may have for its loop to be unrolled.
constexpr unsigned kMaxUnrolledVectorFormSize = 48;
constexpr unsigned kVectorFormUnrollCount = 4;

/// Whether the loop over full lane blocks should run several blocks per
/// iteration: a short, straight vector form is a streaming kernel (a = b +
/// s * c is one load, FMA and store per block), and STREAM's triad streamed
/// about 5% faster with four blocks per iteration in interleaved runs on a
/// Zen 4. Longer bodies, loops and calls would only grow.
bool shouldUnrollVectorLoop(const llvm::Function &vectorForm) {
  if (vectorForm.getInstructionCount() > kMaxUnrolledVectorFormSize)
    return false;
  // Every cycle has an edge to a block at or before its source in any
  // order of the blocks.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> seen;
  for (const llvm::BasicBlock &block : vectorForm) {
    seen.insert(&block);
    for (const llvm::Instruction &instruction : block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
          call && !llvm::isa<llvm::IntrinsicInst>(call))
        return false;
    for (const llvm::BasicBlock *successor : llvm::successors(&block))
      if (seen.contains(successor))
        return false;
  }
  return true;
}

/// Whether a short, straight vector form (shouldUnrollVectorLoop) streams
/// memory: it loads or stores vectors and computes at most two vector
/// values per vector it moves (STREAM's triad: two loads, one FMA, a store).
bool streamsMemory(const llvm::Function &vectorForm) {
  unsigned moved = 0, computed = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(vectorForm)) {
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      moved += store->getValueOperand()->getType()->isVectorTy();
      continue;
    }
    if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
      switch (intrinsic->getIntrinsicID()) {
      case llvm::Intrinsic::masked_load:
      case llvm::Intrinsic::masked_gather:
      case llvm::Intrinsic::masked_store:
      case llvm::Intrinsic::masked_scatter:
        ++moved;
        continue;
      default:
        break;
      }
    }
    if (!instruction.getType()->isVectorTy())
      continue;
    if (llvm::isa<llvm::LoadInst>(instruction))
      ++moved;
    else if (llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::CmpInst, llvm::IntrinsicInst>(instruction))
      ++computed;
  }
  return moved > 0 && computed <= 2 * moved;
}

/// The register width for the loads and stores of streaming vector forms
/// on CPUs with wider vectors.
constexpr unsigned kStreamingVectorBits = 256;

/// Compiles `entry` (the vector form and the scalar work-item function
/// inlined into it) for 256-bit registers: the vector form's wider vectors
/// become pairs of 256-bit operations. On a Zen 4, which splits 512-bit
/// operations in two, STREAM's triad streamed 4-5% faster that way in
/// interleaved runs (0.92-0.95 -> 0.97-1.01 of the fastest native loop, as
/// the native AVX2 loop beats the AVX-512 one there); Clang itself prefers
/// 256-bit vectors on AVX-512 CPUs. Neither function calls anything but
/// intrinsics, so the builtins library's calling convention, which needs
/// 512-bit vectors legal, does not come into it.
void streamOnNarrowerRegisters(llvm::Function &entry, llvm::Function &vectorForm) {
  const std::string bits = std::to_string(kStreamingVectorBits);
  vectorForm.addFnAttr("min-legal-vector-width", bits);
  entry.addFnAttr("min-legal-vector-width", bits);
  entry.addFnAttr("prefer-vector-width", bits);
}

/// Whether `function` calls anything other than intrinsics.
bool callsFunctions(const llvm::Function &function) {
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction); call && !llvm::isa<llvm::IntrinsicInst>(call))
      return true;
  return false;
}

/// Asks LLVM's loop unroller to run `count` iterations of the loop whose
/// back edge ends `latch` per trip (a remainder loop takes the rest).
void requestUnrolling(llvm::BasicBlock &latch, unsigned count) {
  llvm::LLVMContext &context = latch.getContext();
  llvm::Metadata *unrollCount[] = {
      llvm::MDString::get(context, "llvm.loop.unroll.count"),
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), count))};
  llvm::TempMDTuple self = llvm::MDNode::getTemporary(context, {});
  llvm::MDNode *loopId = llvm::MDNode::getDistinct(context, {self.get(), llvm::MDNode::get(context, unrollCount)});
  loopId->replaceOperandWith(0, loopId);
  latch.getTerminator()->setMetadata(llvm::LLVMContext::MD_loop, loopId);
}

void emitWorkItemCall(llvm::IRBuilder<> &builder, llvm::Function &workItem, llvm::ArrayRef<llvm::Value *> arguments,
                      llvm::Value *info, const std::array<llvm::Value *, 3> &localId) {
  llvm::SmallVector<llvm::Value *, 16> callArguments(arguments);
  callArguments.append({info, localId[0], localId[1], localId[2]});
  llvm::CallInst *call = builder.CreateCall(&workItem, callArguments);
  call->setCallingConv(workItem.getCallingConv());
}

/// `vectorForms`: each region's vector form (none: all scalar).
/// `vectorBits`: the register width the vector forms were made for.
void emitEntry(llvm::Function &workItem, const BarrierRegions &regions, llvm::ArrayRef<VectorForm> vectorForms,
               unsigned vectorBits) {
  llvm::Module &module = *workItem.getParent();
  llvm::LLVMContext &context = module.getContext();
  std::string kernelName = workItem.getFnAttribute(kWorkItemAttribute).getValueAsString().str();
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer, pointer}, false);
  auto *entry =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, abi::kEntryPrefix + kernelName, module);
  // Codegen attributes (target-cpu, target-features, fp modes) follow the kernel.
  llvm::AttrBuilder attributes(context, workItem.getAttributes().getFnAttrs());
  attributes.removeAttribute(llvm::Attribute::AlwaysInline);
  attributes.removeAttribute(kWorkItemAttribute);
  attributes.removeAttribute(llvm::Attribute::Convergent);
  attributes.addAttribute(llvm::Attribute::NoUnwind);
  entry->addFnAttrs(attributes);
  entry->setDSOLocal(true);
  // The kernel cannot reach the argument block or the info except through
  // these pointers, and never writes them.
  for (unsigned i = 0; i < 2; ++i) {
    entry->addParamAttr(i, llvm::Attribute::NoAlias);
    entry->addParamAttr(i, llvm::Attribute::NoUndef);
    entry->addParamAttr(i, llvm::Attribute::getWithCaptureInfo(context, llvm::CaptureInfo::none()));
    entry->addParamAttr(i, llvm::Attribute::ReadOnly);
  }
  llvm::Argument *packed = entry->getArg(0);
  llvm::Argument *info = entry->getArg(1);
  packed->setName("packed.args");
  info->setName("wg.info");

  auto *start = llvm::BasicBlock::Create(context, "entry", entry);
  auto *exit = llvm::BasicBlock::Create(context, "exit", entry);
  llvm::IRBuilder<> builder(start);
  llvm::SmallVector<llvm::Value *, 16> arguments = unpackArguments(builder, workItem, packed);
  std::array<llvm::Value *, 3> localSize;
  for (unsigned d = 0; d < 3; ++d)
    localSize[d] = loadInfoField(builder, info, builder.getInt64Ty(), info_field::LocalSize, d, "local.size");

  if (regions.functions.empty()) {
    Loop z = openLoop(builder, localSize[2], exit, "wi.z");
    Loop y = openLoop(builder, localSize[1], z.latch, "wi.y");
    llvm::Value *tailStart = nullptr;
    if (llvm::Function *vectorForm = findVectorForm(workItem)) {
      // Full groups of lanes through the vector form, the rest (and
      // work-groups narrower than the vector) through the scalar one.
      uint64_t width = integerAttribute(workItem, kVectorWidthAttribute);
      tailStart = builder.CreateAnd(localSize[0], ~(width - 1), "lanes.end");
      auto *tail = llvm::BasicBlock::Create(context, "wi.x.tail", entry, y.latch);
      Loop lanes = openLoop(builder, tailStart, tail, "wi.x.lanes", nullptr, width);
      if (shouldUnrollVectorLoop(*vectorForm)) {
        requestUnrolling(*lanes.latch, kVectorFormUnrollCount);
        if (vectorBits > kStreamingVectorBits && streamsMemory(*vectorForm) && !callsFunctions(workItem))
          streamOnNarrowerRegisters(*entry, *vectorForm);
      }
      emitWorkItemCall(builder, *vectorForm, arguments, info, {lanes.index, y.index, z.index});
      builder.CreateBr(lanes.latch);
      builder.SetInsertPoint(tail);
    }
    Loop x = openLoop(builder, localSize[0], y.latch, "wi.x", tailStart);
    emitWorkItemCall(builder, workItem, arguments, info, {x.index, y.index, z.index});
    builder.CreateBr(x.latch);
  } else if (regions.hasSubGroupBarriers() || workItem.hasFnAttribute(kCallsKernelExitAttribute)) {
    // Also for kernel_exit: a work-item that has left is finished, and the
    // rounds let the others pass the barriers it will never reach.
    if (llvm::Function *vectorForm = findVectorForm(workItem)) {
      // One vector per sub-group: when every sub-group is full and within
      // one row (the size along x a multiple of the width), the vector form
      // runs the whole work-group without any barrier.
      uint64_t width = integerAttribute(workItem, kVectorWidthAttribute);
      auto *vectors = llvm::BasicBlock::Create(context, "sub.group.vectors", entry, exit);
      auto *rounds = llvm::BasicBlock::Create(context, "sub.group.rounds", entry, exit);
      llvm::Value *partial = builder.CreateURem(localSize[0], builder.getInt64(width));
      builder.CreateCondBr(builder.CreateICmpEQ(partial, builder.getInt64(0)), vectors, rounds);
      builder.SetInsertPoint(vectors);
      Loop z = openLoop(builder, localSize[2], exit, "sg.z");
      Loop y = openLoop(builder, localSize[1], z.latch, "sg.y");
      Loop x = openLoop(builder, localSize[0], y.latch, "sg.x", nullptr, width);
      emitWorkItemCall(builder, *vectorForm, arguments, info, {x.index, y.index, z.index});
      builder.CreateBr(x.latch);
      builder.SetInsertPoint(rounds);
    }
    // Each work-item's resume point follows its state.
    uint64_t resumeOffset = llvm::alignTo(regions.stateStride, 4);
    uint64_t stride = llvm::alignTo(resumeOffset + 4, regions.stateAlignment);
    llvm::Value *stateBase =
        loadInfoField(builder, info, pointer, info_field::WorkItemState, std::nullopt, "wi.state.base");
    if (std::optional<SubGroupRegionForms> forms = findSubGroupRegionForms(workItem)) {
      // Work-group barriers and sub-group collectives: with every sub-group
      // full and within one row, the regions' vector forms, one sub-group
      // per vector, in turn as for any kernel with barriers.
      auto *vectors = llvm::BasicBlock::Create(context, "sub.group.regions", entry, exit);
      auto *rounds = llvm::BasicBlock::Create(context, "sub.group.rounds", entry, exit);
      llvm::Value *partial = builder.CreateURem(localSize[0], builder.getInt64(forms->width));
      builder.CreateCondBr(builder.CreateICmpEQ(partial, builder.getInt64(0)), vectors, rounds);
      builder.SetInsertPoint(vectors);
      llvm::SmallVector<VectorForm, 4> regionForms;
      for (llvm::Function *region : forms->regions)
        regionForms.push_back(VectorForm{region, forms->width});
      emitRegionsInTurn(builder, {}, regionForms, arguments, info, localSize, stateBase, forms->stateStride, exit);
      builder.SetInsertPoint(rounds);
      stride = std::max(stride, forms->stateStride);
    }
    entry->addFnAttr(kWorkItemStateSizeAttribute, std::to_string(stride));
    emitPerWorkItemRegions(builder, regions, arguments, info, localSize, stateBase, stride, resumeOffset, exit);
  } else {
    entry->addFnAttr(kWorkItemStateSizeAttribute, std::to_string(regions.stateStride));
    llvm::Value *stateBase =
        loadInfoField(builder, info, pointer, info_field::WorkItemState, std::nullopt, "wi.state.base");
    emitRegionsInTurn(builder, regions.functions, vectorForms, arguments, info, localSize, stateBase,
                      regions.stateStride, exit);
  }
  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
}

/// Records `message` as a build error and leaves `workItem` an empty body,
/// so that the rest of the pipeline still sees valid IR.
void replaceWithError(llvm::Function &workItem, llvm::StringRef message) {
  llvm::Module &module = *workItem.getParent();
  reportBuildError(module, message);
  workItem.deleteBody();
  workItem.setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *block = llvm::BasicBlock::Create(module.getContext(), "entry", &workItem);
  llvm::IRBuilder<> builder(block);
  builder.CreateRetVoid();
}

} // namespace

llvm::PreservedAnalyses KernelWrapperPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &analyses) {
  llvm::FunctionAnalysisManager &functionAnalyses =
      analyses.getResult<llvm::FunctionAnalysisManagerModuleProxy>(module).getManager();
  llvm::SmallVector<llvm::Function *, 8> workItems = workItemFunctions(module);
  for (llvm::Function *workItem : workItems) {
    bool scalarOnly = keepsScalarForm(*workItem);
    llvm::Expected<BarrierRegions> regions = splitAtBarriers(*workItem, functionAnalyses);
    if (!regions) {
      replaceWithError(*workItem, llvm::toString(regions.takeError()));
      emitEntry(*workItem, {}, {}, vectorBits);
      continue;
    }
    llvm::SmallVector<VectorForm, 4> vectorForms;
    if (vectorBits && !scalarOnly && !regions->hasSubGroupBarriers())
      vectorForms = vectorizeRegions(regions->functions, regions->stateStride != 0, vectorBits,
                                     maxLanesAlongX(*workItem), functionAnalyses);
    emitEntry(*workItem, *regions, vectorForms, vectorBits);
    if (!regions->functions.empty())
      workItem->eraseFromParent();
  }
  for (llvm::Function *marker : {anyLaneFunction(module), laneIndexFunction(module)})
    if (marker->use_empty())
      marker->eraseFromParent();
  // The barriers are gone from the work-item functions.
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty() && isBarrierFunction(function.getName()))
      function.eraseFromParent();
  return workItems.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace compiler
