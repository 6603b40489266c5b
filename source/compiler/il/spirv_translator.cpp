#include "compiler/il/spirv_translator.h"

#include "compiler/il/spirv_scalar_nulls.h"
#include "compiler/il/spirv_words.h"

#include "mux/status.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace compiler::il {
namespace {

constexpr const char *kTranslator = "llvm-spirv-15";

std::optional<std::string> findTranslator() {
  if (const char *override = std::getenv("POLYMUX_LLVM_SPIRV")) {
    if (*override && llvm::sys::fs::can_execute(override))
      return std::string(override);
    return std::nullopt;
  }
  if (auto found = llvm::sys::findProgramByName(kTranslator))
    return *found;
  std::string fallback = std::string("/usr/bin/") + kTranslator;
  if (llvm::sys::fs::can_execute(fallback))
    return fallback;
  return std::nullopt;
}

/// A temporary file removed when the object goes.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

llvm::Error createTemp(const char *suffix, TempFile &file) {
  if (std::error_code error = llvm::sys::fs::createTemporaryFile("polymux-il", suffix, file.path))
    return mux::makeError(mux::Status::Failure, "cannot create a temporary file: " + error.message());
  return llvm::Error::success();
}

} // namespace

const std::optional<std::string> &spirvTranslatorPath() {
  static const std::optional<std::string> path = findTranslator();
  return path;
}

std::optional<std::string> spirvTranslatorIdentity() {
  const std::optional<std::string> &path = spirvTranslatorPath();
  llvm::sys::fs::file_status status;
  if (!path || llvm::sys::fs::status(*path, status))
    return std::nullopt;
  return *path + " " + std::to_string(status.getSize()) + " " +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

bool looksLikeSpirv(std::span<const std::byte> il) {
  bool swapped = false;
  return spirv_words::hostOrderWords(il, swapped).has_value();
}

llvm::Expected<std::vector<char>> translateSpirv(std::span<const std::byte> il, std::string &log) {
  bool swapped = false;
  std::optional<std::vector<uint32_t>> words = spirv_words::hostOrderWords(il, swapped);
  if (!words)
    return mux::makeError(mux::Status::InvalidArgument, "the program is not a SPIR-V module");
  const std::optional<std::string> &translator = spirvTranslatorPath();
  if (!translator)
    return mux::makeError(mux::Status::Unsupported,
                          std::string("SPIR-V programs need ") + kTranslator + ", which is not installed");
  TempFile input, output, messages;
  if (llvm::Error error = createTemp("spv", input))
    return error;
  if (llvm::Error error = createTemp("bc", output))
    return error;
  if (llvm::Error error = createTemp("log", messages))
    return error;
  {
    std::error_code error;
    llvm::raw_fd_ostream stream(input.path, error);
    if (error)
      return mux::makeError(mux::Status::Failure, "cannot write a temporary file: " + error.message());
    // In host byte order, as the rewrite reads it; the translator reads both.
    std::vector<uint32_t> rewritten = replaceScalarNulls(*words);
    stream.write(reinterpret_cast<const char *>(rewritten.data()), rewritten.size() * sizeof(uint32_t));
  }
  llvm::StringRef arguments[] = {*translator, "-r", "-o", output.path, input.path};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), messages.path, messages.path};
  std::string errorMessage;
  int status = llvm::sys::ExecuteAndWait(*translator, arguments, std::nullopt, redirects, 0, 0, &errorMessage);
  if (auto text = llvm::MemoryBuffer::getFile(messages.path)) {
    // A crash's message is its first lines; the stack dump after them
    // means nothing to the application.
    llvm::StringRef message = (*text)->getBuffer();
    log += message.substr(0, message.find("PLEASE submit a bug report")).str();
  }
  if (status != 0) {
    if (!errorMessage.empty())
      log += errorMessage + "\n";
    return mux::makeError(mux::Status::Failure, "the SPIR-V module could not be read (" + std::string(kTranslator) +
                                                    (status < 0 ? " crashed)" : " rejected it)"));
  }
  auto bitcode = llvm::MemoryBuffer::getFile(output.path);
  if (!bitcode)
    return mux::makeError(mux::Status::Failure, "the SPIR-V translator wrote no bitcode");
  llvm::StringRef bytes = (*bitcode)->getBuffer();
  return std::vector<char>(bytes.begin(), bytes.end());
}

} // namespace compiler::il
