// Gives bodies to the OpenCL builtins that LLVM intrinsics or a couple of
// instructions implement exactly. The bodies are internal and always-inline,
// so after inlining the kernels call the intrinsics directly. Every other
// builtin is left declared (and reported by checkUnresolvedSymbols).
//
// The OpenCL types come from the mangled name, never from the IR signature:
// the target's calling convention may pass a uint2 as a `double`, a char3 as
// an `i32` or a float8 through a `ptr byval`. Each body converts between the
// IR signature and the real types (BuiltinAbi) around the computation.
#include "compiler/builtin_signature.h"
#include "compiler/passes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace compiler {
namespace {

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
  Dot,
  Convert, ///< convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn]
};

struct Lowering {
  Op op = Op::None;
  llvm::Intrinsic::ID intrinsic = llvm::Intrinsic::not_intrinsic;
};

unsigned operandCount(Op op) {
  switch (op) {
  case Op::Binary:
  case Op::Min:
  case Op::Max:
  case Op::Rotate:
  case Op::MulHi:
  case Op::Dot:
    return 2;
  case Op::Ternary:
  case Op::Clamp:
    return 3;
  default:
    return 1;
  }
}

Lowering lowering(llvm::StringRef name, bool isFloat) {
  using namespace llvm;
  if (name.starts_with("convert_"))
    return {Op::Convert};
  if (isFloat)
    return StringSwitch<Lowering>(name)
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
        .Case("mad", {Op::Ternary, Intrinsic::fmuladd})
        .Case("min", {Op::Min})
        .Case("max", {Op::Max})
        .Case("clamp", {Op::Clamp})
        .Case("dot", {Op::Dot})
        .Default({});
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

enum class Rounding { Default, Rte, Rtz, Rtp, Rtn };

/// What `convert_<T><n>[_sat][_<rounding>]` asks for.
struct Conversion {
  ClType to;
  bool saturate = false;
  Rounding rounding = Rounding::Default;
};

std::optional<Conversion> parseConversion(llvm::StringRef name) {
  if (!name.consume_front("convert_"))
    return std::nullopt;
  Conversion conversion;
  conversion.rounding = llvm::StringSwitch<Rounding>(name.take_back(4))
                            .Case("_rte", Rounding::Rte)
                            .Case("_rtz", Rounding::Rtz)
                            .Case("_rtp", Rounding::Rtp)
                            .Case("_rtn", Rounding::Rtn)
                            .Default(Rounding::Default);
  if (conversion.rounding != Rounding::Default)
    name = name.drop_back(4);
  conversion.saturate = name.consume_back("_sat");
  std::optional<ClType> to = parseClTypeName(name);
  if (!to)
    return std::nullopt;
  conversion.to = *to;
  return conversion;
}

/// Significand bits (with the implicit one) of a floating-point type.
unsigned significandBits(const ClType &type) {
  switch (type.scalar) {
  case ScalarKind::Half:
    return 11;
  case ScalarKind::Float:
    return 24;
  default:
    return 53;
  }
}

/// Moves values between the IR signature of a builtin declaration and its
/// OpenCL types: direct, bit-cast from a same-sized coerced type (a 3-lane
/// vector occupies 4 lanes), loaded from a byval pointer, or returned through
/// an sret pointer. Returns nullptr where the IR shape is not understood.
class BuiltinAbi {
public:
  BuiltinAbi(llvm::Function &function, llvm::IRBuilder<> &builder) : function_(function), builder_(builder) {
    hasSret_ = function.arg_size() > 0 && function.hasParamAttribute(0, llvm::Attribute::StructRet);
  }

  unsigned irArgCount() const { return function_.arg_size() - (hasSret_ ? 1 : 0); }

  llvm::Value *argument(unsigned index, llvm::Type *real) {
    llvm::Argument *argument = function_.getArg(index + (hasSret_ ? 1 : 0));
    llvm::Type *type = argument->getType();
    if (type == real)
      return argument;
    if (type->isPointerTy()) {
      // By value on the stack (x86-64 byval), or by reference to a copy the
      // caller made (riscv64 passes vectors over 16 bytes so): a builtin
      // lowered here has no pointer parameters of its own.
      if (llvm::Type *byVal = argument->getParamByValType(); byVal && byVal != real)
        return nullptr;
      llvm::MaybeAlign align = argument->getParamAlign();
      return builder_.CreateAlignedLoad(real, argument,
                                        align ? *align : function_.getDataLayout().getABITypeAlign(real));
    }
    return fromCoerced(argument, real);
  }

  /// Emits the return of `value` (of its OpenCL type); false if impossible.
  bool ret(llvm::Value *value) {
    llvm::Type *returnType = function_.getReturnType();
    if (hasSret_) {
      llvm::Argument *slot = function_.getArg(0);
      if (!returnType->isVoidTy() || slot->getParamStructRetType() != value->getType())
        return false;
      builder_.CreateAlignedStore(value, slot, slot->getParamAlign());
      builder_.CreateRetVoid();
      return true;
    }
    llvm::Value *coerced = toCoerced(value, returnType);
    if (!coerced)
      return false;
    builder_.CreateRet(coerced);
    return true;
  }

private:
  static unsigned bits(llvm::Type *type) { return type->getPrimitiveSizeInBits().getFixedValue(); }

  /// The 4-lane type a 3-lane vector is stored as, or nullptr.
  static llvm::FixedVectorType *storageOf(llvm::Type *real) {
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(real);
    if (!vector || vector->getNumElements() != 3)
      return nullptr;
    return llvm::FixedVectorType::get(vector->getElementType(), 4);
  }

  llvm::Value *fromCoerced(llvm::Value *value, llvm::Type *real) {
    llvm::Type *type = value->getType();
    if (!type->isSingleValueType() || type->isPointerTy() || bits(type) == 0)
      return nullptr;
    if (bits(type) == bits(real))
      return builder_.CreateBitCast(value, real);
    if (auto *storage = storageOf(real); storage && bits(type) == bits(storage))
      return builder_.CreateShuffleVector(builder_.CreateBitCast(value, storage), {0, 1, 2});
    // A register wider than the value (riscv64 passes a char3 in a 64-bit
    // integer register): the value is its low bytes, as in memory.
    if (bits(type) > bits(real)) {
      llvm::Value *slot = builder_.CreateAlloca(type);
      builder_.CreateStore(value, slot);
      return builder_.CreateLoad(real, slot);
    }
    return nullptr;
  }

  llvm::Value *toCoerced(llvm::Value *value, llvm::Type *type) {
    llvm::Type *real = value->getType();
    if (type == real)
      return value;
    if (!type->isSingleValueType() || type->isPointerTy() || bits(type) == 0)
      return nullptr;
    if (bits(type) == bits(real))
      return builder_.CreateBitCast(value, type);
    if (auto *storage = storageOf(real); storage && bits(type) == bits(storage))
      return builder_.CreateBitCast(builder_.CreateShuffleVector(value, {0, 1, 2, -1}), type);
    if (bits(type) > bits(real)) {
      llvm::Value *slot = builder_.CreateAlloca(type);
      builder_.CreateStore(llvm::Constant::getNullValue(type), slot);
      builder_.CreateStore(value, slot);
      return builder_.CreateLoad(type, slot);
    }
    return nullptr;
  }

  llvm::Function &function_;
  llvm::IRBuilder<> &builder_;
  bool hasSret_ = false;
};

/// Emits the body of one builtin on its OpenCL-typed operands.
class BodyBuilder {
public:
  BodyBuilder(llvm::IRBuilder<> &builder, const ClType &first) : builder_(builder), first_(first) {}

  llvm::Value *intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args) {
    return builder_.CreateIntrinsic(id, {args.front()->getType()}, args);
  }

  llvm::Value *min(llvm::Value *a, llvm::Value *b) {
    if (first_.isFloat())
      return intrinsic(llvm::Intrinsic::minnum, {a, b});
    return intrinsic(first_.isSigned() ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, {a, b});
  }

  llvm::Value *max(llvm::Value *a, llvm::Value *b) {
    if (first_.isFloat())
      return intrinsic(llvm::Intrinsic::maxnum, {a, b});
    return intrinsic(first_.isSigned() ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, {a, b});
  }

  llvm::Value *mulHi(llvm::Value *a, llvm::Value *b) {
    llvm::Type *type = a->getType();
    unsigned bits = type->getScalarSizeInBits();
    llvm::Type *wide = type->getWithNewBitWidth(bits * 2);
    auto extend = [&](llvm::Value *v) {
      return first_.isSigned() ? builder_.CreateSExt(v, wide) : builder_.CreateZExt(v, wide);
    };
    llvm::Value *product = builder_.CreateMul(extend(a), extend(b));
    return builder_.CreateTrunc(builder_.CreateLShr(product, llvm::ConstantInt::get(wide, bits)), type);
  }

  /// Sum of the lane products, lane 0 first (no reassociation).
  llvm::Value *dot(llvm::Value *a, llvm::Value *b) {
    llvm::Value *products = builder_.CreateFMul(a, b);
    if (first_.lanes == 1)
      return products;
    llvm::Value *sum = builder_.CreateExtractElement(products, uint64_t{0});
    for (unsigned lane = 1; lane < first_.lanes; ++lane)
      sum = builder_.CreateFAdd(sum, builder_.CreateExtractElement(products, lane));
    return sum;
  }

  /// nullptr when the conversion cannot be expressed (a saturated
  /// conversion to floating point): the builtin stays unresolved.
  llvm::Value *convert(llvm::Value *value, const Conversion &conversion) {
    const ClType &from = first_;
    const ClType &to = conversion.to;
    llvm::Type *toType = to.llvmType(value->getContext());
    const bool nearest = conversion.rounding == Rounding::Default || conversion.rounding == Rounding::Rte;
    if (to.isFloat()) {
      if (conversion.saturate)
        return nullptr; // OpenCL C has no saturated conversion to floating point
      if (from.isFloat()) {
        if (to.scalarBits() >= from.scalarBits())
          return builder_.CreateFPExt(value, toType); // exact (or identity)
        llvm::Value *rounded = builder_.CreateFPTrunc(value, toType);
        if (nearest)
          return rounded;
        // Widening back is exact: compare the nearest result with the value.
        llvm::Value *back = widenExactly(rounded, value->getType());
        return directed(rounded, builder_.CreateFCmpOGT(back, value), builder_.CreateFCmpOLT(back, value),
                        conversion.rounding);
      }
      llvm::Value *rounded =
          from.isSigned() ? builder_.CreateSIToFP(value, toType) : builder_.CreateUIToFP(value, toType);
      unsigned valueBits = from.scalarBits() - (from.isSigned() ? 1 : 0);
      if (nearest || valueBits <= significandBits(to))
        return rounded; // LLVM's casts round to nearest; small integers are exact
      auto [above, below] = compareWithInteger(rounded, value, valueBits);
      return directed(rounded, above, below, conversion.rounding);
    }
    if (from.isFloat())
      return floatToInteger(value, conversion, toType);
    if (conversion.saturate)
      value = clampToRangeOf(value, to);
    return builder_.CreateIntCast(value, toType, from.isSigned());
  }

private:
  /// Whether the nearest float `rounded` of integer `value` (of first_'s
  /// type, `valueBits` magnitude bits) is above and below it. Every float
  /// below 2^valueBits is an integer in range, so it converts back exactly
  /// (a float at or above it exceeds every value of the type), except -inf,
  /// the nearest half of a large negative integer, which is below it.
  std::pair<llvm::Value *, llvm::Value *> compareWithInteger(llvm::Value *rounded, llvm::Value *value,
                                                             unsigned valueBits) {
    llvm::Value *fits =
        builder_.CreateFCmpOLT(rounded, llvm::ConstantFP::get(rounded->getType(), std::ldexp(1.0, valueBits)));
    // Frozen: only used where it is in range.
    llvm::Value *back = builder_.CreateFreeze(integerFromBits(rounded, value->getType()));
    llvm::Value *greater =
        first_.isSigned() ? builder_.CreateICmpSGT(back, value) : builder_.CreateICmpUGT(back, value);
    llvm::Value *less = first_.isSigned() ? builder_.CreateICmpSLT(back, value) : builder_.CreateICmpULT(back, value);
    llvm::Value *negativeInfinity =
        builder_.CreateFCmpOEQ(rounded, llvm::ConstantFP::getInfinity(rounded->getType(), /*Negative=*/true));
    llvm::Value *trueValue = llvm::ConstantInt::getTrue(fits->getType());
    llvm::Value *falseValue = llvm::ConstantInt::getFalse(fits->getType());
    greater = builder_.CreateSelect(negativeInfinity, falseValue, greater);
    less = builder_.CreateSelect(negativeInfinity, trueValue, less);
    return {builder_.CreateSelect(fits, greater, trueValue), builder_.CreateSelect(fits, less, falseValue)};
  }

  /// The integer `integral` (a float of integer value, or infinite) as
  /// `intType`, read from its bits: not an fptosi/fptoui, because a driver
  /// may fold that back into the integer the float came from (lavapipe 22.3
  /// does, doc/targets/vulkan.md), which is exactly what must not happen
  /// here. Where the value does not fit, the result is some integer.
  llvm::Value *integerFromBits(llvm::Value *integral, llvm::Type *intType) {
    const llvm::fltSemantics &semantics = integral->getType()->getScalarType()->getFltSemantics();
    const unsigned fractionBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
    const int bias = llvm::APFloat::semanticsMaxExponent(semantics);
    Bits bits = bitsOf(integral);
    unsigned width = std::max(intType->getScalarSizeInBits(), bits.intType->getScalarSizeInBits());
    llvm::Type *wide = builder_.getIntNTy(width);
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(bits.intType))
      wide = llvm::VectorType::get(wide, vector->getElementCount());
    auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(wide, v); };
    llvm::Value *magnitude = builder_.CreateZExt(bits.magnitude, wide);
    llvm::Value *field = builder_.CreateLShr(magnitude, constant(fractionBits));
    llvm::Value *mantissa =
        builder_.CreateOr(builder_.CreateAnd(magnitude, constant((uint64_t{1} << fractionBits) - 1)),
                          constant(uint64_t{1} << fractionBits));
    // |x| = mantissa * 2^(field - bias - fractionBits); zero (field 0) is
    // shifted out entirely. Shift counts stay below the width.
    llvm::Value *exponentBase = constant(uint64_t(bias) + fractionBits);
    llvm::Value *up = builder_.CreateICmpUGE(field, exponentBase);
    llvm::Value *maxShift = constant(width - 1);
    llvm::Value *left =
        builder_.CreateShl(mantissa, builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                                                    builder_.CreateSub(field, exponentBase), maxShift));
    llvm::Value *rightShift = builder_.CreateSub(exponentBase, field);
    llvm::Value *right = builder_.CreateSelect(
        builder_.CreateICmpULE(rightShift, maxShift),
        builder_.CreateLShr(mantissa, builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, rightShift, maxShift)),
        constant(0));
    llvm::Value *result = builder_.CreateSelect(up, left, right);
    result = builder_.CreateSelect(bits.negative, builder_.CreateNeg(result), result);
    return builder_.CreateTrunc(result, intType);
  }

  /// A floating-point value's bits, as integers of the same shape.
  struct Bits {
    llvm::Type *intType;
    llvm::Value *pattern;   ///< the value's bits
    llvm::Value *magnitude; ///< without the sign bit
    llvm::Value *negative;  ///< sign bit set
  };
  Bits bitsOf(llvm::Value *value) {
    llvm::Type *type = value->getType();
    unsigned bits = type->getScalarSizeInBits();
    llvm::Type *intType = builder_.getIntNTy(bits);
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(type))
      intType = llvm::VectorType::get(intType, vector->getElementCount());
    llvm::Value *pattern = builder_.CreateBitCast(value, intType);
    llvm::Value *magnitude =
        builder_.CreateAnd(pattern, llvm::ConstantInt::get(intType, llvm::APInt::getSignedMaxValue(bits)));
    llvm::Value *negative = builder_.CreateICmpSLT(pattern, llvm::Constant::getNullValue(intType));
    return {intType, pattern, magnitude, negative};
  }

  /// `narrow` widened to `wideType`, exactly, from its bits: a GPU that
  /// flushes denormals of the narrow type on input (Vulkan without
  /// DenormPreserve, NVIDIA's float) widens them to zero, so they are
  /// rebuilt as fraction bits times the smallest denormal; and NVIDIA's
  /// driver reads an fpext of an fptrunc back as the value it came from
  /// (half's directed conversions then stayed rounded to nearest), so the
  /// other values are rebuilt in integer arithmetic too.
  llvm::Value *widenExactly(llvm::Value *narrow, llvm::Type *wideType) {
    const llvm::fltSemantics &semantics = narrow->getType()->getScalarType()->getFltSemantics();
    const llvm::fltSemantics &wideSemantics = wideType->getScalarType()->getFltSemantics();
    Bits bits = bitsOf(narrow);
    const unsigned fractionBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
    llvm::Value *denormal =
        builder_.CreateICmpULT(bits.magnitude, llvm::ConstantInt::get(bits.intType, uint64_t{1} << fractionBits));
    const int smallestExponent = llvm::APFloat::semanticsMinExponent(semantics) - int(fractionBits);
    llvm::Value *rebuilt = builder_.CreateFMul(builder_.CreateUIToFP(bits.magnitude, wideType),
                                               llvm::ConstantFP::get(wideType, std::ldexp(1.0, smallestExponent)));
    rebuilt = builder_.CreateSelect(bits.negative, builder_.CreateFNeg(rebuilt), rebuilt);

    // Normal values, infinities and NaNs: the fraction moves up, the
    // exponent is rebiased (all ones stays all ones).
    const unsigned wideBits = wideType->getScalarSizeInBits();
    const unsigned wideFractionBits = llvm::APFloat::semanticsPrecision(wideSemantics) - 1;
    llvm::Type *wideInt = builder_.getIntNTy(wideBits);
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(wideType))
      wideInt = llvm::VectorType::get(wideInt, vector->getElementCount());
    auto wideConstant = [&](const llvm::APInt &v) { return llvm::ConstantInt::get(wideInt, v); };
    const unsigned shift = wideFractionBits - fractionBits;
    const int biasDifference =
        llvm::APFloat::semanticsMaxExponent(wideSemantics) - llvm::APFloat::semanticsMaxExponent(semantics);
    llvm::Value *magnitude = builder_.CreateShl(builder_.CreateZExt(bits.magnitude, wideInt), shift);
    llvm::Value *normal = builder_.CreateAdd(
        magnitude, wideConstant(llvm::APInt(wideBits, uint64_t(biasDifference)).shl(wideFractionBits)));
    const llvm::APInt wideExponentMask =
        llvm::APInt::getBitsSet(wideBits, wideFractionBits, wideBits - 1); // the exponent field
    const uint64_t narrowInfinity = llvm::APFloat::getInf(semantics).bitcastToAPInt().getZExtValue();
    llvm::Value *special = builder_.CreateICmpUGE(bits.magnitude, llvm::ConstantInt::get(bits.intType, narrowInfinity));
    llvm::Value *wideMagnitude =
        builder_.CreateSelect(special, builder_.CreateOr(magnitude, wideConstant(wideExponentMask)), normal);
    llvm::Value *sign = builder_.CreateSelect(bits.negative, wideConstant(llvm::APInt::getSignMask(wideBits)),
                                              wideConstant(llvm::APInt(wideBits, 0)));
    llvm::Value *widened = builder_.CreateBitCast(builder_.CreateOr(wideMagnitude, sign), wideType);
    return builder_.CreateSelect(denormal, rebuilt, widened);
  }

  /// Turns the round-to-nearest result `rounded` into the directed
  /// `rounding`, given whether it is above or below the exact value: the
  /// exact value lies between `rounded` and its neighbour on the other side,
  /// so a wrong direction is fixed by one step to that neighbour (integer
  /// steps on the bits, across zero, denormals and infinity).
  llvm::Value *directed(llvm::Value *rounded, llvm::Value *above, llvm::Value *below, Rounding rounding) {
    llvm::Type *type = rounded->getType();
    unsigned bits = type->getScalarSizeInBits();
    // Tests on the bits, not float compares: a device that flushes
    // denormals on input would see a denormal `rounded` as zero.
    auto [intType, pattern, magnitude, negative] = bitsOf(rounded);
    llvm::Value *isZero = builder_.CreateICmpEQ(magnitude, llvm::Constant::getNullValue(intType));
    llvm::Value *positiveNonZero = builder_.CreateAnd(builder_.CreateNot(negative), builder_.CreateNot(isZero));
    llvm::Value *negativeNonZero = builder_.CreateAnd(negative, builder_.CreateNot(isZero));
    llvm::Value *one = llvm::ConstantInt::get(intType, 1);
    llvm::Value *plus = builder_.CreateAdd(pattern, one);
    llvm::Value *minus = builder_.CreateSub(pattern, one);
    llvm::Value *smallest = one; // +denormal min
    llvm::Value *negativeSmallest =
        llvm::ConstantInt::get(intType, llvm::APInt::getSignMask(bits) + 1); // -denormal min
    llvm::Value *up = builder_.CreateSelect(isZero, smallest, builder_.CreateSelect(negative, minus, plus));
    llvm::Value *down = builder_.CreateSelect(isZero, negativeSmallest, builder_.CreateSelect(negative, plus, minus));
    llvm::Value *result = pattern;
    switch (rounding) {
    case Rounding::Rtp:
      result = builder_.CreateSelect(below, up, pattern);
      break;
    case Rounding::Rtn:
      result = builder_.CreateSelect(above, down, pattern);
      break;
    case Rounding::Rtz: {
      llvm::Value *tooFarUp = builder_.CreateAnd(above, positiveNonZero);
      llvm::Value *tooFarDown = builder_.CreateAnd(below, negativeNonZero);
      result = builder_.CreateSelect(tooFarUp, down, builder_.CreateSelect(tooFarDown, up, pattern));
      break;
    }
    default:
      break;
    }
    return builder_.CreateBitCast(result, type);
  }

  llvm::Value *floatToInteger(llvm::Value *value, const Conversion &conversion, llvm::Type *toType) {
    switch (conversion.rounding) {
    case Rounding::Default:
    case Rounding::Rtz:
      break; // the casts truncate
    case Rounding::Rte:
      value = intrinsic(llvm::Intrinsic::roundeven, {value});
      break;
    case Rounding::Rtp:
      value = intrinsic(llvm::Intrinsic::ceil, {value});
      break;
    case Rounding::Rtn:
      value = intrinsic(llvm::Intrinsic::floor, {value});
      break;
    }
    const bool toSigned = conversion.to.isSigned();
    if (conversion.saturate)
      return builder_.CreateIntrinsic(toSigned ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                                      {toType, value->getType()}, {value});
    // Out of range is undefined in OpenCL C but poison in LLVM: freeze it to
    // some value so that it cannot spread.
    return builder_.CreateFreeze(toSigned ? builder_.CreateFPToSI(value, toType)
                                          : builder_.CreateFPToUI(value, toType));
  }

  /// Clamps integer `value` (of type first_) to the range of `to`, in the
  /// source type: every bound needed there is representable in it.
  llvm::Value *clampToRangeOf(llvm::Value *value, const ClType &to) {
    const ClType &from = first_;
    llvm::Type *type = value->getType();
    unsigned fromBits = from.scalarBits(), toBits = to.scalarBits();
    llvm::APInt fromMin = from.isSigned() ? llvm::APInt::getSignedMinValue(fromBits) : llvm::APInt(fromBits, 0);
    llvm::APInt fromMax =
        from.isSigned() ? llvm::APInt::getSignedMaxValue(fromBits) : llvm::APInt::getMaxValue(fromBits);
    llvm::APInt toMin = to.isSigned() ? llvm::APInt::getSignedMinValue(toBits) : llvm::APInt(toBits, 0);
    llvm::APInt toMax = to.isSigned() ? llvm::APInt::getSignedMaxValue(toBits) : llvm::APInt::getMaxValue(toBits);
    // Compare exactly in a width holding both ranges.
    unsigned wide = std::max(fromBits, toBits) + 1;
    auto widen = [&](const llvm::APInt &v, bool isSigned) { return isSigned ? v.sext(wide) : v.zext(wide); };
    llvm::APInt lowFrom = widen(fromMin, from.isSigned()), highFrom = widen(fromMax, from.isSigned());
    llvm::APInt lowTo = widen(toMin, to.isSigned()), highTo = widen(toMax, to.isSigned());
    auto bound = [&](const llvm::APInt &v) { return llvm::ConstantInt::get(type, v.trunc(fromBits)); };
    if (lowTo.sgt(lowFrom))
      value = from.isSigned() ? intrinsic(llvm::Intrinsic::smax, {value, bound(lowTo)})
                              : intrinsic(llvm::Intrinsic::umax, {value, bound(lowTo)});
    if (highTo.slt(highFrom))
      value = from.isSigned() ? intrinsic(llvm::Intrinsic::smin, {value, bound(highTo)})
                              : intrinsic(llvm::Intrinsic::umin, {value, bound(highTo)});
    return value;
  }

  llvm::IRBuilder<> &builder_;
  ClType first_;
};

