// The vulkan target's IR passes run on hand-written IR in their tests: the
// module parsed, the pass run, the result verified and printed.
#pragma once

#include "parse_ir.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace compiler::spirv::test {

struct PassedIr {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  /// The module after the pass.
  std::string text;

  /// The tests' kernel, `@k`.
  llvm::Function &kernel() { return *module->getFunction("k"); }
};

/// `ir` after module pass `pass`; a parse error or invalid result fails the
/// test (module is null after a parse error).
template <typename Pass> PassedIr runPassOnIr(Pass pass, llvm::StringRef ir) {
  PassedIr result;
  result.module = polymux::test::parseIrOrFail(ir, *result.context);
  if (!result.module)
    return result;
  llvm::ModuleAnalysisManager analyses;
  pass.run(*result.module, analyses);
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  EXPECT_FALSE(llvm::verifyModule(*result.module, &problemStream)) << problems;
  llvm::raw_string_ostream stream(result.text);
  result.module->print(stream, nullptr);
  return result;
}

} // namespace compiler::spirv::test
