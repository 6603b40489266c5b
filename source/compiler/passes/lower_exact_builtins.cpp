// Gives bodies to the OpenCL builtins that LLVM intrinsics or a couple of
// instructions implement exactly. The bodies are internal and always-inline,
// so after inlining the kernels call the intrinsics directly. Every other
// builtin is left declared (and reported by checkUnresolvedSymbols).
#include "compiler/passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>

namespace compiler {
namespace {

/// What the Itanium mangling of a builtin says about its first parameter.
struct MangledBuiltin {
  llvm::StringRef name;
  bool isSigned = false; ///< first parameter's element type is a signed integer
};

std::optional<MangledBuiltin> demangleBuiltin(llvm::StringRef symbol) {
  if (!symbol.consume_front("_Z"))
    return std::nullopt;
  unsigned length = 0;
  if (symbol.consumeInteger(10, length) || length == 0 || length > symbol.size())
    return std::nullopt;
  MangledBuiltin builtin;
  builtin.name = symbol.take_front(length);
  llvm::StringRef params = symbol.drop_front(length);
  if (params.consume_front("Dv")) {
    unsigned lanes = 0;
    if (params.consumeInteger(10, lanes) || !params.consume_front("_"))
      return std::nullopt;
  }
  if (params.empty())
    return std::nullopt;
  // c: char (signed in OpenCL C), a: signed char, s: short, i: int, l: long.
  builtin.isSigned = llvm::StringRef("casil").contains(params.front());
  return builtin;
}

enum class Op {
  None,
  Unary,   ///< one-argument intrinsic
  Binary,  ///< two-argument intrinsic
  Ternary, ///< three-argument intrinsic
  Min,
  Max,
  Clamp,
  Abs,
  Popcount,
  Clz,
  Ctz,
  Rotate,
  MulHi,
  Mad,
  Convert, ///< convert_<type>[n] with the default rounding, not saturated
};

struct Lowering {
  Op op = Op::None;
  llvm::Intrinsic::ID intrinsic = llvm::Intrinsic::not_intrinsic;
};

/// convert_T / convert_Tn without _sat or a rounding suffix: plain casts
/// (float to integer rounds toward zero, everything else to nearest even,
/// exactly as LLVM's casts do).
bool isPlainConvert(llvm::StringRef name) {
  if (!name.consume_front("convert_"))
    return false;
  name = name.rtrim("0123456789");
  return llvm::is_contained({"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"},
                            name);
}

Lowering lowering(llvm::StringRef name, bool isFloat) {
  using namespace llvm;
  if (isPlainConvert(name))
    return {Op::Convert};
  if (isFloat) {
    Lowering unary = StringSwitch<Lowering>(name)
                         .Case("fabs", {Op::Unary, Intrinsic::fabs})
                         .Case("sqrt", {Op::Unary, Intrinsic::sqrt})
                         .Case("floor", {Op::Unary, Intrinsic::floor})
                         .Case("ceil", {Op::Unary, Intrinsic::ceil})
                         .Case("trunc", {Op::Unary, Intrinsic::trunc})
                         .Case("rint", {Op::Unary, Intrinsic::rint})
                         .Case("round", {Op::Unary, Intrinsic::round})
                         .Case("copysign", {Op::Binary, Intrinsic::copysign})
                         .Case("fmin", {Op::Binary, Intrinsic::minnum})
                         .Case("fmax", {Op::Binary, Intrinsic::maxnum})
                         .Case("fma", {Op::Ternary, Intrinsic::fma})
                         .Case("mad", {Op::Mad, Intrinsic::fmuladd})
                         .Case("min", {Op::Min})
                         .Case("max", {Op::Max})
                         .Case("clamp", {Op::Clamp})
                         .Default({});
    return unary;
  }
  return StringSwitch<Lowering>(name)
      .Case("min", {Op::Min})
      .Case("max", {Op::Max})
      .Case("clamp", {Op::Clamp})
      .Case("abs", {Op::Abs})
      .Case("popcount", {Op::Popcount})
      .Case("clz", {Op::Clz})
      .Case("ctz", {Op::Ctz})
      .Case("rotate", {Op::Rotate})
      .Case("mul_hi", {Op::MulHi})
      .Default({});
}

class BodyBuilder {
public:
  BodyBuilder(llvm::Function &function, bool isSigned)
      : function_(function), builder_(llvm::BasicBlock::Create(function.getContext(), "entry", &function)),
        isSigned_(isSigned) {}

  /// Argument `i`, splatted to the return type when it is a scalar given to a
  /// vector builtin (fmin(float4, float), clamp(int4, int, int), ...).
  llvm::Value *arg(unsigned i) {
    llvm::Value *value = function_.getArg(i);
    llvm::Type *result = function_.getReturnType();
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(result); vector && !value->getType()->isVectorTy())
      return builder_.CreateVectorSplat(vector->getNumElements(), value);
    return value;
  }

  llvm::Value *intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args) {
    return builder_.CreateIntrinsic(id, {args.front()->getType()}, args);
  }

  llvm::Value *min(llvm::Value *a, llvm::Value *b) {
    if (a->getType()->isFPOrFPVectorTy())
      return intrinsic(llvm::Intrinsic::minnum, {a, b});
    return intrinsic(isSigned_ ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, {a, b});
  }

