#include "mux/support/system_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace mux::support {
namespace {

constexpr uint64_t kMinReserve = uint64_t{256} << 20;

/// The number in a file holding one (memory.max, memory.current); none for
/// "max" or an unreadable file.
std::optional<uint64_t> readNumber(const std::string &path) {
  FILE *file = std::fopen(path.c_str(), "r");
  if (!file)
    return std::nullopt;
  uint64_t value = 0;
  const bool read = std::fscanf(file, "%" SCNu64, &value) == 1;
  std::fclose(file);
  return read ? std::optional<uint64_t>(value) : std::nullopt;
}

std::optional<uint64_t> meminfoAvailable() {
  FILE *file = std::fopen("/proc/meminfo", "r");
  if (!file)
    return std::nullopt;
  char line[256];
  std::optional<uint64_t> available;
  while (std::fgets(line, sizeof line, file))
    if (uint64_t kib = 0; std::sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) {
      available = kib << 10;
      break;
    }
  std::fclose(file);
  return available;
}

/// What the process's cgroup v2 memory limit still allows; none without a
/// limit.
std::optional<uint64_t> cgroupHeadroom() {
  FILE *file = std::fopen("/proc/self/cgroup", "r");
  if (!file)
    return std::nullopt;
  char line[4096];
  std::string group;
  while (std::fgets(line, sizeof line, file))
    if (std::strncmp(line, "0::", 3) == 0) {
      group.assign(line + 3);
      while (!group.empty() && group.back() == '\n')
        group.pop_back();
      break;
    }
  std::fclose(file);
  if (group.empty())
    return std::nullopt;
  const std::string directory = "/sys/fs/cgroup" + (group == "/" ? std::string() : group);
  std::optional<uint64_t> limit = readNumber(directory + "/memory.max");
  std::optional<uint64_t> used = readNumber(directory + "/memory.current");
  if (!limit || !used)
    return std::nullopt;
  return *limit > *used ? *limit - *used : 0;
}

} // namespace

std::optional<uint64_t> systemMemoryAvailable() {
  std::optional<uint64_t> available = meminfoAvailable();
  if (std::optional<uint64_t> headroom = cgroupHeadroom())
    available = available ? std::min(*available, *headroom) : *headroom;
  return available;
}

uint64_t processPrivateResidentBytes() {
  FILE *file = std::fopen("/proc/self/statm", "r");
  if (!file)
    return 0;
  uint64_t size = 0, resident = 0, shared = 0;
  const bool read = std::fscanf(file, "%" SCNu64 " %" SCNu64 " %" SCNu64, &size, &resident, &shared) == 3;
  std::fclose(file);
  if (!read || shared > resident)
    return 0;
  return (resident - shared) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

bool systemMemoryCanHold(uint64_t bytes, uint64_t uncommitted) {
  std::optional<uint64_t> available = systemMemoryAvailable();
  if (!available)
    return true;
  const uint64_t reserve = std::max(kMinReserve, *available / 16);
  return *available >= reserve && bytes <= *available - reserve && uncommitted <= *available - reserve - bytes;
}

} // namespace mux::support
