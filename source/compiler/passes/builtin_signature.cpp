#include "compiler/builtin_signature.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"

namespace compiler {
namespace {

std::optional<ScalarKind> parseMangledScalar(llvm::StringRef &text) {
  if (text.consume_front("Dh"))
    return ScalarKind::Half;
  if (text.empty())
    return std::nullopt;
  std::optional<ScalarKind> kind;
  switch (text.front()) {
  case 'c': // char: signed in OpenCL C
  case 'a':
    kind = ScalarKind::Char;
    break;
  case 'h':
    kind = ScalarKind::UChar;
    break;
  case 's':
    kind = ScalarKind::Short;
    break;
  case 't':
    kind = ScalarKind::UShort;
    break;
  case 'i':
    kind = ScalarKind::Int;
    break;
  case 'j':
    kind = ScalarKind::UInt;
    break;
  case 'l':
    kind = ScalarKind::Long;
    break;
  case 'm':
    kind = ScalarKind::ULong;
    break;
  case 'f':
    kind = ScalarKind::Float;
    break;
  case 'd':
    kind = ScalarKind::Double;
    break;
  default:
    return std::nullopt;
  }
  text = text.drop_front();
  return kind;
}

} // namespace

bool ClType::isSigned() const {
  switch (scalar) {
  case ScalarKind::Char:
  case ScalarKind::Short:
  case ScalarKind::Int:
  case ScalarKind::Long:
    return true;
  default:
    return isFloat();
  }
}

unsigned ClType::scalarBits() const {
  switch (scalar) {
  case ScalarKind::Char:
  case ScalarKind::UChar:
    return 8;
  case ScalarKind::Short:
  case ScalarKind::UShort:
  case ScalarKind::Half:
    return 16;
  case ScalarKind::Int:
  case ScalarKind::UInt:
  case ScalarKind::Float:
    return 32;
  case ScalarKind::Long:
  case ScalarKind::ULong:
  case ScalarKind::Double:
    return 64;
  }
  llvm_unreachable("unknown scalar kind");
}

llvm::Type *ClType::llvmType(llvm::LLVMContext &context) const {
  llvm::Type *element = nullptr;
  switch (scalar) {
  case ScalarKind::Half:
    element = llvm::Type::getHalfTy(context);
    break;
  case ScalarKind::Float:
    element = llvm::Type::getFloatTy(context);
    break;
  case ScalarKind::Double:
    element = llvm::Type::getDoubleTy(context);
    break;
  default:
    element = llvm::Type::getIntNTy(context, scalarBits());
    break;
  }
  return lanes == 1 ? element : llvm::FixedVectorType::get(element, lanes);
}

std::optional<ClType> parseClTypeName(llvm::StringRef name) {
  llvm::StringRef scalarName = name.rtrim("0123456789");
  llvm::StringRef lanesText = name.drop_front(scalarName.size());
  std::optional<ScalarKind> scalar = llvm::StringSwitch<std::optional<ScalarKind>>(scalarName)
                                         .Case("char", ScalarKind::Char)
                                         .Case("uchar", ScalarKind::UChar)
                                         .Case("short", ScalarKind::Short)
                                         .Case("ushort", ScalarKind::UShort)
                                         .Case("int", ScalarKind::Int)
                                         .Case("uint", ScalarKind::UInt)
                                         .Case("long", ScalarKind::Long)
                                         .Case("ulong", ScalarKind::ULong)
                                         .Case("half", ScalarKind::Half)
                                         .Case("float", ScalarKind::Float)
                                         .Case("double", ScalarKind::Double)
                                         .Default(std::nullopt);
  if (!scalar)
    return std::nullopt;
  unsigned lanes = 1;
  if (!lanesText.empty()) {
    if (lanesText.getAsInteger(10, lanes) || !llvm::is_contained({2u, 3u, 4u, 8u, 16u}, lanes))
      return std::nullopt;
  }
  return ClType{*scalar, lanes};
}

std::optional<BuiltinSignature> parseBuiltinSignature(llvm::StringRef symbol) {
  if (!symbol.consume_front("_Z"))
    return std::nullopt;
  unsigned length = 0;
  if (symbol.consumeInteger(10, length) || length == 0 || length > symbol.size())
    return std::nullopt;
  BuiltinSignature signature;
  signature.name = symbol.take_front(length);
  llvm::StringRef params = symbol.drop_front(length);
  // Vector types are substitution candidates, builtin scalar types are not.
  llvm::SmallVector<ClType, 3> substitutions;
  while (!params.empty()) {
    if (params.consume_front("S")) {
      unsigned index = 0;
      if (!params.consume_front("_")) {
        // S<seq-id>_ with a base-36 seq-id names candidate seq-id + 1.
        size_t end = params.find('_');
        if (end == llvm::StringRef::npos || params.take_front(end).getAsInteger(36, index))
          return std::nullopt;
        params = params.drop_front(end + 1);
        ++index;
      }
      if (index >= substitutions.size())
        return std::nullopt;
      signature.params.push_back(substitutions[index]);
      continue;
    }
    unsigned lanes = 1;
    bool vector = params.consume_front("Dv");
    if (vector && (params.consumeInteger(10, lanes) || !params.consume_front("_") || lanes < 2))
      return std::nullopt;
    std::optional<ScalarKind> scalar = parseMangledScalar(params);
    if (!scalar)
      return std::nullopt;
    signature.params.push_back({*scalar, lanes});
    if (vector)
      substitutions.push_back(signature.params.back());
  }
  if (signature.params.empty())
    return std::nullopt;
  return signature;
}

} // namespace compiler
