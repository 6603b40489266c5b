#include "spirv_builder.h"

#include <algorithm>

namespace compiler::spirv {

void appendString(std::vector<uint32_t> &words, std::string_view text) {
  size_t first = words.size();
  words.resize(first + text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i)
    words[first + i / 4] |= uint32_t(uint8_t(text[i])) << (8 * (i % 4));
}

void ModuleBuilder::instruction(std::vector<uint32_t> &words, spv::Op op, std::span<const uint32_t> operands) {
  words.push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(op));
  words.insert(words.end(), operands.begin(), operands.end());
}

void ModuleBuilder::instruction(std::vector<uint32_t> &words, spv::Op op, std::initializer_list<uint32_t> operands) {
  instruction(words, op, std::span<const uint32_t>(operands.begin(), operands.size()));
}

void ModuleBuilder::capability(spv::Capability capability) {
  for (size_t i = 0; i < capabilities_.size(); i += 2)
    if (capabilities_[i + 1] == uint32_t(capability))
      return;
  instruction(capabilities_, spv::Op::OpCapability, {uint32_t(capability)});
}

void ModuleBuilder::extension(std::string_view name) {
  std::vector<uint32_t> operands;
  appendString(operands, name);
  for (size_t i = 0; i < extensions_.size(); i += extensions_[i] >> 16)
    if (std::equal(operands.begin(), operands.end(), extensions_.begin() + i + 1,
                   extensions_.begin() + i + (extensions_[i] >> 16)))
      return;
  instruction(extensions_, spv::Op::OpExtension, operands);
}

Id ModuleBuilder::importGlsl450() {
  if (glsl450_)
    return glsl450_;
  glsl450_ = newId();
  std::vector<uint32_t> operands{glsl450_};
  appendString(operands, "GLSL.std.450");
  instruction(imports_, spv::Op::OpExtInstImport, operands);
  return glsl450_;
}

void ModuleBuilder::entryPoint(Id function, std::string_view name, std::span<const Id> interface) {
  std::vector<uint32_t> operands{uint32_t(spv::ExecutionModel::GLCompute), function};
  appendString(operands, name);
  operands.insert(operands.end(), interface.begin(), interface.end());
  instruction(entryPoints_, spv::Op::OpEntryPoint, operands);
}

void ModuleBuilder::executionMode(Id function, spv::ExecutionMode mode, std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> words{function, uint32_t(mode)};
  words.insert(words.end(), literals.begin(), literals.end());
  instruction(executionModes_, spv::Op::OpExecutionMode, words);
}

void ModuleBuilder::executionModeId(Id function, spv::ExecutionMode mode, std::initializer_list<Id> operands) {
  std::vector<uint32_t> words{function, uint32_t(mode)};
  words.insert(words.end(), operands.begin(), operands.end());
  instruction(executionModes_, spv::Op::OpExecutionModeId, words);
}

void ModuleBuilder::name(Id target, std::string_view text) {
  std::vector<uint32_t> operands{target};
  appendString(operands, text);
  instruction(debugNames_, spv::Op::OpName, operands);
}

void ModuleBuilder::decorate(Id target, spv::Decoration decoration, std::initializer_list<uint32_t> operands) {
  std::vector<uint32_t> words{target, uint32_t(decoration)};
  words.insert(words.end(), operands.begin(), operands.end());
  instruction(annotations_, spv::Op::OpDecorate, words);
}

void ModuleBuilder::memberDecorate(Id type, uint32_t member, spv::Decoration decoration,
                                   std::initializer_list<uint32_t> operands) {
  std::vector<uint32_t> words{type, member, uint32_t(decoration)};
  words.insert(words.end(), operands.begin(), operands.end());
  instruction(annotations_, spv::Op::OpMemberDecorate, words);
}

Id ModuleBuilder::typeOrConstant(spv::Op op, std::vector<uint32_t> operands) {
  // The key is the opcode and every operand but the result id.
  std::vector<uint32_t> key{uint32_t(op)};
  key.insert(key.end(), operands.begin(), operands.end());
  if (auto found = deduplicated_.find(key); found != deduplicated_.end())
    return found->second;
  Id id = newId();
  deduplicated_.emplace(std::move(key), id);
  bool hasResultType = op != spv::Op::OpTypeVoid && op != spv::Op::OpTypeBool && op != spv::Op::OpTypeInt &&
                       op != spv::Op::OpTypeFloat && op != spv::Op::OpTypeVector && op != spv::Op::OpTypeFunction &&
                       op != spv::Op::OpTypePointer && op != spv::Op::OpTypeArray &&
                       op != spv::Op::OpTypeRuntimeArray && op != spv::Op::OpTypeStruct;
  if (hasResultType)
    operands.insert(operands.begin() + 1, id); // result type, result id, ...
  else
    operands.insert(operands.begin(), id);
  instruction(globals_, op, operands);
  return id;
}

