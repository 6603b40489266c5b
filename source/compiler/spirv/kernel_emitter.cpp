#include "kernel_emitter.h"

#include "work_item_builtins.h"

#include "build_failure.h"
#include "passes/vulkan_passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace compiler::spirv {

using abi::vulkan::LaunchField;

bool isGlobalPointer(const llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && (pointer->getAddressSpace() == 1 || pointer->getAddressSpace() == 2);
}

Id KernelEmitter::op(spv::Op op, Id resultType, std::initializer_list<uint32_t> operands, Id result) {
  if (!result)
    result = builder_.newId();
  std::vector<uint32_t> words;
  if (resultType)
    words.push_back(resultType);
  words.push_back(result);
  words.insert(words.end(), operands.begin(), operands.end());
  ModuleBuilder::instruction(body_, op, words);
  return result;
}

void KernelEmitter::opNoResult(spv::Op op, std::initializer_list<uint32_t> operands) {
  ModuleBuilder::instruction(body_, op, operands);
}

llvm::Error KernelEmitter::unsupported(const llvm::Instruction &instruction, const llvm::Twine &what) {
  std::string message = "error: " + kernel_.getName().str() + ": SPIR-V emission does not support " + what.str();
  if (const llvm::DebugLoc &location = instruction.getDebugLoc(); location && location.getLine())
    message += " (line " + std::to_string(location.getLine()) + ")";
  return buildFailure(message);
}

Id KernelEmitter::type(llvm::Type *type) {
  if (auto found = state_.types.find(type); found != state_.types.end())
    return found->second;
  Id id = 0;
  if (type->isVoidTy())
    id = builder_.typeVoid();
  else if (type->isIntegerTy(1))
    id = builder_.typeBool();
  else if (type->isIntegerTy(8) || type->isIntegerTy(16) || type->isIntegerTy(32) || type->isIntegerTy(64))
    id = builder_.typeInt(type->getIntegerBitWidth());
  else if (type->isHalfTy() || type->isFloatTy() || type->isDoubleTy())
    id = builder_.typeFloat(type->getPrimitiveSizeInBits());
  else if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
           vector && vector->getNumElements() >= 2 && vector->getNumElements() <= 4) {
    Id element = this->type(vector->getElementType());
    if (element)
      id = builder_.typeVector(element, vector->getNumElements());
  } else if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
             pointer && (pointer->getAddressSpace() == 1 || pointer->getAddressSpace() == 2)) {
    // __global and __constant pointers are 64-bit buffer device addresses.
    id = uint64Type();
  } else if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
             pointer && (pointer->getAddressSpace() == 0 || pointer->getAddressSpace() == 3)) {
    // Private and __local pointers are byte offsets into a word variable.
    id = uint32Type();
  }
  if (id)
    state_.types[type] = id;
  return id;
}

bool isCastNull(const llvm::Constant *constant) {
  auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
  return expression && expression->getOpcode() == llvm::Instruction::AddrSpaceCast &&
         llvm::cast<llvm::Constant>(expression->getOperand(0))->isNullValue();
}

Id KernelEmitter::constant(llvm::Constant *constant) {
  Id resultType = type(constant->getType());
  if (!resultType)
    return 0;
  if (llvm::isa<llvm::PoisonValue>(constant) || llvm::isa<llvm::UndefValue>(constant)) {
    if (!llvm::isa<llvm::ConstantAggregateZero>(constant))
      return builder_.undef(resultType);
  }
  // Clang writes a null __global pointer for SPIR-V as a cast of the
  // generic null: address 0 either way.
  if (constant->isNullValue() || isCastNull(constant)) {
    if (constant->getType()->isIntegerTy(1))
      return builder_.constantBool(false);
    return builder_.constantNull(resultType);
  }
  if (auto *integer = llvm::dyn_cast<llvm::ConstantInt>(constant)) {
    if (integer->getBitWidth() == 1)
      return builder_.constantBool(integer->isOne());
    uint64_t bits = integer->getZExtValue();
    if (integer->getBitWidth() == 64)
      return builder_.constant(resultType, {uint32_t(bits), uint32_t(bits >> 32)});
    // Narrow literals are zero-extended to a word for unsigned types.
    return builder_.constant(resultType, {uint32_t(bits)});
  }
  if (auto *floating = llvm::dyn_cast<llvm::ConstantFP>(constant)) {
    uint64_t bits = floating->getValueAPF().bitcastToAPInt().getZExtValue();
    if (constant->getType()->isDoubleTy())
      return builder_.constant(resultType, {uint32_t(bits), uint32_t(bits >> 32)});
    return builder_.constant(resultType, {uint32_t(bits)});
  }
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(constant->getType())) {
    std::vector<Id> elements;
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      Id element = this->constant(constant->getAggregateElement(i));
      if (!element)
        return 0;
      elements.push_back(element);
    }
    return builder_.constantComposite(resultType, elements);
  }
  return 0;
}

