#include "compiler/module_format.h"

#include "compiler/byte_io.h"
#include "mux/status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

namespace compiler {
namespace {

constexpr char kMagic[8] = {'P', 'M', 'X', 'M', 'O', 'D', 0, 0};

uint64_t checksum(std::span<const std::byte> bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

llvm::Error invalid(std::string why) {
  return mux::makeError(mux::Status::InvalidArgument, "invalid program binary: " + why);
}

void writeKernel(ByteWriter &writer, const KernelInfo &kernel) {
  writer.string(kernel.name);
  writer.u32(static_cast<uint32_t>(kernel.args.size()));
  for (const KernelArgInfo &arg : kernel.args) {
    writer.u32(static_cast<uint32_t>(arg.kind));
    writer.u32(arg.size);
    writer.u32(arg.alignment);
    writer.string(arg.name);
    writer.string(arg.typeName);
    writer.u32(static_cast<uint32_t>(arg.addressSpace));
    writer.u32(static_cast<uint32_t>(arg.access));
    writer.u32(arg.typeQualifiers);
    writer.u32(arg.entity);
  }
  for (size_t size : kernel.reqdWorkGroupSize)
    writer.u64(size);
  for (size_t size : kernel.workGroupSizeHint)
    writer.u64(size);
  writer.string(kernel.vecTypeHint);
  writer.string(kernel.attributes);
  writeEntities(writer, kernel.entities);
}

template <typename Enum> bool readEnum(ByteReader &reader, Enum &value, uint32_t last) {
  uint32_t raw = reader.u32();
  value = static_cast<Enum>(raw);
  return raw <= last;
}

bool readKernel(ByteReader &reader, KernelInfo &kernel) {
  kernel.name = reader.string();
  uint32_t count = reader.u32();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    KernelArgInfo arg;
    if (!readEnum(reader, arg.kind, static_cast<uint32_t>(KernelArgInfo::Kind::Sampler)))
      return false;
    arg.size = reader.u32();
    arg.alignment = reader.u32();
    arg.name = reader.string();
    arg.typeName = reader.string();
    if (!readEnum(reader, arg.addressSpace, static_cast<uint32_t>(AddressSpace::Generic)) ||
        !readEnum(reader, arg.access, static_cast<uint32_t>(AccessQualifier::ReadWrite)))
      return false;
    arg.typeQualifiers = reader.u32();
    arg.entity = reader.u32();
    kernel.args.push_back(std::move(arg));
  }
  for (size_t &size : kernel.reqdWorkGroupSize)
    size = reader.u64();
  for (size_t &size : kernel.workGroupSizeHint)
    size = reader.u64();
  kernel.vecTypeHint = reader.string();
  kernel.attributes = reader.string();
  if (!readEntities(reader, kernel.entities))
    return false;
  for (const KernelArgInfo &arg : kernel.args)
    if (arg.entity != kNoEntity && arg.entity >= kernel.entities.size())
      return false;
  return !reader.failed();
}

} // namespace

std::vector<std::byte> serializeModule(const ModuleData &data, std::string_view identity) {
  ByteWriter writer;
  writer.raw(kMagic, sizeof(kMagic));
  writer.u32(kModuleFormatVersion);
  writer.string(identity);
  writer.u32(static_cast<uint32_t>(data.kind));
  writer.string(data.options);
  writer.u32(data.optDisable ? 1 : 0);
  writer.u32(static_cast<uint32_t>(data.kernels.size()));
  for (const KernelInfo &kernel : data.kernels)
    writeKernel(writer, kernel);
  writer.bytes(std::as_bytes(std::span(data.bitcode)));
  writer.bytes(data.binary);
  writer.u64(checksum(writer.data()));
  return writer.take();
}

llvm::Expected<ModuleData> deserializeModule(std::span<const std::byte> bytes, std::string_view identity) {
  ByteReader reader(bytes);
  auto magic = reader.raw(sizeof(kMagic));
  if (reader.failed() || std::memcmp(magic.data(), kMagic, sizeof(kMagic)) != 0)
    return invalid("not a Polymux program binary");
  if (uint32_t version = reader.u32(); version != kModuleFormatVersion)
    return invalid("unsupported format version " + std::to_string(version));
  // Check the checksum before trusting any length field further on.
  if (bytes.size() < 8 + sizeof(kMagic) + 4)
    return invalid("truncated");
  size_t checkedSize = bytes.size() - 8;
  ByteReader tail(bytes.subspan(checkedSize));
  if (tail.u64() != checksum(bytes.first(checkedSize)))
    return invalid("checksum mismatch");
  std::string producer = reader.string();
  if (reader.failed())
    return invalid("truncated");
  if (producer != identity)
    return invalid("built for another device or compiler (" + producer + ")");
  ModuleData data;
  if (!readEnum(reader, data.kind, static_cast<uint32_t>(ModuleKind::Executable)))
    return invalid("unknown module kind");
  data.options = reader.string();
  data.optDisable = (reader.u32() & 1) != 0;
  uint32_t count = reader.u32();
  for (uint32_t i = 0; i < count && !reader.failed(); ++i) {
    KernelInfo kernel;
    if (!readKernel(reader, kernel))
      return invalid("corrupt kernel metadata");
    data.kernels.push_back(std::move(kernel));
  }
  auto bitcode = reader.raw(reader.u64());
  data.bitcode.assign(reinterpret_cast<const char *>(bitcode.data()),
                      reinterpret_cast<const char *>(bitcode.data()) + bitcode.size());
  data.binary = reader.bytes();
  if (reader.failed() || reader.position() != checkedSize)
    return invalid("truncated or oversized");
  return data;
}

} // namespace compiler
