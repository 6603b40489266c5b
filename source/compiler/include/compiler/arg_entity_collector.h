// Builds the type entities (type_entity.h) of every kernel's parameters from
// Clang's AST, with the device's layout (the ASTContext of the device's
// triple).
#pragma once

#include "compiler/arg_entity_metadata.h"

#include <memory>

namespace clang {
class ASTConsumer;
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace compiler {

/// The entities of `kernel`'s parameters.
KernelArgEntities collectArgEntities(clang::ASTContext &context, const clang::FunctionDecl &kernel);

/// An AST consumer that fills `out` with collectArgEntities() of every
/// kernel the translation unit defines (nothing when it has errors).
std::unique_ptr<clang::ASTConsumer> createArgEntityCollector(ArgEntityMap &out);

} // namespace compiler
