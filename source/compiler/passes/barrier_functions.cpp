// Recognises the OpenCL C barrier builtins by their mangled names.
#include "compiler/passes.h"

namespace compiler {

bool isBarrierFunction(llvm::StringRef name) {
  // barrier(cl_mem_fence_flags), work_group_barrier(flags[, scope]),
  // sub_group_barrier(flags[, scope]); a sub-group is the whole work-group
  // on CPU targets, so all of them synchronise the work-group.
  return name == "_Z7barrierj" || name.starts_with("_Z18work_group_barrierj") ||
         name.starts_with("_Z17sub_group_barrierj");
}

} // namespace compiler
