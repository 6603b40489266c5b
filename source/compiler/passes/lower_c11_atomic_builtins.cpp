// Bodies for the OpenCL C 2.0/3.0 atomics: one LLVM atomic instruction per
// builtin (atomic load/store, atomicrmw, cmpxchg, fence) with the ordering
// and syncscope the memory_order and memory_scope arguments name.
//
// Clang mangles them as `_Z<n><name>P<qualifiers>VU7_Atomic<T>...` where the
// qualifiers name the address space (U9CLgeneric, U3AS1, U3AS3); the atomic
// type <T> (i, j, l, m, f, d) gives the signedness that min/max need, the IR
// signature gives everything else.
#include "lower_c11_atomic_builtins.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace compiler {
namespace {

enum class Operation {
  Init,
  Load,
  Store,
  Exchange,
  CompareExchangeStrong,
  CompareExchangeWeak,
  FetchAdd,
  FetchSub,
  FetchOr,
  FetchXor,
  FetchAnd,
  FetchMin,
  FetchMax,
  FlagTestAndSet,
  FlagClear,
  WorkItemFence,
};

struct C11Builtin {
  Operation operation;
  bool isExplicit = false;
  char atomicType = 0; ///< mangled letter of the atomic object's type; 0 for the fence
};

std::optional<Operation> parseOperation(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Operation>>(name)
      .Case("atomic_init", Operation::Init)
      .Case("atomic_load", Operation::Load)
      .Case("atomic_store", Operation::Store)
      .Case("atomic_exchange", Operation::Exchange)
      .Case("atomic_compare_exchange_strong", Operation::CompareExchangeStrong)
      .Case("atomic_compare_exchange_weak", Operation::CompareExchangeWeak)
      .Case("atomic_fetch_add", Operation::FetchAdd)
      .Case("atomic_fetch_sub", Operation::FetchSub)
      .Case("atomic_fetch_or", Operation::FetchOr)
      .Case("atomic_fetch_xor", Operation::FetchXor)
      .Case("atomic_fetch_and", Operation::FetchAnd)
      .Case("atomic_fetch_min", Operation::FetchMin)
      .Case("atomic_fetch_max", Operation::FetchMax)
      .Case("atomic_flag_test_and_set", Operation::FlagTestAndSet)
      .Case("atomic_flag_clear", Operation::FlagClear)
      .Case("atomic_work_item_fence", Operation::WorkItemFence)
      .Default(std::nullopt);
}

/// Reads the type letter behind `P<address space and cv qualifiers>U7_Atomic`.
std::optional<char> parseAtomicPointee(llvm::StringRef params) {
  if (!params.consume_front("P"))
    return std::nullopt;
  bool isAtomic = false;
  while (!params.empty()) {
    if (params.consume_front("U")) {
      unsigned length = 0;
      if (params.consumeInteger(10, length) || length > params.size())
        return std::nullopt;
      isAtomic |= params.take_front(length) == "_Atomic";
      params = params.drop_front(length);
    } else if (params.front() == 'V' || params.front() == 'K' || params.front() == 'r') {
      params = params.drop_front();
    } else {
      break;
    }
  }
  if (!isAtomic || params.empty() || !llvm::StringRef("ijlmfd").contains(params.front()))
    return std::nullopt;
  return params.front();
}

std::optional<C11Builtin> parse(llvm::StringRef symbol) {
  if (!symbol.consume_front("_Z"))
    return std::nullopt;
  unsigned length = 0;
  if (symbol.consumeInteger(10, length) || length > symbol.size())
    return std::nullopt;
  llvm::StringRef name = symbol.take_front(length);
  llvm::StringRef params = symbol.drop_front(length);
  C11Builtin builtin{};
  builtin.isExplicit = name.consume_back("_explicit");
  std::optional<Operation> operation = parseOperation(name);
  if (!operation)
    return std::nullopt;
  builtin.operation = *operation;
  if (builtin.operation == Operation::WorkItemFence) {
    if (params != "j12memory_order12memory_scope")
      return std::nullopt;
    return builtin;
  }
  std::optional<char> type = parseAtomicPointee(params);
  if (!type)
    return std::nullopt;
  builtin.atomicType = *type;
  return builtin;
}

/// Arguments before the memory_order/memory_scope ones.
unsigned fixedArguments(Operation operation) {
  switch (operation) {
  case Operation::Load:
  case Operation::FlagTestAndSet:
  case Operation::FlagClear:
    return 1;
  case Operation::CompareExchangeStrong:
  case Operation::CompareExchangeWeak:
    return 3;
  default:
    return 2;
  }
}

// OpenCL C memory_order and memory_scope values (clang's opencl-c-base.h).
constexpr uint64_t kOrderRelaxed = 0;
constexpr uint64_t kOrderAcquire = 2;
constexpr uint64_t kOrderRelease = 3;
constexpr uint64_t kOrderAcqRel = 4;
constexpr uint64_t kOrderSeqCst = 5;
constexpr uint64_t kScopeWorkItem = 0;

/// What an ordering is used for: each LLVM instruction accepts a subset.
enum class OrderUse { Load, Store, ReadModifyWrite, CompareExchangeFailure, Fence };

/// The LLVM ordering for an OpenCL memory_order, strengthened to one that
/// `use` accepts (OpenCL leaves the others undefined; stronger is correct).
/// NotAtomic for a relaxed fence, which is no fence at all.
llvm::AtomicOrdering toLLVMOrdering(uint64_t order, OrderUse use) {
  using llvm::AtomicOrdering;
  switch (order) {
  case kOrderRelaxed:
    return use == OrderUse::Fence ? AtomicOrdering::NotAtomic : AtomicOrdering::Monotonic;
  case kOrderAcquire:
    return use == OrderUse::Store ? AtomicOrdering::SequentiallyConsistent : AtomicOrdering::Acquire;
  case kOrderRelease:
    if (use == OrderUse::CompareExchangeFailure)
      return AtomicOrdering::Monotonic;
    return use == OrderUse::Load ? AtomicOrdering::SequentiallyConsistent : AtomicOrdering::Release;
  case kOrderAcqRel:
    switch (use) {
    case OrderUse::Load:
    case OrderUse::CompareExchangeFailure:
      return AtomicOrdering::Acquire;
    case OrderUse::Store:
      return AtomicOrdering::Release;
    default:
      return AtomicOrdering::AcquireRelease;
    }
  default:
    return AtomicOrdering::SequentiallyConsistent;
  }
}

/// A run-time value (memory_order or memory_scope argument) and the choice
/// each of its values makes; `fallback` for every other value.
struct Selector {
  llvm::Value *value;
  llvm::SmallVector<std::pair<uint64_t, unsigned>, 5> cases;
  unsigned fallback;
};

Selector orderSelector(llvm::Value *value, OrderUse use) {
  Selector selector{value, {}, static_cast<unsigned>(toLLVMOrdering(kOrderSeqCst, use))};
  for (uint64_t order : {kOrderRelaxed, kOrderAcquire, kOrderRelease, kOrderAcqRel, kOrderSeqCst})
    selector.cases.push_back({order, static_cast<unsigned>(toLLVMOrdering(order, use))});
  return selector;
}

/// A constant selector for the forms without the argument.
Selector fixedSelector(llvm::LLVMContext &context, unsigned choice) {
  return {llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 0), {}, choice};
}

