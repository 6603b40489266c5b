// Turns each printf call in a work-item function into a record appended to
// the launch's printf buffer (compiler/abi/printf_abi.h): the format string
// and what is known at compile time go to the module's format table, the
// argument values go to the record.
#include "compiler/abi/printf_abi.h"
#include "compiler/passes.h"
#include "lower_printf_format.h"
#include "work_group_info_fields.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstddef>
#include <optional>

namespace compiler {
namespace {

using abi::PrintfArgInfo;
using abi::PrintfArgKind;

/// Named metadata holding one MDString per format-table entry (the entry's
/// encoded bytes), in format-index order, until takePrintfTable.
constexpr const char *kTableMetadata = "polymux.printf.formats";
/// What a printf whose format is not a compile-time string calls instead; the
/// name is what checkUnresolvedSymbols reports in the build log.
constexpr const char *kNonConstantFormat = "printf with a format that is not a string literal";

void appendBytes(std::string &out, const void *data, size_t size) { out.append(static_cast<const char *>(data), size); }
void appendU32(std::string &out, uint32_t value) { appendBytes(out, &value, sizeof(value)); }

/// The value a load reads when it loads from an alloca stored exactly once
/// (the pattern unoptimised IR uses for parameters of inlined functions).
llvm::Value *storedValue(llvm::LoadInst &load) {
  auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(load.getPointerOperand()->stripPointerCasts());
  if (!alloca)
    return nullptr;
  llvm::StoreInst *onlyStore = nullptr;
  for (llvm::User *user : alloca->users()) {
    if (llvm::isa<llvm::LoadInst>(user) || llvm::isa<llvm::LifetimeIntrinsic>(user))
      continue;
    auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
    if (!store || store->getPointerOperand() != alloca || onlyStore)
      return nullptr;
    onlyStore = store;
  }
  return onlyStore ? onlyStore->getValueOperand() : nullptr;
}

/// The NUL-terminated string `pointer` points to, when the compiler can
/// know it.
std::optional<std::string> constantString(llvm::Value *pointer) {
  for (int depth = 0; depth < 16 && pointer; ++depth) {
    pointer = pointer->stripPointerCasts();
    llvm::StringRef text;
    if (llvm::getConstantStringInfo(pointer, text, /*TrimAtNul=*/true))
      return text.str();
    auto *load = llvm::dyn_cast<llvm::LoadInst>(pointer);
    if (!load)
      return std::nullopt;
    pointer = storedValue(*load);
  }
  return std::nullopt;
}

/// One argument as the record stores it.
struct StoredArgument {
  PrintfArgInfo info{};
  std::string constantText;     ///< ConstantString
  llvm::Value *value = nullptr; ///< the value, or the byval pointer
  bool byValue = false;         ///< `value` points to the argument's bytes
};

unsigned lengthBytes(printf_format::Length length) {
  switch (length) {
  case printf_format::Length::Char:
    return 1;
  case printf_format::Length::Short:
    return 2;
  case printf_format::Length::Int:
    return 4;
  case printf_format::Length::Long:
    return 8;
  default:
    return 0;
  }
}

class ArgumentClassifier {
public:
  ArgumentClassifier(llvm::CallInst &call, const llvm::DataLayout &layout) : call_(call), layout_(layout) {}

