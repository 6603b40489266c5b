// Checks every __global/__constant access of a kernel against the buffers
// its launch may reach (compiler/abi/vulkan_kernel_abi.h, "Checked buffer
// accesses"): a wild address must fail the command, not lose the GPU or
// fault the process that runs lavapipe. The ranges come from the functions
// of kAccessRangeBaseFunction and its kin, which the emitter reads from the
// push constants (or the argument buffer) next to the arguments: uniform
// values, not memory each work-item waits for.
//
// Each access is checked against the ranges its pointer can come from:
// llvm::getUnderlyingObjects follows GEPs, casts, phis and selects back to
// kernel arguments (that argument's buffer) and program-scope variables
// (their block); a pointer read from an image argument's descriptor (the
// texel address, compiler/abi/image_abi.h) is checked against that image's
// texels, and a pointer of any other origin (an integer, a pointer read
// from memory) against every range. The printf lowering's own
// accesses (bounded by the buffer's capacity) are not checked. A failed
// check sends the access to the scratch area and remembers its address in
// two values carried to the kernel's return, where one branch writes them
// to the launch's report: no control flow per access, so the loads of a
// memory-bound kernel still issue back to back. Per check that is a
// subtraction, a comparison with a bound computed once per range and
// length, and selects.
//
// Accesses of one basic block at constant offsets from one pointer share a
// check: of the span from the lowest to the end of the highest. Each of them
// runs whenever the first does (the group ends at an instruction that may
// not pass control on), and in a kernel without undefined behaviour they all
// lie in that pointer's buffer, so the span does too; a failed check sends
// all of them to the scratch area and reports the span's start. A kernel of
// the conformance suite (test_basic vector_creation) that builds 300 char16
// vectors from bytes had 9,600 checks, one per byte loaded or stored; it has
// six now.
//
// A work-item that has left at a kernel_exit but goes on with its
// work-group (lower_kernel_exit.cpp; a kKernelExitLeftFunction call marks
// the place) reports no fault from there on: what it does there is not the
// program's. A flag set at the mark keeps its failed checks out of the
// report (their accesses still use the scratch area), and check groups end
// at the mark.
//
// Runs last, on the structurised CFG, after the LoadStoreVectorizer (which
// must see the unchecked pointers to join accesses).
#include "passes/vulkan_passes.h"

#include "compiler/abi/vulkan_kernel_abi.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <cstddef>
#include <map>
#include <optional>

namespace compiler::spirv {
namespace {

namespace abi = compiler::abi::vulkan;

/// One access: the pointer operands it uses and how many bytes from each.
struct Access {
  llvm::Instruction *instruction;
  unsigned operand;    ///< the pointer's operand number
  llvm::Value *length; ///< bytes accessed (i64)
  /// Ranges the pointer may lie in (indices into the launch's ranges).
  llvm::SmallVector<unsigned, 2> ranges;
};

/// Accesses checked together: of one block, at constant offsets from
/// `base` (or a single access, with no base).
struct CheckGroup {
  llvm::SmallVector<unsigned, 4> accesses; ///< indices into accesses_, in block order
  llvm::Value *base = nullptr;
  int64_t begin = 0; ///< the span's offsets from base
  int64_t end = 0;
};

class KernelGuard {
public:
  explicit KernelGuard(llvm::Function &kernel)
      : kernel_(kernel), layout_(kernel.getParent()->getDataLayout()), context_(kernel.getContext()),
        i64_(llvm::Type::getInt64Ty(context_)), globalsRange_(programScopeRange(kernel)) {}

