// Calls left after inlining: LLVM intrinsics, work-item builtins, barriers;
// and the atomic instructions.
#include "kernel_emitter.h"
#include "work_item_builtins.h"

#include "compiler/passes.h"
#include "passes/vulkan_passes.h"

#include "spirv/unified1/GLSL.std.450.h"

#include "llvm/IR/Constants.h"

#include <cmath>

namespace compiler::spirv {

using abi::vulkan::LaunchField;

namespace {

// Memory semantics bits.
constexpr uint32_t kAcquireRelease = 0x8;
constexpr uint32_t kAcquire = 0x2;
constexpr uint32_t kRelease = 0x4;
constexpr uint32_t kUniformMemory = 0x40;
constexpr uint32_t kWorkgroupMemory = 0x100;
constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeSubgroup = 3, kScopeInvocation = 4;

} // namespace

uint32_t barrierSemantics(uint32_t flags) {
  if (!(flags & 7))
    return 0;
  return kAcquireRelease | ((flags & 1) ? kWorkgroupMemory : 0) | ((flags & 6) ? kUniformMemory : 0);
}

namespace {

uint32_t scopeOf(llvm::LLVMContext &context, llvm::SyncScope::ID id) {
  if (id == llvm::SyncScope::SingleThread)
    return kScopeInvocation;
  if (id == llvm::SyncScope::System)
    return kScopeDevice; // Vulkan has no CrossDevice scope for shaders.
  llvm::SmallVector<llvm::StringRef, 8> names;
  context.getSyncScopeNames(names);
  llvm::StringRef name = id < names.size() ? names[id] : "";
  if (name == "workgroup")
    return kScopeWorkgroup;
  if (name == "subgroup")
    return kScopeSubgroup;
  return kScopeDevice;
}

} // namespace

Id KernelEmitter::builtinComponent(Id variable, uint32_t dimension) {
  Id pointer = op(spv::Op::OpAccessChain, builder_.typePointer(spv::StorageClass::Input, uint32Type()),
                  {variable, uint32(dimension)});
  return op(spv::Op::OpLoad, uint32Type(), {pointer});
}

Id KernelEmitter::localSizeComponent(uint32_t dimension) { return state_.localSize[dimension]; }

std::optional<llvm::Error> KernelEmitter::emitWorkItemBuiltin(llvm::CallInst &call, llvm::StringRef name) {
  std::optional<WorkItemBuiltin> builtin = workItemBuiltin(name);
  if (!builtin)
    return std::nullopt;
  auto builtinVariable = [&](Id &variable, spv::BuiltIn which) {
    if (!variable) {
      Id vector = builder_.typeVector(uint32Type(), 3);
      variable = builder_.variable(builder_.typePointer(spv::StorageClass::Input, vector), spv::StorageClass::Input);
      builder_.decorate(variable, spv::Decoration::BuiltIn, {uint32_t(which)});
    }
    if (!llvm::is_contained(interface_, variable))
      interface_.push_back(variable);
    return variable;
  };
  auto groupId = [&](uint32_t d) {
    Id group = builtinComponent(builtinVariable(state_.workgroupId, spv::BuiltIn::WorkgroupId), d);
    return op(spv::Op::OpIAdd, uint32Type(), {group, launchField(LaunchField::GroupOffset, d)});
  };
  auto localId = [&](uint32_t d) {
    return builtinComponent(builtinVariable(state_.localInvocationId, spv::BuiltIn::LocalInvocationId), d);
  };
  // Global id without the offset: group * enqueued local size + local id.
  auto globalIndex = [&](uint32_t d) {
    Id scaled = op(spv::Op::OpIMul, uint32Type(), {groupId(d), launchField(LaunchField::EnqueuedLocalSize, d)});
    return op(spv::Op::OpIAdd, uint32Type(), {scaled, localId(d)});
  };
  // One value per dimension 0..2, and what a dimension outside gives.
  auto perDimension = [&](auto valueOf, uint32_t outside) -> Id {
    llvm::Value *dimension = call.getArgOperand(0);
    if (auto *constantDimension = llvm::dyn_cast<llvm::ConstantInt>(dimension)) {
      uint64_t d = constantDimension->getZExtValue();
      return d < 3 ? valueOf(uint32_t(d)) : uint32(outside);
    }
    Id d = value(dimension);
    Id result = uint32(outside);
    for (uint32_t i = 3; i-- > 0;) {
      Id isThis = op(spv::Op::OpIEqual, builder_.typeBool(), {d, uint32(i)});
      result = op(spv::Op::OpSelect, uint32Type(), {isThis, valueOf(i), result});
    }
    return result;
  };
  Id result = 0;
  switch (*builtin) {
  case WorkItemBuiltin::GlobalId:
    result = perDimension(
        [&](uint32_t d) {
          return op(spv::Op::OpIAdd, uint32Type(), {globalIndex(d), launchField(LaunchField::GlobalOffset, d)});
        },
        0);
    break;
  case WorkItemBuiltin::LocalId:
    result = perDimension(localId, 0);
    break;
  case WorkItemBuiltin::GroupId:
    result = perDimension(groupId, 0);
    break;
  case WorkItemBuiltin::LocalSize:
    result = perDimension([&](uint32_t d) { return localSizeComponent(d); }, 1);
    break;
  case WorkItemBuiltin::EnqueuedLocalSize:
    result = perDimension([&](uint32_t d) { return launchField(LaunchField::EnqueuedLocalSize, d); }, 1);
    break;
  case WorkItemBuiltin::GlobalSize:
    result = perDimension([&](uint32_t d) { return launchField(LaunchField::GlobalSize, d); }, 1);
    break;
  case WorkItemBuiltin::NumGroups:
    result = perDimension([&](uint32_t d) { return launchField(LaunchField::NumGroups, d); }, 1);
    break;
  case WorkItemBuiltin::GlobalOffset:
    result = perDimension([&](uint32_t d) { return launchField(LaunchField::GlobalOffset, d); }, 0);
    break;
  case WorkItemBuiltin::WorkDim:
    result = launchField(LaunchField::WorkDim, 0);
    break;
  case WorkItemBuiltin::GlobalLinearId: {
    Id size0 = launchField(LaunchField::GlobalSize, 0), size1 = launchField(LaunchField::GlobalSize, 1);
    Id linear = op(spv::Op::OpIMul, uint32Type(), {globalIndex(2), size1});
    linear = op(spv::Op::OpIAdd, uint32Type(), {linear, globalIndex(1)});
    linear = op(spv::Op::OpIMul, uint32Type(), {linear, size0});
    result = op(spv::Op::OpIAdd, uint32Type(), {linear, globalIndex(0)});
    break;
  }
  case WorkItemBuiltin::LocalLinearId: {
    Id linear = op(spv::Op::OpIMul, uint32Type(), {localId(2), localSizeComponent(1)});
    linear = op(spv::Op::OpIAdd, uint32Type(), {linear, localId(1)});
    linear = op(spv::Op::OpIMul, uint32Type(), {linear, localSizeComponent(0)});
    result = op(spv::Op::OpIAdd, uint32Type(), {linear, localId(0)});
    break;
  }
  }
  Id resultType = type(call.getType());
  if (call.getType()->isIntegerTy(32))
    op(spv::Op::OpCopyObject, resultType, {result}, values_[&call]);
  else
    op(spv::Op::OpUConvert, resultType, {result}, values_[&call]);
  return llvm::Error::success();
}

void KernelEmitter::emitFence(llvm::FenceInst &fence) {
  // mem_fence, read_mem_fence, write_mem_fence and atomic_work_item_fence
  // (LowerAtomicBuiltinsPass): a memory barrier over __global and __local
  // memory with the fence's ordering and scope; a single-thread fence only
  // orders the compiler, which the emitted code already follows.
  const uint32_t scope = scopeOf(fence.getContext(), fence.getSyncScopeID());
  if (scope == kScopeInvocation)
    return;
  uint32_t semantics = fence.getOrdering() == llvm::AtomicOrdering::Acquire   ? kAcquire
                       : fence.getOrdering() == llvm::AtomicOrdering::Release ? kRelease
                                                                              : kAcquireRelease;
  opNoResult(spv::Op::OpMemoryBarrier, {uint32(scope), uint32(semantics | kUniformMemory | kWorkgroupMemory)});
}

void KernelEmitter::emitBarrier(uint32_t executionScope, uint32_t memoryScope, uint32_t semantics) {
  opNoResult(spv::Op::OpControlBarrier, {uint32(executionScope), uint32(memoryScope), uint32(semantics)});
}

llvm::Error KernelEmitter::emitCall(llvm::CallInst &call) {
  if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call))
    return emitIntrinsic(*intrinsic);
  llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return unsupported(call, "an indirect call");
  llvm::StringRef name = callee->getName();
  if (std::optional<llvm::Error> handled = emitWorkItemBuiltin(call, name))
    return std::move(*handled);
  if (std::optional<llvm::Error> handled = emitSubGroupBuiltin(call, name))
    return std::move(*handled);
  if (name == kPrintfBufferFunction || name == kAccessReportFunction || name == kKernelExitRecordFunction) {
    LaunchField field = name == kPrintfBufferFunction   ? LaunchField::PrintfBuffer
                        : name == kAccessReportFunction ? LaunchField::AccessReport
                                                        : LaunchField::KernelExit;
    op(spv::Op::OpCopyObject, uint64Type(), {launchField(field, 0)}, values_[&call]);
    return llvm::Error::success();
  }
  if (name == kAccessScratchFunction) {
    Id &scratch = state_.accessScratch;
    if (!scratch)
      scratch = builder_.specConstant64(uint64Type(), 0, abi::vulkan::kAccessScratchSpecId);
    op(spv::Op::OpCopyObject, uint64Type(), {scratch}, values_[&call]);
    return llvm::Error::success();
  }
  if (name == kAccessRangeBaseFunction || name == kAccessRangeSizeFunction)
    return emitAccessRange(call, name == kAccessRangeBaseFunction);
  if (isBarrierFunction(name) && !name.contains("sub_group")) {
    // barrier(flags) / work_group_barrier(flags[, scope]).
    uint32_t flags = 7;
    if (auto *constantFlags = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0)))
      flags = uint32_t(constantFlags->getZExtValue());
    const uint32_t semantics = barrierSemantics(flags);
    emitBarrier(kScopeWorkgroup, (semantics & kUniformMemory) ? kScopeDevice : kScopeWorkgroup, semantics);
    return llvm::Error::success();
  }
  if (callee->isDeclaration())
    return unsupported(call, "the function '" + name + "' (not in the builtins library)");
  return unsupported(call, "the call to '" + name + "' (recursion)");
}

