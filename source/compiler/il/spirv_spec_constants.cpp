#include "compiler/il/spirv_spec_constants.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace compiler::il {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr uint16_t kOpTypeBool = 20;
constexpr uint16_t kOpTypeInt = 21;
constexpr uint16_t kOpTypeFloat = 22;
constexpr uint16_t kOpSpecConstantTrue = 48;
constexpr uint16_t kOpSpecConstantFalse = 49;
constexpr uint16_t kOpSpecConstant = 50;
constexpr uint16_t kOpDecorate = 71;
constexpr uint32_t kDecorationSpecId = 1;

/// The module as words in host order; whether it had to be swapped.
std::optional<std::vector<uint32_t>> wordsOf(std::span<const std::byte> il, bool &swapped) {
  if (il.size() < kHeaderWords * 4 || il.size() % 4)
    return std::nullopt;
  std::vector<uint32_t> words(il.size() / 4);
  std::memcpy(words.data(), il.data(), il.size());
  swapped = words[0] != kMagic;
  if (swapped)
    for (uint32_t &word : words)
      word = __builtin_bswap32(word);
  if (words[0] != kMagic)
    return std::nullopt;
  return words;
}

/// Calls `visit(opcode, offset, count)` for each instruction; false when an
/// instruction runs past the end.
template <typename Visit> bool forEachInstruction(const std::vector<uint32_t> &words, Visit visit) {
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size())
      return false;
    visit(static_cast<uint16_t>(words[at] & 0xffff), at, count);
    at += count;
  }
  return true;
}

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
  bool whole = forEachInstruction(words, [&](uint16_t opcode, size_t at, uint32_t count) {
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && count >= 3) {
      typeSizes[words[at + 1]] = std::max<size_t>(1, words[at + 2] / 8);
      signedTypes[words[at + 1]] = opcode == kOpTypeInt && count >= 4 && words[at + 3] == 1;
    } else if (opcode == kOpTypeBool && count == 2)
      typeSizes[words[at + 1]] = 1;
    else if (opcode == kOpDecorate && count == 4 && words[at + 2] == kDecorationSpecId)
      specIds[words[at + 1]] = words[at + 3];
    else if ((opcode == kOpSpecConstant || opcode == kOpSpecConstantTrue || opcode == kOpSpecConstantFalse) &&
             count >= 3) {
      auto size = typeSizes.find(words[at + 1]);
      if (size != typeSizes.end())
        constants[words[at + 2]] = {at, size->second, signedTypes[words[at + 1]]};
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
  auto words = wordsOf(il, swapped);
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
  auto words = wordsOf(il, swapped);
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
    if (opcode == kOpSpecConstantTrue || opcode == kOpSpecConstantFalse) {
      bool truth = std::any_of(value.begin(), value.end(), [](std::byte b) { return b != std::byte{0}; });
      (*words)[at] = count << 16 | (truth ? kOpSpecConstantTrue : kOpSpecConstantFalse);
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
