#include "compiler/il/spirv_scalar_nulls.h"

#include <unordered_map>

namespace compiler::il {
namespace {

constexpr uint32_t kHeaderWords = 5;
constexpr uint16_t kOpTypeBool = 20;
constexpr uint16_t kOpTypeInt = 21;
constexpr uint16_t kOpTypeFloat = 22;
constexpr uint16_t kOpConstantFalse = 41;
constexpr uint16_t kOpConstant = 43;
constexpr uint16_t kOpConstantNull = 46;

uint32_t instructionWord(uint16_t opcode, uint32_t count) { return count << 16 | opcode; }

} // namespace

std::vector<uint32_t> replaceScalarNulls(std::span<const uint32_t> words) {
  std::vector<uint32_t> original(words.begin(), words.end());
  if (words.size() < kHeaderWords)
    return original;
  // Result id of a scalar type -> its width in bits (0 for bool).
  std::unordered_map<uint32_t, uint32_t> scalarWidths;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  for (size_t at = kHeaderWords; at < words.size();) {
    uint16_t opcode = words[at] & 0xffff;
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size())
      return original;
    std::span<const uint32_t> instruction = words.subspan(at, count);
    at += count;
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && count >= 3)
      scalarWidths[instruction[1]] = instruction[2];
    else if (opcode == kOpTypeBool && count == 2)
      scalarWidths[instruction[1]] = 0;
    if (opcode == kOpConstantNull && count == 3) {
      auto width = scalarWidths.find(instruction[1]);
      if (width != scalarWidths.end()) {
        uint32_t type = instruction[1], result = instruction[2];
        if (width->second == 0) {
          out.insert(out.end(), {instructionWord(kOpConstantFalse, 3), type, result});
        } else if (width->second <= 32) {
          out.insert(out.end(), {instructionWord(kOpConstant, 4), type, result, 0});
        } else {
          out.insert(out.end(), {instructionWord(kOpConstant, 5), type, result, 0, 0});
        }
        continue;
      }
    }
    out.insert(out.end(), instruction.begin(), instruction.end());
  }
  return out;
}

} // namespace compiler::il
