// The OpenCL C parameter types of a builtin, read from its Itanium mangling.
// Lowering passes use them instead of the IR signature, which the target's
// calling convention may have rewritten (on x86-64 a uint2 parameter is a
// `double`, a float8 one may be a `ptr byval(<8 x float>)`).
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Type.h"

#include <optional>

namespace compiler {

enum class ScalarKind { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double };

/// An OpenCL C scalar (lanes == 1) or vector type.
struct ClType {
  ScalarKind scalar = ScalarKind::Int;
  unsigned lanes = 1;

  bool isFloat() const { return scalar >= ScalarKind::Half; }
  bool isSigned() const;
  unsigned scalarBits() const;
  ClType scalarType() const { return {scalar, 1}; }
  llvm::Type *llvmType(llvm::LLVMContext &context) const;
  friend bool operator==(const ClType &, const ClType &) = default;
};

/// `convert_<T><n>` names the type `<T><n>` ("uchar4", "float"); this
/// parses such a type name.
std::optional<ClType> parseClTypeName(llvm::StringRef name);

struct BuiltinSignature {
  llvm::StringRef name;
  llvm::SmallVector<ClType, 3> params;
};

/// Parses `_Z<len><name><params>` where every parameter is a scalar or a
/// vector of a builtin arithmetic type (substitutions S_, S0_, ... allowed).
/// Anything else (pointers, images, structs) gives std::nullopt.
std::optional<BuiltinSignature> parseBuiltinSignature(llvm::StringRef symbol);

} // namespace compiler
