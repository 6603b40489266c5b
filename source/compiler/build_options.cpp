#include "compiler/build_options.h"

#include "mux/status.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

namespace compiler {
namespace {

llvm::Error invalidOption(std::string_view option, std::string_view why = {}) {
  std::string message = "invalid build option '" + std::string(option) + "'";
  if (!why.empty())
    message += ": " + std::string(why);
  return mux::makeError(mux::Status::InvalidArgument, std::move(message));
}

/// Options that change floating-point semantics; valid for compile, build and
/// link (the spec lists them as linker options too).
bool parseMathOption(llvm::StringRef word, BuildOptions &options) {
  bool *flag = llvm::StringSwitch<bool *>(word)
                   .Case("-cl-denorms-are-zero", &options.denormsAreZero)
                   .Case("-cl-no-signed-zeros", &options.noSignedZeros)
                   .Case("-cl-unsafe-math-optimizations", &options.unsafeMath)
                   .Case("-cl-finite-math-only", &options.finiteMathOnly)
                   .Case("-cl-fast-relaxed-math", &options.fastRelaxedMath)
                   .Case("-cl-no-subgroup-ifp", &options.noSubgroupIfp)
                   .Default(nullptr);
  if (!flag)
    return false;
  *flag = true;
  return true;
}

/// Compile-only flags without a value.
bool parseCompileFlag(llvm::StringRef word, BuildOptions &options) {
  bool *flag = llvm::StringSwitch<bool *>(word)
                   .Case("-cl-opt-disable", &options.optDisable)
                   .Case("-cl-mad-enable", &options.madEnable)
                   .Case("-cl-single-precision-constant", &options.singlePrecisionConstant)
                   .Case("-cl-fp32-correctly-rounded-divide-sqrt", &options.correctlyRoundedDivideSqrt)
                   .Case("-cl-kernel-arg-info", &options.kernelArgInfo)
                   .Case("-cl-uniform-work-group-size", &options.uniformWorkGroupSize)
                   .Case("-w", &options.noWarnings)
                   .Case("-Werror", &options.warningsAsErrors)
                   .Case("-g", &options.debugInfo)
                   .Default(nullptr);
  if (flag) {
    *flag = true;
    return true;
  }
  // Accepted for compatibility with OpenCL 1.x; they have no effect.
  return word == "-cl-strict-aliasing";
}

llvm::Expected<unsigned> parseClStd(llvm::StringRef value) {
  unsigned version = llvm::StringSwitch<unsigned>(value)
                         .Case("CL1.0", 100)
                         .Case("CL1.1", 110)
                         .Case("CL1.2", 120)
                         .Case("CL2.0", 200)
                         .Case("CL3.0", 300)
                         .Default(0);
  if (version == 0)
    return invalidOption("-cl-std=" + value.str(), "expected CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0");
  return version;
}

} // namespace

llvm::Expected<std::vector<std::string>> splitOptions(std::string_view text) {
  std::vector<std::string> words;
  std::string current;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
        current += text[++i];
      } else {
        current += c;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (inWord)
        words.push_back(std::move(current));
      current.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '\\' && i + 1 < text.size()) {
      current += text[++i];
    } else {
      current += c;
    }
  }
  if (quote)
    return invalidOption(text, "unterminated quote");
  if (inWord)
    words.push_back(std::move(current));
  return words;
}

llvm::Expected<BuildOptions> parseBuildOptions(std::string_view text, OptionsUse use) {
  auto words = splitOptions(text);
  if (!words)
    return words.takeError();
  BuildOptions options;
  const bool compiles = use != OptionsUse::Link;
  for (size_t i = 0; i < words->size(); ++i) {
    llvm::StringRef word = (*words)[i];
    if (parseMathOption(word, options))
      continue;
    if (use == OptionsUse::Link) {
      if (word == "-create-library") {
        options.createLibrary = true;
        continue;
      }
      if (word == "-enable-link-options") {
        options.enableLinkOptions = true;
        continue;
      }
      return invalidOption(word, "not a linker option");
    }
    if (compiles && parseCompileFlag(word, options))
      continue;
    if (word.consume_front("-cl-std=")) {
      auto version = parseClStd(word);
      if (!version)
        return version.takeError();
      options.clStd = *version;
      options.clStdGiven = true;
      continue;
    }
    if (word == "-D" || word == "-I") {
      if (i + 1 == words->size())
        return invalidOption(word, "missing argument");
      llvm::StringRef value = (*words)[++i];
      if (value.empty() || value.starts_with("-"))
        return invalidOption(word.str() + " " + value.str(), "missing argument");
      (word == "-D" ? options.defines : options.includeDirs).push_back(value.str());
      continue;
    }
    if (word.starts_with("-D") || word.starts_with("-I")) {
      bool define = word[1] == 'D';
      llvm::StringRef value = word.drop_front(2);
      if (define && (value.empty() || value.starts_with("=")))
        return invalidOption(word, "missing macro name");
      (define ? options.defines : options.includeDirs).push_back(value.str());
      continue;
    }
    return invalidOption(word);
  }
  return options;
}

} // namespace compiler
