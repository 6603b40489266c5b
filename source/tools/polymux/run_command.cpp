// `polymux run`: one kernel, the same inputs, every selected device; then
// the buffers each device wrote, compared.
#include "command_line.h"
#include "commands.h"
#include "device_build.h"
#include "device_launch.h"
#include "device_list.h"
#include "diagnostics.h"
#include "kernel_args.h"
#include "result_compare.h"
#include "source_options.h"
#include "text_format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace polymux::tool {
namespace {

const char *kRunHelp = R"(usage: polymux run FILE.cl --global X[,Y[,Z]] [--arg SPEC]... [options]

Builds FILE.cl (or a SPIR-V module, FILE.spv) for every selected device,
runs one kernel on each with the same inputs, and compares every buffer the
kernel may write with the first
device's: integers bit for bit, floats within --ulp units in the last place.
Prints the first differences and each device's times. Exits with 0 when the
devices agree, 1 when they disagree or a device fails, 2 on a bad command.

  --kernel NAME      the kernel (optional when the program has one)
  --global X[,Y,Z]   the global size; its length is the work dimension
  --local X[,Y,Z]    the work-group size (default: the kernel's required
                     size, else one the devices all accept)
  --arg SPEC         the kernel's arguments, in order, one --arg each:
    buf:TYPE:COUNT[:INIT]  a buffer of COUNT elements of TYPE (int, uint,
                           float4, ...); INIT is zeros (default), iota,
                           fill=V, random (floats in [-1,1), integers over
                           the whole type), random=LOW..HIGH, file=PATH or
                           [V,V,...]
    buf:TYPE:file=PATH     raw bytes; COUNT from the file's size
    buf:TYPE:[V,V,...]     a literal list; COUNT from its length
    null                   a NULL pointer
    local:BYTES            __local memory (also local:TYPE:COUNT)
    TYPE:V[,V...]          a value: int:5, float:2.5, float4:1,2,3,4
  --device NAMES     target names (host), device ids (vulkan:1), or all (default)
  --ulp N            how many ULPs floats may differ by (default 4)
  --seed S           seed of the random contents (default 1)
  --rows N           differences shown per buffer (default 8)
  --timeout SECONDS  how long one launch may take (default 300)
  -D NAME[=VALUE], -I DIR, --options "...", --color=WHEN   as for compile
)";

struct RunOptions {
  SourceOptions source;
  std::string kernel;
  std::vector<std::string> argTexts;
  std::optional<mux::NDRange> global;
  std::optional<std::array<size_t, 3>> local;
  uint32_t localDimensions = 0;
  CompareSettings compare;
  uint64_t seed = 1;
  uint64_t timeoutSeconds = 300;
};

/// "X[,Y[,Z]]": one to three sizes of at least 1.
bool parseSizes(llvm::StringRef text, std::array<size_t, 3> &sizes, uint32_t &dimensions) {
  llvm::SmallVector<llvm::StringRef, 3> words;
  text.split(words, ',', -1, /*KeepEmpty=*/true);
  if (words.empty() || words.size() > 3)
    return false;
  sizes = {1, 1, 1};
  for (size_t i = 0; i < words.size(); ++i) {
    unsigned long long value;
    if (words[i].trim().getAsInteger(0, value) || value == 0)
      return false;
    sizes[i] = value;
  }
  dimensions = words.size();
  return true;
}

bool parseCount(llvm::StringRef text, uint64_t &value) { return !text.getAsInteger(0, value); }

std::optional<int> usage(const std::string &message) {
  llvm::errs() << "polymux run: " << message << "\n";
  return ExitUsage;
}

/// Parses the command line; returns an exit status when done with it.
std::optional<int> parse(std::span<char *const> args, RunOptions &options) {
  CommandLine line(args);
  while (line.more()) {
    std::string value;
    if (line.flag("--help") || line.flag("-h")) {
      llvm::outs() << kRunHelp;
      return ExitSuccess;
    }
    if (readSourceOption(line, options.source))
      continue;
    if (line.option("--kernel", value)) {
      options.kernel = value;
    } else if (line.option("--arg", value)) {
      options.argTexts.push_back(value);
    } else if (line.option("--global", value)) {
      mux::NDRange range;
      if (!parseSizes(value, range.globalSize, range.dimensions))
        return usage("--global takes one to three sizes, X[,Y[,Z]], not '" + value + "'");
      options.global = range;
    } else if (line.option("--local", value)) {
      std::array<size_t, 3> sizes;
      if (!parseSizes(value, sizes, options.localDimensions))
        return usage("--local takes one to three sizes, X[,Y[,Z]], not '" + value + "'");
      options.local = sizes;
    } else if (line.option("--ulp", value)) {
      if (!parseCount(value, options.compare.ulp))
        return usage("--ulp takes a count, not '" + value + "'");
    } else if (line.option("--seed", value)) {
      if (!parseCount(value, options.seed))
        return usage("--seed takes an unsigned integer, not '" + value + "'");
    } else if (line.option("--rows", value)) {
      uint64_t rows;
      if (!parseCount(value, rows))
        return usage("--rows takes a count, not '" + value + "'");
      options.compare.rows = rows;
    } else if (line.option("--timeout", value)) {
      if (!parseCount(value, options.timeoutSeconds) || options.timeoutSeconds == 0)
        return usage("--timeout takes seconds, not '" + value + "'");
    } else if (line.current().starts_with("-") && line.current() != "-") {
      return usage("unknown option '" + std::string(line.current()) + "' (polymux run --help)");
    } else if (!options.source.path.empty()) {
      return usage("one source file at a time");
    } else {
      options.source.path = line.take();
    }
  }
  if (line.problem())
    return usage(*line.problem());
  if (options.source.path.empty())
    return usage("no source file (polymux run --help)");
  if (!options.global)
    return usage("--global is needed");
  if (options.local && options.localDimensions != options.global->dimensions)
    return usage("--local and --global have different numbers of dimensions");
  return std::nullopt;
}