Id KernelEmitter::value(llvm::Value *value) {
  if (auto found = values_.find(value); found != values_.end())
    return found->second;
  if (auto *global = llvm::dyn_cast<llvm::GlobalVariable>(value); global && wordVariables_.count(global))
    return wordVariables_[global].offset; // its place in the __local space
  if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
    return this->constant(constant);
  return 0;
}

llvm::Error KernelEmitter::layoutPushConstants() {
  // Launch fields first, in LaunchField order, then the arguments, each at
  // its natural alignment (the push-constant block follows scalar layout).
  // Arguments that do not fit go to an argument buffer, laid out the same
  // way from offset 0, whose address is a launch field.
  // Every kernel counts its finished work-items (emitProgressCount).
  usedLaunchFields_ = launchFieldsUsedBy(kernel_) | (1u << unsigned(LaunchField::Progress));
  rangeArguments_ = accessRangeArguments(kernel_);
  texelRangeArguments_ = accessRangeArguments(kernel_, /*texels=*/true);
  if (!usedProgramScopeVariables().empty())
    usedLaunchFields_ |= 1u << unsigned(LaunchField::GlobalVariables);
  const unsigned withoutBuffer = usedLaunchFields_;
  if (llvm::Error error = layoutArguments(/*inBuffer=*/false))
    return error;
  if (info_.pushConstantSize > state_.config.maxPushConstantsSize) {
    usedLaunchFields_ = withoutBuffer | (1u << unsigned(LaunchField::ArgumentBuffer));
    if (llvm::Error error = layoutArguments(/*inBuffer=*/true))
      return error;
    if (info_.pushConstantSize > state_.config.maxPushConstantsSize)
      return buildFailure("error: " + kernel_.getName() + ": the launch fields take " +
                          llvm::Twine(info_.pushConstantSize) + " bytes of push constants, more than the device's " +
                          llvm::Twine(state_.config.maxPushConstantsSize));
  }
  if (memberTypes_.empty())
    return llvm::Error::success();
  pushConstantStruct_ = builder_.typeStruct(memberTypes_, memberOffsets_);
  builder_.decorate(pushConstantStruct_, spv::Decoration::Block);
  pushConstants_ = builder_.variable(builder_.typePointer(spv::StorageClass::PushConstant, pushConstantStruct_),
                                     spv::StorageClass::PushConstant);
  interface_.push_back(pushConstants_);
  return llvm::Error::success();
}