  StoredArgument classify(unsigned operand, const printf_format::Specification &spec, bool isStar) {
    StoredArgument arg;
    llvm::Value *value = call_.getArgOperand(operand);
    arg.value = value;
    llvm::Type *type = value->getType();
    uint64_t size = 0;
    if (call_.paramHasAttr(operand, llvm::Attribute::ByVal)) {
      arg.byValue = true;
      size = layout_.getTypeStoreSize(call_.getParamByValType(operand)).getFixedValue();
    } else if (auto *copy = llvm::dyn_cast<llvm::AllocaInst>(value->stripPointerCasts());
               copy && spec.vectorWidth != 0 && !isStar && copy->getAllocatedType()->isVectorTy()) {
      // A vector passed by reference to the caller's copy (riscv64 passes
      // vectors over 16 bytes so, variadic arguments included).
      arg.byValue = true;
      size = layout_.getTypeStoreSize(copy->getAllocatedType()).getFixedValue();
    } else if (type->isSized()) {
      size = layout_.getTypeStoreSize(type).getFixedValue();
    }
    arg.info.kind = PrintfArgKind::Unprintable;
    arg.info.vectorWidth = 1;
    if (isStar || spec.conversion == 'c')
      scalar(arg, type, size);
    else if (spec.conversion == 's')
      string(arg, type);
    else if (spec.conversion == 'p')
      pointer(arg, type, size);
    else if (spec.vectorWidth != 0)
      vector(arg, spec, size);
    else
      scalar(arg, type, size);
    return arg;
  }

private:
  static void setValue(StoredArgument &arg, PrintfArgKind kind, unsigned elementSize, unsigned width,
                       uint64_t payload) {
    arg.info.kind = kind;
    arg.info.elementSize = static_cast<uint8_t>(elementSize);
    arg.info.vectorWidth = static_cast<uint8_t>(width);
    arg.info.payloadSize = static_cast<uint32_t>(payload);
  }

  /// Scalars are stored as the IR passes them (after the default argument
  /// promotions); the decoder converts to what the conversion wants.
  static void scalar(StoredArgument &arg, llvm::Type *type, uint64_t size) {
    if (arg.byValue)
      return;
    if (type->isIntegerTy() && (size == 1 || size == 2 || size == 4 || size == 8))
      setValue(arg, PrintfArgKind::Integer, size, 1, size);
    else if (type->isHalfTy() || type->isFloatTy() || type->isDoubleTy())
      setValue(arg, PrintfArgKind::Float, size, 1, size);
    else if (type->isPointerTy())
      setValue(arg, PrintfArgKind::Pointer, 8, 1, 8);
  }

  static void pointer(StoredArgument &arg, llvm::Type *type, uint64_t size) {
    if (!arg.byValue && (type->isPointerTy() || (type->isIntegerTy() && size <= 8)))
      setValue(arg, PrintfArgKind::Pointer, 8, 1, 8);
  }

  static void string(StoredArgument &arg, llvm::Type *type) {
    if (arg.byValue || !type->isPointerTy())
      return;
    if (std::optional<std::string> text = constantString(arg.value)) {
      arg.info.kind = PrintfArgKind::ConstantString;
      arg.constantText = std::move(*text);
    } else {
      arg.info.kind = PrintfArgKind::RuntimeString;
    }
  }

  /// Vectors reach printf in whatever form the target's variadic ABI gives
  /// them (x86-64 passes a char2 as i16, a float8 by pointer): what counts
  /// is their bytes, laid out as the vector is in memory.
  static void vector(StoredArgument &arg, const printf_format::Specification &spec, uint64_t size) {
    const unsigned width = spec.vectorWidth;
    const bool isFloat = spec.isFloat();
    auto validElement = [&](uint64_t bytes) {
      return bytes == 2 || bytes == 4 || bytes == 8 || (!isFloat && bytes == 1);
    };
    uint64_t elementSize = lengthBytes(spec.length);
    if (elementSize == 0) {
      // No length modifier (an Intel extension, undefined in OpenCL C): take
      // the element size the argument implies. A 3-vector occupies the size
      // of a 4-vector in memory but may be passed as 3 elements.
      for (unsigned elements : {width == 3 ? 4u : width, width})
        if (size % elements == 0 && validElement(size / elements)) {
          elementSize = size / elements;
          break;
        }
    }
    if (validElement(elementSize) && size >= elementSize * width && size <= 1024)
      setValue(arg, isFloat ? PrintfArgKind::Float : PrintfArgKind::Integer, unsigned(elementSize), width, size);
  }