/// The OpenCL result type of a builtin, or nullopt if not lowered.
std::optional<ClType> resultType(Op op, const ClType &first, const std::optional<Conversion> &conversion) {
  if (op == Op::Convert) {
    if (!conversion || conversion->to.lanes != first.lanes)
      return std::nullopt;
    return conversion->to;
  }
  if (op == Op::Dot)
    return first.lanes <= 4 ? std::optional<ClType>(first.scalarType()) : std::nullopt;
  return first;
}

/// Gives `function` a body; false (and no body) when it cannot be lowered
/// exactly.
bool defineBuiltin(llvm::Function &function, const BuiltinSignature &signature) {
  const ClType &first = signature.params.front();
  Lowering how = lowering(signature.name, first.isFloat());
  if (how.op == Op::None || signature.params.size() != operandCount(how.op))
    return false;
  std::optional<Conversion> conversion;
  if (how.op == Op::Convert)
    conversion = parseConversion(signature.name);
  std::optional<ClType> result = resultType(how.op, first, conversion);
  if (!result)
    return false;
  // Later operands are of the first one's type, or its scalar (splatted).
  for (const ClType &param : signature.params)
    if (param != first && param != first.scalarType())
      return false;

  llvm::LLVMContext &context = function.getContext();
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  BuiltinAbi abi(function, builder);
  if (abi.irArgCount() != signature.params.size()) {
    function.deleteBody();
    return false;
  }
  llvm::SmallVector<llvm::Value *, 3> args;
  for (unsigned i = 0; i < signature.params.size(); ++i) {
    llvm::Value *value = abi.argument(i, signature.params[i].llvmType(context));
    if (value && first.lanes > 1 && signature.params[i].lanes == 1)
      value = builder.CreateVectorSplat(first.lanes, value);
    if (!value) {
      function.deleteBody();
      return false;
    }
    args.push_back(value);
  }

  BodyBuilder body(builder, first);
  llvm::Value *falseValue = builder.getFalse();
  llvm::Value *value = nullptr;
  switch (how.op) {
  case Op::Unary:
  case Op::Binary:
  case Op::Ternary:
    value = body.intrinsic(how.intrinsic, args);
    break;
  case Op::Min:
    value = body.min(args[0], args[1]);
    break;
  case Op::Max:
    value = body.max(args[0], args[1]);
    break;
  case Op::Clamp:
    value = body.min(body.max(args[0], args[1]), args[2]);
    break;
  case Op::Abs:
    value = first.isSigned() ? body.intrinsic(llvm::Intrinsic::abs, {args[0], falseValue}) : args[0];
    break;
  case Op::Popcount:
    value = body.intrinsic(llvm::Intrinsic::ctpop, {args[0]});
    break;
  case Op::Clz:
    value = body.intrinsic(llvm::Intrinsic::ctlz, {args[0], falseValue});
    break;
  case Op::Ctz:
    value = body.intrinsic(llvm::Intrinsic::cttz, {args[0], falseValue});
    break;
  case Op::Rotate:
    value = body.intrinsic(llvm::Intrinsic::fshl, {args[0], args[0], args[1]});
    break;
  case Op::MulHi:
    value = body.mulHi(args[0], args[1]);
    break;
  case Op::Dot:
    value = body.dot(args[0], args[1]);
    break;
  case Op::Convert:
    value = body.convert(args[0], *conversion);
    break;
  case Op::None:
    break;
  }
  if (!value || value->getType() != result->llvmType(context) || !abi.ret(value)) {
    function.deleteBody();
    return false;
  }
  return true;
}

} // namespace

llvm::PreservedAnalyses LowerExactBuiltinsPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic())
      continue;
    std::optional<BuiltinSignature> signature = parseBuiltinSignature(function.getName());
    if (!signature || !defineBuiltin(function, *signature))
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
    function.removeFnAttr(llvm::Attribute::NoInline);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace compiler
