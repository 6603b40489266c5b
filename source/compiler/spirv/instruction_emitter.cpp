// Arithmetic, comparisons, conversions, vectors, phis and memory accesses.
#include "kernel_emitter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Operator.h"

namespace compiler::spirv {

Id KernelEmitter::signBitOperation(spv::Op operation, llvm::Value *operand) {
  llvm::Type *floating = operand->getType();
  const unsigned bits = floating->getScalarSizeInBits();
  const VulkanTargetConfig &config = state_.config;
  const bool keepsDenormals = (bits == 32 && config.denormPreserveFloat32) ||
                              (bits == 64 && config.denormPreserveFloat64) ||
                              // Without cl_khr_fp16 half is a storage format: no arithmetic.
                              (bits == 16 && (!config.fp16 || config.denormPreserveFloat16));
  if (keepsDenormals)
    return 0;
  llvm::Type *integer = llvm::Type::getIntNTy(operand->getContext(), bits);
  if (auto *vector = llvm::dyn_cast<llvm::VectorType>(floating))
    integer = llvm::VectorType::get(integer, vector->getElementCount());
  const llvm::APInt sign = llvm::APInt::getSignMask(bits);
  llvm::Constant *mask = llvm::ConstantInt::get(integer, operation == spv::Op::OpBitwiseAnd ? ~sign : sign);
  Id integerType = type(integer);
  Id floatType = type(floating);
  if (!integerType || !floatType)
    return 0;
  Id pattern = op(spv::Op::OpBitcast, integerType, {value(operand)});
  return op(spv::Op::OpBitcast, floatType, {op(operation, integerType, {pattern, constant(mask)})});
}

llvm::Error KernelEmitter::emitInstruction(llvm::Instruction &instruction) {
  Id result = values_.lookup(&instruction);
  if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction))
    return emitBinary(*binary);
  if (auto *compare = llvm::dyn_cast<llvm::CmpInst>(&instruction))
    return emitCompare(*compare);
  if (instruction.getOpcode() == llvm::Instruction::FNeg) {
    Id operand = value(instruction.getOperand(0));
    if (!operand || !type(instruction.getType()))
      return unsupported(instruction, "fneg of this type");
    if (Id bits = signBitOperation(spv::Op::OpBitwiseXor, instruction.getOperand(0)))
      op(spv::Op::OpCopyObject, type(instruction.getType()), {bits}, result);
    else
      op(spv::Op::OpFNegate, type(instruction.getType()), {operand}, result);
    return llvm::Error::success();
  }
  if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(&instruction)) {
    emitFence(*fence);
    return llvm::Error::success();
  }
  if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction))
    return emitCast(*cast);
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
    return emitCall(*call);
  if (llvm::isa<llvm::AllocaInst>(instruction))
    return llvm::Error::success(); // a Function word variable (word_memory.cpp)
  if (llvm::isa<llvm::AtomicRMWInst>(instruction) || llvm::isa<llvm::AtomicCmpXchgInst>(instruction))
    return emitAtomic(instruction);
  if (llvm::isa<llvm::LoadInst>(instruction) || llvm::isa<llvm::StoreInst>(instruction) ||
      llvm::isa<llvm::GetElementPtrInst>(instruction))
    return emitMemory(instruction);
  if (llvm::isa<llvm::FreezeInst>(instruction)) {
    // Without poison in SPIR-V, a value is its own freeze.
    Id operand = value(instruction.getOperand(0));
    if (!operand || !type(instruction.getType()))
      return unsupported(instruction, "freeze of this type");
    op(spv::Op::OpCopyObject, type(instruction.getType()), {operand}, result);
    return llvm::Error::success();
  }
  Id resultType = type(instruction.getType());
  if (!resultType && !llvm::isa<llvm::ExtractValueInst>(instruction))
    return unsupported(instruction, "values of type '" + llvm::Twine(instruction.getType()->getTypeID()) + "' in '" +
                                        instruction.getOpcodeName() + "'");
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
    std::vector<uint32_t> words{resultType, result};
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      Id incoming = value(phi->getIncomingValue(i));
      if (!incoming)
        return unsupported(instruction, "this phi operand");
      words.push_back(incoming);
      words.push_back(labels_.lookup(phi->getIncomingBlock(i)));
    }
    ModuleBuilder::instruction(body_, spv::Op::OpPhi, words);
    return llvm::Error::success();
  }
  if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
    Id condition = value(select->getCondition()), whenTrue = value(select->getTrueValue()),
       whenFalse = value(select->getFalseValue());
    if (!condition || !whenTrue || !whenFalse)
      return unsupported(instruction, "this select");
    op(spv::Op::OpSelect, resultType, {condition, whenTrue, whenFalse}, result);
    return llvm::Error::success();
  }
  if (auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction)) {
    if (auto lanes = argumentLanes_.find(extract->getVectorOperand()); lanes != argumentLanes_.end()) {
      // Constant indices only (checkLaneArgumentUses).
      auto *index = llvm::cast<llvm::ConstantInt>(extract->getIndexOperand());
      op(spv::Op::OpCopyObject, resultType, {lanes->second[index->getZExtValue()]}, result);
      return llvm::Error::success();
    }
    Id vector = value(extract->getVectorOperand());
    if (auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand()))
      op(spv::Op::OpCompositeExtract, resultType, {vector, uint32_t(index->getZExtValue())}, result);
    else
      op(spv::Op::OpVectorExtractDynamic, resultType, {vector, value(extract->getIndexOperand())}, result);
    return llvm::Error::success();
  }
  if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction)) {
    Id vector = value(insert->getOperand(0)), element = value(insert->getOperand(1));
    if (auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2)))
      op(spv::Op::OpCompositeInsert, resultType, {element, vector, uint32_t(index->getZExtValue())}, result);
    else
      op(spv::Op::OpVectorInsertDynamic, resultType, {vector, element, value(insert->getOperand(2))}, result);
    return llvm::Error::success();
  }
  if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&instruction)) {
    Id first = value(shuffle->getOperand(0)), second = value(shuffle->getOperand(1));
    if (!first || !second)
      return unsupported(instruction, "this shufflevector operand");
    std::vector<uint32_t> words{resultType, result, first, second};
    for (int element : shuffle->getShuffleMask())
      words.push_back(element < 0 ? 0xffffffffu : uint32_t(element));
    ModuleBuilder::instruction(body_, spv::Op::OpVectorShuffle, words);
    return llvm::Error::success();
  }
  if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(&instruction)) {
    auto exchange = exchanges_.find(extract->getAggregateOperand());
    if (exchange == exchanges_.end() || extract->getNumIndices() != 1)
      return unsupported(instruction, "aggregate values");
    Id part = extract->getIndices()[0] == 0 ? exchange->second.first : exchange->second.second;
    op(spv::Op::OpCopyObject, resultType, {part}, result);
    return llvm::Error::success();
  }
  return unsupported(instruction, "the instruction '" + llvm::Twine(instruction.getOpcodeName()) + "'");
}

