// Kernel argument type entities (type_entity.h) travel from the front end to
// kernelInfo() as metadata on each kernel function, so they survive
// bitcode, clCompileProgram + clLinkProgram and libraries exactly as the
// kernels themselves do.
#pragma once

#include "compiler/type_entity.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace compiler {

/// One kernel's entity table and the entity of each of its parameters.
struct KernelArgEntities {
  std::vector<TypeEntity> entities;
  std::vector<EntityIndex> args;
};

/// Kernel name -> its argument entities, as the front end collects them.
using ArgEntityMap = std::map<std::string, KernelArgEntities, std::less<>>;

/// Attaches each entry of `entities` to the kernel function of that name.
void attachArgEntities(llvm::Module &module, const ArgEntityMap &entities);

/// The argument entities attached to `kernel`; nullopt when there are none
/// or they do not decode.
std::optional<KernelArgEntities> argEntities(const llvm::Function &kernel);

} // namespace compiler