llvm::Error KernelEmitter::layoutArguments(bool inBuffer) {
  memberTypes_.clear();
  memberOffsets_.clear();
  launchMembers_.clear();
  arguments_.clear();
  rangeSlots_.clear();
  info_.args.clear();
  info_.launchFieldOffsets.fill(abi::vulkan::kNotUsed);
  nextLocalSpecId_ = abi::vulkan::kFirstLocalArgSpecId;
  uint32_t pushOffset = 0;
  auto placeMember = [&](Id memberType, uint32_t size, uint32_t alignment) {
    pushOffset = uint32_t(llvm::alignTo(pushOffset, alignment));
    memberOffsets_.push_back(pushOffset);
    memberTypes_.push_back(memberType);
    pushOffset += size;
    return uint32_t(memberTypes_.size() - 1);
  };
  for (uint32_t field = 0; field < abi::vulkan::kLaunchFieldCount; ++field) {
    if (!(usedLaunchFields_ & (1u << field)))
      continue;
    uint32_t size = abi::vulkan::launchFieldSize(LaunchField(field));
    Id memberType = size == 8   ? uint64Type()
                    : size == 4 ? uint32Type()
                                : builder_.typeArray(uint32Type(), uint32(3), 4);
    launchMembers_[field] = placeMember(memberType, size, size == 8 ? 8 : 4);
    info_.launchFieldOffsets[field] = memberOffsets_.back();
  }
  uint32_t bufferOffset = 0;
  // The next slot of the block (a push-constant member, or bytes of the buffer).
  auto nextSlot = [&](Id valueType, uint32_t size, uint32_t alignment) {
    ArgumentSlot slot;
    slot.type = valueType;
    slot.alignment = alignment;
    if (inBuffer) {
      bufferOffset = uint32_t(llvm::alignTo(bufferOffset, alignment));
      slot.offset = bufferOffset;
      bufferOffset += size;
    } else {
      slot.member = placeMember(valueType, size, alignment);
      slot.offset = memberOffsets_.back();
    }
    return slot;
  };
  // Places argument `arg` in the next slot.
  auto place = [&](VulkanKernelArg &arg, Id valueType, uint32_t size, uint32_t alignment) {
    arguments_.push_back(nextSlot(valueType, size, alignment));
    arg.offset = arguments_.back().offset;
  };
  for (llvm::Argument &argument : kernel_.args()) {
    VulkanKernelArg arg;
    llvm::Type *argType = argument.getType();
    if (argument.hasByValAttr()) {
      // A struct by value: its bytes as words, copied into a Function word
      // variable that the kernel's pointer addresses.
      uint32_t size = uint32_t(kernel_.getDataLayout().getTypeAllocSize(argument.getParamByValType()));
      uint32_t words = std::max((size + 3) / 4, 1u);
      place(arg, builder_.typeArray(uint32Type(), uint32(words), 4), words * 4, 4);
      wordVariables_[&argument] = {0, spv::StorageClass::Function, words};
      arg.kind = VulkanKernelArg::Kind::Value;
      arg.size = size;
      info_.args.push_back(arg);
      continue;
    }
    if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(argType); pointer && pointer->getAddressSpace() == 3) {
      // A part of the kernel's __local space whose size in bytes is a
      // specialization constant.
      arg.kind = VulkanKernelArg::Kind::Local;
      arg.specConstantId = nextLocalSpecId_++;
      WordVariable local;
      local.storage = spv::StorageClass::Workgroup;
      // Clang gives pointer parameters the alignment of their pointee type.
      local.alignment = wordAlignment(argument.getParamAlign().valueOrOne());
      arg.size = local.alignment;
      // (made once: the layout may be done twice)
      Id &sizeBytes = localArgumentSizes_[arg.specConstantId];
      if (!sizeBytes)
        sizeBytes = builder_.specConstant(uint32Type(), abi::vulkan::kLocalArgGranule, arg.specConstantId);
      local.sizeBytes = sizeBytes;
      wordVariables_[&argument] = local;
      ArgumentSlot slot;
      slot.isLocal = true;
      arguments_.push_back(slot);
      info_.args.push_back(arg);
      continue;
    }
    Id memberType = type(argType);
    const llvm::DataLayout &layout = kernel_.getDataLayout();
    uint32_t size = uint32_t(layout.getTypeAllocSize(argType));
    uint32_t alignment = uint32_t(layout.getABITypeAlign(argType).value());
    // 8- and 16-bit scalars would need storagePushConstant8/16: they are read
    // as a 32-bit word and narrowed.
    bool isNarrow = !argType->isPointerTy() && argType->getScalarSizeInBits() < 32;
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(argType); vector && (isNarrow || !memberType)) {
      // char4, short8, float16, ...: words, and one value per element.
      if (llvm::Error error = checkLaneArgumentUses(argument))
        return error;
      uint32_t words = (size + 3) / 4;
      place(arg, builder_.typeArray(uint32Type(), uint32(words), 4), words * 4, 4);
      argumentLanes_[&argument] = {};
      arg.kind = VulkanKernelArg::Kind::Value;
      arg.size = size;
      info_.args.push_back(arg);
      continue;
    }
    if (!memberType || argType->isIntegerTy(1))
      return buildFailure("error: " + kernel_.getName() + ": SPIR-V emission does not support the argument '" +
                          argument.getName() + "'");
    if (isNarrow) {
      memberType = uint32Type();
      alignment = 4;
    }
    arg.kind = argType->isPointerTy() ? VulkanKernelArg::Kind::Buffer : VulkanKernelArg::Kind::Value;
    place(arg, memberType, std::max(size, 4u), alignment);
    arg.size = size;
    // Its buffer's AccessRange, right after it in the same block (and an
    // image's texels' range after that).
    auto placeRange = [&](unsigned range) {
      ArgumentSlot base = nextSlot(uint64Type(), 8, 8);
      ArgumentSlot rangeSize = nextSlot(uint64Type(), 8, 8);
      rangeSlots_[range] = {base, rangeSize};
      return base.offset;
    };
    if (arg.kind == VulkanKernelArg::Kind::Buffer && rangeArguments_.contains(argument.getArgNo()))
      arg.rangeOffset = placeRange(argument.getArgNo());
    if (arg.kind == VulkanKernelArg::Kind::Buffer && texelRangeArguments_.contains(argument.getArgNo()))
      arg.texelRangeOffset = placeRange(texelRange(kernel_, argument.getArgNo()));
    info_.args.push_back(arg);
  }
  info_.pushConstantSize = (pushOffset + 3) / 4 * 4;
  info_.argumentBufferSize =
      inBuffer ? uint32_t(std::max<uint64_t>(llvm::alignTo(bufferOffset, abi::vulkan::kBlockAlignment),
                                             abi::vulkan::kBlockAlignment))
               : 0;
  return llvm::Error::success();
}

