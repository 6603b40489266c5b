// Word-level SPIR-V module builder: ids, the module's logical sections in
// the order the specification requires, and deduplicated types and
// constants.
#pragma once

#include "spirv/unified1/spirv.hpp11"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string_view>
#include <vector>

namespace compiler::spirv {

using Id = uint32_t;

/// Appends the words of a literal string (nul-terminated, padded to words).
void appendString(std::vector<uint32_t> &words, std::string_view text);

class ModuleBuilder {
public:
  Id newId() { return nextId_++; }

  // Sections, in module order.
  void capability(spv::Capability capability);
  void extension(std::string_view name);
  Id importGlsl450();
  void entryPoint(Id function, std::string_view name, std::span<const Id> interface);
  void executionMode(Id function, spv::ExecutionMode mode, std::initializer_list<uint32_t> literals);
  void executionModeId(Id function, spv::ExecutionMode mode, std::initializer_list<Id> operands);
  void name(Id target, std::string_view text);
  void decorate(Id target, spv::Decoration decoration, std::initializer_list<uint32_t> operands = {});
  void memberDecorate(Id type, uint32_t member, spv::Decoration decoration, std::initializer_list<uint32_t> operands);

  // Types and constants, deduplicated by their operands.
  Id typeVoid();
  Id typeBool();
  Id typeInt(uint32_t width, bool isSigned = false);
  Id typeFloat(uint32_t width);
  Id typeVector(Id component, uint32_t count);
  Id typeFunction(Id result, std::span<const Id> parameters);
  Id typePointer(spv::StorageClass storage, Id pointee);
  /// Array types carry decorations (ArrayStride), so a new one each time a
  /// caller asks for `unique`.
  Id typeArray(Id element, Id lengthConstant, uint32_t stride = 0);
  Id typeRuntimeArray(Id element, uint32_t stride);
  /// A struct type with explicit member offsets; never shared.
  Id typeStruct(std::span<const Id> members, std::span<const uint32_t> offsets);
  Id constant(Id type, std::initializer_list<uint32_t> words);
  Id constantBool(bool value);
  Id constantComposite(Id type, std::span<const Id> constituents);
  Id constantNull(Id type);
  Id undef(Id type);
  Id specConstant(Id type, uint32_t value, uint32_t specId);
  /// A 64-bit integer specialization constant.
  Id specConstant64(Id type, uint64_t value, uint32_t specId);
  /// OpSpecConstantOp computing `opcode` on constant operands.
  Id specConstantOp(Id type, spv::Op opcode, std::initializer_list<Id> operands);
  /// A module-scope OpVariable.
  Id variable(Id pointerType, spv::StorageClass storage, Id initializer = 0);

  /// Function bodies are appended as they are emitted.
  std::vector<uint32_t> &functions() { return functions_; }
  /// Appends one instruction to `words`.
  static void instruction(std::vector<uint32_t> &words, spv::Op op, std::initializer_list<uint32_t> operands);
  static void instruction(std::vector<uint32_t> &words, spv::Op op, std::span<const uint32_t> operands);

  std::vector<uint32_t> finish() const;

private:
  Id typeOrConstant(spv::Op op, std::vector<uint32_t> operands);

  Id nextId_ = 1;
  Id glsl450_ = 0;
  std::vector<uint32_t> capabilities_, extensions_, imports_, entryPoints_, executionModes_, debugNames_, annotations_,
      globals_, functions_;
  std::map<std::vector<uint32_t>, Id> deduplicated_;
};

} // namespace compiler::spirv
