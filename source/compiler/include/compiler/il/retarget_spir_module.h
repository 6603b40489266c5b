// Moves a module in SPIR's convention (spir64, address spaces 0 private,
// 1 global, 2 constant, 3 local, 4 generic, spir_func calls) to the
// convention the target's OpenCL C front end uses, as a copy: the types of
// globals, functions, arguments, allocas and instructions get the target's
// address spaces, casts between spaces the target does not tell apart
// disappear, intrinsics are renamed for their new types.
#pragma once

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <string>

namespace compiler::il {

struct TargetConvention {
  std::string triple;
  std::string dataLayout;
  /// The target's address space for SPIR address space i (0 to 4).
  std::array<unsigned, 5> addressSpaces = {0, 1, 2, 3, 4};
  /// The calling convention of functions other than kernels.
  llvm::CallingConv::ID functionCallingConv = llvm::CallingConv::SPIR_FUNC;
};

/// A copy of `spir` (in its context) in `convention`; fails when the result
/// does not verify.
llvm::Expected<std::unique_ptr<llvm::Module>> retargetSpirModule(llvm::Module &spir,
                                                                 const TargetConvention &convention);

} // namespace compiler::il