llvm::Error KernelEmitter::emitBinary(llvm::BinaryOperator &binary) {
  Id resultType = type(binary.getType());
  Id left = value(binary.getOperand(0)), right = value(binary.getOperand(1));
  if (!resultType || !left || !right)
    return unsupported(binary, "'" + llvm::Twine(binary.getOpcodeName()) + "' on these operands");
  bool isBool = binary.getType()->getScalarType()->isIntegerTy(1);
  spv::Op opcode;
  switch (binary.getOpcode()) {
  case llvm::Instruction::Add:
    opcode = isBool ? spv::Op::OpLogicalNotEqual : spv::Op::OpIAdd;
    break;
  case llvm::Instruction::Sub:
    opcode = isBool ? spv::Op::OpLogicalNotEqual : spv::Op::OpISub;
    break;
  case llvm::Instruction::Mul:
    opcode = isBool ? spv::Op::OpLogicalAnd : spv::Op::OpIMul;
    break;
  case llvm::Instruction::UDiv:
    opcode = spv::Op::OpUDiv;
    break;
  case llvm::Instruction::SDiv:
    opcode = spv::Op::OpSDiv;
    break;
  case llvm::Instruction::URem:
    opcode = spv::Op::OpUMod;
    break;
  case llvm::Instruction::SRem:
    opcode = spv::Op::OpSRem;
    break;
  case llvm::Instruction::Shl:
    opcode = spv::Op::OpShiftLeftLogical;
    break;
  case llvm::Instruction::LShr:
    opcode = spv::Op::OpShiftRightLogical;
    break;
  case llvm::Instruction::AShr:
    opcode = spv::Op::OpShiftRightArithmetic;
    break;
  case llvm::Instruction::And:
    opcode = isBool ? spv::Op::OpLogicalAnd : spv::Op::OpBitwiseAnd;
    break;
  case llvm::Instruction::Or:
    opcode = isBool ? spv::Op::OpLogicalOr : spv::Op::OpBitwiseOr;
    break;
  case llvm::Instruction::Xor:
    opcode = isBool ? spv::Op::OpLogicalNotEqual : spv::Op::OpBitwiseXor;
    break;
  case llvm::Instruction::FAdd:
    opcode = spv::Op::OpFAdd;
    break;
  case llvm::Instruction::FSub:
    opcode = spv::Op::OpFSub;
    break;
  case llvm::Instruction::FMul:
    opcode = spv::Op::OpFMul;
    break;
  case llvm::Instruction::FDiv:
    opcode = spv::Op::OpFDiv;
    break;
  case llvm::Instruction::FRem:
    opcode = spv::Op::OpFRem;
    break;
  default:
    return unsupported(binary, "the instruction '" + llvm::Twine(binary.getOpcodeName()) + "'");
  }
  if (isBool && (binary.getOpcode() == llvm::Instruction::UDiv || binary.getOpcode() == llvm::Instruction::SDiv ||
                 binary.getOpcode() == llvm::Instruction::URem || binary.getOpcode() == llvm::Instruction::SRem ||
                 binary.isShift()))
    return unsupported(binary, "'" + llvm::Twine(binary.getOpcodeName()) + "' on i1");
  if (opcode == spv::Op::OpSRem && (binary.getType()->isIntegerTy(64) || binary.getType()->isIntegerTy(32))) {
    // |x| umod |y|, negated with x: NVIDIA's driver (580.159) computed a
    // 64-bit OpSRem by 1000 wrongly (5 for -7046029254386352619), and a
    // 32-bit one by 16 as if it were OpSMod (8 for -8 % 16), while its
    // unsigned division is right. |INT_MIN| is 2^(n-1) unsigned.
    Id boolType = builder_.typeBool(), zero = constant(llvm::ConstantInt::get(binary.getType(), 0));
    auto magnitude = [&](Id v, Id isNegative) {
      return op(spv::Op::OpSelect, resultType, {isNegative, op(spv::Op::OpSNegate, resultType, {v}), v});
    };
    Id leftNegative = op(spv::Op::OpSLessThan, boolType, {left, zero});
    Id rightNegative = op(spv::Op::OpSLessThan, boolType, {right, zero});
    Id remainder = op(spv::Op::OpUMod, resultType, {magnitude(left, leftNegative), magnitude(right, rightNegative)});
    op(spv::Op::OpSelect, resultType, {leftNegative, op(spv::Op::OpSNegate, resultType, {remainder}), remainder},
       values_.lookup(&binary));
    return llvm::Error::success();
  }
  if (opcode == spv::Op::OpFDiv && binary.getType()->isFloatTy()) {
    // Vulkan bounds OpFDiv's error only for divisors of magnitude 2^-126 to
    // 2^126; beyond, NVIDIA's driver (reciprocal first) returned 0 for
    // 2^83 / 2^126 (CTS bruteforce divide). Both operands are scaled by 1/4
    // there, which changes no quotient.
    llvm::Type *floatType = binary.getType();
    Id boolType = builder_.typeBool();
    Id limit = constant(llvm::ConstantFP::get(floatType, 0x1p126));
    Id negativeLimit = constant(llvm::ConstantFP::get(floatType, -0x1p126));
    Id large = op(spv::Op::OpLogicalOr, boolType,
                  {op(spv::Op::OpFOrdGreaterThan, boolType, {right, limit}),
                   op(spv::Op::OpFOrdLessThan, boolType, {right, negativeLimit})});
    Id scale =
        op(spv::Op::OpSelect, resultType,
           {large, constant(llvm::ConstantFP::get(floatType, 0.25)), constant(llvm::ConstantFP::get(floatType, 1.0))});
    left = op(spv::Op::OpFMul, resultType, {left, scale});
    right = op(spv::Op::OpFMul, resultType, {right, scale});
  }
  if (binary.getType()->getScalarType()->isHalfTy() && state_.config.shaderFloat64 &&
      (opcode == spv::Op::OpFAdd || opcode == spv::Op::OpFSub || opcode == spv::Op::OpFMul ||
       opcode == spv::Op::OpFDiv)) {
    // Half arithmetic in double, rounded once to half: the sum, difference
    // and product of halves are exact in double, and a quotient of halves
    // is never within a few double ulps of a midpoint between two halves.
    // Vulkan leaves float16 rounding (RTE or RTZ) and division's error to
    // the driver; this is the correctly rounded result everywhere.
    Id wideType = type(binary.getType()->getWithNewType(llvm::Type::getDoubleTy(binary.getContext())));
    Id wide =
        op(opcode, wideType, {op(spv::Op::OpFConvert, wideType, {left}), op(spv::Op::OpFConvert, wideType, {right})});
    builder_.decorate(wide, spv::Decoration::NoContraction);
    op(spv::Op::OpFConvert, resultType, {wide}, values_.lookup(&binary));
    return llvm::Error::success();
  }
  Id result = op(opcode, resultType, {left, right}, values_.lookup(&binary));
  // Vulkan lets a driver fuse a multiply with an add unless told not to;
  // OpenCL allows it only where the IR says so (the builtins library's
  // error-free transformations depend on it).
  if (binary.getType()->isFPOrFPVectorTy() && !binary.hasAllowContract())
    builder_.decorate(result, spv::Decoration::NoContraction);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitCompare(llvm::CmpInst &compare) {
  Id resultType = type(compare.getType());
  Id left = value(compare.getOperand(0)), right = value(compare.getOperand(1));
  Id result = values_.lookup(&compare);
  if (!resultType || !left || !right)
    return unsupported(compare, "this comparison's operands");
  bool isBool = compare.getOperand(0)->getType()->getScalarType()->isIntegerTy(1);
  using P = llvm::CmpInst::Predicate;
  spv::Op opcode;
  switch (compare.getPredicate()) {
  case P::ICMP_EQ:
    opcode = isBool ? spv::Op::OpLogicalEqual : spv::Op::OpIEqual;
    break;
  case P::ICMP_NE:
    opcode = isBool ? spv::Op::OpLogicalNotEqual : spv::Op::OpINotEqual;
    break;
  case P::ICMP_UGT:
    opcode = spv::Op::OpUGreaterThan;
    break;
  case P::ICMP_UGE:
    opcode = spv::Op::OpUGreaterThanEqual;
    break;
  case P::ICMP_ULT:
    opcode = spv::Op::OpULessThan;
    break;
  case P::ICMP_ULE:
    opcode = spv::Op::OpULessThanEqual;
    break;
  case P::ICMP_SGT:
    opcode = spv::Op::OpSGreaterThan;
    break;
  case P::ICMP_SGE:
    opcode = spv::Op::OpSGreaterThanEqual;
    break;
  case P::ICMP_SLT:
    opcode = spv::Op::OpSLessThan;
    break;
  case P::ICMP_SLE:
    opcode = spv::Op::OpSLessThanEqual;
    break;
  case P::FCMP_OEQ:
    opcode = spv::Op::OpFOrdEqual;
    break;
  case P::FCMP_ONE:
    opcode = spv::Op::OpFOrdNotEqual;
    break;
  case P::FCMP_OGT:
    opcode = spv::Op::OpFOrdGreaterThan;
    break;
  case P::FCMP_OGE:
    opcode = spv::Op::OpFOrdGreaterThanEqual;
    break;
  case P::FCMP_OLT:
    opcode = spv::Op::OpFOrdLessThan;
    break;
  case P::FCMP_OLE:
    opcode = spv::Op::OpFOrdLessThanEqual;
    break;
  case P::FCMP_UEQ:
    opcode = spv::Op::OpFUnordEqual;
    break;
  case P::FCMP_UNE:
    opcode = spv::Op::OpFUnordNotEqual;
    break;
  case P::FCMP_UGT:
    opcode = spv::Op::OpFUnordGreaterThan;
    break;
  case P::FCMP_UGE:
    opcode = spv::Op::OpFUnordGreaterThanEqual;
    break;
  case P::FCMP_ULT:
    opcode = spv::Op::OpFUnordLessThan;
    break;
  case P::FCMP_ULE:
    opcode = spv::Op::OpFUnordLessThanEqual;
    break;
  case P::FCMP_ORD:
  case P::FCMP_UNO: {
    // OpOrdered/OpUnordered are Kernel-only: test each side for NaN.
    Id either = op(spv::Op::OpLogicalOr, resultType,
                   {op(spv::Op::OpIsNan, resultType, {left}), op(spv::Op::OpIsNan, resultType, {right})});
    if (compare.getPredicate() == P::FCMP_UNO)
      op(spv::Op::OpCopyObject, resultType, {either}, result);
    else
      op(spv::Op::OpLogicalNot, resultType, {either}, result);
    return llvm::Error::success();
  }
  default:
    return unsupported(compare, "this comparison predicate");
  }
  if (isBool && opcode != spv::Op::OpLogicalEqual && opcode != spv::Op::OpLogicalNotEqual)
    return unsupported(compare, "ordered comparisons of i1");
  op(opcode, resultType, {left, right}, result);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitCast(llvm::CastInst &cast) {
  llvm::Type *from = cast.getSrcTy(), *to = cast.getDestTy();
  Id resultType = type(to), source = value(cast.getOperand(0));
  Id result = values_.lookup(&cast);
  if (!resultType || !source)
    return unsupported(cast, "the conversion '" + llvm::Twine(cast.getOpcodeName()) + "' of this type");
  unsigned fromBits = from->getScalarSizeInBits(), toBits = to->getScalarSizeInBits();
  auto boolToInteger = [&](bool isSigned) {
    llvm::Constant *one = llvm::ConstantInt::get(to, isSigned ? -1 : 1, isSigned);
    op(spv::Op::OpSelect, resultType, {source, constant(one), constant(llvm::Constant::getNullValue(to))}, result);
  };
  switch (cast.getOpcode()) {
  case llvm::Instruction::Trunc:
    if (toBits == 1)
      op(spv::Op::OpINotEqual, resultType,
         {op(spv::Op::OpBitwiseAnd, type(from), {source, constant(llvm::ConstantInt::get(from, 1))}),
          constant(llvm::Constant::getNullValue(from))},
         result);
    else
      op(spv::Op::OpUConvert, resultType, {source}, result);
    break;
  case llvm::Instruction::ZExt:
    if (fromBits == 1)
      boolToInteger(false);
    else
      op(spv::Op::OpUConvert, resultType, {source}, result);
    break;
  case llvm::Instruction::SExt:
    if (fromBits == 1)
      boolToInteger(true);
    else
      op(spv::Op::OpSConvert, resultType, {source}, result);
    break;
  case llvm::Instruction::FPToUI:
    op(spv::Op::OpConvertFToU, resultType, {source}, result);
    break;
  case llvm::Instruction::FPToSI:
    op(spv::Op::OpConvertFToS, resultType, {source}, result);
    break;
  case llvm::Instruction::UIToFP:
  case llvm::Instruction::SIToFP:
    if (fromBits == 1)
      return unsupported(cast, "conversion of i1 to floating point");
    op(cast.getOpcode() == llvm::Instruction::UIToFP ? spv::Op::OpConvertUToF : spv::Op::OpConvertSToF, resultType,
       {source}, result);
    break;
  case llvm::Instruction::FPTrunc:
    if (from->getScalarType()->isDoubleTy() && to->getScalarType()->isHalfTy()) {
      op(spv::Op::OpCopyObject, resultType, {doubleToHalf(source, from)}, result);
      break;
    }
    [[fallthrough]];
  case llvm::Instruction::FPExt:
    op(spv::Op::OpFConvert, resultType, {source}, result);
    break;
  case llvm::Instruction::BitCast:
    if (resultType == type(from))
      op(spv::Op::OpCopyObject, resultType, {source}, result);
    else
      op(spv::Op::OpBitcast, resultType, {source}, result);
    break;
  case llvm::Instruction::PtrToInt:
  case llvm::Instruction::IntToPtr:
    // __global/__constant pointers are device addresses, private and
    // __local ones byte offsets in their space's word array: either
    // converts to and from integers as a number.
    if (type(from) == resultType)
      op(spv::Op::OpCopyObject, resultType, {source}, result);
    else
      op(spv::Op::OpUConvert, resultType, {source}, result);
    break;
  case llvm::Instruction::AddrSpaceCast:
    if (isGlobalPointer(from) && isGlobalPointer(to)) {
      op(spv::Op::OpCopyObject, resultType, {source}, result);
      break;
    }
    return unsupported(cast, "address-space casts (generic pointers)");
  default:
    return unsupported(cast, "the conversion '" + llvm::Twine(cast.getOpcodeName()) + "'");
  }
  return llvm::Error::success();
}

Id KernelEmitter::globalAddress(llvm::Value *pointer, const llvm::Instruction &user, llvm::Error &error) {
  if (!isGlobalPointer(pointer->getType())) {
    error = unsupported(user, "memory accesses outside __global/__constant memory (address space " +
                                  llvm::Twine(pointer->getType()->getPointerAddressSpace()) + ")");
    return 0;
  }
  Id address = value(pointer);
  if (!address)
    error = unsupported(user, "this pointer operand");
  return address;
}

Id KernelEmitter::physicalPointer(llvm::Value *pointer, llvm::Type *pointee, const llvm::Instruction &user,
                                  llvm::Error &error) {
  Id address = globalAddress(pointer, user, error);
  if (error)
    return 0;
  Id pointeeType = type(pointee);
  if (!pointeeType) {
    error = unsupported(user, "memory accesses of this type");
    return 0;
  }
  unsigned bits = pointee->getScalarSizeInBits();
  if (bits == 8 || bits == 16) {
    if ((bits == 8 && !state_.config.int8) || (bits == 16 && !state_.config.int16)) {
      error = unsupported(user, llvm::Twine(bits) + "-bit memory accesses on this device");
      return 0;
    }
    builder_.capability(bits == 8 ? spv::Capability::StorageBuffer8BitAccess
                                  : spv::Capability::StorageBuffer16BitAccess);
    builder_.extension(bits == 8 ? "SPV_KHR_8bit_storage" : "SPV_KHR_16bit_storage");
  }
  Id pointerType = builder_.typePointer(spv::StorageClass::PhysicalStorageBuffer, pointeeType);
  return op(spv::Op::OpConvertUToPtr, pointerType, {address});
}

llvm::Error KernelEmitter::emitMemory(llvm::Instruction &instruction) {
  storageSemantics_ = 0x40; // UniformMemory: atomic loads/stores of __global memory
  llvm::Error error = llvm::Error::success();
  Id result = values_.lookup(&instruction);
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
      load && !isGlobalPointer(load->getPointerOperandType()))
    return loadWordMemory(*load);
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
      store && !isGlobalPointer(store->getPointerOperandType()))
    return storeWordMemory(*store);
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
    Id pointer = physicalPointer(load->getPointerOperand(), load->getType(), instruction, error);
    if (error)
      return error;
    if (load->isAtomic()) {
      if (!load->getType()->isIntegerTy(32) && !load->getType()->isIntegerTy(64))
        return unsupported(instruction, "atomic loads of this type");
      if (llvm::Error error = requireAtomicWidth(*load, load->getType()))
        return error;
      op(spv::Op::OpAtomicLoad, type(load->getType()),
         {pointer, atomicScope(load->getSyncScopeID()), atomicSemantics(load->getOrdering())}, result);
      return llvm::Error::success();
    }
    op(spv::Op::OpLoad, type(load->getType()),
       {pointer, uint32_t(spv::MemoryAccessMask::Aligned), uint32_t(load->getAlign().value())}, result);
    return llvm::Error::success();
  }
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
    llvm::Value *stored = store->getValueOperand();
    Id pointer = physicalPointer(store->getPointerOperand(), stored->getType(), instruction, error);
    if (error)
      return error;
    Id storedId = value(stored);
    if (!storedId)
      return unsupported(instruction, "this stored value");
    if (store->isAtomic()) {
      if (!stored->getType()->isIntegerTy(32) && !stored->getType()->isIntegerTy(64))
        return unsupported(instruction, "atomic stores of this type");
      if (llvm::Error error = requireAtomicWidth(*store, stored->getType()))
        return error;
      opNoResult(spv::Op::OpAtomicStore,
                 {pointer, atomicScope(store->getSyncScopeID()), atomicSemantics(store->getOrdering()), storedId});
      return llvm::Error::success();
    }
    opNoResult(spv::Op::OpStore,
               {pointer, storedId, uint32_t(spv::MemoryAccessMask::Aligned), uint32_t(store->getAlign().value())});
    return llvm::Error::success();
  }
  return emitAddressArithmetic(llvm::cast<llvm::GetElementPtrInst>(instruction));
}

