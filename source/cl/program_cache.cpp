// The on-disk kernel cache. Entries are Module::serialize() bytes in files
// named by the SHA-256 of what determines the build; Target::deserialize
// checks them (checksums, target identity), so a damaged or foreign entry is
// rebuilt. Entries are written to a unique temporary file in the cache
// directory and renamed into place, so readers never see a partial entry and
// concurrent builders (threads or processes) cannot corrupt one.
#include "program_cache.h"

#include "compiler/il/spirv_translator.h"

#include "mux/support/cache_directory.h"
#include "mux/support/cache_pruning.h"
#include "mux/support/log.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <span>
#include <sys/stat.h>

namespace polymux::cl {

namespace {

/// Bumped when the key or the entry layout changes.
constexpr std::string_view kCacheFormat = "polymux-program-cache-v3"; // v3: keyed on preprocessed source

/// Feeds one field with its length, so that field boundaries are part of
/// the key ("ab"+"c" and "a"+"bc" differ).
void addField(llvm::SHA256 &hasher, std::string_view field) {
  uint64_t size = field.size();
  uint8_t sizeBytes[sizeof(size)];
  for (size_t i = 0; i < sizeof(size); ++i)
    sizeBytes[i] = static_cast<uint8_t>(size >> (8 * i));
  hasher.update(llvm::ArrayRef<uint8_t>(sizeBytes));
  hasher.update(llvm::StringRef(field.data(), field.size()));
}

/// Identifies this build of the driver: the path, size and modification time
/// of the library holding this code. The compiler identity names versions,
/// not builds, so without this a rebuilt driver could serve entries its
/// predecessor compiled differently.
const std::string &driverBuildStamp() {
  static const std::string stamp = [] {
    Dl_info info{};
    struct stat st {};
    if (!dladdr(reinterpret_cast<void *>(&driverBuildStamp), &info) || !info.dli_fname ||
        stat(info.dli_fname, &st) != 0)
      return std::string("unknown-build");
    return std::string(info.dli_fname) + ":" + std::to_string(st.st_size) + ":" +
           std::to_string(static_cast<long long>(st.st_mtim.tv_sec)) + "." +
           std::to_string(static_cast<long long>(st.st_mtim.tv_nsec));
  }();
  return stamp;
}

/// The entry's path in `directory`: the hex SHA-256 of the key fields.
/// `buildInputs` is compiler::Target::buildCacheKey's text.
std::string entryPath(llvm::StringRef directory, const compiler::Target &compiler, std::string_view buildInputs,
                      std::string_view options) {
  llvm::SHA256 hasher;
  addField(hasher, kCacheFormat);
  addField(hasher, driverBuildStamp());
  addField(hasher, compiler.identity());
  addField(hasher, options);
  addField(hasher, buildInputs);
  std::array<uint8_t, 32> digest = hasher.final();
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, llvm::toHex(digest, /*LowerCase=*/true) + ".bin");
  return std::string(path);
}

/// The executable stored at `path`, or null when there is none or it does
/// not deserialize to an Executable for this target.
std::unique_ptr<compiler::Module> load(compiler::Target &compiler, const std::string &path) {
  // Read, not mapped: the file may be replaced while we use the bytes.
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false,
                                            /*IsVolatile=*/true);
  if (!buffer)
    return nullptr;
  llvm::StringRef data = (*buffer)->getBuffer();
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte *>(data.data()), data.size());
  auto module = compiler.deserialize(bytes);
  if (!module) {
    llvm::consumeError(module.takeError());
    return nullptr;
  }
  if (!*module || (*module)->kind() != compiler::ModuleKind::Executable)
    return nullptr;
  return std::move(*module);
}

/// Writes `module` to `path` atomically; gives up silently on any failure.
void store(const compiler::Module &module, llvm::StringRef directory, const std::string &path) {
  auto bytes = module.serialize();
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return;
  }
  if (llvm::sys::fs::create_directories(directory))
    return;
  int fd = -1;
  llvm::SmallString<256> tempPath;
  if (llvm::sys::fs::createUniqueFile(path + "-%%%%%%%%.tmp", fd, tempPath))
    return;
  bool written;
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out.write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    out.close();
    written = !out.has_error();
    out.clear_error(); // an unchecked error would abort in the destructor
  }
  if (!written || llvm::sys::fs::rename(tempPath, path))
    llvm::sys::fs::remove(tempPath);
}

/// Whether the source uses the build's date or time. They are expanded in the
/// preprocessed text, so its entries would hardly ever be found again (an
/// included file that uses them only costs misses). A mention in a comment
/// is a false positive, which only costs a miss too.
bool mentionsBuildTime(std::string_view source) {
  for (std::string_view word : {"__DATE__", "__TIME__", "__TIMESTAMP__"})
    if (source.find(word) != std::string_view::npos)
      return true;
  return false;
}

/// The cache around `build()`, for an entry keyed by `buildInputs`.
template <typename Build>
llvm::Expected<std::unique_ptr<compiler::Module>> cachedBuild(compiler::Target &compiler, const std::string &directory,
                                                              std::string_view buildInputs, std::string_view options,
                                                              Build build) {
  const std::string path = entryPath(directory, compiler, buildInputs, options);
  if (std::unique_ptr<compiler::Module> cached = load(compiler, path)) {
    mux::support::markCacheEntryUsed(path);
    mux::support::log(mux::support::LogLevel::Debug, "compiler", "program cache: hit " + path);
    return cached;
  }
  llvm::Expected<std::unique_ptr<compiler::Module>> module = build();
  if (module && *module && (*module)->kind() == compiler::ModuleKind::Executable) {
    store(**module, directory, path);
    mux::support::pruneCacheDirectory(directory, mux::support::cacheSizeLimit());
  }
  return module;
}

} // namespace

std::optional<std::string> programCacheDirectory() { return mux::support::cacheDirectory(); }

llvm::Expected<std::unique_ptr<compiler::Module>>
buildWithProgramCache(compiler::Target &compiler, std::string_view source, std::string_view options, std::string &log) {
  std::optional<std::string> directory = programCacheDirectory();
  if (!directory || mentionsBuildTime(source))
    return compiler.build(source, options, log);
  auto buildInputs = compiler.buildCacheKey(source, options);
  if (!buildInputs) {
    // Typically a source that does not preprocess: the build reports why.
    mux::support::log(mux::support::LogLevel::Debug, "compiler",
                      "program cache: not used: " + llvm::toString(buildInputs.takeError()));
    return compiler.build(source, options, log);
  }
  return cachedBuild(compiler, *directory, *buildInputs, options, [&] { return compiler.build(source, options, log); });
}

llvm::Expected<std::unique_ptr<compiler::Module>> buildILWithProgramCache(compiler::Target &compiler,
                                                                          std::span<const std::byte> il,
                                                                          std::string_view options, std::string &log) {
  std::optional<std::string> directory = programCacheDirectory();
  std::optional<std::string> translator = compiler::il::spirvTranslatorIdentity();
  if (!directory || !translator || compiler.ilVersions().empty())
    return compiler.buildIL(il, options, log);
  // The module (with its specialization constants applied) and the
  // translator that reads it; the length prefix keeps the two apart.
  std::string buildInputs = "SPIR-V\n" + std::to_string(translator->size()) + "\n" + *translator;
  buildInputs.append(reinterpret_cast<const char *>(il.data()), il.size());
  return cachedBuild(compiler, *directory, buildInputs, options, [&] { return compiler.buildIL(il, options, log); });
}

} // namespace polymux::cl