Id KernelEmitter::argumentWord(size_t index, uint32_t word) {
  const ArgumentSlot &slot = arguments_[index];
  if (!argumentBuffer_) {
    Id wordPointerType = builder_.typePointer(spv::StorageClass::PushConstant, uint32Type());
    Id pointer = op(spv::Op::OpAccessChain, wordPointerType, {pushConstants_, uint32(slot.member), uint32(word)});
    return op(spv::Op::OpLoad, uint32Type(), {pointer});
  }
  return loadFromArgumentBuffer(slot.offset + 4 * word, uint32Type(), 4);
}

Id KernelEmitter::argumentValue(size_t index) { return slotValue(arguments_[index]); }

Id KernelEmitter::slotValue(const ArgumentSlot &slot) {
  if (!argumentBuffer_) {
    Id pointer = op(spv::Op::OpAccessChain, builder_.typePointer(spv::StorageClass::PushConstant, slot.type),
                    {pushConstants_, uint32(slot.member)});
    return op(spv::Op::OpLoad, slot.type, {pointer});
  }
  return loadFromArgumentBuffer(slot.offset, slot.type, slot.alignment);
}

Id KernelEmitter::loadFromArgumentBuffer(uint32_t offset, Id valueType, uint32_t alignment) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(kernel_.getContext());
  Id address = op(spv::Op::OpIAdd, uint64Type(), {argumentBuffer_, constant(llvm::ConstantInt::get(i64, offset))});
  Id pointer = op(spv::Op::OpConvertUToPtr, builder_.typePointer(spv::StorageClass::PhysicalStorageBuffer, valueType),
                  {address});
  return op(spv::Op::OpLoad, valueType, {pointer, uint32_t(spv::MemoryAccessMask::Aligned), alignment});
}

llvm::Error KernelEmitter::checkLaneArgumentUses(llvm::Argument &argument) {
  for (llvm::User *user : argument.users()) {
    auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(user);
    if (!extract || !llvm::isa<llvm::ConstantInt>(extract->getIndexOperand()))
      return buildFailure("error: " + kernel_.getName() +
                          ": SPIR-V emission does not support this use of the argument '" + argument.getName() +
                          "' (a vector SPIR-V cannot hold whole: only its elements can be read)");
  }
  return llvm::Error::success();
}

