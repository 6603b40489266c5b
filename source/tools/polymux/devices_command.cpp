// `polymux devices`: every device of every target compiled in, with the
// limits that matter when porting kernels, and why a target has no device.
#include "command_line.h"
#include "commands.h"
#include "device_list.h"
#include "text_format.h"

#include "mux/device_info.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace polymux::tool {
namespace {

const char *kDevicesHelp = R"(usage: polymux devices [--device NAME[,NAME...]|all] [--brief]

Lists every device of every target compiled into this build (host, riscv_sim,
vulkan, ...): its limits, floating-point support, vector widths, OpenCL C
features and extensions. A target without a device says why.

  --device NAMES   only these devices: target names (host) or device ids (vulkan:1)
  --brief          one line per device
)";

const char *typeName(mux::DeviceType type) {
  switch (type) {
  case mux::DeviceType::CPU:
    return "CPU";
  case mux::DeviceType::GPU:
    return "GPU";
  case mux::DeviceType::Accelerator:
    return "accelerator";
  case mux::DeviceType::Custom:
    return "custom";
  }
  return "?";
}

/// The FpConfig bits that are set, for wrapWords.
std::vector<std::string> fpWords(const mux::FpConfig &fp) {
  std::vector<std::string> words;
  auto add = [&](bool present, const char *name) {
    if (present)
      words.push_back(name);
  };
  add(fp.denorms, "denorms");
  add(fp.infNan, "inf-nan");
  add(fp.roundToNearest, "round-to-nearest");
  add(fp.roundToZero, "round-to-zero");
  add(fp.roundToInf, "round-to-inf");
  add(fp.fma, "fma");
  add(fp.correctlyRoundedDivideSqrt, "correctly-rounded-divide-sqrt");
  add(fp.softFloat, "soft-float");
  return words;
}

std::string vectorWidths(const std::array<uint32_t, 7> &widths) {
  static const char *const names[] = {"char", "short", "int", "long", "float", "double", "half"};
  std::string text;
  for (size_t i = 0; i < widths.size(); ++i)
    text += std::string(i ? "  " : "") + names[i] + " " + std::to_string(widths[i]);
  return text;
}

void row(llvm::raw_ostream &out, std::string_view label, const std::string &value) {
  out << "  " << padded(label, 20) << value << "\n";
}

void printDevice(llvm::raw_ostream &out, const ToolDevice &device) {
  const mux::DeviceInfo &info = device.device->info();
  out << device.id << ": " << info.name << "\n";
  row(out, "target", std::string(device.target->name()) + " (" + typeName(info.type) + ")");
  row(out, "vendor", info.vendor + ", driver " + info.driverVersion);
  row(out, "compute units",
      std::to_string(info.computeUnits) +
          (info.maxClockMHz ? " at " + std::to_string(info.maxClockMHz) + " MHz" : std::string()));
  row(out, "work-groups",
      "up to " + std::to_string(info.maxWorkGroupSize) + " work-items, " + std::to_string(info.maxWorkItemSizes[0]) +
          " x " + std::to_string(info.maxWorkItemSizes[1]) + " x " + std::to_string(info.maxWorkItemSizes[2]) +
          "; preferred multiple " + std::to_string(info.preferredWorkGroupSizeMultiple));
  if (info.subGroupSizes.empty()) {
    row(out, "sub-groups", "none");
  } else {
    std::string sizes;
    for (uint32_t size : info.subGroupSizes)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
    row(out, "sub-groups",
        "sizes " + sizes + "; up to " + std::to_string(info.maxNumSubGroups) + " per work-group" +
            (info.subGroupIndependentForwardProgress ? "; independent forward progress" : ""));
  }
  std::string cache;
  if (info.globalMemCacheSize)
    cache = ", cache " + formatBytes(info.globalMemCacheSize) + " (" + std::to_string(info.globalMemCachelineSize) +
            "-byte lines)";
  row(out, "global memory",
      formatBytes(info.globalMemSize) + ", allocations up to " + formatBytes(info.maxMemAllocSize) + cache);
  row(out, "local memory",
      formatBytes(info.localMemSize) + (info.localMemDedicated ? " (dedicated)" : " (in global memory)"));
  row(out, "constant memory",
      formatBytes(info.maxConstantBufferSize) + ", up to " + std::to_string(info.maxConstantArgs) + " arguments");
  row(out, "address bits",
      std::to_string(info.addressBits) + (info.littleEndian ? ", little endian" : ", big endian") +
          (info.commandsAccessHostMemory ? "" : "; commands cannot access host memory (transfers are staged)"));
  row(out, "vector widths", "preferred " + vectorWidths(info.preferredVectorWidth));
  row(out, "", "native    " + vectorWidths(info.nativeVectorWidth));
  row(out, "float", wrapWords(fpWords(info.singleFp), 22));
  row(out, "double", info.fp64 ? wrapWords(fpWords(info.doubleFp), 22) : "no (no fp64)");
  row(out, "half", info.fp16 ? wrapWords(fpWords(info.halfFp), 22) : "no (no fp16)");
  row(out, "integers",
      std::string(info.int64 ? "64-bit" : "no 64-bit") + ", " +
          (info.atomics64 ? "64-bit atomics" : "no 64-bit atomics"));
  row(out, "OpenCL C features", wrapWords(info.openclCFeatures, 22));
  row(out, "extensions", wrapWords(info.extensions, 22));
}

