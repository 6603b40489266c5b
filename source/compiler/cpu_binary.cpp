#include "compiler/cpu_binary.h"

#include "compiler/byte_io.h"
#include "mux/status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

namespace compiler {
namespace {

constexpr size_t kMagicSize = 8;

uint64_t checksum(std::span<const std::byte> bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

llvm::Error invalid(std::string why) {
  return mux::makeError(mux::Status::InvalidArgument, "invalid device binary: " + why);
}

} // namespace

std::vector<std::byte> encodeCpuBinary(const CpuBinary &binary, std::string_view magic) {
  ByteWriter writer;
  char paddedMagic[kMagicSize] = {};
  magic.copy(paddedMagic, kMagicSize - 1);
  writer.raw(paddedMagic, kMagicSize);
  writer.u32(kCpuBinaryVersion);
  writer.u32(static_cast<uint32_t>(binary.kernels.size()));
  for (const CpuKernelBinaryInfo &kernel : binary.kernels) {
    writer.string(kernel.name);
    writer.u64(kernel.localMemSize);
    writer.u64(kernel.privateMemSize);
    writer.u64(kernel.workItemStateSize);
    writer.u32(kernel.flags);
    writer.u32(kernel.subGroupSize);
  }
  writer.u64(binary.globalVariableSize);
  writer.bytes(binary.printfTable);
  writer.bytes(binary.object);
  writer.u64(checksum(writer.data()));
  return writer.take();
}

llvm::Expected<CpuBinary> decodeCpuBinary(std::span<const std::byte> bytes, std::string_view magic) {
  ByteReader reader(bytes);
  auto magicBytes = reader.raw(kMagicSize);
  char expected[kMagicSize] = {};
  magic.copy(expected, kMagicSize - 1);
  if (reader.failed() || std::memcmp(magicBytes.data(), expected, kMagicSize) != 0)
    return invalid("not a " + std::string(magic) + " binary");
  if (uint32_t version = reader.u32(); version != kCpuBinaryVersion)
    return invalid("unsupported version " + std::to_string(version));
  CpuBinary binary;
  uint32_t count = reader.u32();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    CpuKernelBinaryInfo kernel;
    kernel.name = reader.string();
    kernel.localMemSize = reader.u64();
    kernel.privateMemSize = reader.u64();
    kernel.workItemStateSize = reader.u64();
    kernel.flags = reader.u32();
    kernel.subGroupSize = reader.u32();
    if (kernel.subGroupSize == 0)
      return invalid("kernel " + kernel.name + " has sub-groups of 0 work-items");
    binary.kernels.push_back(std::move(kernel));
  }
  binary.globalVariableSize = reader.u64();
  binary.printfTable = reader.bytes();
  binary.object = reader.bytes();
  size_t checkedSize = reader.position();
  uint64_t storedChecksum = reader.u64();
  if (reader.failed() || !reader.atEnd())
    return invalid("truncated or oversized");
  if (storedChecksum != checksum(bytes.first(checkedSize)))
    return invalid("checksum mismatch");
  return binary;
}

} // namespace compiler