  llvm::CallInst &call_;
  const llvm::DataLayout &layout_;
};

/// The format table as the module keeps it until takePrintfTable.
class FormatTable {
public:
  explicit FormatTable(llvm::Module &module) : metadata_(module.getOrInsertNamedMetadata(kTableMetadata)) {
    for (unsigned i = 0; i < metadata_->getNumOperands(); ++i)
      if (auto *text = llvm::dyn_cast<llvm::MDString>(metadata_->getOperand(i)->getOperand(0)))
        indices_.try_emplace(text->getString(), i);
  }

  uint32_t indexOf(llvm::StringRef format, llvm::ArrayRef<StoredArgument> args) {
    std::string entry;
    appendU32(entry, static_cast<uint32_t>(format.size()));
    entry.append(format);
    appendU32(entry, static_cast<uint32_t>(args.size()));
    for (const StoredArgument &arg : args) {
      appendBytes(entry, &arg.info, sizeof(arg.info));
      if (arg.info.kind == PrintfArgKind::ConstantString) {
        appendU32(entry, static_cast<uint32_t>(arg.constantText.size()));
        entry.append(arg.constantText);
      }
    }
    auto [found, inserted] = indices_.try_emplace(entry, metadata_->getNumOperands());
    if (inserted) {
      llvm::LLVMContext &context = metadata_->getParent()->getContext();
      metadata_->addOperand(llvm::MDNode::get(context, {llvm::MDString::get(context, entry)}));
    }
    return found->second;
  }

private:
  llvm::NamedMDNode *metadata_;
  llvm::StringMap<uint32_t> indices_;
};

/// Emits a loop computing strnlen(pointer, limit) before the builder's
/// insertion point (which must be an instruction); returns the i64 length.
/// The bound also keeps LLVM from turning the loop into a strlen call, which
/// the executor does not provide.
llvm::Value *emitStringLength(llvm::IRBuilder<> &builder, llvm::Value *pointer, llvm::Value *limit) {
  llvm::LLVMContext &context = builder.getContext();
  llvm::BasicBlock *entry = builder.GetInsertBlock();
  llvm::BasicBlock *rest = entry->splitBasicBlock(builder.GetInsertPoint(), "printf.strlen.done");
  entry->getTerminator()->eraseFromParent();
  auto *loop = llvm::BasicBlock::Create(context, "printf.strlen", entry->getParent(), rest);
  auto *body = llvm::BasicBlock::Create(context, "printf.strlen.body", entry->getParent(), rest);
  builder.SetInsertPoint(entry);
  builder.CreateBr(loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, "printf.strlen.index");
  index->addIncoming(builder.getInt64(0), entry);
  builder.CreateCondBr(builder.CreateICmpULT(index, limit), body, rest);
  builder.SetInsertPoint(body);
  llvm::Value *character =
      builder.CreateLoad(builder.getInt8Ty(), builder.CreateGEP(builder.getInt8Ty(), pointer, index));
  index->addIncoming(builder.CreateAdd(index, builder.getInt64(1)), body);
  builder.CreateCondBr(builder.CreateICmpEQ(character, builder.getInt8(0)), rest, loop);
  builder.SetInsertPoint(rest, rest->begin());
  return index;
}

class CallLowering {
public:
  CallLowering(llvm::Module &module, FormatTable &table, LowerPrintfPass::BufferSource source)
      : module_(module), table_(table), source_(source) {}

