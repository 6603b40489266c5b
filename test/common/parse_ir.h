// Textual LLVM IR for the compiler tests: a syntax error in a test's IR is a
// gtest failure that names the line, not a crash on a null module.
#pragma once

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace polymux::test {

/// `ir` parsed in `context`, or null after ADD_FAILURE with the parser's
/// diagnostic.
inline std::unique_ptr<llvm::Module> parseIrOrFail(llvm::StringRef ir, llvm::LLVMContext &context) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(ir, diagnostic, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    diagnostic.print("test", stream);
    ADD_FAILURE() << message;
  }
  return module;
}

} // namespace polymux::test