Id ModuleBuilder::typeVoid() { return typeOrConstant(spv::Op::OpTypeVoid, {}); }
Id ModuleBuilder::typeBool() { return typeOrConstant(spv::Op::OpTypeBool, {}); }
// Vulkan wants every integer type unsigned-or-signless; Polymux uses signedness 0 throughout.
Id ModuleBuilder::typeInt(uint32_t width, bool isSigned) {
  if (width == 8 || width == 16 || width == 64)
    capability(width == 8 ? spv::Capability::Int8 : width == 16 ? spv::Capability::Int16 : spv::Capability::Int64);
  return typeOrConstant(spv::Op::OpTypeInt, {width, isSigned ? 1u : 0u});
}
Id ModuleBuilder::typeFloat(uint32_t width) {
  if (width == 16 || width == 64)
    capability(width == 16 ? spv::Capability::Float16 : spv::Capability::Float64);
  return typeOrConstant(spv::Op::OpTypeFloat, {width});
}
Id ModuleBuilder::typeVector(Id component, uint32_t count) {
  return typeOrConstant(spv::Op::OpTypeVector, {component, count});
}
Id ModuleBuilder::typeFunction(Id result, std::span<const Id> parameters) {
  std::vector<uint32_t> operands{result};
  operands.insert(operands.end(), parameters.begin(), parameters.end());
  return typeOrConstant(spv::Op::OpTypeFunction, std::move(operands));
}
Id ModuleBuilder::typePointer(spv::StorageClass storage, Id pointee) {
  return typeOrConstant(spv::Op::OpTypePointer, {uint32_t(storage), pointee});
}
Id ModuleBuilder::typeArray(Id element, Id lengthConstant, uint32_t stride) {
  // The stride is part of the key: arrays that differ in it are distinct types.
  std::vector<uint32_t> key{uint32_t(spv::Op::OpTypeArray), element, lengthConstant, stride, 0xA77A};
  if (auto found = deduplicated_.find(key); found != deduplicated_.end())
    return found->second;
  Id id = newId();
  deduplicated_.emplace(std::move(key), id);
  instruction(globals_, spv::Op::OpTypeArray, {id, element, lengthConstant});
  if (stride)
    decorate(id, spv::Decoration::ArrayStride, {stride});
  return id;
}
Id ModuleBuilder::typeRuntimeArray(Id element, uint32_t stride) {
  Id id = newId();
  instruction(globals_, spv::Op::OpTypeRuntimeArray, {id, element});
  decorate(id, spv::Decoration::ArrayStride, {stride});
  return id;
}
Id ModuleBuilder::typeStruct(std::span<const Id> members, std::span<const uint32_t> offsets) {
  Id id = newId();
  std::vector<uint32_t> operands{id};
  operands.insert(operands.end(), members.begin(), members.end());
  instruction(globals_, spv::Op::OpTypeStruct, operands);
  for (size_t i = 0; i < offsets.size(); ++i)
    memberDecorate(id, uint32_t(i), spv::Decoration::Offset, {offsets[i]});
  return id;
}
Id ModuleBuilder::constant(Id type, std::initializer_list<uint32_t> words) {
  std::vector<uint32_t> operands{type};
  operands.insert(operands.end(), words.begin(), words.end());
  return typeOrConstant(spv::Op::OpConstant, std::move(operands));
}
Id ModuleBuilder::constantBool(bool value) {
  return typeOrConstant(value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, {typeBool()});
}
Id ModuleBuilder::constantComposite(Id type, std::span<const Id> constituents) {
  std::vector<uint32_t> operands{type};
  operands.insert(operands.end(), constituents.begin(), constituents.end());
  return typeOrConstant(spv::Op::OpConstantComposite, std::move(operands));
}
Id ModuleBuilder::constantNull(Id type) { return typeOrConstant(spv::Op::OpConstantNull, {type}); }
Id ModuleBuilder::undef(Id type) { return typeOrConstant(spv::Op::OpUndef, {type}); }
Id ModuleBuilder::specConstant(Id type, uint32_t value, uint32_t specId) {
  Id id = newId();
  instruction(globals_, spv::Op::OpSpecConstant, {type, id, value});
  decorate(id, spv::Decoration::SpecId, {specId});
  return id;
}
Id ModuleBuilder::specConstant64(Id type, uint64_t value, uint32_t specId) {
  Id id = newId();
  instruction(globals_, spv::Op::OpSpecConstant, {type, id, uint32_t(value), uint32_t(value >> 32)});
  decorate(id, spv::Decoration::SpecId, {specId});
  return id;
}
Id ModuleBuilder::specConstantOp(Id type, spv::Op opcode, std::initializer_list<Id> operands) {
  Id id = newId();
  std::vector<uint32_t> words{type, id, uint32_t(opcode)};
  words.insert(words.end(), operands.begin(), operands.end());
  instruction(globals_, spv::Op::OpSpecConstantOp, words);
  return id;
}

Id ModuleBuilder::variable(Id pointerType, spv::StorageClass storage, Id initializer) {
  Id id = newId();
  if (initializer)
    instruction(globals_, spv::Op::OpVariable, {pointerType, id, uint32_t(storage), initializer});
  else
    instruction(globals_, spv::Op::OpVariable, {pointerType, id, uint32_t(storage)});
  return id;
}

std::vector<uint32_t> ModuleBuilder::finish() const {
  std::vector<uint32_t> words{spv::MagicNumber, 0x00010600 /* SPIR-V 1.6 */, 0 /* generator */, nextId_, 0};
  words.insert(words.end(), capabilities_.begin(), capabilities_.end());
  words.insert(words.end(), extensions_.begin(), extensions_.end());
  words.insert(words.end(), imports_.begin(), imports_.end());
  instruction(words, spv::Op::OpMemoryModel,
              {uint32_t(spv::AddressingModel::PhysicalStorageBuffer64), uint32_t(spv::MemoryModel::GLSL450)});
  for (const auto *section : {&entryPoints_, &executionModes_, &debugNames_, &annotations_, &globals_, &functions_})
    words.insert(words.end(), section->begin(), section->end());
  return words;
}

} // namespace compiler::spirv
