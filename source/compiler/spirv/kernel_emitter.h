// Emits one kernel of a prepared module (vulkan_pipeline.h) as a GLCompute
// entry point: its arguments and launch fields from the push-constant block
// (compiler/abi/vulkan_kernel_abi.h), its body from the LLVM instructions.
// Split over kernel_emitter.cpp (entry point, arguments, control flow),
// instruction_emitter.cpp (arithmetic, memory, conversions) and
// call_emitter.cpp (intrinsics, work-item builtins, barriers, atomics).
#pragma once

#include "program_scope_variables.h"
#include "spirv_builder.h"
#include "structured_control_flow.h"

#include "compiler/group_collectives.h"
#include "compiler/spirv/vulkan_target.h"
#include "compiler/vulkan_binary.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace compiler::spirv {

/// A __global or __constant pointer (a 64-bit device address).
bool isGlobalPointer(const llvm::Type *type);
/// A null pointer written as an address-space cast of another null.
bool isCastNull(const llvm::Constant *constant);
/// The largest alignment a private or __local variable's offset keeps
/// (long16/double16: 128 bytes).
inline constexpr uint32_t kMaxWordAlignment = 128;
/// `alignment` as a word-memory alignment: at least a word, at most
/// kMaxWordAlignment.
uint32_t wordAlignment(llvm::Align alignment);

/// The memory semantics of a barrier with cl_mem_fence_flags `flags`:
/// CLK_LOCAL_MEM_FENCE (1) orders __local memory, CLK_GLOBAL_MEM_FENCE (2)
/// and CLK_IMAGE_MEM_FENCE (4) __global memory (images are buffers on
/// Vulkan); 0 for none of them.
uint32_t barrierSemantics(uint32_t flags);

/// Module-wide state shared by the kernels of one module.
struct ModuleState {
  // A constructor, not aggregate initialisation: Clang refuses to
  // copy-list-initialise the DenseMaps below (their default constructors
  // are explicit).
  ModuleState(ModuleBuilder builder, const VulkanTargetConfig &config) : builder(std::move(builder)), config(config) {}

  ModuleBuilder builder;
  const VulkanTargetConfig &config;
  llvm::DenseMap<llvm::Type *, Id> types;
  std::array<Id, 3> localSize{0, 0, 0}; ///< spec constants 0, 1, 2
  Id accessScratch = 0;                 ///< spec constant kAccessScratchSpecId
  Id workgroupId = 0, localInvocationId = 0;
  /// Scalar Input built-ins (subgroup ones) by spv::BuiltIn.
  llvm::DenseMap<uint32_t, Id> scalarBuiltins;
  ProgramScopeBlock programScope;
};

class KernelEmitter {
public:
  KernelEmitter(ModuleState &state, llvm::Function &kernel, VulkanKernelBinaryInfo &info)
      : state_(state), builder_(state.builder), kernel_(kernel), info_(info) {}
  /// Emits the kernel; errors name the kernel and the construct.
  llvm::Error emit();

