#include "compiler/il/spirv_words.h"

#include <cstring>

namespace compiler::il::spirv_words {

std::optional<std::vector<uint32_t>> hostOrderWords(std::span<const std::byte> il, bool &swapped) {
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

} // namespace compiler::il::spirv_words
