#include "compiler/builtin_library.h"

#include "mux/status.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

namespace compiler {

llvm::Error linkBuiltinLibrary(llvm::Module &module, std::span<const std::byte> library) {
  if (library.empty())
    return llvm::Error::success();
  llvm::StringSet<> definedBefore;
  bool needsLibrary = false;
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration())
      definedBefore.insert(function.getName());
    else if (!function.isIntrinsic() && !function.use_empty())
      needsLibrary = true;
  }
  if (!needsLibrary)
    return llvm::Error::success();

  llvm::MemoryBufferRef buffer(llvm::StringRef(reinterpret_cast<const char *>(library.data()), library.size()),
                               "polymux-builtins");
  // Lazy: only the functions the linker pulls in are read and materialised.
  auto builtins = llvm::getLazyBitcodeModule(buffer, module.getContext());
  if (!builtins)
    return mux::makeError(mux::Status::Failure, "internal compiler error: the builtins library cannot be read: " +
                                                    llvm::toString(builtins.takeError()));
  (*builtins)->setDataLayout(module.getDataLayout());
  (*builtins)->setTargetTriple(module.getTargetTriple());
  if (llvm::Linker::linkModules(module, std::move(*builtins), llvm::Linker::Flags::LinkOnlyNeeded))
    return mux::makeError(mux::Status::Failure, "internal compiler error: linking the builtins library failed");

  for (llvm::Function &function : module) {
    if (function.isDeclaration() || definedBefore.contains(function.getName()))
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(kBuiltinLibraryAttribute);
  }
  for (llvm::GlobalVariable &variable : module.globals())
    if (!variable.isDeclaration() && variable.getName().starts_with("__pmx_"))
      variable.setLinkage(llvm::GlobalValue::InternalLinkage);
  return llvm::Error::success();
}

} // namespace compiler