  // Shared by the three files.
  Id type(llvm::Type *type);
  Id value(llvm::Value *value);
  Id constant(llvm::Constant *constant);
  Id uint32Type() { return builder_.typeInt(32); }
  Id uint64Type() { return builder_.typeInt(64); }
  Id uint32(uint32_t value) { return builder_.constant(uint32Type(), {value}); }
  /// Appends an instruction with a result to the current function.
  Id op(spv::Op op, Id resultType, std::initializer_list<uint32_t> operands, Id result = 0);
  void opNoResult(spv::Op op, std::initializer_list<uint32_t> operands);
  /// fabs (OpBitwiseAnd) or fneg (OpBitwiseXor) of `operand` as an integer
  /// operation on its sign bit, for a float width whose denormals the
  /// device does not keep: LLVM treats both as bit operations, but a
  /// driver may flush a denormal operand of GLSL FAbs or OpFNegate
  /// (NVIDIA's does for float). 0 where the float operation is exact.
  Id signBitOperation(spv::Op operation, llvm::Value *operand);
  /// Records the first construct this emitter cannot translate.
  llvm::Error unsupported(const llvm::Instruction &instruction, const llvm::Twine &what);

private:
  llvm::Error layoutPushConstants();
  /// Lays out the launch fields and the arguments: the arguments in the
  /// push constants, or in the argument buffer.
  llvm::Error layoutArguments(bool inBuffer);
  /// Word `word` of argument `index` (a by-value struct, a lane argument).
  Id argumentWord(size_t index, uint32_t word);
  /// Argument `index` as its slot's type.
  Id argumentValue(size_t index);
  Id loadFromArgumentBuffer(uint32_t offset, Id valueType, uint32_t alignment);
  /// The program-scope variables the kernel uses (program_scope_variables.h).
  llvm::SmallVector<const llvm::GlobalVariable *, 4> usedProgramScopeVariables();
  void emitProgramScopeAddresses();
  llvm::Error emitBlock(llvm::BasicBlock &block, const StructuredFunction &structure);
  llvm::Error emitInstruction(llvm::Instruction &instruction);
  llvm::Error emitTerminator(llvm::Instruction &terminator, const StructuredFunction &structure);
  llvm::Error emitCall(llvm::CallInst &call);
  llvm::Error emitIntrinsic(llvm::IntrinsicInst &call);
  /// memset / memcpy / memmove (memory_transfer.cpp).
  llvm::Error emitMemoryTransfer(llvm::IntrinsicInst &call);
  /// Loads (stored == 0) or stores the word at `pointer` + `byteOffset`.
  Id wordAt(llvm::Value *pointer, uint64_t byteOffset, const llvm::Instruction &user, llvm::Error &error,
            Id stored = 0);
  /// llvm.fshl / llvm.fshr on a scalar integer.
  Id funnelShift(Id high, Id low, Id amount, llvm::Type *integer, bool left);
  /// A float square root within OpenCL's 3 ulp.
  Id accurateSqrt(Id x);
  /// A correctly rounded float or half fma (of `resultType`) through double
  /// precision.
  Id exactFma(Id a, Id b, Id c, Id resultType);
  /// An LLVM fence as OpMemoryBarrier.
  void emitFence(llvm::FenceInst &fence);
  /// A double (scalar or vector of the shape of `shape`) rounded once to
  /// half, also on drivers that convert through float.
  Id doubleToHalf(Id x, llvm::Type *shape);
  /// llvm.is.fpclass(x, mask) on a scalar.
  Id floatClassTest(Id x, llvm::Type *floating, unsigned mask);
  /// llvm.[us]{add,sub}.sat on scalars.
  Id saturatingArithmetic(llvm::Intrinsic::ID id, llvm::Type *integer, Id left, Id right);
  llvm::Error emitMemory(llvm::Instruction &instruction);
  llvm::Error emitAddressArithmetic(llvm::GetElementPtrInst &gep);
  // __local and private memory (word_memory.cpp).
  llvm::Error declareWordMemory();
  void emitFunctionVariables();
  llvm::Value *wordMemoryBase(llvm::Value *pointer);
  llvm::Error loadWordMemory(llvm::LoadInst &load);
  llvm::Error storeWordMemory(llvm::StoreInst &store);
  /// Reads and writes (stores, atomics) of a word: a write's index is
  /// clamped into its space.
  enum class WordAccess { Read, Write };
  /// A pointer to word `wordIndex` of `base`'s space: a 32-bit word, or a
  /// 64-bit one where the space has wide words.
  Id wordPointer(llvm::Value *base, Id wordIndex, WordAccess access);
  /// Whether `base`'s space is __local memory kept as 64-bit words (the
  /// kernel has 64-bit __local atomics; word_memory.cpp).
  bool hasWideWords(llvm::Value *base);
  /// The 32-bit word `wordIndex` of `base`'s space, read and written
  /// whatever width the space's words have; mergeIntoWord writes the bits
  /// of `bits` outside `keep`, leaving other work-items' bytes intact.
  Id loadWord(llvm::Value *base, Id wordIndex);
  void storeWord(llvm::Value *base, Id wordIndex, Id word);
  void mergeIntoWord(llvm::Value *base, Id wordIndex, Id keep, Id bits);
  /// The shift (a 64-bit 0 or 32) of 32-bit word `wordIndex` in its wide word.
  Id halfShift(Id wordIndex);
  /// Whether a load or store of `valueType` with `alignment` in word
  /// memory goes byte by byte (it may straddle two words).
  static bool isSplitIntoBytes(llvm::Type *valueType, llvm::Align alignment);
  Id loadBytesAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, const llvm::Instruction &user,
                 llvm::Error &error);
  llvm::Error storeBytesAt(llvm::Value *base, Id byteOffset, llvm::Type *valueType, Id stored,
                           const llvm::Instruction &user);
  Id loadWordsAt(llvm::Value *base, Id byteOffset, llvm::Type *type, const llvm::Instruction &user, llvm::Error &error);
  llvm::Error storeWordsAt(llvm::Value *base, Id byteOffset, llvm::Type *type, Id stored,
                           const llvm::Instruction &user);
  /// The __local word an atomic of `valueType` at `pointer` works on (the
  /// caller has checked the width with requireAtomicWidth).
  Id wordMemoryAtomicPointer(llvm::Value *pointer, llvm::Type *valueType, const llvm::Instruction &user,
                             llvm::Error &error);
  llvm::Error emitAtomic(llvm::Instruction &instruction);
  /// Fails a 64-bit atomic where the device has none; otherwise declares
  /// the capability it needs.
  llvm::Error requireAtomicWidth(const llvm::Instruction &instruction, llvm::Type *valueType);
  llvm::Error emitCast(llvm::CastInst &cast);
  llvm::Error emitCompare(llvm::CmpInst &compare);
  llvm::Error emitBinary(llvm::BinaryOperator &binary);
  std::optional<llvm::Error> emitWorkItemBuiltin(llvm::CallInst &call, llvm::StringRef name);
  // Sub-groups (sub_group_emitter.cpp).
  std::optional<llvm::Error> emitSubGroupBuiltin(llvm::CallInst &call, llvm::StringRef mangledName);
  llvm::Error emitSubGroupCollective(llvm::CallInst &call, llvm::StringRef mangledName);
  /// A 64-bit integer collective from 32-bit broadcasts.
  Id wideSubGroupCollective(const CollectiveCall &call, Id x, Id source);
  /// Loads a scalar subgroup built-in.
  Id subgroupBuiltin(spv::BuiltIn which);
  /// The ballot of the active invocations.
  Id activeLanes();
  /// At the kernel's start: the sub-group size, if the kernel asks for it.
  void emitSubGroupEntry();
  /// Before a return: adds the work-items returning to the launch's
  /// progress counter (progress_counter.cpp).
  void emitProgressCount();
  Id globalAddress(llvm::Value *pointer, const llvm::Instruction &user, llvm::Error &error);
  Id physicalPointer(llvm::Value *pointer, llvm::Type *pointee, const llvm::Instruction &user, llvm::Error &error);
  Id launchField(abi::vulkan::LaunchField field, uint32_t dimension);
  Id builtinComponent(Id variable, uint32_t dimension);
  Id localSizeComponent(uint32_t dimension);
  Id atomicScope(llvm::SyncScope::ID syncScope);
  Id atomicSemantics(llvm::AtomicOrdering ordering);
  Id failureSemantics(llvm::AtomicOrdering ordering);
  /// ctlz / cttz of a 32- or 64-bit integer (a result of the same width).
  Id countZeros(Id operand, unsigned bits, bool leading);
  void emitBarrier(uint32_t executionScope, uint32_t memoryScope, uint32_t semantics);

  ModuleState &state_;
  ModuleBuilder &builder_;
  llvm::Function &kernel_;
  VulkanKernelBinaryInfo &info_;
  std::vector<uint32_t> body_;
  llvm::DenseMap<llvm::Value *, Id> values_;
  llvm::DenseMap<llvm::BasicBlock *, Id> labels_;
  Id pushConstants_ = 0, pushConstantStruct_ = 0;
  /// Member index in the push-constant struct of each launch field.
  llvm::DenseMap<uint32_t, uint32_t> launchMembers_;
  std::vector<Id> memberTypes_;
  std::vector<uint32_t> memberOffsets_;
  /// Where each kernel argument is read from.
  struct ArgumentSlot {
    Id type = 0;           ///< its SPIR-V type (an array of words: a struct, a lane argument)
    uint32_t member = ~0u; ///< its push-constant member (not in the argument buffer)
    uint32_t offset = 0;   ///< bytes into the push constants or the argument buffer
    uint32_t alignment = 4;
    bool isLocal = false; ///< a __local argument: no bytes
  };
  std::vector<ArgumentSlot> arguments_;
  /// Slot value (push constant or argument buffer).
  Id slotValue(const ArgumentSlot &slot);
  /// The buffer arguments whose AccessRange the checked accesses read
  /// (passes/guard_buffer_accesses.cpp), the image arguments whose texels'
  /// range they read, and each range's base and size by range number.
  llvm::DenseSet<unsigned> rangeArguments_;
  llvm::DenseSet<unsigned> texelRangeArguments_;
  llvm::DenseMap<unsigned, std::pair<ArgumentSlot, ArgumentSlot>> rangeSlots_;
  /// A call of kAccessRangeBaseFunction/kAccessRangeSizeFunction.
  llvm::Error emitAccessRange(llvm::CallInst &call, bool base);
  /// The argument buffer's address, loaded at the kernel's start (0: none).
  Id argumentBuffer_ = 0;
  std::vector<Id> interface_;
  /// Vector arguments SPIR-V cannot hold as one value (8/16-bit elements,
  /// more than four elements): pushed as words, kept as one Id per element,
  /// which the (constant-index) extractelements the scalarizer left name.
  llvm::DenseMap<llvm::Value *, std::vector<Id>> argumentLanes_;
  /// Fails the build unless every use of `argument` reads one element.
  llvm::Error checkLaneArgumentUses(llvm::Argument &argument);
  /// Loads the elements of a lane argument from its push-constant words.
  std::vector<Id> loadArgumentLanes(llvm::Argument &argument);
  /// cmpxchg results: the loaded value and whether it matched.
  llvm::DenseMap<llvm::Value *, std::pair<Id, Id>> exchanges_;
  unsigned usedLaunchFields_ = 0;
  /// The storage bit of the memory semantics of the atomic being emitted.
  uint32_t storageSemantics_ = 0x40; // UniformMemory
  /// Where an alloca, byval argument, __local variable or __local argument
  /// lies: a kernel has one Function word array for all private memory and
  /// one Workgroup word array for all __local memory, so a pointer may move
  /// between the variables of one space (a phi of two __local buffers).
  struct WordVariable {
    Id variable = 0; ///< the space's array, set by declareWordMemory
    spv::StorageClass storage = spv::StorageClass::Function;
    uint32_t words = 0;        ///< 0 for a __local argument
    Id sizeBytes = 0;          ///< a __local argument's size (spec constant)
    uint32_t staticOffset = 0; ///< byte offset in the space (not for __local arguments)
    Id offset = 0;             ///< the byte offset as a (spec) constant
    /// Its offset is a multiple of this (a power of two, at least a word),
    /// so that a pointer converted to an integer shows the alignment of
    /// its type (CTS kernel_memory_alignment_*).
    uint32_t alignment = 4;
  };
  llvm::MapVector<llvm::Value *, WordVariable> wordVariables_;
  uint32_t privateWords_ = 0;
  Id privateSpace_ = 0;
  /// The index of each space's last word (a constant or spec constant):
  /// wordPointer clamps indices to it.
  Id localLastWord_ = 0;
  /// __local memory as 64-bit words (usesLocalInt64Atomics).
  bool wideLocalWords_ = false;
  Id privateLastWord_ = 0;
  /// While a store (or a memory transfer's destination) that
  /// MarkInBoundsPrivateStoresPass proved inside its private variable is
  /// emitted: its words need no clamp.
  bool storeProvenInBounds_ = false;
  /// Memoized wordMemoryBase (null: unknown or ambiguous).
  llvm::DenseMap<llvm::Value *, llvm::Value *> bases_;
  uint32_t nextLocalSpecId_ = abi::vulkan::kFirstLocalArgSpecId;
  /// The byte size spec constant of each __local argument, by spec id.
  llvm::DenseMap<uint32_t, Id> localArgumentSizes_;
  Id subGroupSize_ = 0; ///< set by emitSubGroupEntry
};

} // namespace compiler::spirv
