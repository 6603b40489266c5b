// Program-scope __global variables and __constant data live in one block
// of device memory (LaunchField::GlobalVariables, compiler/abi/
// vulkan_kernel_abi.h): their offsets in it and its initial image.
#pragma once

#include "compiler/vulkan_binary.h"

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
  /// Pointers the initialisers hold: addresses of (parts of) variables in
  /// the block, which the runtime computes once it has placed the block.
  std::vector<VulkanGlobalRelocation> relocations;
};

/// Lays out every used __global / __constant variable of `module`. Fails
/// on an initializer the image cannot hold (an address outside the block).
llvm::Expected<ProgramScopeBlock> layoutProgramScopeVariables(const llvm::Module &module);

} // namespace compiler::spirv
