#include "command_line.h"

namespace polymux::tool {

bool CommandLine::option(std::string_view name, std::string &value) {
  if (!more())
    return false;
  std::string_view word = current();
  if (word == name) {
    ++index_;
    if (!more()) {
      reject(std::string(name) + " needs a value");
      return true;
    }
    value = take();
    return true;
  }
  if (word.size() > name.size() && word.starts_with(name)) {
    bool shortOption = name.size() == 2 && name[0] == '-' && name[1] != '-';
    if (word[name.size()] == '=' && !shortOption) {
      value = word.substr(name.size() + 1);
      ++index_;
      return true;
    }
    if (shortOption) {
      value = word.substr(name.size());
      ++index_;
      return true;
    }
  }
  return false;
}

bool CommandLine::flag(std::string_view name) {
  if (!more() || current() != name)
    return false;
  ++index_;
  return true;
}

} // namespace polymux::tool
