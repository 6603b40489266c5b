#include "compiler/il/spirv_scalar_nulls.h"

#include "compiler/il/spirv_words.h"

#include <unordered_map>

namespace compiler::il {

using namespace spirv_words;

std::vector<uint32_t> replaceScalarNulls(std::span<const uint32_t> words) {
  std::vector<uint32_t> original(words.begin(), words.end());
  if (words.size() < kHeaderWords)
    return original;
  // Result id of a scalar type -> its width in bits (0 for bool).
  std::unordered_map<uint32_t, uint32_t> scalarWidths;
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  bool whole = forEachInstruction(words, [&](uint16_t opcode, std::span<const uint32_t> instruction) {
    if ((opcode == OpTypeInt || opcode == OpTypeFloat) && instruction.size() >= 3)
      scalarWidths[instruction[1]] = instruction[2];
    else if (opcode == OpTypeBool && instruction.size() == 2)
      scalarWidths[instruction[1]] = 0;
    if (opcode == OpConstantNull && instruction.size() == 3) {
      auto width = scalarWidths.find(instruction[1]);
      if (width != scalarWidths.end()) {
        uint32_t type = instruction[1], result = instruction[2];
        if (width->second == 0)
          out.insert(out.end(), {instructionWord(OpConstantFalse, 3), type, result});
        else if (width->second <= 32)
          out.insert(out.end(), {instructionWord(OpConstant, 4), type, result, 0});
        else
          out.insert(out.end(), {instructionWord(OpConstant, 5), type, result, 0, 0});
        return;
      }
    }
    out.insert(out.end(), instruction.begin(), instruction.end());
  });
  return whole ? out : original;
}

} // namespace compiler::il
