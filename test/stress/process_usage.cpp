#include "process_usage.h"

#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>

namespace stress {
namespace {

uint64_t readResidentBytes() {
  unsigned long size = 0, resident = 0;
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm)
    return 0;
  if (std::fscanf(statm, "%lu %lu", &size, &resident) != 2)
    resident = 0;
  std::fclose(statm);
  return static_cast<uint64_t>(resident) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t countOpenFiles() {
  DIR *dir = opendir("/proc/self/fd");
  if (!dir)
    return 0;
  uint64_t count = 0;
  while (const dirent *entry = readdir(dir))
    if (entry->d_name[0] != '.')
      ++count;
  closedir(dir);
  return count - 1; // the directory being read
}

} // namespace

ProcessUsage ProcessUsage::now() {
  ProcessUsage usage;
  usage.residentBytes = readResidentBytes();
  usage.openFiles = countOpenFiles();
  const struct mallinfo2 info = mallinfo2();
  usage.heapBytes = info.uordblks + info.hblkhd;
  return usage;
}

} // namespace stress