Id KernelEmitter::countZeros(Id operand, unsigned bits, bool leading) {
  Id glsl = builder_.importGlsl450();
  Id int32 = uint32Type();
  // FindUMsb / FindILsb give -1 for 0, so 31 - msb and lsb (as unsigned,
  // clamped) count 32 zeros there.
  auto count32 = [&](Id word) {
    if (leading)
      return op(spv::Op::OpISub, int32, {uint32(31), op(spv::Op::OpExtInst, int32, {glsl, GLSLstd450FindUMsb, word})});
    Id lsb = op(spv::Op::OpExtInst, int32, {glsl, GLSLstd450FindILsb, word});
    return op(spv::Op::OpExtInst, int32, {glsl, GLSLstd450UMin, lsb, uint32(32)});
  };
  if (bits == 32)
    return count32(operand);
  // 64 bits: the count of the half that decides, plus 32 when it is zero.
  Id low = op(spv::Op::OpUConvert, int32, {operand});
  Id high = op(spv::Op::OpUConvert, int32, {op(spv::Op::OpShiftRightLogical, uint64Type(), {operand, uint32(32)})});
  Id first = leading ? high : low, second = leading ? low : high;
  Id firstIsZero = op(spv::Op::OpIEqual, builder_.typeBool(), {first, uint32(0)});
  Id count = op(spv::Op::OpSelect, int32,
                {firstIsZero, op(spv::Op::OpIAdd, int32, {uint32(32), count32(second)}), count32(first)});
  return op(spv::Op::OpUConvert, uint64Type(), {count});
}