std::vector<Id> KernelEmitter::loadArgumentLanes(llvm::Argument &argument) {
  auto *vector = llvm::cast<llvm::FixedVectorType>(argument.getType());
  llvm::Type *element = vector->getElementType();
  const unsigned bits = element->getPrimitiveSizeInBits();
  llvm::LLVMContext &context = kernel_.getContext();
  auto word = [&](uint32_t index) { return argumentWord(argument.getArgNo(), index); };
  Id integerType = type(llvm::IntegerType::get(context, bits));
  std::vector<Id> lanes;
  for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
    const uint32_t byteOffset = lane * bits / 8;
    Id bitsValue;
    if (bits == 64) {
      Id low = op(spv::Op::OpUConvert, integerType, {word(byteOffset / 4)});
      Id high = op(spv::Op::OpUConvert, integerType, {word(byteOffset / 4 + 1)});
      high = op(spv::Op::OpShiftLeftLogical, integerType, {high, uint32(32)});
      bitsValue = op(spv::Op::OpBitwiseOr, integerType, {high, low});
    } else {
      bitsValue = word(byteOffset / 4);
      if (bits < 32) {
        // Elements are packed (little-endian) within the word.
        bitsValue = op(spv::Op::OpShiftRightLogical, uint32Type(), {bitsValue, uint32(byteOffset % 4 * 8)});
        bitsValue = op(spv::Op::OpUConvert, integerType, {bitsValue});
      }
    }
    lanes.push_back(element->isIntegerTy() ? bitsValue : op(spv::Op::OpBitcast, type(element), {bitsValue}));
  }
  return lanes;
}

Id KernelEmitter::launchField(LaunchField field, uint32_t dimension) {
  uint32_t member = launchMembers_.lookup(uint32_t(field));
  bool isArray = abi::vulkan::launchFieldSize(field) == 12;
  Id resultType = isArray || field == LaunchField::WorkDim ? uint32Type() : uint64Type();
  Id pointerType = builder_.typePointer(spv::StorageClass::PushConstant, resultType);
  Id pointer = isArray ? op(spv::Op::OpAccessChain, pointerType, {pushConstants_, uint32(member), uint32(dimension)})
                       : op(spv::Op::OpAccessChain, pointerType, {pushConstants_, uint32(member)});
  return op(spv::Op::OpLoad, resultType, {pointer});
}

llvm::SmallVector<const llvm::GlobalVariable *, 4> KernelEmitter::usedProgramScopeVariables() {
  llvm::SmallVector<const llvm::GlobalVariable *, 4> used;
  for (llvm::BasicBlock &block : kernel_)
    for (llvm::Instruction &instruction : block)
      for (llvm::Value *operand : instruction.operands())
        if (auto *global = llvm::dyn_cast<llvm::GlobalVariable>(operand);
            global && state_.programScope.offsets.count(global) && !llvm::is_contained(used, global))
          used.push_back(global);
  return used;
}

void KernelEmitter::emitProgramScopeAddresses() {
  // Each variable's address is computed once at the start, so that phis can
  // name it.
  llvm::SmallVector<const llvm::GlobalVariable *, 4> used = usedProgramScopeVariables();
  if (used.empty())
    return;
  Id base = launchField(LaunchField::GlobalVariables, 0);
  llvm::Type *i64 = llvm::Type::getInt64Ty(kernel_.getContext());
  for (const llvm::GlobalVariable *global : used)
    values_[const_cast<llvm::GlobalVariable *>(global)] =
        op(spv::Op::OpIAdd, uint64Type(),
           {base, constant(llvm::ConstantInt::get(i64, state_.programScope.offsets.lookup(global)))});
}