  bool run() {
    for (llvm::Instruction &instruction : llvm::instructions(kernel_))
      if (calls(instruction, kKernelExitLeftFunction))
        exitsLeft_.push_back(&instruction);
    collect();
    if (accesses_.empty()) {
      for (llvm::Instruction *call : exitsLeft_)
        call->eraseFromParent();
      return !exitsLeft_.empty();
    }
    formGroups();
    loadBounds();
    for (const CheckGroup &group : groups_)
      guard(group);
    reportAtReturns();
    llvm::SmallVector<llvm::AllocaInst *, 3> variables{faulted_, address_};
    if (left_) {
      for (llvm::Instruction *call : exitsLeft_) {
        new llvm::StoreInst(llvm::ConstantInt::getTrue(context_), left_, call->getIterator());
        call->eraseFromParent();
      }
      variables.push_back(left_);
    }
    llvm::DominatorTree dominators(kernel_);
    llvm::PromoteMemToReg(variables, dominators);
    return true;
  }

private:
  void collect() {
    for (llvm::Instruction &instruction : llvm::instructions(kernel_)) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
        add(instruction, load->getPointerOperandIndex(), size(load->getType()));
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
        add(instruction, store->getPointerOperandIndex(), size(store->getValueOperand()->getType()));
      else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
        add(instruction, rmw->getPointerOperandIndex(), size(rmw->getValOperand()->getType()));
      else if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
        add(instruction, exchange->getPointerOperandIndex(), size(exchange->getNewValOperand()->getType()));
      else if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction)) {
        const unsigned pointers = llvm::isa<llvm::MemTransferInst>(intrinsic) ? 2 : 1;
        llvm::Value *length = nullptr;
        for (unsigned operand = 0; operand < pointers; ++operand) {
          if (!isBufferAddressSpace(instruction.getOperand(operand)->getType()->getPointerAddressSpace()))
            continue;
          if (!length)
            length = llvm::IRBuilder<>(intrinsic).CreateZExtOrTrunc(intrinsic->getLength(), i64_);
          add(instruction, operand, length);
        }
      }
    }
  }

  llvm::Value *size(llvm::Type *type) const {
    return llvm::ConstantInt::get(i64_, layout_.getTypeStoreSize(type).getFixedValue());
  }

  void add(llvm::Instruction &instruction, unsigned operand, llvm::Value *length) {
    llvm::Value *pointer = instruction.getOperand(operand);
    if (!pointer->getType()->isPointerTy() || !isBufferAddressSpace(pointer->getType()->getPointerAddressSpace()))
      return;
    llvm::SmallVector<const llvm::Value *, 4> origins;
    llvm::getUnderlyingObjects(pointer, origins, /*LI=*/nullptr, /*MaxLookup=*/0);
    Access access{&instruction, operand, length, {}};
    bool anywhere = origins.empty();
    for (const llvm::Value *origin : origins) {
      if (auto *argument = llvm::dyn_cast<llvm::Argument>(origin); argument && argument->getParent() == &kernel_)
        addRange(access, argument->getArgNo());
      else if (llvm::isa<llvm::GlobalVariable>(origin))
        addRange(access, globalsRange_);
      else if (const llvm::Argument *image = imageOfTexelAddress(origin))
        addRange(access, texelRange(kernel_, image->getArgNo()));
      else if (!isLaunchBuffer(origin))
        anywhere = true;
    }
    if (anywhere) {
      access.ranges.clear();
      for (llvm::Argument &argument : kernel_.args())
        if (argument.getType()->isPointerTy() && isBufferAddressSpace(argument.getType()->getPointerAddressSpace()))
          access.ranges.push_back(argument.getArgNo());
      access.ranges.push_back(globalsRange_);
      for (llvm::Argument &argument : kernel_.args())
        if (isImageArgument(argument))
          access.ranges.push_back(texelRange(kernel_, argument.getArgNo()));
    }
    if (!access.ranges.empty())
      accesses_.push_back(std::move(access));
  }

  static void addRange(Access &access, unsigned range) {
    if (!llvm::is_contained(access.ranges, range))
      access.ranges.push_back(range);
  }

  /// The image argument whose descriptor `origin` is an address read from
  /// (inttoptr of a load from it), if any.
  const llvm::Argument *imageOfTexelAddress(const llvm::Value *origin) const {
    auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(origin);
    auto *load = cast ? llvm::dyn_cast<llvm::LoadInst>(cast->getOperand(0)) : nullptr;
    if (!load)
      return nullptr;
    auto *argument = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(load->getPointerOperand()));
    return argument && argument->getParent() == &kernel_ && isImageArgument(*argument) ? argument : nullptr;
  }

  static bool calls(const llvm::Instruction &instruction, llvm::StringRef name) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
    return call && call->getCalledFunction() && call->getCalledFunction()->getName() == name;
  }

  /// Memory the runtime gives the launch itself (the printf buffer, the
  /// kernel_exit record): always there, never out of range.
  static bool isLaunchBuffer(const llvm::Value *origin) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(origin);
    if (!call || !call->getCalledFunction())
      return false;
    llvm::StringRef name = call->getCalledFunction()->getName();
    return name == kPrintfBufferFunction || name == kKernelExitRecordFunction;
  }

  /// At the kernel's entry: the scratch area and each range the accesses
  /// use; the two values a failed check sets.
  void loadBounds() {
    llvm::BasicBlock &entry = kernel_.getEntryBlock();
    llvm::IRBuilder<> builder(&entry, entry.getFirstInsertionPt());
    llvm::Module &module = *kernel_.getParent();
    llvm::Type *i32 = builder.getInt32Ty();
    scratch_ = builder.CreateCall(module.getOrInsertFunction(kAccessScratchFunction, i64_), {}, "access.scratch");
    llvm::FunctionCallee baseFunction = module.getOrInsertFunction(kAccessRangeBaseFunction, i64_, i32);
    llvm::FunctionCallee sizeFunction = module.getOrInsertFunction(kAccessRangeSizeFunction, i64_, i32);
    for (const Access &access : accesses_)
      for (unsigned range : access.ranges) {
        if (ranges_.count(range))
          continue;
        llvm::Value *index = builder.getInt32(range);
        ranges_[range] = {builder.CreateCall(baseFunction, {index}, "access.base"),
                          builder.CreateCall(sizeFunction, {index}, "access.size")};
      }
    // For each range and constant length: how many offsets an access of that
    // length may start at (0 when it does not fit at all).
    for (const CheckGroup &group : groups_) {
      const Access &first = accesses_[group.accesses.front()];
      auto *length = group.base ? llvm::ConstantInt::get(i64_, group.end - group.begin)
                                : llvm::dyn_cast<llvm::ConstantInt>(first.length);
      if (length)
        for (unsigned range : first.ranges)
          if (!starts_.count({range, length->getZExtValue()}))
            starts_[{range, length->getZExtValue()}] = startCount(builder, ranges_[range].second, length);
    }
    faulted_ = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "access.faulted");
    address_ = builder.CreateAlloca(i64_, nullptr, "access.address");
    builder.CreateStore(builder.getFalse(), faulted_);
    builder.CreateStore(llvm::ConstantInt::get(i64_, 0), address_);
    if (!exitsLeft_.empty()) {
      left_ = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "access.left");
      builder.CreateStore(builder.getFalse(), left_);
    }
  }

  /// size < length ? 0 : size - length + 1
  llvm::Value *startCount(llvm::IRBuilder<> &builder, llvm::Value *size, llvm::Value *length) {
    llvm::Value *fits = builder.CreateICmpUGE(size, length);
    llvm::Value *count = builder.CreateAdd(builder.CreateSub(size, length), llvm::ConstantInt::get(i64_, 1));
    return builder.CreateSelect(fits, count, llvm::ConstantInt::get(i64_, 0), "access.starts");
  }

  /// Splits the accesses into check groups (see the file comment).
  void formGroups() {
    llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<unsigned, 2>> accessesOf;
    for (unsigned index = 0; index < accesses_.size(); ++index)
      accessesOf[accesses_[index].instruction].push_back(index);
    for (llvm::BasicBlock &block : kernel_) {
      // (base, ranges) -> index into groups_, for the current run of
      // instructions that all execute together.
      std::map<std::pair<llvm::Value *, llvm::SmallVector<unsigned, 2>>, size_t> open;
      for (llvm::Instruction &instruction : block) {
        if (auto found = accessesOf.find(&instruction); found != accessesOf.end())
          for (unsigned index : found->second)
            addToGroup(index, open);
        // A check made before a work-item leaves at a kernel_exit must not
        // cover accesses after it, whose faults do not count.
        if (!llvm::isGuaranteedToTransferExecutionToSuccessor(&instruction) ||
            calls(instruction, kKernelExitLeftFunction))
          open.clear();
      }
    }
  }

  template <typename OpenGroups> void addToGroup(unsigned index, OpenGroups &open) {
    const Access &access = accesses_[index];
    auto *length = llvm::dyn_cast<llvm::ConstantInt>(access.length);
    llvm::Value *pointer = access.instruction->getOperand(access.operand);
    llvm::APInt offset(layout_.getIndexTypeSizeInBits(pointer->getType()), 0);
    llvm::Value *base = pointer->stripAndAccumulateConstantOffsets(layout_, offset, /*AllowNonInbounds=*/true);
    // Spans of sizes and offsets far from overflowing 64 bits, from a base
    // in the access's own address space.
    if (!length || base->getType() != pointer->getType() || !offset.isSignedIntN(48) ||
        length->getZExtValue() > (uint64_t(1) << 32)) {
      groups_.push_back({{index}, nullptr, 0, 0});
      return;
    }
    const int64_t begin = offset.getSExtValue();
    const int64_t end = begin + static_cast<int64_t>(length->getZExtValue());
    auto [slot, added] = open.try_emplace({base, access.ranges}, groups_.size());
    if (added) {
      groups_.push_back({{index}, base, begin, end});
      return;
    }
    CheckGroup &group = groups_[slot->second];
    group.accesses.push_back(index);
    group.begin = std::min(group.begin, begin);
    group.end = std::max(group.end, end);
  }

  void guard(const CheckGroup &group) {
    const Access &first = accesses_[group.accesses.front()];
    llvm::IRBuilder<> builder(first.instruction);
    llvm::Value *address = nullptr;
    llvm::Value *length = first.length;
    if (group.base) {
      address = builder.CreateAdd(builder.CreatePtrToInt(group.base, i64_),
                                  llvm::ConstantInt::get(i64_, static_cast<uint64_t>(group.begin)));
      length = llvm::ConstantInt::get(i64_, group.end - group.begin);
    } else {
      address = builder.CreatePtrToInt(first.instruction->getOperand(first.operand), i64_);
    }
    llvm::Value *inside = check(builder, address, length, first.ranges);
    for (unsigned index : group.accesses) {
      const Access &access = accesses_[index];
      builder.SetInsertPoint(access.instruction);
      llvm::Value *pointer = access.instruction->getOperand(access.operand);
      access.instruction->setOperand(
          access.operand, builder.CreateSelect(inside, pointer, scratchPointer(pointer->getType()), "access.checked"));
    }
  }

  /// Whether [address, address + length) lies in one of `ranges`; records
  /// `address` for the report when it does not.
  llvm::Value *check(llvm::IRBuilder<> &builder, llvm::Value *address, llvm::Value *length,
                     llvm::ArrayRef<unsigned> ranges) {
    // Inside [base, base + size) with all of its bytes: the offset from the
    // base is below the number of starts (no overflow either way; a NULL or
    // non-buffer argument's range has size 0 and admits nothing).
    auto *constantLength = llvm::dyn_cast<llvm::ConstantInt>(length);
    llvm::Value *inside = nullptr;
    for (unsigned range : ranges) {
      auto [base, size] = ranges_[range];
      llvm::Value *starts =
          constantLength ? starts_[{range, constantLength->getZExtValue()}] : startCount(builder, size, length);
      llvm::Value *fits = builder.CreateICmpULT(builder.CreateSub(address, base), starts);
      inside = inside ? builder.CreateOr(inside, fits) : fits;
    }
    llvm::Value *outside = builder.CreateNot(inside, "access.outside");
    // A work-item that left at a kernel_exit and goes on with its
    // work-group (lower_kernel_exit.cpp) has no faults: its accesses are
    // not the program's.
    llvm::Value *fault = outside;
    if (left_)
      fault =
          builder.CreateAnd(outside, builder.CreateNot(builder.CreateLoad(builder.getInt1Ty(), left_)), "access.fault");
    builder.CreateStore(builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), faulted_), fault), faulted_);
    builder.CreateStore(builder.CreateSelect(fault, address, builder.CreateLoad(i64_, address_)), address_);
    return inside;
  }

  /// The scratch area as a pointer of `type`, made once at the entry.
  llvm::Value *scratchPointer(llvm::Type *type) {
    llvm::Value *&pointer = scratchPointers_[type];
    if (!pointer)
      pointer = llvm::IRBuilder<>(scratch_->getNextNode()).CreateIntToPtr(scratch_, type, "access.scratch.pointer");
    return pointer;
  }

  /// Before each return: a work-item whose access failed a check says so.
  void reportAtReturns() {
    llvm::SmallVector<llvm::ReturnInst *, 1> returns;
    for (llvm::BasicBlock &block : kernel_)
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()))
        returns.push_back(ret);
    for (llvm::ReturnInst *ret : returns) {
      llvm::IRBuilder<> builder(ret);
      llvm::Value *faulted = builder.CreateLoad(builder.getInt1Ty(), faulted_);
      llvm::Value *address = builder.CreateLoad(i64_, address_);
      llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(faulted, ret, /*Unreachable=*/false);
      builder.SetInsertPoint(then);
      llvm::Value *report = builder.CreateCall(
          kernel_.getParent()->getOrInsertFunction(kAccessReportFunction, llvm::PointerType::get(context_, 1)), {},
          "access.report");
      builder.CreateStore(address, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), report,
                                                                      offsetof(abi::AccessReport, address)));
      builder.CreateStore(builder.getInt32(1), builder.CreateConstInBoundsGEP1_64(
                                                   builder.getInt8Ty(), report, offsetof(abi::AccessReport, faulted)));
    }
  }

  llvm::Function &kernel_;
  const llvm::DataLayout &layout_;
  llvm::LLVMContext &context_;
  llvm::IntegerType *i64_;
  const unsigned globalsRange_;
  std::vector<Access> accesses_;
  std::vector<CheckGroup> groups_;
  llvm::Instruction *scratch_ = nullptr;
  llvm::DenseMap<llvm::Type *, llvm::Value *> scratchPointers_;
  std::map<unsigned, std::pair<llvm::Value *, llvm::Value *>> ranges_; ///< base, size
  std::map<std::pair<unsigned, uint64_t>, llvm::Value *> starts_;      ///< (range, length) -> startCount
  llvm::AllocaInst *faulted_ = nullptr;
  llvm::AllocaInst *address_ = nullptr;
  /// The kKernelExitLeftFunction calls, and the flag they set.
  llvm::SmallVector<llvm::Instruction *, 2> exitsLeft_;
  llvm::AllocaInst *left_ = nullptr;
};

} // namespace

llvm::PreservedAnalyses GuardBufferAccessesPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && isKernel(function))
      changed |= KernelGuard(function).run();
  if (llvm::Function *left = module.getFunction(kKernelExitLeftFunction); left && left->use_empty())
    left->eraseFromParent();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler::spirv
