#include "source_options.h"

#include "file_io.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace polymux::tool {
namespace {

/// `word` quoted for compiler::splitOptions, which splits as a shell does.
std::string quoted(std::string_view word) {
  std::string result = "'";
  for (char c : word) {
    if (c == '\'')
      result += "'\\''";
    else
      result += c;
  }
  return result + "'";
}

} // namespace

bool readSourceOption(CommandLine &line, SourceOptions &options) {
  std::string value;
  if (line.option("-D", value)) {
    options.defines.push_back(value);
    return true;
  }
  if (line.option("-I", value)) {
    options.includeDirs.push_back(value);
    return true;
  }
  if (line.option("--options", value)) {
    if (!options.extraOptions.empty())
      options.extraOptions += ' ';
    options.extraOptions += value;
    return true;
  }
  if (line.option("--device", value)) {
    options.devices = value;
    return true;
  }
  if (line.option("--color", value)) {
    if (!parseColorMode(value, options.color))
      line.reject("--color takes auto, always or never, not '" + value + "'");
    return true;
  }
  return false;
}

llvm::Expected<std::string> readSource(const SourceOptions &options) {
  auto bytes = readFile(options.path);
  if (!bytes)
    return bytes.takeError();
  return std::string(bytes->begin(), bytes->end());
}

std::string buildOptionString(const SourceOptions &options) {
  std::string result = options.extraOptions;
  auto append = [&](std::string_view option, std::string_view value) {
    if (!result.empty())
      result += ' ';
    result += option;
    result += ' ';
    result += quoted(value);
  };
  for (const std::string &define : options.defines)
    append("-D", define);
  for (const std::string &dir : options.includeDirs)
    append("-I", dir);
  llvm::SmallString<256> sourceDir(options.path == "-" ? "." : options.path);
  llvm::sys::fs::make_absolute(sourceDir);
  llvm::sys::path::remove_filename(sourceDir);
  append("-I", std::string_view(sourceDir.data(), sourceDir.size()));
  return result;
}

} // namespace polymux::tool
