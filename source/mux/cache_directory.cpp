#include "mux/support/cache_directory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <string_view>

namespace mux::support {
namespace {

const char *nonEmptyEnv(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

} // namespace

std::optional<std::string> cacheDirectory() {
  if (const char *setting = nonEmptyEnv("POLYMUX_CACHE"))
    return std::string_view(setting) == "0" ? std::nullopt : std::optional<std::string>(setting);
  llvm::SmallString<256> directory;
  // The XDG base directory specification ignores relative paths.
  if (const char *xdg = nonEmptyEnv("XDG_CACHE_HOME"); xdg && llvm::sys::path::is_absolute(xdg)) {
    directory = xdg;
  } else if (const char *home = nonEmptyEnv("HOME")) {
    directory = home;
    llvm::sys::path::append(directory, ".cache");
  } else {
    return std::nullopt;
  }
  llvm::sys::path::append(directory, "polymux");
  return std::string(directory);
}

} // namespace mux::support