Selector scopeSelector(llvm::Value *value) {
  return {value, {{kScopeWorkItem, llvm::SyncScope::SingleThread}}, llvm::SyncScope::System};
}

using Emitter = llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, llvm::ArrayRef<unsigned>)>;

/// Calls `emit` with the choice of every selector, once for each combination
/// a non-constant selector can take (a switch over its value), and returns
/// the result (a phi of the results when there were several; null when
/// `emit` returns null).
llvm::Value *dispatch(llvm::IRBuilder<> &builder, llvm::ArrayRef<Selector> selectors,
                      llvm::SmallVectorImpl<unsigned> &choices, Emitter emit) {
  if (selectors.empty())
    return emit(builder, choices);
  const Selector &selector = selectors.front();
  auto choose = [&](unsigned choice) {
    choices.push_back(choice);
    llvm::Value *result = dispatch(builder, selectors.drop_front(), choices, emit);
    choices.pop_back();
    return result;
  };
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(selector.value)) {
    unsigned choice = selector.fallback;
    for (auto [value, caseChoice] : selector.cases)
      if (constant->getZExtValue() == value)
        choice = caseChoice;
    return choose(choice);
  }
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = function->getContext();
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(context, "atomic.done", function);
  llvm::SmallVector<std::pair<unsigned, llvm::BasicBlock *>, 5> blocks;
  auto blockFor = [&](unsigned choice) {
    for (auto [known, block] : blocks)
      if (known == choice)
        return block;
    blocks.push_back({choice, llvm::BasicBlock::Create(context, "atomic.case", function, merge)});
    return blocks.back().second;
  };
  llvm::SwitchInst *switchInst = builder.CreateSwitch(selector.value, blockFor(selector.fallback));
  auto *valueType = llvm::cast<llvm::IntegerType>(selector.value->getType());
  for (auto [value, choice] : selector.cases)
    if (choice != selector.fallback)
      switchInst->addCase(llvm::ConstantInt::get(valueType, value), blockFor(choice));
  llvm::SmallVector<std::pair<llvm::Value *, llvm::BasicBlock *>, 5> results;
  for (auto [choice, block] : llvm::SmallVector<std::pair<unsigned, llvm::BasicBlock *>, 5>(blocks)) {
    builder.SetInsertPoint(block);
    llvm::Value *result = choose(choice);
    results.push_back({result, builder.GetInsertBlock()});
    builder.CreateBr(merge);
  }
  builder.SetInsertPoint(merge);
  if (!results.front().first)
    return nullptr;
  llvm::PHINode *phi = builder.CreatePHI(results.front().first->getType(), results.size());
  for (auto [result, block] : results)
    phi->addIncoming(result, block);
  return phi;
}