  llvm::Value *max(llvm::Value *a, llvm::Value *b) {
    if (a->getType()->isFPOrFPVectorTy())
      return intrinsic(llvm::Intrinsic::maxnum, {a, b});
    return intrinsic(isSigned_ ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, {a, b});
  }

  llvm::Value *mulHi(llvm::Value *a, llvm::Value *b) {
    llvm::Type *type = a->getType();
    unsigned bits = type->getScalarSizeInBits();
    llvm::Type *wide = type->getWithNewBitWidth(bits * 2);
    auto extend = [&](llvm::Value *v) {
      return isSigned_ ? builder_.CreateSExt(v, wide) : builder_.CreateZExt(v, wide);
    };
    llvm::Value *product = builder_.CreateMul(extend(a), extend(b));
    return builder_.CreateTrunc(builder_.CreateLShr(product, llvm::ConstantInt::get(wide, bits)), type);
  }

  llvm::Value *convert(llvm::Value *value) {
    llvm::Type *to = function_.getReturnType();
    llvm::Type *from = value->getType();
    if (from->isFPOrFPVectorTy() && to->isFPOrFPVectorTy())
      return builder_.CreateFPCast(value, to);
    if (from->isFPOrFPVectorTy())
      return destinationSigned_ ? builder_.CreateFPToSI(value, to) : builder_.CreateFPToUI(value, to);
    if (to->isFPOrFPVectorTy())
      return isSigned_ ? builder_.CreateSIToFP(value, to) : builder_.CreateUIToFP(value, to);
    return builder_.CreateIntCast(value, to, isSigned_);
  }

  void setDestinationSigned(bool destinationSigned) { destinationSigned_ = destinationSigned; }

  llvm::Value *emit(const Lowering &lowering) {
    llvm::Value *falseValue = builder_.getFalse();
    switch (lowering.op) {
    case Op::Unary:
      return intrinsic(lowering.intrinsic, {arg(0)});
    case Op::Binary:
      return intrinsic(lowering.intrinsic, {arg(0), arg(1)});
    case Op::Ternary:
    case Op::Mad:
      return intrinsic(lowering.intrinsic, {arg(0), arg(1), arg(2)});
    case Op::Min:
      return min(arg(0), arg(1));
    case Op::Max:
      return max(arg(0), arg(1));
    case Op::Clamp:
      return min(max(arg(0), arg(1)), arg(2));
    case Op::Abs:
      return isSigned_ ? intrinsic(llvm::Intrinsic::abs, {arg(0), falseValue}) : arg(0);
    case Op::Popcount:
      return intrinsic(llvm::Intrinsic::ctpop, {arg(0)});
    case Op::Clz:
      return intrinsic(llvm::Intrinsic::ctlz, {arg(0), falseValue});
    case Op::Ctz:
      return intrinsic(llvm::Intrinsic::cttz, {arg(0), falseValue});
    case Op::Rotate:
      return intrinsic(llvm::Intrinsic::fshl, {arg(0), arg(0), arg(1)});
    case Op::MulHi:
      return mulHi(arg(0), arg(1));
    case Op::Convert:
      return convert(function_.getArg(0));
    case Op::None:
      break;
    }
    llvm_unreachable("no lowering");
  }

  void finish(llvm::Value *result) { builder_.CreateRet(result); }

private:
  llvm::Function &function_;
  llvm::IRBuilder<> builder_;
  bool isSigned_;
  bool destinationSigned_ = false;
};

/// Checks the declaration has the shape the lowering expects: every argument
/// of the return type or of its element type, with the expected count.
bool hasExpectedShape(const llvm::Function &function, Op op) {
  unsigned expected = 1;
  switch (op) {
  case Op::Convert: {
    // Same number of lanes on both sides.
    if (function.arg_size() != 1)
      return false;
    auto *from = llvm::dyn_cast<llvm::FixedVectorType>(function.getArg(0)->getType());
    auto *to = llvm::dyn_cast<llvm::FixedVectorType>(function.getReturnType());
    if (static_cast<bool>(from) != static_cast<bool>(to))
      return false;
    return !from || from->getNumElements() == to->getNumElements();
  }
  case Op::Binary:
  case Op::Min:
  case Op::Max:
  case Op::Rotate:
  case Op::MulHi:
    expected = 2;
    break;
  case Op::Ternary:
  case Op::Mad:
  case Op::Clamp:
    expected = 3;
    break;
  default:
    break;
  }
  llvm::Type *result = function.getReturnType();
  if (function.arg_size() != expected || result->isVoidTy())
    return false;
  for (const llvm::Argument &argument : function.args())
    if (argument.getType() != result && argument.getType() != result->getScalarType())
      return false;
  return true;
}

} // namespace

llvm::PreservedAnalyses LowerExactBuiltinsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic())
      continue;
    std::optional<MangledBuiltin> builtin = demangleBuiltin(function.getName());
    if (!builtin)
      continue;
    bool isFloat = function.getReturnType()->isFPOrFPVectorTy();
    Lowering how = lowering(builtin->name, isFloat);
    if (how.op == Op::None || !hasExpectedShape(function, how.op))
      continue;
    BodyBuilder body(function, builtin->isSigned);
    if (how.op == Op::Convert) {
      llvm::StringRef to = builtin->name.drop_front(llvm::StringRef("convert_").size());
      body.setDestinationSigned(!to.starts_with("u"));
    }
    body.finish(body.emit(how));
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
    function.removeFnAttr(llvm::Attribute::NoInline);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
