// fillBuffer: vkCmdFillBuffer writes only a 4-byte word at 4-byte aligned
// offsets and sizes. Patterns of 1, 2 or 4 bytes fill the aligned middle
// with it and copy the unaligned ends from a small pattern block; every
// other pattern (3, 5..128 bytes) is copied from a block of the repeated
// pattern, and the filled part is then doubled on the device.
#include "command_buffer.h"

#include <algorithm>
#include <cstring>

namespace vulkan_target {
namespace {

/// Largest block of repeated pattern a fill puts in the record arena.
constexpr uint64_t kMaxFillBlock = 64 * 1024;

} // namespace

llvm::Error CommandBuffer::recordFillPieces(CommandTape &tape, VkBuffer dst, uint64_t offset, uint64_t size,
                                            const std::byte *pattern, size_t patternSize) {
  // The block holds whole patterns starting at phase 0; a copy that must
  // start at phase k reads from block offset k.
  const bool wordPattern = 4 % patternSize == 0;
  const uint64_t blockLength =
      wordPattern ? 8 : std::max<uint64_t>(patternSize, std::min(size, kMaxFillBlock) / patternSize * patternSize);
  auto block = arena_.allocate(blockLength, 16);
  if (!block)
    return block.takeError();
  for (uint64_t at = 0; at < blockLength; at += patternSize)
    std::memcpy(block->host + at, pattern, std::min<uint64_t>(patternSize, blockLength - at));
  auto copyFromBlock = [&](uint64_t at, uint64_t length) {
    // `at` is relative to the fill's start; the block's phase matches it.
    std::vector<VkBufferCopy> regions;
    const uint64_t phase = at % patternSize;
    const uint64_t chunk = blockLength - (wordPattern ? 4 : 0);
    for (uint64_t done = 0; done < length; done += chunk)
      regions.push_back({block->offset + phase, offset + at + done, std::min(chunk, length - done)});
    tape.copyBuffer(block->buffer, dst, regions);
  };
  if (!wordPattern) {
    // One block from the arena, then the filled part doubled in place:
    // the rest of the fill reads device memory, not host memory across a
    // bus, in log2(size / block) copies.
    copyFromBlock(0, std::min(size, blockLength));
    for (uint64_t done = blockLength; done < size;) {
      const uint64_t length = std::min(done, size - done);
      barrier(tape, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
              VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
      VkBufferCopy region{offset, offset + done, length};
      tape.copyBuffer(dst, dst, {&region, 1});
      done += length;
    }
    return llvm::Error::success();
  }
  const uint64_t head = std::min<uint64_t>(size, (4 - offset % 4) % 4);
  const uint64_t body = (size - head) / 4 * 4;
  const uint64_t tail = size - head - body;
  if (head)
    copyFromBlock(0, head);
  if (body) {
    uint32_t word = 0;
    std::memcpy(&word, block->host + head % patternSize, 4);
    tape.fillBuffer(dst, offset + head, body, word);
  }
  if (tail)
    copyFromBlock(head + body, tail);
  return llvm::Error::success();
}

} // namespace vulkan_target
