#include "kernel_args.h"

#include "file_io.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

namespace polymux::tool {
namespace {

llvm::Error badSpec(std::string_view text, const std::string &why) {
  return llvm::createStringError("--arg '%.*s': %s", int(text.size()), text.data(), why.c_str());
}

llvm::Expected<ElementType> elementType(std::string_view text, llvm::StringRef name) {
  std::optional<ElementType> type = parseElementType(name);
  if (!type)
    return badSpec(text, "unknown type '" + name.str() +
                             "' (char, uchar, short, ushort, int, uint, long, ulong, float, double, and their "
                             "vectors such as float4)");
  return *type;
}

/// Comma-separated values, each a whole element or, for vectors, one lane;
/// `[...]` around them is optional.
llvm::Expected<std::vector<std::byte>> parseList(std::string_view text, const ElementType &type, llvm::StringRef list) {
  list = list.trim();
  if (list.consume_front("["))
    if (!list.consume_back("]"))
      return badSpec(text, "a list ends with ']'");
  llvm::SmallVector<llvm::StringRef, 16> words;
  list.split(words, ',', -1, /*KeepEmpty=*/true);
  if (words.size() % type.lanes != 0)
    return badSpec(text, std::to_string(words.size()) + " values do not make whole " + type.name() + " elements");
  std::vector<std::byte> bytes(words.size() / type.lanes * type.bytes());
  for (size_t i = 0; i < words.size(); ++i) {
    size_t element = i / type.lanes, lane = i % type.lanes;
    std::byte *out = bytes.data() + element * type.bytes() + lane * type.scalar->bytes;
    if (llvm::Error error = parseScalar(*type.scalar, words[i], out))
      return badSpec(text, llvm::toString(std::move(error)));
  }
  return bytes;
}

/// Fills every lane of `count` elements with `make(lane index in the
/// buffer, out)`.
template <typename Make> std::vector<std::byte> generate(const ElementType &type, uint64_t count, Make make) {
  std::vector<std::byte> bytes(count * type.bytes());
  for (uint64_t element = 0; element < count; ++element)
    for (unsigned lane = 0; lane < type.lanes; ++lane)
      make(element, bytes.data() + element * type.bytes() + lane * type.scalar->bytes);
  return bytes;
}

llvm::Expected<std::vector<std::byte>> initialContents(std::string_view text, const ElementType &type,
                                                       std::optional<uint64_t> count, llvm::StringRef init,
                                                       uint64_t seed) {
  if (init.starts_with("file=")) {
    auto file = readFile(init.drop_front(5).str());
    if (!file)
      return badSpec(text, llvm::toString(file.takeError()));
    if (file->size() % type.bytes() != 0 || file->empty())
      return badSpec(text, "the file's " + std::to_string(file->size()) + " bytes are not whole " + type.name() +
                               " elements");
    if (count && *count != file->size() / type.bytes())
      return badSpec(text, "the file holds " + std::to_string(file->size() / type.bytes()) + " elements, not " +
                               std::to_string(*count));
    std::vector<std::byte> bytes(file->size());
    std::memcpy(bytes.data(), file->data(), file->size());
    return bytes;
  }
  if (init.starts_with("[")) {
    auto bytes = parseList(text, type, init);
    if (!bytes)
      return bytes.takeError();
    if (count && *count != bytes->size() / type.bytes())
      return badSpec(text, "the list has " + std::to_string(bytes->size() / type.bytes()) + " elements, not " +
                               std::to_string(*count));
    if (bytes->empty())
      return badSpec(text, "the list is empty");
    return bytes;
  }
  if (!count)
    return badSpec(text, "give the element count (buf:TYPE:COUNT:INIT), a file=PATH or a [list]");
  if (init.empty() || init == "zeros")
    return std::vector<std::byte>(*count * type.bytes());
  if (init == "iota")
    return generate(type, *count, [&](uint64_t element, std::byte *out) { storeIndex(*type.scalar, element, out); });
  if (init.consume_front("fill=")) {
    std::vector<std::byte> value(type.scalar->bytes);
    if (llvm::Error error = parseScalar(*type.scalar, init, value.data()))
      return badSpec(text, llvm::toString(std::move(error)));
    return generate(type, *count, [&](uint64_t, std::byte *out) { std::memcpy(out, value.data(), value.size()); });
  }
  if (init == "random" || init.starts_with("random=")) {
    llvm::StringRef range = init.consume_front("random=") ? init : llvm::StringRef();
    auto random = RandomValues::create(*type.scalar, range, seed);
    if (!random)
      return badSpec(text, llvm::toString(random.takeError()));
    return generate(type, *count, [&](uint64_t, std::byte *out) { random->next(out); });
  }
  return badSpec(text, "unknown contents '" + init.str() +
                           "' (zeros, iota, fill=V, random, random=LOW..HIGH, file=PATH, [V,...])");
}

llvm::Expected<ArgSpec> parseBuffer(std::string_view text, llvm::StringRef rest, uint64_t seed) {
  ArgSpec spec;
  spec.kind = ArgSpec::Kind::Buffer;
  spec.text = std::string(text);
  auto [typeName, afterType] = rest.split(':');
  auto type = elementType(text, typeName);
  if (!type)
    return type.takeError();
  spec.element = *type;
  std::optional<uint64_t> count;
  llvm::StringRef init = afterType;
  if (!afterType.starts_with("file=") && !afterType.starts_with("[")) {
    auto [countText, initText] = afterType.split(':');
    uint64_t value;
    if (countText.getAsInteger(0, value) || value == 0)
      return badSpec(text, ("'" + countText + "' is not an element count").str());
    count = value;
    init = initText;
  }
  auto bytes = initialContents(text, *type, count, init, seed);
  if (!bytes)
    return bytes.takeError();
  spec.bytes = std::move(*bytes);
  spec.count = spec.bytes.size() / type->bytes();
  return spec;
}

llvm::Expected<ArgSpec> parseLocal(std::string_view text, llvm::StringRef rest) {
  ArgSpec spec;
  spec.kind = ArgSpec::Kind::Local;
  spec.text = std::string(text);
  auto [first, second] = rest.split(':');
  uint64_t count;
  if (second.empty()) {
    if (first.getAsInteger(0, spec.localBytes) || spec.localBytes == 0)
      return badSpec(text, ("'" + first + "' is not a size in bytes").str());
    return spec;
  }
  auto type = elementType(text, first);
  if (!type)
    return type.takeError();
  if (second.getAsInteger(0, count) || count == 0)
    return badSpec(text, ("'" + second + "' is not an element count").str());
  spec.localBytes = count * type->bytes();
  return spec;
}

llvm::Expected<ArgSpec> parseValue(std::string_view text, llvm::StringRef typeName, llvm::StringRef values) {
  ArgSpec spec;
  spec.kind = ArgSpec::Kind::Value;
  spec.text = std::string(text);
  auto type = elementType(text, typeName);
  if (!type)
    return type.takeError();
  spec.element = *type;
  if (values.empty())
    return badSpec(text, "no value after '" + typeName.str() + ":'");
  // One value fills every lane of a vector.
  if (type->lanes > 1 && !values.contains(',')) {
    std::string lanes = values.str();
    for (unsigned i = 1; i < type->lanes; ++i)
      (lanes += ',') += values;
    auto bytes = parseList(text, *type, lanes);
    if (!bytes)
      return bytes.takeError();
    spec.bytes = std::move(*bytes);
    return spec;
  }
  auto bytes = parseList(text, *type, values);
  if (!bytes)
    return bytes.takeError();
  if (bytes->size() != type->bytes())
    return badSpec(text, "a " + type->name() + " takes " + std::to_string(type->lanes) + " values");
  spec.bytes = std::move(*bytes);
  return spec;
}

/// The type a parameter's type name declares, pointers stripped of their
/// '*', when it is one the tool knows.
std::optional<ElementType> declaredType(const compiler::KernelArgInfo &arg) {
  llvm::StringRef name = llvm::StringRef(arg.typeName).trim();
  if (arg.kind != compiler::KernelArgInfo::Kind::Value)
    name.consume_back("*");
  return parseElementType(name.trim());
}

const char *kindName(compiler::KernelArgInfo::Kind kind) {
  switch (kind) {
  case compiler::KernelArgInfo::Kind::GlobalPointer:
    return "a __global pointer (buf:..., or null)";
  case compiler::KernelArgInfo::Kind::ConstantPointer:
    return "a __constant pointer (buf:..., or null)";
  case compiler::KernelArgInfo::Kind::LocalPointer:
    return "a __local pointer (local:...)";
  case compiler::KernelArgInfo::Kind::Value:
    return "a value (TYPE:V)";
  case compiler::KernelArgInfo::Kind::Image:
    return "an image";
  case compiler::KernelArgInfo::Kind::Sampler:
    return "a sampler";
  }
  return "?";
}

} // namespace

llvm::Expected<ArgSpec> parseArgSpec(std::string_view text, uint64_t seed, unsigned index) {
  llvm::StringRef spec(text.data(), text.size());
  if (spec == "null") {
    ArgSpec result;
    result.kind = ArgSpec::Kind::Null;
    result.text = std::string(text);
    return result;
  }
  auto [head, rest] = spec.split(':');
  if (head == "buf")
    return parseBuffer(text, rest, seed + index);
  if (head == "local")
    return parseLocal(text, rest);
  if (rest.empty())
    return badSpec(text, "not buf:..., local:..., null or TYPE:VALUE");
  return parseValue(text, head, rest);
}

llvm::Error checkArgs(const std::vector<ArgSpec> &specs, const compiler::KernelInfo &kernel) {
  if (specs.size() != kernel.args.size())
    return llvm::createStringError("kernel '%s' takes %zu arguments, --arg gave %zu", kernel.name.c_str(),
                                   kernel.args.size(), specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const ArgSpec &spec = specs[i];
    const compiler::KernelArgInfo &arg = kernel.args[i];
    using Kind = compiler::KernelArgInfo::Kind;
    const bool pointer = arg.kind == Kind::GlobalPointer || arg.kind == Kind::ConstantPointer;
    const bool fits = (pointer && (spec.kind == ArgSpec::Kind::Buffer || spec.kind == ArgSpec::Kind::Null)) ||
                      (arg.kind == Kind::LocalPointer && spec.kind == ArgSpec::Kind::Local) ||
                      (arg.kind == Kind::Value && spec.kind == ArgSpec::Kind::Value);
    auto describe = [&] { return "argument " + std::to_string(i) + " '" + arg.name + "' (" + arg.typeName + ")"; };
    if (!fits)
      return llvm::createStringError("%s is %s; --arg gave '%s'", describe().c_str(), kindName(arg.kind),
                                     spec.text.c_str());
    if (spec.kind != ArgSpec::Kind::Buffer && spec.kind != ArgSpec::Kind::Value)
      continue;
    std::optional<ElementType> declared = declaredType(arg);
    if (declared && declared->name() != spec.element.name())
      return llvm::createStringError("%s is of type %s; --arg gave %s", describe().c_str(), declared->name().c_str(),
                                     spec.element.name().c_str());
    if (spec.kind == ArgSpec::Kind::Value && spec.bytes.size() != arg.size)
      return llvm::createStringError("%s takes %u bytes; --arg '%s' gives %zu", describe().c_str(), arg.size,
                                     spec.text.c_str(), spec.bytes.size());
  }
  return llvm::Error::success();
}

bool mayWrite(const compiler::KernelArgInfo &arg) {
  return arg.kind == compiler::KernelArgInfo::Kind::GlobalPointer && !(arg.typeQualifiers & compiler::QualConst);
}

} // namespace polymux::tool
