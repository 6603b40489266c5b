#include "mux/status.h"

#include "llvm/Support/raw_ostream.h"

namespace mux {

char StatusError::ID = 0;

const char *statusName(Status status) {
  switch (status) {
  case Status::Success: return "success";
  case Status::OutOfMemory: return "out of memory";
  case Status::OutOfResources: return "out of resources";
  case Status::InvalidArgument: return "invalid argument";
  case Status::Unsupported: return "unsupported";
  case Status::Timeout: return "timeout";
  case Status::KernelFault: return "kernel fault";
  case Status::DeviceLost: return "device lost";
  case Status::Failure: return "failure";
  }
  return "unknown";
}

void StatusError::log(llvm::raw_ostream &os) const {
  os << statusName(status_);
  if (!message_.empty())
    os << ": " << message_;
}

std::error_code StatusError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

Status takeStatus(llvm::Error error) {
  Status status = Status::Success;
  llvm::handleAllErrors(std::move(error), [&](const StatusError &e) { status = e.status(); },
                        [&](const llvm::ErrorInfoBase &) { status = Status::Failure; });
  return status;
}

} // namespace mux