llvm::AtomicOrdering ordering(unsigned choice) { return static_cast<llvm::AtomicOrdering>(choice); }
llvm::SyncScope::ID syncScope(unsigned choice) { return static_cast<llvm::SyncScope::ID>(choice); }

std::optional<llvm::AtomicRMWInst::BinOp> rmwOperation(Operation operation, bool isSigned) {
  using Op = llvm::AtomicRMWInst::BinOp;
  switch (operation) {
  case Operation::Exchange:
    return Op::Xchg;
  case Operation::FetchAdd:
    return Op::Add;
  case Operation::FetchSub:
    return Op::Sub;
  case Operation::FetchOr:
    return Op::Or;
  case Operation::FetchXor:
    return Op::Xor;
  case Operation::FetchAnd:
    return Op::And;
  case Operation::FetchMin:
    return isSigned ? Op::Min : Op::UMin;
  case Operation::FetchMax:
    return isSigned ? Op::Max : Op::UMax;
  default:
    return std::nullopt;
  }
}

bool isValueType(llvm::Type *type) {
  return type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy() || type->isDoubleTy();
}

/// The IR type of the atomic object named by its mangled letter.
llvm::Type *atomicObjectType(llvm::LLVMContext &context, char letter) {
  switch (letter) {
  case 'i':
  case 'j':
    return llvm::Type::getInt32Ty(context);
  case 'l':
  case 'm':
    return llvm::Type::getInt64Ty(context);
  case 'f':
    return llvm::Type::getFloatTy(context);
  default:
    return llvm::Type::getDoubleTy(context);
  }
}

/// Checks the IR signature against the builtin; the type of the atomic
/// object's value, or null when the shape is not one OpenCL C defines.
llvm::Type *checkSignature(const llvm::Function &function, const C11Builtin &builtin) {
  llvm::LLVMContext &context = function.getContext();
  Operation operation = builtin.operation;
  unsigned fixed = fixedArguments(operation);
  unsigned extra = function.arg_size() - std::min<unsigned>(function.arg_size(), fixed);
  if (function.arg_size() < fixed)
    return nullptr;
  unsigned maxExtra = 0;
  if (builtin.isExplicit)
    maxExtra = operation == Operation::CompareExchangeStrong || operation == Operation::CompareExchangeWeak ? 3 : 2;
  if (operation == Operation::Init && builtin.isExplicit)
    return nullptr;
  unsigned minExtra = builtin.isExplicit ? maxExtra - 1 : 0;
  if (extra < minExtra || extra > maxExtra)
    return nullptr;
  for (unsigned i = fixed; i < function.arg_size(); ++i)
    if (!function.getArg(i)->getType()->isIntegerTy(32))
      return nullptr;
  if (!function.getArg(0)->getType()->isPointerTy())
    return nullptr;
  llvm::Type *type = atomicObjectType(context, builtin.atomicType);
  bool isFloat = type->isFloatingPointTy();
  llvm::Type *returnType = function.getReturnType();
  switch (operation) {
  case Operation::Init:
  case Operation::Store:
    return returnType->isVoidTy() && function.getArg(1)->getType() == type ? type : nullptr;
  case Operation::Load:
    return returnType == type ? type : nullptr;
  case Operation::Exchange:
    return returnType == type && function.getArg(1)->getType() == type ? type : nullptr;
  case Operation::CompareExchangeStrong:
  case Operation::CompareExchangeWeak:
    return returnType->isIntegerTy() && function.getArg(1)->getType()->isPointerTy() &&
                   function.getArg(2)->getType() == type
               ? type
               : nullptr;
  case Operation::FlagTestAndSet:
    return builtin.atomicType == 'i' && returnType->isIntegerTy() ? type : nullptr;
  case Operation::FlagClear:
    return builtin.atomicType == 'i' && returnType->isVoidTy() ? type : nullptr;
  default: // atomic_fetch_<op>: integers only (float needs cl_ext_float_atomics)
    return !isFloat && returnType == type && function.getArg(1)->getType() == type ? type : nullptr;
  }
}