  /// Rewrites `call`; false when its format is not a compile-time string.
  bool lower(llvm::CallInst &call) {
    std::optional<std::string> format = constantString(call.getArgOperand(0));
    if (!format)
      return false;
    llvm::SmallVector<StoredArgument, 8> args;
    ArgumentClassifier classifier(call, module_.getDataLayout());
    unsigned operand = 1;
    for (const printf_format::Piece &piece : printf_format::parse(*format)) {
      if (!piece.isSpecification)
        continue;
      const printf_format::Specification &spec = piece.specification;
      unsigned count = spec.argumentCount();
      for (unsigned i = 0; i < count && operand < call.arg_size(); ++i, ++operand) {
        bool isStar = i + 1 < count;
        args.push_back(classifier.classify(operand, spec, isStar));
      }
    }
    // Arguments past the format are evaluated (they already are) and ignored.
    uint32_t index = table_.indexOf(*format, args);
    emitRecord(call, index, args);
    return true;
  }

private:
  void emitRecord(llvm::CallInst &call, uint32_t formatIndex, llvm::ArrayRef<StoredArgument> args) {
    llvm::IRBuilder<> builder(&call);
    llvm::Type *i8 = builder.getInt8Ty();
    llvm::Type *i32 = builder.getInt32Ty();
    llvm::Type *i64 = builder.getInt64Ty();

    llvm::Value *buffer = printfBuffer(builder, *call.getFunction());
    constexpr uint64_t capacityOffset = offsetof(abi::PrintfBufferHeader, capacity);
    constexpr uint64_t usedOffset = offsetof(abi::PrintfBufferHeader, used);
    llvm::Value *capacity = builder.CreateAlignedLoad(
        i64, builder.CreateConstInBoundsGEP1_64(i8, buffer, capacityOffset), llvm::Align(8), "printf.capacity");

    // Strings known only at run time: their lengths size the record.
    llvm::SmallVector<llvm::Value *, 4> lengths;
    llvm::SmallVector<llvm::Value *, 4> sources;
    llvm::Value *payload = builder.getInt64(0);
    for (const StoredArgument &arg : args) {
      if (arg.info.kind == PrintfArgKind::RuntimeString) {
        // A null pointer reads nothing: its length loop is bounded by 0.
        llvm::Value *isNull = builder.CreateIsNull(arg.value);
        llvm::Value *limit = builder.CreateSelect(isNull, builder.getInt64(0), capacity);
        llvm::Value *length = emitStringLength(builder, arg.value, limit);
        builder.SetInsertPoint(&call);
        sources.push_back(arg.value);
        lengths.push_back(builder.CreateSelect(isNull, builder.getInt64(abi::kPrintfNullString), length));
        payload = builder.CreateAdd(payload, builder.CreateAdd(length, builder.getInt64(4)));
      } else {
        payload = builder.CreateAdd(payload, builder.getInt64(arg.info.payloadSize));
      }
    }
    llvm::Value *recordSize = builder.CreateAnd(
        builder.CreateAdd(payload, builder.getInt64(abi::kPrintfRecordHeaderSize + abi::kPrintfRecordAlignment - 1)),
        builder.getInt64(~uint64_t(abi::kPrintfRecordAlignment - 1)), "printf.record.size");

    llvm::Value *offset =
        claim(builder, builder.CreateConstInBoundsGEP1_64(i8, buffer, usedOffset), recordSize, capacity, call);
    llvm::Value *end = builder.CreateAdd(offset, recordSize);
    llvm::Value *fits = builder.CreateICmpULE(end, capacity, "printf.fits");
    llvm::Value *result = builder.CreateSelect(fits, builder.getInt32(0), builder.getInt32(-1));
    llvm::Value *record = builder.CreateInBoundsGEP(
        i8, builder.CreateConstInBoundsGEP1_64(i8, buffer, sizeof(abi::PrintfBufferHeader)), offset, "printf.record");

    llvm::Instruction *fullTerm = nullptr;
    llvm::Instruction *writeTerm = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(fits, &call, &writeTerm, &fullTerm);

    builder.SetInsertPoint(writeTerm);
    builder.CreateAlignedStore(builder.getInt32(formatIndex), record, llvm::Align(8));
    builder.CreateAlignedStore(builder.CreateTrunc(recordSize, i32), builder.CreateConstInBoundsGEP1_64(i8, record, 4),
                               llvm::Align(4));
    llvm::Value *at = builder.getInt64(abi::kPrintfRecordHeaderSize);
    size_t runtimeString = 0;
    for (const StoredArgument &arg : args) {
      llvm::Value *destination = builder.CreateInBoundsGEP(i8, record, at);
      switch (arg.info.kind) {
      case PrintfArgKind::Integer:
      case PrintfArgKind::Float:
        if (arg.byValue)
          builder.CreateMemCpy(destination, llvm::Align(1), arg.value, llvm::Align(1), arg.info.payloadSize);
        else
          builder.CreateAlignedStore(arg.value, destination, llvm::Align(1));
        break;
      case PrintfArgKind::Pointer: {
        llvm::Value *address = arg.value->getType()->isPointerTy() ? builder.CreatePtrToInt(arg.value, i64)
                                                                   : builder.CreateZExtOrTrunc(arg.value, i64);
        builder.CreateAlignedStore(address, destination, llvm::Align(1));
        break;
      }
      case PrintfArgKind::RuntimeString: {
        llvm::Value *length = lengths[runtimeString];
        llvm::Value *source = sources[runtimeString];
        ++runtimeString;
        builder.CreateAlignedStore(builder.CreateTrunc(length, i32), destination, llvm::Align(1));
        llvm::Value *copied = builder.CreateSelect(
            builder.CreateICmpEQ(length, builder.getInt64(abi::kPrintfNullString)), builder.getInt64(0), length);
        builder.CreateMemCpy(builder.CreateConstInBoundsGEP1_64(i8, destination, 4), llvm::Align(1), source,
                             llvm::Align(1), copied);
        at = builder.CreateAdd(at, builder.CreateAdd(copied, builder.getInt64(4)));
        continue;
      }
      default:
        break;
      }
      at = builder.CreateAdd(at, builder.getInt64(arg.info.payloadSize));
    }

    // The claim that straddles the end marks where the records stop.
    builder.SetInsertPoint(fullTerm);
    llvm::Value *markFits =
        builder.CreateICmpULE(builder.CreateAdd(offset, builder.getInt64(abi::kPrintfRecordHeaderSize)), capacity);
    llvm::Value *straddles = builder.CreateAnd(builder.CreateICmpULT(offset, capacity), markFits);
    llvm::Instruction *markTerm = llvm::SplitBlockAndInsertIfThen(straddles, fullTerm, false);
    builder.SetInsertPoint(markTerm);
    builder.CreateAlignedStore(builder.getInt32(abi::kPrintfEndOfRecords), record, llvm::Align(8));

    call.replaceAllUsesWith(result);
    call.eraseFromParent();
  }

