#include "file_io.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace polymux::tool {

llvm::Expected<std::vector<char>> readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read '%s': %s", path.c_str(),
                                   buffer.getError().message().c_str());
  llvm::StringRef bytes = (*buffer)->getBuffer();
  return std::vector<char>(bytes.begin(), bytes.end());
}

llvm::Error writeFile(const std::string &path, std::string_view bytes) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_None);
  if (!error) {
    out.write(bytes.data(), bytes.size());
    out.close();
    error = out.error();
  }
  if (error)
    return llvm::createStringError(error, "cannot write '%s': %s", path.c_str(), error.message().c_str());
  return llvm::Error::success();
}

} // namespace polymux::tool