/// The kernel `name` in `module`, or its only kernel when `name` is empty.
llvm::Expected<const compiler::KernelInfo *> findKernel(const compiler::Module &module, const std::string &name) {
  std::vector<std::string> names;
  for (const compiler::KernelInfo &kernel : module.kernels()) {
    if (kernel.name == name)
      return &kernel;
    names.push_back(kernel.name);
  }
  if (name.empty() && module.kernels().size() == 1)
    return &module.kernels()[0];
  std::string known = names.empty() ? "none" : llvm::join(names, ", ");
  if (name.empty())
    return llvm::createStringError("the program has several kernels (%s): choose one with --kernel", known.c_str());
  return llvm::createStringError("no kernel named '%s' (the program's kernels: %s)", name.c_str(), known.c_str());
}

/// A local size every device accepts: the kernel's required size, or along
/// x the largest divisor of the global size up to 256 that no device's
/// limit excludes.
std::array<size_t, 3> chooseLocalSize(const compiler::KernelInfo &kernel, const mux::NDRange &range,
                                      std::vector<LoadedKernel> &kernels, std::vector<const ToolDevice *> &devices) {
  if (kernel.reqdWorkGroupSize[0])
    return kernel.reqdWorkGroupSize;
  size_t limit = 256;
  for (size_t i = 0; i < kernels.size(); ++i)
    limit = std::min({limit, kernels[i].kernel().maxWorkGroupSize(), devices[i]->device->info().maxWorkItemSizes[0]});
  size_t x = std::max<size_t>(limit, 1);
  while (range.globalSize[0] % x != 0)
    --x;
  return {x, 1, 1};
}

/// Why `local` does not suit the kernel on `device`, or nothing.
std::optional<std::string> localSizeProblem(const std::array<size_t, 3> &local, mux::Kernel &kernel,
                                            const mux::DeviceInfo &info) {
  size_t items = local[0] * local[1] * local[2];
  if (items > kernel.maxWorkGroupSize())
    return "a work-group of " + std::to_string(items) + " work-items is more than the kernel's limit, " +
           std::to_string(kernel.maxWorkGroupSize());
  for (size_t d = 0; d < 3; ++d)
    if (local[d] > info.maxWorkItemSizes[d])
      return "the local size along dimension " + std::to_string(d) + " is more than the device's limit, " +
             std::to_string(info.maxWorkItemSizes[d]);
  return std::nullopt;
}

std::string sizesText(const std::array<size_t, 3> &sizes, uint32_t dimensions) {
  std::string text = std::to_string(sizes[0]);
  for (uint32_t d = 1; d < dimensions; ++d)
    (text += ',') += std::to_string(sizes[d]);
  return text;
}

void printTimes(llvm::raw_ostream &out, const std::vector<const ToolDevice *> &devices,
                const std::vector<DeviceBuild> &builds, const std::vector<std::optional<LaunchResult>> &launches) {
  out << "\n" << padded("device", 16) << padded("build", 12) << padded("kernel", 12) << "launch\n";
  for (size_t i = 0; i < devices.size(); ++i) {
    out << padded(devices[i]->id, 16) << padded(builds[i].ok() ? formatSeconds(builds[i].seconds) : "failed", 12);
    if (launches[i] && launches[i]->failure.empty()) {
      const LaunchResult &launch = *launches[i];
      out << padded(launch.kernelSeconds > 0 ? formatSeconds(launch.kernelSeconds) : "-", 12)
          << formatSeconds(launch.wallSeconds);
      if (launch.instructionsRetired)
        out << "  (" << launch.instructionsRetired << " instructions)";
    } else {
      out << padded("-", 12) << "-";
    }
    out << "\n";
  }
}

} // namespace

