// Recognises the OpenCL C barrier builtins by their mangled names.
#include "compiler/passes.h"

namespace compiler {

bool isBarrierFunction(llvm::StringRef name) {
  // barrier(cl_mem_fence_flags), work_group_barrier(flags[, scope]),
  // sub_group_barrier(flags[, scope]).
  return name == "_Z7barrierj" || name.starts_with("_Z18work_group_barrierj") || isSubGroupBarrierFunction(name);
}

bool isSubGroupBarrierFunction(llvm::StringRef name) { return name.starts_with("_Z17sub_group_barrierj"); }

} // namespace compiler