Id KernelEmitter::funnelShift(Id high, Id low, Id amount, llvm::Type *integer, bool left) {
  // fshl: the top half of (high:low) << (amount mod width); fshr: the bottom
  // half of (high:low) >> (amount mod width). A shift by the full width is
  // undefined in SPIR-V, so a zero amount selects the unshifted operand.
  unsigned bits = integer->getIntegerBitWidth();
  Id integerType = type(integer);
  Id shift = op(spv::Op::OpUMod, integerType, {amount, constant(llvm::ConstantInt::get(integer, bits))});
  Id complement = op(spv::Op::OpISub, integerType, {constant(llvm::ConstantInt::get(integer, bits)), shift});
  Id shifted = left ? op(spv::Op::OpBitwiseOr, integerType,
                         {op(spv::Op::OpShiftLeftLogical, integerType, {high, shift}),
                          op(spv::Op::OpShiftRightLogical, integerType, {low, complement})})
                    : op(spv::Op::OpBitwiseOr, integerType,
                         {op(spv::Op::OpShiftRightLogical, integerType, {low, shift}),
                          op(spv::Op::OpShiftLeftLogical, integerType, {high, complement})});
  Id isZero = op(spv::Op::OpIEqual, builder_.typeBool(), {shift, constant(llvm::ConstantInt::get(integer, 0))});
  return op(spv::Op::OpSelect, integerType, {isZero, left ? high : low, shifted});
}

Id KernelEmitter::accurateSqrt(Id x) {
  // GLSL.std.450 Sqrt promises only the accuracy of 1/inversesqrt.
  Id floatType = builder_.typeFloat(32), boolType = builder_.typeBool();
  Id glsl = builder_.importGlsl450();
  if (state_.config.fp64 || state_.config.shaderFloat64) {
    // In double precision that is far inside a float ulp: rounding the
    // double root to float is within OpenCL's 3 ulp.
    Id doubleType = builder_.typeFloat(64);
    Id wide = op(spv::Op::OpFConvert, doubleType, {x});
    return op(spv::Op::OpFConvert, floatType, {op(spv::Op::OpExtInst, doubleType, {glsl, GLSLstd450Sqrt, wide})});
  }
  // One Newton step: y + (x - y*y) / (2y), which brings the estimate to
  // about an ulp; zero, infinity and NaN keep the estimate (it is exact).
  Id estimate = op(spv::Op::OpExtInst, floatType, {glsl, GLSLstd450Sqrt, x});
  Id residual = op(spv::Op::OpFSub, floatType, {x, op(spv::Op::OpFMul, floatType, {estimate, estimate})});
  Id twice = op(spv::Op::OpFAdd, floatType, {estimate, estimate});
  Id refined = op(spv::Op::OpFAdd, floatType, {estimate, op(spv::Op::OpFDiv, floatType, {residual, twice})});
  Id zero = builder_.constantNull(floatType);
  Id special = op(
      spv::Op::OpLogicalOr, boolType,
      {op(spv::Op::OpFOrdEqual, boolType, {estimate, zero}),
       op(spv::Op::OpLogicalOr, boolType, {op(spv::Op::OpIsInf, boolType, {x}), op(spv::Op::OpIsNan, boolType, {x})})});
  return op(spv::Op::OpSelect, floatType, {special, estimate, refined});
}

Id KernelEmitter::exactFma(Id a, Id b, Id c, Id resultType) {
  // a*b is exact in double (24 + 24 bits for float, 11 + 11 for half).
  // a*b + c rounded to double and then to float (or half) could round
  // twice; rounding the double sum to odd first makes the final rounding
  // correct (Boldo and Melquiond: double has at least two more bits than
  // the result): the sum's
  // rounding error comes from TwoSum, and an inexact sum with an even last
  // bit moves one ulp towards the exact value.
  Id doubleType = builder_.typeFloat(64), boolType = builder_.typeBool();
  Id int64Type = uint64Type();
  auto exact = [&](spv::Op opcode, Id left, Id right) {
    Id id = op(opcode, doubleType, {left, right});
    builder_.decorate(id, spv::Decoration::NoContraction);
    return id;
  };
  Id product =
      exact(spv::Op::OpFMul, op(spv::Op::OpFConvert, doubleType, {a}), op(spv::Op::OpFConvert, doubleType, {b}));
  Id addend = op(spv::Op::OpFConvert, doubleType, {c});
  Id sum = exact(spv::Op::OpFAdd, product, addend);
  // TwoSum: the exact error of sum.
  Id productPart = exact(spv::Op::OpFSub, sum, addend);
  Id addendPart = exact(spv::Op::OpFSub, sum, productPart);
  Id error =
      exact(spv::Op::OpFAdd, exact(spv::Op::OpFSub, product, productPart), exact(spv::Op::OpFSub, addend, addendPart));
  Id bits = op(spv::Op::OpBitcast, int64Type, {sum});
  Id one = constant(llvm::ConstantInt::get(llvm::Type::getInt64Ty(kernel_.getContext()), 1));
  Id zero = builder_.constantNull(doubleType);
  Id even = op(spv::Op::OpIEqual, boolType,
               {op(spv::Op::OpBitwiseAnd, int64Type, {bits, one}), builder_.constantNull(int64Type)});
  Id inexact = op(spv::Op::OpFUnordNotEqual, boolType, {error, zero});
  // Towards the exact value: away from zero when the error has the sum's sign.
  Id sameSign =
      op(spv::Op::OpLogicalEqual, boolType,
         {op(spv::Op::OpFOrdLessThan, boolType, {error, zero}), op(spv::Op::OpFOrdLessThan, boolType, {sum, zero})});
  Id adjusted =
      op(spv::Op::OpBitcast, doubleType,
         {op(spv::Op::OpSelect, int64Type,
             {sameSign, op(spv::Op::OpIAdd, int64Type, {bits, one}), op(spv::Op::OpISub, int64Type, {bits, one})})});
  Id finite = op(spv::Op::OpLogicalNot, boolType,
                 {op(spv::Op::OpLogicalOr, boolType,
                     {op(spv::Op::OpIsInf, boolType, {sum}), op(spv::Op::OpIsNan, boolType, {sum})})});
  Id adjust = op(spv::Op::OpLogicalAnd, boolType,
                 {finite, op(spv::Op::OpLogicalAnd, boolType,
                             {even, op(spv::Op::OpLogicalAnd, boolType,
                                       {inexact, op(spv::Op::OpFOrdNotEqual, boolType, {sum, zero})})})});
  Id odd = op(spv::Op::OpSelect, doubleType, {adjust, adjusted, sum});
  if (resultType == builder_.typeFloat(16))
    return doubleToHalf(odd, llvm::Type::getDoubleTy(kernel_.getContext()));
  return op(spv::Op::OpFConvert, resultType, {odd});
}