void printBrief(llvm::raw_ostream &out, const ToolDevice &device) {
  const mux::DeviceInfo &info = device.device->info();
  out << padded(device.id, 14) << padded(typeName(info.type), 12) << info.name << " (" << info.computeUnits
      << " compute units, " << formatBytes(info.globalMemSize) << ", fp64 " << (info.fp64 ? "yes" : "no") << ")\n";
}

} // namespace

int devicesCommand(std::span<char *const> args) {
  CommandLine line(args);
  std::string spec;
  bool brief = false;
  while (line.more()) {
    if (line.flag("--help") || line.flag("-h")) {
      llvm::outs() << kDevicesHelp;
      return ExitSuccess;
    }
    if (line.option("--device", spec))
      continue;
    if (line.flag("--brief")) {
      brief = true;
      continue;
    }
    llvm::errs() << "polymux devices: unknown argument '" << line.current() << "' (polymux devices --help)\n";
    return ExitUsage;
  }
  if (line.problem()) {
    llvm::errs() << "polymux devices: " << *line.problem() << "\n";
    return ExitUsage;
  }

  DeviceList list;
  std::vector<const ToolDevice *> chosen;
  if (!spec.empty()) {
    auto selected = list.select(spec);
    if (!selected) {
      llvm::errs() << "polymux devices: " << llvm::toString(selected.takeError()) << "\n";
      return ExitUsage;
    }
    chosen = std::move(*selected);
  }
  llvm::raw_ostream &out = llvm::outs();
  bool first = true;
  for (const std::unique_ptr<mux::Target> &target : list.targets()) {
    if (!target)
      continue;
    bool shownTarget = spec.empty();
    for (const ToolDevice &device : list.devices()) {
      if (device.target != target.get())
        continue;
      if (!spec.empty() && std::find(chosen.begin(), chosen.end(), &device) == chosen.end())
        continue;
      shownTarget = true;
      if (!brief && !first)
        out << "\n";
      first = false;
      brief ? printBrief(out, device) : printDevice(out, device);
    }
    if (!shownTarget)
      continue;
    if (target->devices().empty()) {
      if (!brief && !first)
        out << "\n";
      first = false;
      out << target->name() << ": no device: " << DeviceList::whyMissing(*target) << "\n";
    } else {
      for (const std::string &reason : target->missingDevices())
        out << target->name() << ": left out: " << reason << "\n";
    }
  }
  return ExitSuccess;
}

} // namespace polymux::tool