llvm::Error KernelEmitter::emit() {
  if (llvm::Error error = layoutPushConstants())
    return error;
  llvm::Expected<StructuredFunction> structure = structureControlFlow(kernel_);
  if (!structure)
    return structure.takeError();
  if (llvm::Error error = declareWordMemory())
    return error;
  // Ids for every value first: phis refer to values defined later.
  for (llvm::BasicBlock &block : kernel_) {
    labels_[&block] = builder_.newId();
    for (llvm::Instruction &instruction : block)
      if (!instruction.getType()->isVoidTy())
        values_[&instruction] = builder_.newId();
  }
  Id function = builder_.newId();
  Id voidType = builder_.typeVoid();
  Id functionType = builder_.typeFunction(voidType, {});
  ModuleBuilder::instruction(body_, spv::Op::OpFunction, {voidType, function, 0, functionType});
  bool first = true;
  for (llvm::BasicBlock *block : structure->order) {
    opNoResult(spv::Op::OpLabel, {labels_[block]});
    if (first) {
      // Arguments are loaded from the push constants (or the argument
      // buffer) at the start.
      emitFunctionVariables();
      emitProgramScopeAddresses();
      emitSubGroupEntry();
      if (usedLaunchFields_ & (1u << unsigned(LaunchField::ArgumentBuffer)))
        argumentBuffer_ = launchField(LaunchField::ArgumentBuffer, 0);
      for (auto [index, argument] : llvm::enumerate(kernel_.args())) {
        llvm::Type *argType = argument.getType();
        if (arguments_[index].isLocal) {
          values_[&argument] = wordVariables_[&argument].offset; // a __local argument
          continue;
        }
        if (argument.hasByValAttr()) {
          for (uint32_t word = 0; word < wordVariables_[&argument].words; ++word) {
            Id wordIndex = uint32(wordVariables_[&argument].staticOffset / 4 + word);
            opNoResult(spv::Op::OpStore,
                       {wordPointer(&argument, wordIndex, WordAccess::Write), argumentWord(index, word)});
          }
          continue;
        }
        if (argumentLanes_.count(&argument)) {
          argumentLanes_[&argument] = loadArgumentLanes(argument);
          continue;
        }
        Id memberType = arguments_[index].type;
        Id loaded = argumentValue(index);
        if (memberType != type(argType)) {
          // A narrow scalar read as a word.
          llvm::Type *integer = llvm::IntegerType::get(kernel_.getContext(), argType->getScalarSizeInBits());
          loaded = op(spv::Op::OpUConvert, type(integer), {loaded});
          if (!argType->isIntegerTy())
            loaded = op(spv::Op::OpBitcast, type(argType), {loaded});
        }
        values_[&argument] = loaded;
      }
      first = false;
    }
    if (llvm::Error error = emitBlock(*block, *structure))
      return error;
  }
  opNoResult(spv::Op::OpFunctionEnd, {});
  builder_.name(function, kernel_.getName());
  builder_.entryPoint(function, kernel_.getName(), interface_);
  builder_.executionModeId(function, spv::ExecutionMode::LocalSizeId,
                           {state_.localSize[0], state_.localSize[1], state_.localSize[2]});
  // Denormals kept where the device can be asked to: what it reports as
  // CL_FP_DENORM (float, half), and cl_khr_fp64's minimum (double). Without
  // the mode a driver may flush them even where it could keep them.
  for (auto [preserve, width] :
       {std::pair{state_.config.fp16 && state_.config.denormPreserveFloat16, 16u},
        std::pair{state_.config.denormPreserveFloat32, 32u},
        std::pair{(state_.config.fp64 || state_.config.shaderFloat64) && state_.config.denormPreserveFloat64, 64u}})
    if (preserve) {
      builder_.capability(spv::Capability::DenormPreserve);
      builder_.executionMode(function, spv::ExecutionMode::DenormPreserve, {width});
    }
  builder_.functions().insert(builder_.functions().end(), body_.begin(), body_.end());
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitBlock(llvm::BasicBlock &block, const StructuredFunction &structure) {
  for (llvm::Instruction &instruction : block) {
    if (instruction.isTerminator())
      return emitTerminator(instruction, structure);
    if (llvm::Error error = emitInstruction(instruction))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error KernelEmitter::emitTerminator(llvm::Instruction &terminator, const StructuredFunction &structure) {
  if (auto found = structure.headers.find(terminator.getParent()); found != structure.headers.end()) {
    const StructuredBlock &header = found->second;
    if (header.continueTarget)
      opNoResult(spv::Op::OpLoopMerge, {labels_[header.merge], labels_[header.continueTarget], 0});
    else
      opNoResult(spv::Op::OpSelectionMerge, {labels_[header.merge], 0});
  }
  if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&terminator)) {
    if (ret->getReturnValue())
      return unsupported(terminator, "returning a value from a kernel");
    emitProgressCount();
    opNoResult(spv::Op::OpReturn, {});
    return llvm::Error::success();
  }
  if (llvm::isa<llvm::UnreachableInst>(terminator)) {
    opNoResult(spv::Op::OpUnreachable, {});
    return llvm::Error::success();
  }
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(&terminator);
  if (!branch)
    return unsupported(terminator, "the terminator '" + llvm::Twine(terminator.getOpcodeName()) + "'");
  if (branch->isUnconditional()) {
    opNoResult(spv::Op::OpBranch, {labels_[branch->getSuccessor(0)]});
    return llvm::Error::success();
  }
  Id condition = value(branch->getCondition());
  if (!condition)
    return unsupported(terminator, "this branch condition");
  opNoResult(spv::Op::OpBranchConditional,
             {condition, labels_[branch->getSuccessor(0)], labels_[branch->getSuccessor(1)]});
  return llvm::Error::success();
}

} // namespace compiler::spirv
