// Gives bodies to the OpenCL 1.x atomic builtins (atomic_* and the atom_*
// of the cl_khr_*_atomics extensions) and the memory fences: each is one
// sequentially consistent atomicrmw / cmpxchg / fence. The OpenCL C 2.0/3.0
// atomics are in lower_c11_atomic_builtins.cpp.
#include "compiler/passes.h"
#include "lower_c11_atomic_builtins.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace compiler {
namespace {

struct AtomicBuiltin {
  llvm::StringRef operation; ///< "add", "cmpxchg", ... without the prefix
  bool isSigned = false;     ///< pointee is a signed integer
};

/// Parses `_Z<n>atomic_<op>P<qualifiers><type>...`.
std::optional<AtomicBuiltin> parse(llvm::StringRef symbol) {
  if (!symbol.consume_front("_Z"))
    return std::nullopt;
  unsigned length = 0;
  if (symbol.consumeInteger(10, length) || length > symbol.size())
    return std::nullopt;
  llvm::StringRef name = symbol.take_front(length);
  llvm::StringRef params = symbol.drop_front(length);
  AtomicBuiltin builtin;
  if (!name.consume_front("atomic_") && !name.consume_front("atom_"))
    return std::nullopt;
  builtin.operation = name;
  if (!params.consume_front("P"))
    return std::nullopt;
  // Address space (U3AS1) and cv-qualifiers (V, K, r) precede the type.
  while (!params.empty()) {
    if (params.consume_front("U")) {
      unsigned qualifierLength = 0;
      if (params.consumeInteger(10, qualifierLength) || qualifierLength > params.size())
        return std::nullopt;
      params = params.drop_front(qualifierLength);
    } else if (params.front() == 'V' || params.front() == 'K' || params.front() == 'r') {
      params = params.drop_front();
    } else {
      break;
    }
  }
  if (params.empty())
    return std::nullopt;
  builtin.isSigned = params.front() == 'i' || params.front() == 'l';
  return builtin;
}

std::optional<llvm::AtomicRMWInst::BinOp> rmwOperation(const AtomicBuiltin &builtin, bool isFloat) {
  using Op = llvm::AtomicRMWInst::BinOp;
  if (isFloat)
    return builtin.operation == "xchg" ? std::optional(Op::Xchg) : std::nullopt;
  return llvm::StringSwitch<std::optional<Op>>(builtin.operation)
      .Case("add", Op::Add)
      .Case("sub", Op::Sub)
      .Case("xchg", Op::Xchg)
      .Case("and", Op::And)
      .Case("or", Op::Or)
      .Case("xor", Op::Xor)
      .Case("min", builtin.isSigned ? Op::Min : Op::UMin)
      .Case("max", builtin.isSigned ? Op::Max : Op::UMax)
      .Case("inc", Op::Add)
      .Case("dec", Op::Sub)
      .Default(std::nullopt);
}

/// Emits the body of an atomic builtin; false when the shape is unexpected.
bool defineAtomic(llvm::Function &function, const AtomicBuiltin &builtin) {
  llvm::Type *type = function.getReturnType();
  if (!(type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy()) || function.arg_size() < 1 ||
      !function.getArg(0)->getType()->isPointerTy())
    return false;
  const llvm::DataLayout &layout = function.getDataLayout();
  llvm::Align alignment = layout.getABITypeAlign(type);
  constexpr auto order = llvm::AtomicOrdering::SequentiallyConsistent;
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
  llvm::Value *pointer = function.getArg(0);
  if (builtin.operation == "cmpxchg") {
    if (function.arg_size() != 3 || function.getArg(1)->getType() != type || function.getArg(2)->getType() != type ||
        !type->isIntegerTy())
      return false;
    llvm::Value *pair =
        builder.CreateAtomicCmpXchg(pointer, function.getArg(1), function.getArg(2), alignment, order, order);
    builder.CreateRet(builder.CreateExtractValue(pair, 0));
    return true;
  }
  std::optional<llvm::AtomicRMWInst::BinOp> operation = rmwOperation(builtin, type->isFloatTy());
  if (!operation)
    return false;
  bool unary = builtin.operation == "inc" || builtin.operation == "dec";
  if (function.arg_size() != (unary ? 1u : 2u) || (!unary && function.getArg(1)->getType() != type))
    return false;
  llvm::Value *operand = unary ? static_cast<llvm::Value *>(llvm::ConstantInt::get(type, 1)) : function.getArg(1);
  builder.CreateRet(builder.CreateAtomicRMW(*operation, pointer, operand, alignment, order));
  return true;
}

bool isFence(llvm::StringRef name) {
  return name == "_Z9mem_fencej" || name == "_Z14read_mem_fencej" || name == "_Z15write_mem_fencej";
}

} // namespace

llvm::PreservedAnalyses LowerAtomicBuiltinsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic())
      continue;
    bool defined = false;
    if (isFence(function.getName()) && function.getReturnType()->isVoidTy()) {
      llvm::IRBuilder<> builder(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
      builder.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      builder.CreateRetVoid();
      defined = true;
    } else if (defineC11AtomicBuiltin(function)) {
      defined = true;
    } else if (std::optional<AtomicBuiltin> builtin = parse(function.getName())) {
      defined = defineAtomic(function, *builtin);
      if (!defined && !function.empty())
        function.deleteBody();
    }
    if (!defined)
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
    function.removeFnAttr(llvm::Attribute::NoInline);
    function.setMemoryEffects(llvm::MemoryEffects::unknown());
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
