#include "compiler/il/spir_builtin_name.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace compiler::il {
namespace {

struct Type {
  std::string spelling;
  bool isPointer = false;
  bool isHandle = false;
};

const char *addressSpaceName(unsigned space) {
  switch (space) {
  case 0:
    return "__private";
  case 1:
    return "__global";
  case 2:
    return "__constant";
  case 3:
    return "__local";
  case 4:
    return "__generic";
  default:
    return nullptr;
  }
}

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text_(text) {}

  std::optional<SpirBuiltinName> parse() {
    if (!text_.consume_front("_Z"))
      return std::nullopt;
    auto name = sourceName();
    if (!name)
      return std::nullopt;
    SpirBuiltinName result;
    result.name = name->str();
    if (text_ == "v")
      return result;
    while (!text_.empty()) {
      auto type = parseType();
      if (!type)
        return std::nullopt;
      result.params.push_back({type->spelling, type->isPointer, type->isHandle});
    }
    return result;
  }

private:
  std::optional<llvm::StringRef> sourceName() {
    unsigned length = 0;
    if (text_.consumeInteger(10, length) || length == 0 || length > text_.size())
      return std::nullopt;
    llvm::StringRef name = text_.take_front(length);
    text_ = text_.drop_front(length);
    return name;
  }

  std::optional<Type> builtin() {
    if (text_.empty())
      return std::nullopt;
    if (text_.consume_front("Dh"))
      return Type{"half"};
    const char *spelling = nullptr;
    switch (text_.front()) {
    case 'v':
      spelling = "void";
      break;
    case 'b':
      spelling = "bool";
      break;
    case 'c':
    case 'a':
      spelling = "char";
      break;
    case 'h':
      spelling = "uchar";
      break;
    case 's':
      spelling = "short";
      break;
    case 't':
      spelling = "ushort";
      break;
    case 'i':
      spelling = "int";
      break;
    case 'j':
      spelling = "uint";
      break;
    case 'l':
    case 'x':
      spelling = "long";
      break;
    case 'm':
    case 'y':
      spelling = "ulong";
      break;
    case 'f':
      spelling = "float";
      break;
    case 'd':
      spelling = "double";
      break;
    default:
      return std::nullopt;
    }
    text_ = text_.drop_front();
    return Type{spelling};
  }

  /// S_ is the first substitution candidate, S<base 36>_ the one after.
  std::optional<Type> substitution() {
    size_t index = 0;
    if (!text_.consume_front("_")) {
      size_t value = 0;
      while (!text_.empty() && text_.front() != '_') {
        char c = text_.front();
        if (c >= '0' && c <= '9')
          value = value * 36 + (c - '0');
        else if (c >= 'A' && c <= 'Z')
          value = value * 36 + (c - 'A' + 10);
        else
          return std::nullopt;
        text_ = text_.drop_front();
      }
      if (!text_.consume_front("_"))
        return std::nullopt;
      index = value + 1;
    }
    if (index >= candidates_.size())
      return std::nullopt;
    return candidates_[index];
  }

  Type candidate(Type type) {
    candidates_.push_back(type);
    return type;
  }

  std::optional<Type> parseType() {
    if (text_.consume_front("S"))
      return substitution();
    if (text_.consume_front("Dv")) {
      unsigned lanes = 0;
      if (text_.consumeInteger(10, lanes) || !text_.consume_front("_"))
        return std::nullopt;
      auto element = builtin();
      if (!element)
        return std::nullopt;
      return candidate({element->spelling + std::to_string(lanes)});
    }
    if (text_.consume_front("P"))
      return pointer();
    if (text_.consume_front("U7_Atomic")) {
      auto value = parseType();
      if (!value || value->isPointer)
        return std::nullopt;
      return candidate({"atomic_" + value->spelling});
    }
    if (!text_.empty() && text_.front() >= '1' && text_.front() <= '9') {
      auto name = sourceName();
      if (!name)
        return std::nullopt;
      std::string spelling = llvm::StringSwitch<std::string>(*name)
                                 .Case("memory_order", "memory_order")
                                 .Case("memory_scope", "memory_scope")
                                 .Case("ocl_event", "event_t")
                                 .Default("");
      if (std::optional<std::string> handle = spirHandleSpelling(*name))
        return candidate({*handle, false, true});
      if (spelling.empty())
        return std::nullopt;
      return candidate({spelling});
    }
    return builtin();
  }

  /// After `P`: [U3AS<n>] [r] [V] [K] <type>.
  std::optional<Type> pointer() {
    unsigned space = 0;
    if (text_.consume_front("U3AS")) {
      if (text_.empty() || text_.front() < '0' || text_.front() > '4')
        return std::nullopt;
      space = text_.front() - '0';
      text_ = text_.drop_front();
    }
    std::string qualifiers;
    bool qualified = space != 0;
    if (text_.consume_front("r"))
      qualified = true; // restrict does not take part in overloading
    if (text_.consume_front("V")) {
      qualifiers += "volatile ";
      qualified = true;
    }
    if (text_.consume_front("K")) {
      qualifiers += "const ";
      qualified = true;
    }
    auto pointee = parseType();
    if (!pointee || pointee->isPointer || pointee->isHandle)
      return std::nullopt;
    if (qualified)
      candidate({qualifiers + pointee->spelling});
    return candidate({std::string(addressSpaceName(space)) + " " + qualifiers + pointee->spelling + " *", true});
  }

  llvm::StringRef text_;
  std::vector<Type> candidates_;
};

} // namespace

std::optional<SpirBuiltinName> parseSpirBuiltinName(llvm::StringRef symbol) { return Parser(symbol).parse(); }

std::optional<std::string> spirHandleSpelling(llvm::StringRef name) {
  if (name == "ocl_sampler")
    return std::string("sampler_t");
  if (!name.consume_front("ocl_image"))
    return std::nullopt;
  const char *access = nullptr;
  if (name.consume_back("_ro"))
    access = "read_only";
  else if (name.consume_back("_wo"))
    access = "write_only";
  else if (name.consume_back("_rw"))
    access = "read_write";
  if (!access || name.empty() || !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return std::nullopt;
  return std::string(access) + " image" + name.str() + "_t";
}

} // namespace compiler::il
