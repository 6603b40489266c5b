#include "compiler/elf_linker.h"

#include "mux/status.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace compiler {
namespace {

llvm::Error writeFile(const llvm::Twine &path, llvm::StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream stream(path.str(), error);
  if (error)
    return mux::makeError(mux::Status::Failure, "cannot write " + path.str() + ": " + error.message());
  stream << contents;
  return llvm::Error::success();
}

llvm::StringRef asText(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

} // namespace

llvm::Expected<std::vector<std::byte>> linkStaticElf(std::span<const std::span<const std::byte>> objects,
                                                     std::string_view linkerScript,
                                                     std::span<const std::string> roots) {
  // lld reads and writes files: a private directory holds them for the link.
  llvm::SmallString<128> directory;
  if (std::error_code error = llvm::sys::fs::createUniqueDirectory("polymux-link", directory))
    return mux::makeError(mux::Status::Failure, "cannot create a directory for the link: " + error.message());
  auto removeDirectory = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(directory); });

  std::vector<std::string> storage = {"ld.lld", "-static", "--gc-sections", "--no-undefined", "-T",
                                      (directory + "/link.ld").str(), "-o", (directory + "/program.elf").str()};
  if (llvm::Error error = writeFile(storage[5], linkerScript))
    return error;
  if (!roots.empty())
    storage.insert(storage.end(), {"-e", roots.front()});
  for (const std::string &root : roots)
    storage.insert(storage.end(), {"-u", root});
  for (size_t i = 0; i < objects.size(); ++i) {
    std::string path = (directory + "/input" + llvm::Twine(i) + ".o").str();
    if (llvm::Error error = writeFile(path, asText(objects[i])))
      return error;
    storage.push_back(path);
  }
  // One thread: lld allocates input sections in thread-local arenas
  // (lld/Common/Memory.h, makeThreadLocal) that live as long as the thread.
  // Its worker threads live as long as the process, so with them each link
  // kept about 5 KiB for good (found by test/stress); this thread is made
  // for one build (compiler_stack.h) and takes its arenas with it. The
  // links are small: one thread was not slower (40 riscv_sim builds: 4.3 s
  // against 5.0 s).
  storage.push_back("--threads=1");
  std::vector<const char *> args;
  for (const std::string &arg : storage)
    args.push_back(arg.c_str());

  std::string messages;
  {
    // lld keeps global state: one link at a time in the process.
    static std::mutex lldMutex;
    std::lock_guard lock(lldMutex);
    llvm::raw_string_ostream out(messages), err(messages);
    lld::Result result = lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
    if (result.retCode != 0)
      return mux::makeError(mux::Status::Failure, "error: linking the program failed:\n" + messages);
  }
  auto elf = llvm::MemoryBuffer::getFile(storage[7], /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!elf)
    return mux::makeError(mux::Status::Failure, "cannot read the linked program: " + elf.getError().message());
  const auto *begin = reinterpret_cast<const std::byte *>((*elf)->getBufferStart());
  return std::vector<std::byte>(begin, begin + (*elf)->getBufferSize());
}

} // namespace compiler