  /// Claims `recordSize` bytes of record space at `used`; returns the
  /// offset of the claim (past `capacity` when it does not fit).
  llvm::Value *claim(llvm::IRBuilder<> &builder, llvm::Value *used, llvm::Value *recordSize, llvm::Value *capacity,
                     llvm::CallInst &call) {
    if (source_ == LowerPrintfPass::BufferSource::WorkGroupInfo)
      return builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, used, recordSize, llvm::MaybeAlign(8),
                                     llvm::AtomicOrdering::Monotonic);
    // Devices without 64-bit atomics (printf_abi.h): a 32-bit add on the low
    // word of `used`, only while it is below `capacity`, so it cannot wrap.
    llvm::Type *i32 = builder.getInt32Ty();
    llvm::Value *capacity32 = builder.CreateTrunc(capacity, i32);
    llvm::LoadInst *before = builder.CreateAlignedLoad(i32, used, llvm::Align(8), "printf.used");
    before->setAtomic(llvm::AtomicOrdering::Monotonic);
    llvm::Value *open = builder.CreateICmpULT(before, capacity32, "printf.open");
    llvm::BasicBlock *entry = builder.GetInsertBlock();
    llvm::Instruction *claimTerm = llvm::SplitBlockAndInsertIfThen(open, &call, false);
    builder.SetInsertPoint(claimTerm);
    llvm::Value *claimed = builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, used, builder.CreateTrunc(recordSize, i32),
                                                   llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
    builder.SetInsertPoint(&call);
    llvm::PHINode *offset = builder.CreatePHI(i32, 2, "printf.offset");
    offset->addIncoming(claimed, claimTerm->getParent());
    offset->addIncoming(capacity32, entry);
    return builder.CreateZExt(offset, builder.getInt64Ty());
  }

