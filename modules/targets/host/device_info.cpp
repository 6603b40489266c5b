#include "device_info.h"

#include "compiler/cpu_capabilities.h"
#include "mux/support/name_uuid.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

namespace host {

namespace {

constexpr uint64_t kMiB = 1024 * 1024;

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t\n");
  return std::string(text.substr(begin, end - begin + 1));
}

/// The value of the first "key : value" line of /proc/cpuinfo with `key`.
std::string cpuinfoField(std::string_view key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    size_t colon = line.find(':');
    if (colon != std::string::npos && trim(std::string_view(line).substr(0, colon)) == key)
      return trim(std::string_view(line).substr(colon + 1));
  }
  return {};
}

std::string readFirstLine(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return trim(line);
}

uint64_t parseUnsigned(std::string_view text) {
  uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

/// "32K", "1024K", "8M" as sysfs cache sizes are written.
uint64_t parseCacheSize(std::string_view text) {
  uint64_t value = parseUnsigned(text);
  if (text.ends_with('K'))
    value *= 1024;
  else if (text.ends_with('M'))
    value *= kMiB;
  return value;
}

struct CacheFacts {
  uint64_t lastLevelSize = 0;
  uint32_t lineSize = 0;
};

/// Largest data/unified cache of cpu0 and its line size, from sysfs.
CacheFacts readCaches() {
  CacheFacts facts;
  uint32_t bestLevel = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::string type = readFirstLine(dir + "type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    uint32_t level = static_cast<uint32_t>(parseUnsigned(readFirstLine(dir + "level")));
    uint64_t size = parseCacheSize(readFirstLine(dir + "size"));
    uint32_t line = static_cast<uint32_t>(parseUnsigned(readFirstLine(dir + "coherency_line_size")));
    if (facts.lineSize == 0)
      facts.lineSize = line;
    if (level >= bestLevel && size > 0) {
      bestLevel = level;
      facts.lastLevelSize = size;
    }
  }
  if (facts.lineSize == 0) {
    long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    facts.lineSize = line > 0 ? static_cast<uint32_t>(line) : 64;
  }
  return facts;
}

uint32_t readClockMHz() {
  uint64_t kHz = parseUnsigned(readFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
  if (kHz > 0)
    return static_cast<uint32_t>(kHz / 1000);
  std::string mhz = cpuinfoField("cpu MHz");
  return static_cast<uint32_t>(parseUnsigned(mhz.substr(0, mhz.find('.'))));
}

std::string readCpuModel() {
  for (std::string_view key : {"model name", "Processor", "cpu model", "uarch"}) {
    std::string model = cpuinfoField(key);
    if (!model.empty())
      return model;
  }
  return "unknown CPU";
}

/// What names this machine's CPU as a device: the processor's identity as
/// the kernel reports it (vendor, family, model, stepping, model name; the
/// ARM and RISC-V fields where those are what /proc/cpuinfo has) and the
/// machine's identity (/etc/machine-id), so that two machines with the same
/// CPU name different devices while every process on one machine agrees.
std::string hostDeviceIdentity() {
  std::string identity = "host";
  for (std::string_view key :
       {"vendor_id", "cpu family", "model", "stepping", "model name", "CPU implementer", "CPU architecture",
        "CPU variant", "CPU part", "CPU revision", "mvendorid", "marchid", "mimpid", "uarch", "isa"}) {
    identity += '|';
    identity += cpuinfoField(key);
  }
  std::string machine = readFirstLine("/etc/machine-id");
  if (machine.empty())
    machine = readFirstLine("/var/lib/dbus/machine-id");
  identity += "|machine " + machine;
  return identity;
}

/// Width in bytes of the widest vector registers the CPU offers.
uint32_t vectorRegisterBytes(bool integer) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && (!integer || __builtin_cpu_supports("avx512bw")))
    return 64;
  if (integer ? __builtin_cpu_supports("avx2") : __builtin_cpu_supports("avx"))
    return 32;
#endif
  return 16;
}

} // namespace