int runCommand(std::span<char *const> args) {
  RunOptions options;
  if (std::optional<int> status = parse(args, options))
    return *status;
  applyColorMode(llvm::errs(), options.source.color);
  auto source = readSource(options.source);
  if (!source) {
    llvm::errs() << "polymux run: " << llvm::toString(source.takeError()) << "\n";
    return ExitUsage;
  }
  std::vector<ArgSpec> specs;
  for (size_t i = 0; i < options.argTexts.size(); ++i) {
    auto spec = parseArgSpec(options.argTexts[i], options.seed, i);
    if (!spec) {
      llvm::errs() << "polymux run: " << llvm::toString(spec.takeError()) << "\n";
      return ExitUsage;
    }
    specs.push_back(std::move(*spec));
  }
  DeviceList list;
  auto selected = list.select(options.source.devices);
  if (!selected) {
    llvm::errs() << "polymux run: " << llvm::toString(selected.takeError()) << "\n";
    return ExitUsage;
  }
  std::vector<const ToolDevice *> devices = std::move(*selected);
  std::vector<std::string> ids;
  for (const ToolDevice *device : devices)
    ids.push_back(device->id);

  // Build everywhere; the kernel's interface comes from the first build.
  const std::string buildOptions = buildOptionString(options.source);
  std::vector<DeviceBuild> builds;
  for (const ToolDevice *device : devices)
    builds.push_back(buildForDevice(*device->device, *source, buildOptions, /*keepStages=*/false));
  printBuildLogs(ids, builds, options.source.path);
  bool failed = false;
  const compiler::KernelInfo *kernel = nullptr;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!builds[i].ok()) {
      llvm::errs() << ids[i] << ": build failed" << (builds[i].error.empty() ? "" : ": " + builds[i].error) << "\n";
      failed = true;
      continue;
    }
    auto found = findKernel(*builds[i].module, options.kernel);
    if (!found) {
      llvm::errs() << "polymux run: " << llvm::toString(found.takeError()) << "\n";
      return ExitUsage;
    }
    if (llvm::Error error = checkArgs(specs, **found)) {
      llvm::errs() << "polymux run: " << llvm::toString(std::move(error)) << "\n";
      return ExitUsage;
    }
    if (!kernel)
      kernel = *found;
  }
  if (!kernel)
    return ExitProblem;

  // Load the kernel where it built; choose or check the local size.
  std::vector<LoadedKernel> loaded;
  std::vector<const ToolDevice *> running;
  std::vector<size_t> runningIndex;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!builds[i].ok())
      continue;
    auto kernelOnDevice = LoadedKernel::load(*devices[i]->device, *builds[i].module, kernel->name);
    if (!kernelOnDevice) {
      llvm::errs() << ids[i] << ": cannot load the kernel: " << messageOf(kernelOnDevice.takeError()) << "\n";
      failed = true;
      continue;
    }
    loaded.push_back(std::move(*kernelOnDevice));
    running.push_back(devices[i]);
    runningIndex.push_back(i);
  }
  mux::NDRange range = *options.global;
  range.localSize = options.local ? *options.local : chooseLocalSize(*kernel, range, loaded, running);
  for (size_t k = 0; k < loaded.size(); ++k)
    if (auto problem = localSizeProblem(range.localSize, loaded[k].kernel(), running[k]->device->info())) {
      llvm::errs() << "polymux run: on " << running[k]->id << ", " << *problem << "; choose one with --local\n";
      return ExitUsage;
    }

  llvm::raw_ostream &out = llvm::outs();
  out << "kernel " << kernel->name << ", global " << sizesText(range.globalSize, range.dimensions) << ", local "
      << sizesText(range.localSize, range.dimensions) << ", on " << llvm::join(ids, ", ") << "\n";
  out.flush();

  // One device at a time, so that devices sharing the CPU do not slow each
  // other down.
  std::vector<std::optional<LaunchResult>> launches(devices.size());
  std::vector<DeviceResult> ran;
  for (size_t k = 0; k < loaded.size(); ++k) {
    const size_t i = runningIndex[k];
    launches[i] = loaded[k].run(specs, range, std::chrono::seconds(options.timeoutSeconds));
    if (!launches[i]->failure.empty()) {
      llvm::errs() << ids[i] << ": " << launches[i]->failure << "\n";
      failed = true;
      if (launches[i]->failure.starts_with("did not complete")) {
        // The device still runs it; its objects cannot be released.
        llvm::outs().flush();
        llvm::errs().flush();
        std::_Exit(ExitProblem);
      }
      continue;
    }
    ran.push_back({ids[i], &*launches[i]});
  }

  bool agree = true;
  if (ran.size() >= 2)
    agree = compareResults(out, ran, specs, *kernel, options.compare);
  else if (!ran.empty())
    out << "one device ran: nothing to compare\n";
  printTimes(out, devices, builds, launches);
  if (failed)
    out << "\nfailed on " << (devices.size() - ran.size()) << " of " << devices.size() << " devices\n";
  else if (ran.size() >= 2)
    out << "\n" << (agree ? "devices agree" : "devices disagree") << "\n";
  return failed || !agree ? ExitProblem : ExitSuccess;
}

} // namespace polymux::tool