  llvm::Value *printfBuffer(llvm::IRBuilder<> &builder, llvm::Function &function) {
    if (source_ == LowerPrintfPass::BufferSource::WorkGroupInfo) {
      llvm::Value *info = function.getArg(function.arg_size() - 4);
      return loadInfoField(builder, info, builder.getPtrTy(), info_field::PrintfBuffer, std::nullopt, "printf.buffer");
    }
    // __global: address space 1 on every triple that has address spaces.
    llvm::LLVMContext &context = module_.getContext();
    auto *type = llvm::FunctionType::get(llvm::PointerType::get(context, 1), false);
    llvm::FunctionCallee callee = module_.getOrInsertFunction(kPrintfBufferFunction, type);
    if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      declared->setDoesNotThrow();
      declared->setWillReturn();
      declared->setDoesNotAccessMemory();
    }
    return builder.CreateCall(callee, {}, "printf.buffer");
  }

  llvm::Module &module_;
  FormatTable &table_;
  LowerPrintfPass::BufferSource source_;
};

} // namespace

llvm::PreservedAnalyses LowerPrintfPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  llvm::Function *printf = module.getFunction("printf");
  if (!printf)
    return llvm::PreservedAnalyses::all();
  const bool workItemFunctionsOnly = source == BufferSource::WorkGroupInfo;
  llvm::SmallVector<llvm::CallInst *, 16> calls;
  for (llvm::User *user : printf->users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
      if (call->getCalledOperand() == printf &&
          (!workItemFunctionsOnly || call->getFunction()->hasFnAttribute(kWorkItemAttribute)))
        calls.push_back(call);
  if (calls.empty())
    return llvm::PreservedAnalyses::all();

  FormatTable table(module);
  CallLowering lowering(module, table, source);
  for (llvm::CallInst *call : calls) {
    llvm::Function &function = *call->getFunction();
    if (lowering.lower(*call)) {
      function.addFnAttr(kUsesPrintfAttribute);
      continue;
    }
    // The spec requires the format to be resolvable at compile time.
    llvm::StringRef kernel =
        workItemFunctionsOnly ? function.getFnAttribute(kWorkItemAttribute).getValueAsString() : function.getName();
    reportBuildError(module, llvm::Twine("error: ") + kNonConstantFormat + " in kernel " + kernel);
    call->replaceAllUsesWith(llvm::ConstantInt::getSigned(call->getType(), -1));
    call->eraseFromParent();
  }
  return llvm::PreservedAnalyses::none();
}

std::vector<std::byte> takePrintfTable(llvm::Module &module) {
  llvm::NamedMDNode *metadata = module.getNamedMetadata(kTableMetadata);
  if (!metadata)
    return {};
  std::string table(abi::kPrintfTableMagic, sizeof(abi::kPrintfTableMagic));
  appendU32(table, metadata->getNumOperands());
  for (llvm::MDNode *entry : metadata->operands())
    table.append(llvm::cast<llvm::MDString>(entry->getOperand(0))->getString());
  module.eraseNamedMetadata(metadata);
  const auto *begin = reinterpret_cast<const std::byte *>(table.data());
  return std::vector<std::byte>(begin, begin + table.size());
}

} // namespace compiler