unsigned hostThreadCount() {
  if (const char *env = std::getenv("POLYMUX_HOST_THREADS")) {
    uint64_t requested = parseUnsigned(env);
    if (requested > 0)
      return static_cast<unsigned>(std::min<uint64_t>(requested, 1024));
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

mux::DeviceInfo queryHostDeviceInfo(unsigned threads) {
  mux::DeviceInfo info;
  std::string model = readCpuModel();
  info.name = "Polymux host: ";
  info.name += model;
  std::string cpuVendor = cpuinfoField("vendor_id");
  info.vendor = "Polymux";
  info.vendorId = cpuVendor == "GenuineIntel" ? 0x8086 : cpuVendor == "AuthenticAMD" ? 0x1022 : 0;
  info.driverVersion = "0.1.0";
  info.targetName = "host";
  info.type = mux::DeviceType::CPU;
  info.uuid = mux::support::nameBasedUuid(hostDeviceIdentity());

  info.computeUnits = threads;
  info.maxClockMHz = readClockMHz();
  info.maxWorkItemDimensions = 3;
  info.maxWorkItemSizes = {1024, 1024, 1024};
  info.maxWorkGroupSize = 1024;
  // A sub-group is as many work-items as a vector register has float lanes:
  // the work-items the vectoriser packs into one vector.
  compiler::describeCpuPipelineCapabilities(info, vectorRegisterBytes(false) / 4);

  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  uint64_t physical = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 1024 * kMiB;
  info.addressBits = 64;
  info.littleEndian = true;
  info.globalMemSize = physical / 4 * 3;
  info.maxMemAllocSize = std::min(std::max(info.globalMemSize / 4, 128 * kMiB), info.globalMemSize);
  CacheFacts caches = readCaches();
  info.globalMemCacheSize = caches.lastLevelSize;
  info.globalMemCachelineSize = caches.lineSize;
  info.globalMemCacheReadWrite = true;
  info.localMemSize = 64 * 1024;
  info.localMemDedicated = false;
  // __constant is ordinary memory on a CPU.
  info.maxConstantBufferSize = info.maxMemAllocSize;
  info.maxConstantArgs = 16;
  info.maxParameterSize = 1024;
  info.memBaseAddrAlign = 128;
  info.hostUnifiedMemory = true;
  // Kernels run on host threads in the process's address space: any host
  // allocation is device memory at the same address, usable by both at once.
  // SVM atomics too: kernel atomics are the CPU's own atomic instructions
  // (every scope, all SVM devices included), so they interoperate with the
  // host's C11 atomics on the same memory.
  info.svmCapabilities = mux::svm_capability::CoarseGrainBuffer | mux::svm_capability::FineGrainBuffer |
                         mux::svm_capability::Atomics;
  info.printfBufferSize = 1 << 20;

  uint32_t floatBytes = vectorRegisterBytes(false);
  uint32_t intBytes = vectorRegisterBytes(true);
  // char, short, int, long, float, double, half (computed in float lanes).
  info.nativeVectorWidth = {intBytes,       intBytes / 2,   intBytes / 4,  intBytes / 8,
                            floatBytes / 4, floatBytes / 8, floatBytes / 4};
  info.preferredVectorWidth = info.nativeVectorWidth;
  // With the work-item vectoriser, scalar int, long, float and double code
  // runs at least as fast as code written with vector types: it packs
  // work-items into the vector lanes (bench: float mad chains 84 GFLOPS
  // scalar, 11 with float4, 42 with float16 on an AVX2 machine; x * a + b
  // chains on an AVX-512 Zen 4: int 162 Gop/s, int4 163, int16 163; long
  // 93, long2 86, long8 79). Scalar char and short arithmetic is int
  // arithmetic (C's promotions), while their vector types stay narrow and
  // are widened across work-items too: eight bytes per work-item ran best
  // (char 108, char4 252, char8 264, char16 237; short 107, short4 356,
  // short8 345, short16 318).
  if (workItemVectorBits() != 0) {
    constexpr uint32_t kPreferredNarrowBytes = 8;
    info.preferredVectorWidth = {kPreferredNarrowBytes, kPreferredNarrowBytes / 2, 1, 1, 1, 1, 1};
  }
  // Work-item loops vectorise across work-items at the float width.
  info.preferredWorkGroupSizeMultiple = floatBytes / 4;

  info.profilingTimerResolutionNs = 1;
  // Program-scope variables live in the JIT-linked image of each program:
  // its memory is committed (zeroed) when the program is loaded, and code
  // reaches it with 32-bit PC-relative addressing (2 GiB). Keep the limits
  // well inside both.
  info.maxGlobalVariableSize = std::min<uint64_t>(info.maxMemAllocSize, 64 * kMiB);
  info.globalVariablePreferredTotalSize = info.maxGlobalVariableSize;
  return info;
}

} // namespace host