void defineFence(llvm::Function &function, llvm::IRBuilder<> &builder) {
  Selector selectors[] = {orderSelector(function.getArg(1), OrderUse::Fence), scopeSelector(function.getArg(2))};
  llvm::SmallVector<unsigned, 3> choices;
  dispatch(builder, selectors, choices, [](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) -> llvm::Value * {
    // The fence flags (global, local, image) name memory that is all one on
    // a CPU: a fence of the given order covers them all.
    if (ordering(chosen[0]) != llvm::AtomicOrdering::NotAtomic)
      b.CreateFence(ordering(chosen[0]), syncScope(chosen[1]));
    return nullptr;
  });
  builder.CreateRetVoid();
}

} // namespace

bool defineC11AtomicBuiltin(llvm::Function &function) {
  std::optional<C11Builtin> builtin = parse(function.getName());
  if (!builtin)
    return false;
  llvm::LLVMContext &context = function.getContext();
  if (builtin->operation == Operation::WorkItemFence) {
    if (function.arg_size() != 3 || !function.getReturnType()->isVoidTy())
      return false;
    for (const llvm::Argument &argument : function.args())
      if (!argument.getType()->isIntegerTy(32))
        return false;
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
    defineFence(function, builder);
    return true;
  }
  llvm::Type *type = checkSignature(function, *builtin);
  if (!type || !isValueType(type))
    return false;

  Operation operation = builtin->operation;
  bool isCompareExchange = operation == Operation::CompareExchangeStrong || operation == Operation::CompareExchangeWeak;
  OrderUse use = OrderUse::ReadModifyWrite;
  if (operation == Operation::Load)
    use = OrderUse::Load;
  else if (operation == Operation::Store || operation == Operation::Init || operation == Operation::FlagClear)
    use = OrderUse::Store;

  // Selectors: [order, (failure order,) scope]; the plain forms are
  // seq_cst with device scope, which is the system scope here.
  unsigned next = fixedArguments(operation);
  auto argumentOr = [&](unsigned index) -> llvm::Value * {
    return index < function.arg_size() ? function.getArg(index) : nullptr;
  };
  llvm::SmallVector<Selector, 3> selectors;
  if (operation == Operation::Init) {
    // Initialisation is not an atomic operation; a relaxed store is a valid
    // (stronger) implementation that never tears.
    selectors.push_back(fixedSelector(context, static_cast<unsigned>(llvm::AtomicOrdering::Monotonic)));
  } else if (llvm::Value *order = argumentOr(next)) {
    selectors.push_back(orderSelector(order, use));
    ++next;
  } else {
    selectors.push_back(fixedSelector(context, static_cast<unsigned>(toLLVMOrdering(kOrderSeqCst, use))));
  }
  if (isCompareExchange) {
    if (llvm::Value *failure = argumentOr(next)) {
      selectors.push_back(orderSelector(failure, OrderUse::CompareExchangeFailure));
      ++next;
    } else {
      selectors.push_back(fixedSelector(
          context, static_cast<unsigned>(toLLVMOrdering(kOrderSeqCst, OrderUse::CompareExchangeFailure))));
    }
  }
  if (llvm::Value *scope = argumentOr(next))
    selectors.push_back(scopeSelector(scope));
  else
    selectors.push_back(fixedSelector(context, llvm::SyncScope::System));

  const llvm::DataLayout &layout = function.getDataLayout();
  llvm::Align alignment(layout.getTypeStoreSize(type).getFixedValue());
  llvm::Type *integerType = llvm::Type::getIntNTy(context, type->getPrimitiveSizeInBits().getFixedValue());
  bool isSigned = builtin->atomicType == 'i' || builtin->atomicType == 'l';
  llvm::Value *object = function.getArg(0);

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  llvm::SmallVector<unsigned, 3> choices;
  llvm::Value *result = nullptr;
  switch (operation) {
  case Operation::Init:
  case Operation::Store:
  case Operation::FlagClear: {
    llvm::Value *value = operation == Operation::FlagClear ? llvm::ConstantInt::get(type, 0)
                                                           : static_cast<llvm::Value *>(function.getArg(1));
    dispatch(builder, selectors, choices, [&](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) -> llvm::Value * {
      llvm::StoreInst *store = b.CreateAlignedStore(value, object, alignment);
      store->setAtomic(ordering(chosen[0]), syncScope(chosen[1]));
      return nullptr;
    });
    builder.CreateRetVoid();
    return true;
  }
  case Operation::Load:
    result = dispatch(builder, selectors, choices, [&](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) {
      llvm::LoadInst *load = b.CreateAlignedLoad(type, object, alignment);
      load->setAtomic(ordering(chosen[0]), syncScope(chosen[1]));
      return static_cast<llvm::Value *>(load);
    });
    break;
  case Operation::FlagTestAndSet: {
    llvm::Value *old =
        dispatch(builder, selectors, choices, [&](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) {
          llvm::AtomicRMWInst *rmw =
              b.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, object, llvm::ConstantInt::get(type, 1), alignment,
                                ordering(chosen[0]), syncScope(chosen[1]));
          return static_cast<llvm::Value *>(rmw);
        });
    result = builder.CreateZExt(builder.CreateICmpNE(old, llvm::ConstantInt::get(type, 0)), function.getReturnType());
    break;
  }
  case Operation::CompareExchangeStrong:
  case Operation::CompareExchangeWeak: {
    // cmpxchg compares integers: floats are compared as their bits, which is
    // what C11 specifies (the object representation).
    llvm::Value *expectedPointer = function.getArg(1);
    llvm::Value *expected = builder.CreateAlignedLoad(integerType, expectedPointer, alignment, "expected");
    llvm::Value *desired = builder.CreateBitCast(function.getArg(2), integerType);
    bool weak = operation == Operation::CompareExchangeWeak;
    llvm::Value *pair =
        dispatch(builder, selectors, choices, [&](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) {
          llvm::AtomicCmpXchgInst *exchange = b.CreateAtomicCmpXchg(
              object, expected, desired, alignment, ordering(chosen[0]), ordering(chosen[1]), syncScope(chosen[2]));
          exchange->setWeak(weak);
          return static_cast<llvm::Value *>(exchange);
        });
    llvm::Value *succeeded = builder.CreateExtractValue(pair, 1, "succeeded");
    // On failure `expected` receives the value found.
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "cmpxchg.failed", &function);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "cmpxchg.done", &function);
    builder.CreateCondBr(succeeded, done, failed);
    builder.SetInsertPoint(failed);
    builder.CreateAlignedStore(builder.CreateExtractValue(pair, 0), expectedPointer, alignment);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    result = builder.CreateZExt(succeeded, function.getReturnType());
    break;
  }
  default: {
    std::optional<llvm::AtomicRMWInst::BinOp> binOp = rmwOperation(operation, isSigned);
    if (!binOp) {
      function.deleteBody();
      return false;
    }
    llvm::Value *operand = function.getArg(1);
    result = dispatch(builder, selectors, choices, [&](llvm::IRBuilder<> &b, llvm::ArrayRef<unsigned> chosen) {
      llvm::AtomicRMWInst *rmw =
          b.CreateAtomicRMW(*binOp, object, operand, alignment, ordering(chosen[0]), syncScope(chosen[1]));
      return static_cast<llvm::Value *>(rmw);
    });
    break;
  }
  }
  builder.CreateRet(result);
  return true;
}

} // namespace compiler