Id KernelEmitter::doubleToHalf(Id x, llvm::Type *shape) {
  // lavapipe converts double to half through float, rounding twice (it
  // gave 0x1.f98p+15 for 64720 + 0x1.9p-11): the float is rounded to odd
  // instead, which keeps the final rounding correct (float has 13 more bits
  // than half; Boldo and Melquiond). A double beyond float's range rounds
  // to an infinite or zero half either way; NaN stays NaN.
  llvm::LLVMContext &context = kernel_.getContext();
  Id doubleType = type(shape), floatType = type(shape->getWithNewType(llvm::Type::getFloatTy(context)));
  Id int32Type = type(shape->getWithNewType(llvm::Type::getInt32Ty(context)));
  Id boolType = type(shape->getWithNewType(llvm::Type::getInt1Ty(context)));
  Id halfType = type(shape->getWithNewType(llvm::Type::getHalfTy(context)));
  Id one = constant(llvm::ConstantInt::get(shape->getWithNewType(llvm::Type::getInt32Ty(context)), 1));
  Id narrow = op(spv::Op::OpFConvert, floatType, {x});
  Id back = op(spv::Op::OpFConvert, doubleType, {narrow});
  Id bits = op(spv::Op::OpBitcast, int32Type, {narrow});
  Id even = op(spv::Op::OpIEqual, boolType,
               {op(spv::Op::OpBitwiseAnd, int32Type, {bits, one}), builder_.constantNull(int32Type)});
  Id glsl = builder_.importGlsl450();
  // A magnitude step towards x (the bits order magnitudes); an inexact
  // float is finite here, as x is below float's largest magnitude.
  Id grow = op(spv::Op::OpFOrdLessThan, boolType,
               {op(spv::Op::OpExtInst, doubleType, {glsl, GLSLstd450FAbs, back}),
                op(spv::Op::OpExtInst, doubleType, {glsl, GLSLstd450FAbs, x})});
  Id stepped =
      op(spv::Op::OpBitcast, floatType,
         {op(spv::Op::OpSelect, int32Type,
             {grow, op(spv::Op::OpIAdd, int32Type, {bits, one}), op(spv::Op::OpISub, int32Type, {bits, one})})});
  Id inFloatRange = op(
      spv::Op::OpFOrdLessThan, boolType,
      {op(spv::Op::OpExtInst, doubleType, {glsl, GLSLstd450FAbs, x}), constant(llvm::ConstantFP::get(shape, 0x1p100))});
  Id adjust =
      op(spv::Op::OpLogicalAnd, boolType,
         {op(spv::Op::OpLogicalAnd, boolType, {even, inFloatRange}), op(spv::Op::OpFOrdNotEqual, boolType, {back, x})});
  return op(spv::Op::OpFConvert, halfType, {op(spv::Op::OpSelect, floatType, {adjust, stepped, narrow})});
}

