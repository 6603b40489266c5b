// The error of a build that fails: Status::Failure with a build-log message.
#pragma once

#include "mux/status.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace compiler::spirv {

inline llvm::Error buildFailure(const llvm::Twine &message) {
  return mux::makeError(mux::Status::Failure, message.str());
}

} // namespace compiler::spirv
