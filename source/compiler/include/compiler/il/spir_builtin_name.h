// Reads the parameter types of an OpenCL builtin from its SPIR mangling
// (`_Z5fractfPU3AS1f`: fract(float, __global float *)), as OpenCL C
// spellings, so that a call can be written in OpenCL C again.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace compiler::il {

struct SpirParam {
  /// The OpenCL C type, e.g. "float4", "__global const float *",
  /// "__generic volatile atomic_int *".
  std::string spelling;
  bool isPointer = false;
  /// An image or a sampler ("read_only image2d_t", "sampler_t"): a pointer
  /// in SPIR, passed as it is.
  bool isHandle = false;
};

struct SpirBuiltinName {
  std::string name;
  std::vector<SpirParam> params;
};

/// Parses `_Z<len><name><params>` for the types OpenCL builtins take:
/// builtin scalars, vectors (Dv), pointers with SPIR address spaces (U3AS<n>)
/// and CV qualifiers, _Atomic, memory_order/memory_scope, event_t, images
/// and samplers, and substitutions. Anything else (structs, pointers to
/// pointers) gives std::nullopt.
std::optional<SpirBuiltinName> parseSpirBuiltinName(llvm::StringRef symbol);

/// The OpenCL C spelling of an image or sampler type from its SPIR name:
/// "ocl_image2d_ro" is "read_only image2d_t", "ocl_sampler" "sampler_t";
/// std::nullopt for other names.
std::optional<std::string> spirHandleSpelling(llvm::StringRef name);

} // namespace compiler::il
