// Calls from a SPIR module to OpenCL builtins, made as the target's front
// end makes them. Each builtin the module declares gets a shim written in
// OpenCL C that takes its arguments by address (pointers as they are) and
// calls the builtin; the target's front end compiles the shims, so the
// builtin's name, address spaces and calling convention (x86-64 passes a
// float8 byval, riscv64 a float4 as i128) are the target's own. Calls are
// then redirected to the shims and the shims inlined.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace compiler::il {

struct BuiltinShim {
  std::string spirName; ///< the SPIR-mangled declaration, e.g. _Z5fractfPU3AS1f
  std::string shimName; ///< its shim in the OpenCL C source
};

struct ShimPlan {
  /// OpenCL C: the shims, and `kProbeFunction`, whose parameters are
  /// pointers to private, global, constant, local and (where the device has
  /// it) generic memory, in that order.
  std::string source;
  std::vector<BuiltinShim> shims;
};

inline constexpr const char *kProbeFunction = "__pmx_il_probe";

/// The shims for the builtins `spir` declares (names `_Z...` without a
/// body). Fails naming a builtin whose mangling it cannot read.
llvm::Expected<ShimPlan> planBuiltinShims(const llvm::Module &spir);

/// Prefix given to the SPIR declarations before the shims' module is linked
/// in: the target may use the same name with another signature.
inline constexpr const char *kSpirDeclarationPrefix = "__pmx_spir.";

/// In `module`, which holds the renamed SPIR declarations and the compiled
/// shims: replaces each call to a declaration with a call to its shim,
/// inlines it, and removes the shims, the declarations and the probe.
llvm::Error callThroughShims(llvm::Module &module, const ShimPlan &plan);

} // namespace compiler::il
