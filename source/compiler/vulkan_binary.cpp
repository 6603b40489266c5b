#include "compiler/vulkan_binary.h"

#include "compiler/byte_io.h"
#include "mux/status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

namespace compiler {
namespace {

constexpr char kMagic[8] = {'P', 'M', 'X', 'V', 'K', 0, 0, 0};

uint64_t checksum(std::span<const std::byte> bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

llvm::Error invalid(std::string why) {
  return mux::makeError(mux::Status::InvalidArgument, "invalid vulkan device binary: " + why);
}

} // namespace

std::vector<std::byte> encodeVulkanBinary(const VulkanBinary &binary) {
  ByteWriter writer;
  writer.raw(kMagic, sizeof(kMagic));
  writer.u32(kVulkanBinaryVersion);
  writer.u32(static_cast<uint32_t>(binary.kernels.size()));
  for (const VulkanKernelBinaryInfo &kernel : binary.kernels) {
    writer.string(kernel.name);
    for (uint32_t size : kernel.reqdWorkGroupSize)
      writer.u32(size);
    writer.u64(kernel.localMemSize);
    writer.u32(kernel.pushConstantSize);
    writer.u32(kernel.argumentBufferSize);
    for (uint32_t offset : kernel.launchFieldOffsets)
      writer.u32(offset);
    writer.u32(kernel.flags);
    writer.u32(static_cast<uint32_t>(kernel.args.size()));
    for (const VulkanKernelArg &arg : kernel.args) {
      writer.u32(static_cast<uint32_t>(arg.kind));
      writer.u32(arg.offset);
      writer.u32(arg.size);
      writer.u32(arg.specConstantId);
      writer.u32(arg.rangeOffset);
      writer.u32(arg.texelRangeOffset);
    }
  }
  writer.u64(binary.globalVariableSize);
  writer.bytes(binary.globalVariableInit);
  writer.u64(binary.globalVariableRelocations.size());
  for (const VulkanGlobalRelocation &relocation : binary.globalVariableRelocations) {
    writer.u64(relocation.offset);
    writer.u64(relocation.target);
  }
  writer.bytes(binary.printfTable);
  writer.bytes(std::as_bytes(std::span(binary.spirv)));
  writer.u64(checksum(writer.data()));
  return writer.take();
}

llvm::Expected<VulkanBinary> decodeVulkanBinary(std::span<const std::byte> bytes) {
  ByteReader reader(bytes);
  auto magic = reader.raw(sizeof(kMagic));
  if (reader.failed() || std::memcmp(magic.data(), kMagic, sizeof(kMagic)) != 0)
    return invalid("not a PMXVK binary");
  if (uint32_t version = reader.u32(); version != kVulkanBinaryVersion)
    return invalid("unsupported version " + std::to_string(version));
  VulkanBinary binary;
  uint32_t count = reader.u32();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    VulkanKernelBinaryInfo kernel;
    kernel.name = reader.string();
    for (uint32_t &size : kernel.reqdWorkGroupSize)
      size = reader.u32();
    kernel.localMemSize = reader.u64();
    kernel.pushConstantSize = reader.u32();
    kernel.argumentBufferSize = reader.u32();
    for (uint32_t &offset : kernel.launchFieldOffsets)
      offset = reader.u32();
    kernel.flags = reader.u32();
    uint32_t argCount = reader.u32();
    for (uint32_t a = 0; a < argCount && !reader.failed(); ++a) {
      VulkanKernelArg arg;
      uint32_t kind = reader.u32();
      if (kind > static_cast<uint32_t>(VulkanKernelArg::Kind::Local))
        return invalid("unknown argument kind");
      arg.kind = static_cast<VulkanKernelArg::Kind>(kind);
      arg.offset = reader.u32();
      arg.size = reader.u32();
      arg.specConstantId = reader.u32();
      arg.rangeOffset = reader.u32();
      arg.texelRangeOffset = reader.u32();
      kernel.args.push_back(arg);
    }
    binary.kernels.push_back(std::move(kernel));
  }
  binary.globalVariableSize = reader.u64();
  binary.globalVariableInit = reader.bytes();
  uint64_t relocations = reader.u64();
  for (uint64_t i = 0; i < relocations && !reader.failed(); ++i) {
    VulkanGlobalRelocation relocation;
    relocation.offset = reader.u64();
    relocation.target = reader.u64();
    if (relocation.offset > binary.globalVariableSize || binary.globalVariableSize - relocation.offset < 8)
      return invalid("relocation outside the program-scope variable block");
    binary.globalVariableRelocations.push_back(relocation);
  }
  binary.printfTable = reader.bytes();
  std::vector<std::byte> spirv = reader.bytes();
  size_t checkedSize = reader.position();
  uint64_t storedChecksum = reader.u64();
  if (reader.failed() || !reader.atEnd())
    return invalid("truncated or oversized");
  if (storedChecksum != checksum(bytes.first(checkedSize)))
    return invalid("checksum mismatch");
  if (spirv.size() % 4 != 0)
    return invalid("SPIR-V size is not a multiple of 4");
  if (binary.globalVariableInit.size() > binary.globalVariableSize)
    return invalid("initial contents larger than the variable block");
  binary.spirv.resize(spirv.size() / 4);
  std::memcpy(binary.spirv.data(), spirv.data(), spirv.size());
  return binary;
}

} // namespace compiler
