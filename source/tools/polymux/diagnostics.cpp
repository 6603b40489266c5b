#include "diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace polymux::tool {
namespace {

/// The name the front end gives the program source (compiler/frontend.cpp).
constexpr std::string_view kProgramSource = "<program source>";

std::string withSourcePath(std::string_view log, std::string_view path) {
  std::string result;
  size_t start = 0;
  for (size_t at = log.find(kProgramSource); at != std::string_view::npos; at = log.find(kProgramSource, start)) {
    result.append(log.substr(start, at - start));
    result.append(path);
    start = at + kProgramSource.size();
  }
  result.append(log.substr(start));
  return result;
}

/// The severity of a "file:line:column: severity: message" line, and where
/// its parts start; false for other lines.
bool splitDiagnostic(llvm::StringRef line, size_t &severityStart, size_t &messageStart,
                     llvm::raw_ostream::Colors &color) {
  static const std::pair<llvm::StringRef, llvm::raw_ostream::Colors> severities[] = {
      {": fatal error: ", llvm::raw_ostream::RED},
      {": error: ", llvm::raw_ostream::RED},
      {": warning: ", llvm::raw_ostream::MAGENTA},
      {": note: ", llvm::raw_ostream::BLACK},
      {": remark: ", llvm::raw_ostream::BLUE}};
  for (const auto &[marker, markerColor] : severities) {
    size_t at = line.find(marker);
    if (at == llvm::StringRef::npos)
      continue;
    severityStart = at + 2;
    messageStart = at + marker.size();
    color = markerColor;
    return true;
  }
  return false;
}

/// Clang's caret and range line under a source line: blanks, '^' and '~'.
bool isCaretLine(llvm::StringRef line) {
  return line.find_first_of("^~") != llvm::StringRef::npos && line.find_first_not_of(" \t^~") == llvm::StringRef::npos;
}

void printColored(llvm::raw_ostream &out, llvm::StringRef line) {
  size_t severityStart = 0;
  size_t messageStart = 0;
  llvm::raw_ostream::Colors color;
  if (splitDiagnostic(line, severityStart, messageStart, color)) {
    bool note = color == llvm::raw_ostream::BLACK;
    out.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true) << line.take_front(severityStart);
    out.changeColor(color, /*Bold=*/true) << line.slice(severityStart, messageStart);
    out.resetColor();
    if (note) {
      out << line.drop_front(messageStart);
    } else {
      out.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true) << line.drop_front(messageStart);
      out.resetColor();
    }
    return;
  }
  if (isCaretLine(line)) {
    out.changeColor(llvm::raw_ostream::GREEN, /*Bold=*/true) << line;
    out.resetColor();
    return;
  }
  out << line;
}

} // namespace

bool parseColorMode(std::string_view text, ColorMode &mode) {
  if (text == "auto")
    mode = ColorMode::Auto;
  else if (text == "always")
    mode = ColorMode::Always;
  else if (text == "never")
    mode = ColorMode::Never;
  else
    return false;
  return true;
}

void applyColorMode(llvm::raw_ostream &out, ColorMode mode) {
  out.enable_colors(mode == ColorMode::Always || (mode == ColorMode::Auto && out.has_colors()));
}

void printDiagnostics(llvm::raw_ostream &out, std::string_view log, std::string_view sourcePath) {
  std::string text = withSourcePath(log, sourcePath);
  if (!out.colors_enabled()) {
    out << text;
    if (!text.empty() && text.back() != '\n')
      out << "\n";
    return;
  }
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    printColored(out, line);
    out << "\n";
    rest = tail;
  }
}

} // namespace polymux::tool
