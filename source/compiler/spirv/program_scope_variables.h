// Program-scope __global variables and __constant data live in one block
// of device memory (LaunchField::GlobalVariables, compiler/abi/
// vulkan_kernel_abi.h): their offsets in it and its initial image.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <vector>

namespace compiler::spirv {

struct ProgramScopeBlock {
  llvm::DenseMap<const llvm::GlobalVariable *, uint64_t> offsets;
  uint64_t size = 0;
  std::vector<std::byte> initialImage;
};

/// Lays out every used __global / __constant variable of `module`. Fails
/// on an initializer the image cannot hold (the address of another
/// variable).
llvm::Expected<ProgramScopeBlock> layoutProgramScopeVariables(const llvm::Module &module);

} // namespace compiler::spirv
