// SPIR-V programs: a SPIR-V module in the OpenCL (Kernel) environment ->
// an llvm::Module that looks as the target's OpenCL C front end would have
// emitted it, ready for the same passes (doc/architecture.md, "SPIR-V
// programs").
#pragma once

#include "compiler/frontend.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace compiler::il {

/// The SPIR-V versions the translator reads, as CL_DEVICE_IL_VERSION
/// spells them; empty when there is no translator (spirv_translator.h).
std::string spirvVersionsRead();

/// Translates `il` (spirv_translator.h), moves it to the convention of
/// `config`'s triple (retarget_spir_module.h) and routes its builtin calls
/// through shims the target's front end compiles (builtin_shims.h); kernel
/// metadata gets what Clang emits for OpenCL C. Messages go to `log`.
/// Thread-safe.
llvm::Expected<std::unique_ptr<llvm::Module>> readSpirvProgram(llvm::LLVMContext &context,
                                                               std::span<const std::byte> il,
                                                               const FrontendConfig &config, std::string &log);

} // namespace compiler::il