llvm::Error KernelEmitter::emitAddressArithmetic(llvm::GetElementPtrInst &gep) {
  // A __global pointer is a 64-bit address; a __local or private one a
  // 32-bit byte offset into its word variable (word_memory.cpp).
  bool isGlobal = isGlobalPointer(gep.getType());
  if (!isGlobal && !wordMemoryBase(gep.getPointerOperand()))
    return unsupported(gep, "this pointer (its __local or private variable is not known)");
  Id address = value(gep.getPointerOperand());
  if (!address)
    return unsupported(gep, "this getelementptr base");
  if (gep.getType()->isVectorTy())
    return unsupported(gep, "vector getelementptr");
  const llvm::DataLayout &layout = kernel_.getDataLayout();
  llvm::Type *offsetType = llvm::Type::getIntNTy(gep.getContext(), isGlobal ? 64 : 32);
  Id offsetTypeId = type(offsetType);
  uint64_t constantOffset = 0;
  for (llvm::gep_type_iterator it = llvm::gep_type_begin(&gep), end = llvm::gep_type_end(&gep); it != end; ++it) {
    llvm::Value *index = it.getOperand();
    if (llvm::StructType *structType = it.getStructTypeOrNull()) {
      unsigned field = unsigned(llvm::cast<llvm::ConstantInt>(index)->getZExtValue());
      constantOffset += layout.getStructLayout(structType)->getElementOffset(field);
      continue;
    }
    uint64_t stride = it.getSequentialElementStride(layout).getFixedValue();
    if (auto *constantIndex = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      constantOffset += uint64_t(constantIndex->getSExtValue()) * stride;
      continue;
    }
    Id indexId = value(index);
    if (!indexId)
      return unsupported(gep, "this getelementptr index");
    unsigned indexBits = index->getType()->getIntegerBitWidth();
    if (indexBits < offsetType->getIntegerBitWidth())
      indexId = op(spv::Op::OpSConvert, offsetTypeId, {indexId});
    else if (indexBits > offsetType->getIntegerBitWidth())
      indexId = op(spv::Op::OpUConvert, offsetTypeId, {indexId});
    Id scaled = stride == 1 ? indexId
                            : op(spv::Op::OpIMul, offsetTypeId,
                                 {indexId, constant(llvm::ConstantInt::get(offsetType, stride))});
    address = op(spv::Op::OpIAdd, offsetTypeId, {address, scaled});
  }
  op(spv::Op::OpIAdd, offsetTypeId, {address, constant(llvm::ConstantInt::get(offsetType, constantOffset))},
     values_.lookup(&gep));
  return llvm::Error::success();
}

} // namespace compiler::spirv
