#include "program_binary.h"

#include "compiler/build_options.h"
#include "mux/status.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <optional>
#include <string_view>

namespace polymux::cl {
namespace {

constexpr char kMagic[8] = {'P', 'M', 'X', 'B', 'I', 'N', '\0', '\0'};

uint64_t checksum(std::span<const std::byte> bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

class Writer {
public:
  template <class T> void integer(T value) {
    T little = llvm::support::endian::byte_swap<T>(value, llvm::endianness::little);
    bytes(&little, sizeof(T));
  }
  void bytes(const void *data, size_t size) {
    auto *begin = static_cast<const std::byte *>(data);
    out.insert(out.end(), begin, begin + size);
  }
  std::vector<std::byte> out;
};

class Reader {
public:
  explicit Reader(std::span<const std::byte> in) : in_(in) {}
  template <class T> std::optional<T> integer() {
    if (in_.size() - pos_ < sizeof(T))
      return std::nullopt;
    T value = llvm::support::endian::read<T, llvm::endianness::little>(in_.data() + pos_);
    pos_ += sizeof(T);
    return value;
  }
  std::optional<std::span<const std::byte>> bytes(uint64_t size) {
    if (in_.size() - pos_ < size)
      return std::nullopt;
    auto result = in_.subspan(pos_, size);
    pos_ += size;
    return result;
  }
  size_t position() const { return pos_; }

private:
  std::span<const std::byte> in_;
  size_t pos_ = 0;
};

llvm::Error corrupt(std::string why) {
  return mux::makeError(mux::Status::InvalidArgument, "invalid program binary: " + std::move(why));
}

bool knownType(cl_program_binary_type type) {
  return type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || type == CL_PROGRAM_BINARY_TYPE_LIBRARY ||
         type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

} // namespace

uint32_t ilBuildFlagsFromOptions(std::string_view options) {
  auto parsed = compiler::parseBuildOptions(options, compiler::OptionsUse::Build);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return BinaryFlagUniformWorkGroups;
  }
  return parsed->uniformWorkGroupSize ? BinaryFlagUniformWorkGroups : 0;
}

uint32_t buildFlagsFromOptions(std::string_view options) {
  auto parsed = compiler::parseBuildOptions(options, compiler::OptionsUse::Build);
  if (!parsed) {
    // The compiler rejects these options too; nothing gets built with them.
    llvm::consumeError(parsed.takeError());
    return BinaryFlagUniformWorkGroups;
  }
  uint32_t flags = 0;
  if (parsed->kernelArgInfo)
    flags |= BinaryFlagKernelArgInfo;
  // Non-uniform work-groups exist from OpenCL C 2.0 on; without -cl-std the
  // language version is 1.2.
  if (parsed->uniformWorkGroupSize || parsed->clStd < 200)
    flags |= BinaryFlagUniformWorkGroups;
  return flags;
}

std::vector<std::byte> encodeProgramBinary(const ProgramBinary &binary) {
  Writer w;
  w.bytes(kMagic, sizeof(kMagic));
  w.integer<uint32_t>(ProgramBinary::kVersion);
  w.integer<uint32_t>(static_cast<uint32_t>(binary.type));
  w.integer<uint32_t>(binary.flags);
  w.integer<uint32_t>(static_cast<uint32_t>(binary.compilerIdentity.size()));
  w.bytes(binary.compilerIdentity.data(), binary.compilerIdentity.size());
  w.integer<uint32_t>(static_cast<uint32_t>(binary.options.size()));
  w.bytes(binary.options.data(), binary.options.size());
  w.integer<uint64_t>(binary.module.size());
  w.bytes(binary.module.data(), binary.module.size());
  w.integer<uint64_t>(checksum(w.out));
  return std::move(w.out);
}

llvm::Expected<ProgramBinary> decodeProgramBinary(std::span<const std::byte> bytes) {
  Reader r(bytes);
  auto magic = r.bytes(sizeof(kMagic));
  if (!magic || std::memcmp(magic->data(), kMagic, sizeof(kMagic)) != 0)
    return corrupt("not a Polymux program binary");
  auto version = r.integer<uint32_t>();
  if (!version || *version != ProgramBinary::kVersion)
    return corrupt("unsupported container version");
  ProgramBinary result;
  auto type = r.integer<uint32_t>();
  auto flags = r.integer<uint32_t>();
  if (!type || !flags || !knownType(*type))
    return corrupt("unknown binary type");
  result.type = *type;
  result.flags = *flags;
  auto identitySize = r.integer<uint32_t>();
  auto identity = identitySize ? r.bytes(*identitySize) : std::nullopt;
  if (!identity)
    return corrupt("truncated");
  result.compilerIdentity.assign(reinterpret_cast<const char *>(identity->data()), identity->size());
  auto optionsSize = r.integer<uint32_t>();
  auto options = optionsSize ? r.bytes(*optionsSize) : std::nullopt;
  if (!options)
    return corrupt("truncated");
  result.options.assign(reinterpret_cast<const char *>(options->data()), options->size());
  auto moduleSize = r.integer<uint64_t>();
  auto module = moduleSize ? r.bytes(*moduleSize) : std::nullopt;
  if (!module)
    return corrupt("truncated");
  result.module.assign(module->begin(), module->end());
  size_t checkedSize = r.position();
  auto sum = r.integer<uint64_t>();
  if (!sum || *sum != checksum(bytes.first(checkedSize)))
    return corrupt("checksum mismatch");
  if (r.position() != bytes.size())
    return corrupt("trailing bytes");
  return result;
}

} // namespace polymux::cl