Id KernelEmitter::floatClassTest(Id x, llvm::Type *floating, unsigned mask) {
  // llvm.is.fpclass: bit 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
  // 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf; decided from
  // the bits so that no float comparison (or denormal flushing) interferes.
  unsigned bits = floating->getPrimitiveSizeInBits();
  unsigned mantissaBits = llvm::APFloat::semanticsPrecision(floating->getFltSemantics()) - 1;
  llvm::Type *integer = llvm::Type::getIntNTy(floating->getContext(), bits);
  Id integerType = type(integer), boolType = builder_.typeBool();
  auto integerConstant = [&](const llvm::APInt &value) { return constant(llvm::ConstantInt::get(integer, value)); };
  llvm::APInt signMask = llvm::APInt::getSignMask(bits);
  llvm::APInt mantissaMask = llvm::APInt::getLowBitsSet(bits, mantissaBits);
  llvm::APInt exponentMask = ~(signMask | mantissaMask);
  llvm::APInt quietBit = llvm::APInt::getOneBitSet(bits, mantissaBits - 1);
  Id raw = op(spv::Op::OpBitcast, integerType, {x});
  Id exponent = op(spv::Op::OpBitwiseAnd, integerType, {raw, integerConstant(exponentMask)});
  Id mantissa = op(spv::Op::OpBitwiseAnd, integerType, {raw, integerConstant(mantissaMask)});
  Id negative = op(spv::Op::OpINotEqual, boolType,
                   {op(spv::Op::OpBitwiseAnd, integerType, {raw, integerConstant(signMask)}),
                    integerConstant(llvm::APInt(bits, 0))});
  Id exponentAllOnes = op(spv::Op::OpIEqual, boolType, {exponent, integerConstant(exponentMask)});
  Id exponentZero = op(spv::Op::OpIEqual, boolType, {exponent, integerConstant(llvm::APInt(bits, 0))});
  Id mantissaZero = op(spv::Op::OpIEqual, boolType, {mantissa, integerConstant(llvm::APInt(bits, 0))});
  Id notMantissaZero = op(spv::Op::OpLogicalNot, boolType, {mantissaZero});
  Id quiet = op(spv::Op::OpINotEqual, boolType,
                {op(spv::Op::OpBitwiseAnd, integerType, {raw, integerConstant(quietBit)}),
                 integerConstant(llvm::APInt(bits, 0))});
  auto both = [&](Id a, Id b) { return op(spv::Op::OpLogicalAnd, boolType, {a, b}); };
  Id nan = both(exponentAllOnes, notMantissaZero);
  Id infinite = both(exponentAllOnes, mantissaZero);
  Id zero = both(exponentZero, mantissaZero);
  Id subnormal = both(exponentZero, notMantissaZero);
  Id normal =
      op(spv::Op::OpLogicalNot, boolType, {op(spv::Op::OpLogicalOr, boolType, {exponentAllOnes, exponentZero})});
  Id positive = op(spv::Op::OpLogicalNot, boolType, {negative});
  Id classes[10] = {both(nan, op(spv::Op::OpLogicalNot, boolType, {quiet})),
                    both(nan, quiet),
                    both(infinite, negative),
                    both(normal, negative),
                    both(subnormal, negative),
                    both(zero, negative),
                    both(zero, positive),
                    both(subnormal, positive),
                    both(normal, positive),
                    both(infinite, positive)};
  Id result = builder_.constantBool(false);
  for (unsigned i = 0; i < 10; ++i)
    if (mask & (1u << i))
      result = op(spv::Op::OpLogicalOr, boolType, {result, classes[i]});
  return result;
}

Id KernelEmitter::saturatingArithmetic(llvm::Intrinsic::ID id, llvm::Type *integer, Id left, Id right) {
  Id integerType = type(integer), boolType = builder_.typeBool();
  unsigned bits = integer->getIntegerBitWidth();
  bool isAdd = id == llvm::Intrinsic::uadd_sat || id == llvm::Intrinsic::sadd_sat;
  Id wrapped = op(isAdd ? spv::Op::OpIAdd : spv::Op::OpISub, integerType, {left, right});
  if (id == llvm::Intrinsic::uadd_sat) // wrapped past the maximum
    return op(spv::Op::OpSelect, integerType,
              {op(spv::Op::OpULessThan, boolType, {wrapped, left}),
               constant(llvm::ConstantInt::get(integer, llvm::APInt::getMaxValue(bits))), wrapped});
  if (id == llvm::Intrinsic::usub_sat)
    return op(
        spv::Op::OpSelect, integerType,
        {op(spv::Op::OpULessThan, boolType, {left, right}), constant(llvm::ConstantInt::get(integer, 0)), wrapped});
  // Signed overflow: the result's sign differs from both operands' (add) or
  // from the left one's where the operands' signs differ (sub).
  Id zero = constant(llvm::ConstantInt::get(integer, 0));
  Id leftFlip = op(spv::Op::OpBitwiseXor, integerType, {left, wrapped});
  Id other = op(spv::Op::OpBitwiseXor, integerType, {isAdd ? right : left, isAdd ? wrapped : right});
  Id overflow = op(spv::Op::OpSLessThan, boolType, {op(spv::Op::OpBitwiseAnd, integerType, {leftFlip, other}), zero});
  Id limit = op(spv::Op::OpSelect, integerType,
                {op(spv::Op::OpSLessThan, boolType, {left, zero}),
                 constant(llvm::ConstantInt::get(integer, llvm::APInt::getSignedMinValue(bits))),
                 constant(llvm::ConstantInt::get(integer, llvm::APInt::getSignedMaxValue(bits)))});
  return op(spv::Op::OpSelect, integerType, {overflow, limit, wrapped});
}

