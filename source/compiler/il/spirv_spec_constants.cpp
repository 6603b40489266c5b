#include "compiler/il/spirv_spec_constants.h"

#include "compiler/il/spirv_words.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace compiler::il {
namespace {

using namespace spirv_words;

struct SpecConstant {
  size_t offset; ///< of its instruction
  size_t size;   ///< bytes
  bool isSigned; ///< a signed integer (narrow ones are sign-extended)
};

/// SpecId -> the constant's instruction and size.
std::optional<std::map<uint32_t, SpecConstant>> findSpecConstants(const std::vector<uint32_t> &words) {
  std::unordered_map<uint32_t, size_t> typeSizes; // bool: 1
  std::unordered_map<uint32_t, bool> signedTypes;
  std::unordered_map<uint32_t, uint32_t> specIds; // result id -> SpecId
  std::unordered_map<uint32_t, SpecConstant> constants;
  bool whole = forEachInstruction(words, [&](uint16_t opcode, std::span<const uint32_t> instruction) {
    size_t count = instruction.size();
    if ((opcode == OpTypeInt || opcode == OpTypeFloat) && count >= 3) {
      typeSizes[instruction[1]] = std::max<size_t>(1, instruction[2] / 8);
      signedTypes[instruction[1]] = opcode == OpTypeInt && count >= 4 && instruction[3] == 1;
    } else if (opcode == OpTypeBool && count == 2) {
      typeSizes[instruction[1]] = 1;
    } else if (opcode == OpDecorate && count == 4 && instruction[2] == kDecorationSpecId) {
      specIds[instruction[1]] = instruction[3];
    } else if ((opcode == OpSpecConstant || opcode == OpSpecConstantTrue || opcode == OpSpecConstantFalse) &&
               count >= 3) {
      auto size = typeSizes.find(instruction[1]);
      if (size != typeSizes.end())
        constants[instruction[2]] = {static_cast<size_t>(instruction.data() - words.data()), size->second,
                                     signedTypes[instruction[1]]};
    }
  });
  if (!whole)
    return std::nullopt;
  std::map<uint32_t, SpecConstant> bySpecId;
  for (const auto &[result, constant] : constants) {
    auto id = specIds.find(result);
    if (id != specIds.end())
      bySpecId[id->second] = constant;
  }
  return bySpecId;
}

} // namespace

std::optional<std::map<uint32_t, size_t>> specConstantSizes(std::span<const std::byte> il) {
  bool swapped = false;
  auto words = hostOrderWords(il, swapped);
  if (!words)
    return std::nullopt;
  auto constants = findSpecConstants(*words);
  if (!constants)
    return std::nullopt;
  std::map<uint32_t, size_t> sizes;
  for (const auto &[id, constant] : *constants)
    sizes[id] = constant.size;
  return sizes;
}

std::vector<std::byte> specialize(std::span<const std::byte> il,
                                  const std::map<uint32_t, std::vector<std::byte>> &values) {
  bool swapped = false;
  auto words = hostOrderWords(il, swapped);
  std::optional<std::map<uint32_t, SpecConstant>> constants;
  if (words)
    constants = findSpecConstants(*words);
  if (!constants)
    return {il.begin(), il.end()};
  for (const auto &[id, value] : values) {
    auto found = constants->find(id);
    if (found == constants->end())
      continue;
    size_t at = found->second.offset;
    uint16_t opcode = (*words)[at] & 0xffff;
    uint32_t count = (*words)[at] >> 16;
    if (opcode == OpSpecConstantTrue || opcode == OpSpecConstantFalse) {
      bool truth = std::any_of(value.begin(), value.end(), [](std::byte b) { return b != std::byte{0}; });
      (*words)[at] = count << 16 | (truth ? OpSpecConstantTrue : OpSpecConstantFalse);
      continue;
    }
    // OpSpecConstant: type, result, then the value in words, low word first.
    size_t literalWords = count - 3;
    std::vector<uint32_t> literal(literalWords, 0);
    size_t bytes = std::min({value.size(), found->second.size, literalWords * 4});
    std::memcpy(literal.data(), value.data(), bytes);
    // Narrow signed integers are sign-extended to the word (SPIR-V 2.2.1).
    if (found->second.isSigned && bytes < 4 && literalWords == 1 && (literal[0] >> (8 * bytes - 1) & 1))
      literal[0] |= ~0u << (8 * bytes);
    std::copy(literal.begin(), literal.end(), words->begin() + at + 3);
  }
  if (swapped)
    for (uint32_t &word : *words)
      word = __builtin_bswap32(word);
  std::vector<std::byte> out(words->size() * 4);
  std::memcpy(out.data(), words->data(), out.size());
  return out;
}

} // namespace compiler::il