llvm::Error KernelEmitter::emitAccessRange(llvm::CallInst &call, bool base) {
  const unsigned index = accessRangeIndex(call);
  Id result = 0;
  if (index == programScopeRange(kernel_)) {
    // The program-scope block: its address, and its size known here.
    result = base ? launchField(LaunchField::GlobalVariables, 0)
                  : constant(llvm::ConstantInt::get(call.getType(), state_.programScope.size));
  } else if (auto slots = rangeSlots_.find(index); slots != rangeSlots_.end()) {
    result = slotValue(base ? slots->second.first : slots->second.second);
  } else {
    return unsupported(call, "an access range of an argument that is not a buffer");
  }
  op(spv::Op::OpCopyObject, uint64Type(), {result}, values_[&call]);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitIntrinsic(llvm::IntrinsicInst &call) {
  Id resultType = type(call.getType());
  Id result = values_.lookup(&call);
  auto glsl = [&](GLSLstd450 instruction, std::initializer_list<llvm::Value *> operands) -> llvm::Error {
    std::vector<uint32_t> words{resultType, result, builder_.importGlsl450(), uint32_t(instruction)};
    for (llvm::Value *operand : operands) {
      Id id = value(operand);
      if (!id)
        return unsupported(call, "an operand of '" + call.getCalledFunction()->getName() + "'");
      words.push_back(id);
    }
    ModuleBuilder::instruction(body_, spv::Op::OpExtInst, words);
    return llvm::Error::success();
  };
  switch (call.getIntrinsicID()) {
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
  case llvm::Intrinsic::prefetch: // a hint (OpenCL's prefetch): nothing to do
    return llvm::Error::success();
  case llvm::Intrinsic::fmuladd: {
    // OpenCL lets a*b+c contract or not; the separate operations are exact
    // on every device.
    Id product = op(spv::Op::OpFMul, resultType, {value(call.getArgOperand(0)), value(call.getArgOperand(1))});
    op(spv::Op::OpFAdd, resultType, {product, value(call.getArgOperand(2))}, result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::fabs:
    if (Id bits = signBitOperation(spv::Op::OpBitwiseAnd, call.getArgOperand(0))) {
      op(spv::Op::OpCopyObject, resultType, {bits}, result);
      return llvm::Error::success();
    }
    return glsl(GLSLstd450FAbs, {call.getArgOperand(0)});
  case llvm::Intrinsic::floor:
    return glsl(GLSLstd450Floor, {call.getArgOperand(0)});
  case llvm::Intrinsic::ceil:
    return glsl(GLSLstd450Ceil, {call.getArgOperand(0)});
  case llvm::Intrinsic::trunc:
    return glsl(GLSLstd450Trunc, {call.getArgOperand(0)});
  case llvm::Intrinsic::round: {
    // Halfway cases away from zero (GLSL Round leaves them open):
    // t = trunc(x), plus sign(x) when |x - t| >= 0.5 (x - t is exact).
    if (call.getType()->isVectorTy())
      break;
    Id x = value(call.getArgOperand(0)), boolType = builder_.typeBool(), glsl450 = builder_.importGlsl450();
    Id truncated = op(spv::Op::OpExtInst, resultType, {glsl450, GLSLstd450Trunc, x});
    Id fraction =
        op(spv::Op::OpExtInst, resultType, {glsl450, GLSLstd450FAbs, op(spv::Op::OpFSub, resultType, {x, truncated})});
    Id half = constant(llvm::ConstantFP::get(call.getType(), 0.5));
    Id step = op(spv::Op::OpExtInst, resultType, {glsl450, GLSLstd450FSign, x});
    Id up = op(spv::Op::OpFOrdGreaterThanEqual, boolType, {fraction, half});
    op(spv::Op::OpSelect, resultType, {up, op(spv::Op::OpFAdd, resultType, {truncated, step}), truncated}, result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::rint:
  case llvm::Intrinsic::nearbyint:
  case llvm::Intrinsic::roundeven:
    // Round to nearest even is exact (the only rounding mode OpenCL uses).
    return glsl(GLSLstd450RoundEven, {call.getArgOperand(0)});
  case llvm::Intrinsic::sqrt:
    if (call.getType()->isHalfTy() && state_.config.shaderFloat64) {
      // The double root (within a few double ulps) rounds to the correctly
      // rounded half: the root of a half is never that close to a midpoint
      // between two halves.
      Id doubleType = builder_.typeFloat(64);
      Id wide = op(spv::Op::OpFConvert, doubleType, {value(call.getArgOperand(0))});
      op(spv::Op::OpFConvert, resultType,
         {op(spv::Op::OpExtInst, doubleType, {builder_.importGlsl450(), GLSLstd450Sqrt, wide})}, result);
      return llvm::Error::success();
    }
    if (call.getType()->isFloatTy()) {
      op(spv::Op::OpCopyObject, resultType, {accurateSqrt(value(call.getArgOperand(0)))}, result);
      return llvm::Error::success();
    }
    // Double precision exists here only inside the builtins library's float
    // functions (cl_khr_fp64 needs denormals no measured driver preserves):
    // a root within a few double ulps is far inside the float result's ulp.
    if (call.getType()->isDoubleTy())
      return glsl(GLSLstd450Sqrt, {call.getArgOperand(0)});
    break;
  case llvm::Intrinsic::fma:
    if ((call.getType()->isFloatTy() || call.getType()->isHalfTy()) &&
        (state_.config.fp64 || state_.config.shaderFloat64)) {
      op(spv::Op::OpCopyObject, resultType,
         {exactFma(value(call.getArgOperand(0)), value(call.getArgOperand(1)), value(call.getArgOperand(2)),
                   resultType)},
         result);
      return llvm::Error::success();
    }
    // GLSL.std.450 Fma need not be fused: no exact double fma. The library's
    // float functions evaluate polynomials in double with fma; an unfused
    // one adds a rounding of 2^-53, far inside the float result's ulp.
    // (An exact double fma for cl_khr_fp64 kernels would rely on the driver
    // fusing it, as the NVIDIA and llvmpipe drivers measured do.)
    if (call.getType()->isDoubleTy())
      return glsl(GLSLstd450Fma, {call.getArgOperand(0), call.getArgOperand(1), call.getArgOperand(2)});
    break;
  case llvm::Intrinsic::is_fpclass: {
    if (call.getArgOperand(0)->getType()->isVectorTy())
      break;
    auto *mask = llvm::cast<llvm::ConstantInt>(call.getArgOperand(1));
    op(spv::Op::OpCopyObject, resultType,
       {floatClassTest(value(call.getArgOperand(0)), call.getArgOperand(0)->getType(), unsigned(mask->getZExtValue()))},
       result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::copysign: {
    llvm::Type *floating = call.getType();
    if (floating->isVectorTy())
      break;
    unsigned bits = floating->getPrimitiveSizeInBits();
    llvm::Type *integer = llvm::Type::getIntNTy(call.getContext(), bits);
    llvm::APInt sign = llvm::APInt::getSignMask(bits);
    Id integerType = type(integer);
    Id magnitude = op(spv::Op::OpBitwiseAnd, integerType,
                      {op(spv::Op::OpBitcast, integerType, {value(call.getArgOperand(0))}),
                       constant(llvm::ConstantInt::get(integer, ~sign))});
    Id signBit = op(spv::Op::OpBitwiseAnd, integerType,
                    {op(spv::Op::OpBitcast, integerType, {value(call.getArgOperand(1))}),
                     constant(llvm::ConstantInt::get(integer, sign))});
    op(spv::Op::OpBitcast, resultType, {op(spv::Op::OpBitwiseOr, integerType, {magnitude, signBit})}, result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memmove:
    return emitMemoryTransfer(call);
  case llvm::Intrinsic::fptosi_sat:
  case llvm::Intrinsic::fptoui_sat: {
    // convert_<integer>_sat from floating point: NaN is 0, values beyond
    // the integer's range its limits (OpConvertFTo* leaves them undefined).
    if (call.getType()->isVectorTy())
      break;
    const bool isSigned = call.getIntrinsicID() == llvm::Intrinsic::fptosi_sat;
    const unsigned bits = call.getType()->getIntegerBitWidth();
    llvm::Type *source = call.getArgOperand(0)->getType();
    Id x = value(call.getArgOperand(0));
    // Half widens to float exactly, where the limits below are exact.
    if (source->isHalfTy()) {
      source = llvm::Type::getFloatTy(call.getContext());
      x = op(spv::Op::OpFConvert, type(source), {x});
    }
    Id boolType = builder_.typeBool();
    // The range is [low, high): both powers of two (or zero), exact.
    Id low = constant(llvm::ConstantFP::get(source, isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0));
    Id high = constant(llvm::ConstantFP::get(source, std::ldexp(1.0, int(bits) - (isSigned ? 1 : 0))));
    llvm::IntegerType *integer = llvm::cast<llvm::IntegerType>(call.getType());
    Id minimum = constant(llvm::ConstantInt::get(integer, isSigned ? llvm::APInt::getSignedMinValue(bits)
                                                                   : llvm::APInt::getMinValue(bits)));
    Id maximum = constant(llvm::ConstantInt::get(integer, isSigned ? llvm::APInt::getSignedMaxValue(bits)
                                                                   : llvm::APInt::getMaxValue(bits)));
    Id converted = op(isSigned ? spv::Op::OpConvertFToS : spv::Op::OpConvertFToU, resultType, {x});
    Id clamped = op(spv::Op::OpSelect, resultType,
                    {op(spv::Op::OpFOrdLessThan, boolType, {x, low}), minimum,
                     op(spv::Op::OpSelect, resultType,
                        {op(spv::Op::OpFOrdGreaterThanEqual, boolType, {x, high}), maximum, converted})});
    op(spv::Op::OpSelect, resultType, {op(spv::Op::OpIsNan, boolType, {x}), builder_.constantNull(resultType), clamped},
       result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::uadd_sat:
  case llvm::Intrinsic::usub_sat:
  case llvm::Intrinsic::sadd_sat:
  case llvm::Intrinsic::ssub_sat:
    if (call.getType()->isVectorTy())
      break;
    op(spv::Op::OpCopyObject, resultType,
       {saturatingArithmetic(call.getIntrinsicID(), call.getType(), value(call.getArgOperand(0)),
                             value(call.getArgOperand(1)))},
       result);
    return llvm::Error::success();
  case llvm::Intrinsic::smin:
    return glsl(GLSLstd450SMin, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::smax:
    return glsl(GLSLstd450SMax, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::umin:
    return glsl(GLSLstd450UMin, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::umax:
    return glsl(GLSLstd450UMax, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::minnum:
    // NMin returns the other operand for one NaN, as minnum does.
    return glsl(GLSLstd450NMin, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::maxnum:
    return glsl(GLSLstd450NMax, {call.getArgOperand(0), call.getArgOperand(1)});
  case llvm::Intrinsic::abs:
    return glsl(GLSLstd450SAbs, {call.getArgOperand(0)});
  case llvm::Intrinsic::ctpop: {
    // Vulkan's OpBitCount takes 32-bit integers: narrower ones are widened,
    // 64-bit ones counted in halves.
    unsigned bits = call.getType()->getScalarSizeInBits();
    if (call.getType()->isVectorTy() || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
      break;
    Id operand = value(call.getArgOperand(0));
    if (bits == 32) {
      op(spv::Op::OpBitCount, resultType, {operand}, result);
      return llvm::Error::success();
    }
    Id count;
    if (bits == 64) {
      Id low = op(spv::Op::OpUConvert, uint32Type(), {operand});
      Id high =
          op(spv::Op::OpUConvert, uint32Type(), {op(spv::Op::OpShiftRightLogical, resultType, {operand, uint32(32)})});
      count = op(spv::Op::OpIAdd, uint32Type(),
                 {op(spv::Op::OpBitCount, uint32Type(), {low}), op(spv::Op::OpBitCount, uint32Type(), {high})});
    } else {
      count = op(spv::Op::OpBitCount, uint32Type(), {op(spv::Op::OpUConvert, uint32Type(), {operand})});
    }
    op(spv::Op::OpUConvert, resultType, {count}, result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz: {
    unsigned bits = call.getType()->getScalarSizeInBits();
    if ((bits != 32 && bits != 64) || call.getType()->isVectorTy())
      break;
    op(spv::Op::OpCopyObject, resultType,
       {countZeros(value(call.getArgOperand(0)), bits, call.getIntrinsicID() == llvm::Intrinsic::ctlz)}, result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr: {
    if (call.getType()->isVectorTy())
      break;
    op(spv::Op::OpCopyObject, resultType,
       {funnelShift(value(call.getArgOperand(0)), value(call.getArgOperand(1)), value(call.getArgOperand(2)),
                    call.getType(), call.getIntrinsicID() == llvm::Intrinsic::fshl)},
       result);
    return llvm::Error::success();
  }
  case llvm::Intrinsic::bitreverse:
    if (call.getType()->getScalarSizeInBits() != 32)
      break;
    op(spv::Op::OpBitReverse, resultType, {value(call.getArgOperand(0))}, result);
    return llvm::Error::success();
  default:
    break;
  }
  return unsupported(call, "the intrinsic '" + call.getCalledFunction()->getName() + "'");
}

Id KernelEmitter::atomicScope(llvm::SyncScope::ID syncScope) {
  return uint32(scopeOf(kernel_.getContext(), syncScope));
}

Id KernelEmitter::atomicSemantics(llvm::AtomicOrdering ordering) {
  // Without the Vulkan memory model SequentiallyConsistent means
  // AcquireRelease; the storage bit covers PhysicalStorageBuffer memory.
  switch (ordering) {
  case llvm::AtomicOrdering::NotAtomic:
  case llvm::AtomicOrdering::Unordered:
  case llvm::AtomicOrdering::Monotonic:
    return uint32(0);
  case llvm::AtomicOrdering::Acquire:
    return uint32(kAcquire | storageSemantics_);
  case llvm::AtomicOrdering::Release:
    return uint32(kRelease | storageSemantics_);
  default:
    return uint32(kAcquireRelease | storageSemantics_);
  }
}

Id KernelEmitter::failureSemantics(llvm::AtomicOrdering ordering) {
  // A failed compare-exchange only loads: it may acquire, never release.
  return llvm::isAcquireOrStronger(ordering) ? uint32(kAcquire | storageSemantics_) : uint32(0);
}

llvm::Error KernelEmitter::requireAtomicWidth(const llvm::Instruction &instruction, llvm::Type *valueType) {
  if (valueType->getPrimitiveSizeInBits() != 64)
    return llvm::Error::success();
  if (!state_.config.atomicInt64)
    return unsupported(instruction, "64-bit atomics on this device");
  builder_.capability(spv::Capability::Int64Atomics);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitAtomic(llvm::Instruction &instruction) {
  llvm::Value *pointer = nullptr;
  llvm::Type *valueType = nullptr;
  llvm::SyncScope::ID syncScope = llvm::SyncScope::System;
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    pointer = rmw->getPointerOperand();
    valueType = rmw->getType();
    syncScope = rmw->getSyncScopeID();
  } else if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
    pointer = exchange->getPointerOperand();
    valueType = exchange->getNewValOperand()->getType();
    syncScope = exchange->getSyncScopeID();
  }
  // atomic_xchg of a float (OpenCL 1.0) exchanges its bits.
  llvm::Type *floatType = nullptr;
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction);
      rmw && rmw->getOperation() == llvm::AtomicRMWInst::Xchg && valueType->isFloatTy()) {
    floatType = valueType;
    valueType = llvm::Type::getInt32Ty(instruction.getContext());
  }
  if (!valueType->isIntegerTy(32) && !valueType->isIntegerTy(64))
    return unsupported(
        instruction, "atomics on " + llvm::Twine(valueType->isFloatingPointTy() ? "floating-point" : "this") + " type");
  if (llvm::Error error = requireAtomicWidth(instruction, valueType))
    return error;
  llvm::Error error = llvm::Error::success();
  bool isLocal = !isGlobalPointer(pointer->getType());
  Id address = isLocal ? wordMemoryAtomicPointer(pointer, valueType, instruction, error)
                       : physicalPointer(pointer, valueType, instruction, error);
  if (error)
    return error;
  Id resultType = type(valueType);
  Id scope = atomicScope(syncScope);
  storageSemantics_ = isLocal ? kWorkgroupMemory : kUniformMemory;
  llvm::AtomicOrdering ordering = llvm::isa<llvm::AtomicRMWInst>(instruction)
                                      ? llvm::cast<llvm::AtomicRMWInst>(instruction).getOrdering()
                                      : llvm::cast<llvm::AtomicCmpXchgInst>(instruction).getSuccessOrdering();
  Id semantics = atomicSemantics(ordering);
  Id result = values_.lookup(&instruction);
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    spv::Op opcode;
    switch (rmw->getOperation()) {
    case llvm::AtomicRMWInst::Xchg:
      opcode = spv::Op::OpAtomicExchange;
      break;
    case llvm::AtomicRMWInst::Add:
      opcode = spv::Op::OpAtomicIAdd;
      break;
    case llvm::AtomicRMWInst::Sub:
      opcode = spv::Op::OpAtomicISub;
      break;
    case llvm::AtomicRMWInst::And:
      opcode = spv::Op::OpAtomicAnd;
      break;
    case llvm::AtomicRMWInst::Or:
      opcode = spv::Op::OpAtomicOr;
      break;
    case llvm::AtomicRMWInst::Xor:
      opcode = spv::Op::OpAtomicXor;
      break;
    case llvm::AtomicRMWInst::Max:
      opcode = spv::Op::OpAtomicSMax;
      break;
    case llvm::AtomicRMWInst::Min:
      opcode = spv::Op::OpAtomicSMin;
      break;
    case llvm::AtomicRMWInst::UMax:
      opcode = spv::Op::OpAtomicUMax;
      break;
    case llvm::AtomicRMWInst::UMin:
      opcode = spv::Op::OpAtomicUMin;
      break;
    default:
      return unsupported(instruction,
                         "the atomic operation '" + llvm::AtomicRMWInst::getOperationName(rmw->getOperation()) + "'");
    }
    if (floatType) {
      Id bits = op(spv::Op::OpBitcast, resultType, {value(rmw->getValOperand())});
      Id previous = op(opcode, resultType, {address, scope, semantics, bits});
      op(spv::Op::OpBitcast, type(floatType), {previous}, result);
      return llvm::Error::success();
    }
    op(opcode, resultType, {address, scope, semantics, value(rmw->getValOperand())}, result);
    return llvm::Error::success();
  }
  auto *exchange = llvm::cast<llvm::AtomicCmpXchgInst>(&instruction);
  Id loaded = op(spv::Op::OpAtomicCompareExchange, resultType,
                 {address, scope, semantics, failureSemantics(exchange->getFailureOrdering()),
                  value(exchange->getNewValOperand()), value(exchange->getCompareOperand())});
  Id matched = op(spv::Op::OpIEqual, builder_.typeBool(), {loaded, value(exchange->getCompareOperand())});
  exchanges_[exchange] = {loaded, matched};
  return llvm::Error::success();
}

} // namespace compiler::spirv
