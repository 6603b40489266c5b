// polymux-bench: runs the same workloads on every device of every OpenCL
// platform the ICD loader offers, and prints them side by side with the ratio
// Polymux/other. scripts/bench sets OCL_ICD_VENDORS so that both Polymux and
// the system's platforms (e.g. PoCL) are visible.
//
//   polymux-bench [--quick] [--only SUBSTRING]
//
//   --only SUBSTRING   runs only the rows whose label contains SUBSTRING
//                      (case-sensitive), e.g. `--only image`; the other
//                      workloads do not run at all, and the machine's own
//                      limits only where a chosen row is a fraction of them
//
//   polymux-bench --clblast-first-call PLATFORM-NAME DEVICE-INDEX
//                      internal: the child process of the CLBlast first-call
//                      row (clblast_first_call.h)
//
//   polymux-bench --simulator-rates
//                      only the simulated-instruction rates of the Polymux
//                      devices that count instructions (scripts/bench runs
//                      it with 1 and 2 harts for the scaling)
//
// Timings never fail the run; the exit status is non-zero only when a
// workload's result was wrong or an OpenCL call failed. Simulated devices
// (cl_polymux_instruction_counters) run the --quick sizes. The throughput
// workloads (global bandwidth, image reads, peak compute, SGEMM) size themselves per
// device from its kind and CL_DEVICE_MAX_MEM_ALLOC_SIZE, large enough to fill
// an H100 on a GPU, small on CPUs and simulators, and print the sizes they
// chose to stderr.
#include "bench_cl.h"
#include "clblast_first_call.h"
#include "clblast_sgemm.h"
#include "compute_peak.h"
#include "device_facts.h"
#include "global_bandwidth.h"
#include "image_bandwidth.h"
#include "integer_peak.h"
#include "machine_limits.h"
#include "math_workloads.h"
#include "sgemm.h"
#include "sim_workloads.h"
#include "sub_group_workloads.h"
#include "workloads.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr const char *kPolymuxPlatform = "Polymux";

struct Column {
  std::string platform;
  std::string device;
  bool polymux = false;
  /// A CPU device that is not simulated: its rows have a fraction of the
  /// machine's own limits.
  bool onThisCpu = false;
  bench::Figure latency, write, read, triad;
  bench::Figure computeDouble;
  bench::Figure subGroups;
  std::vector<bench::Figure> math; ///< one per bench::mathCases() entry
  /// One per row of bench::peakComputeLabels(), globalBandwidthLabels(), imageBandwidthLabels(),
  /// integerComputeLabels(), sgemmLabels(), clblastSgemmLabels().
  std::vector<bench::Figure> compute, bandwidth, images, integers, gemm, clblast;
  bench::Figure clblastFirstCall;
  bench::Figure simCompute, simMemory; ///< simulated devices only
};

std::string formatFigure(const bench::Figure &figure) {
  if (!figure.value)
    return figure.wrong ? "WRONG" : figure.unsupported ? "n/a" : "error";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *figure.value);
  return text;
}

std::string perUnit(const bench::Figure &figure, unsigned units) {
  if (!figure.value || units == 0)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *figure.value / units);
  return text;
}

std::string formatRatio(const bench::Figure &ours, const bench::Figure &theirs) {
  if (!ours.value || !theirs.value || *theirs.value == 0)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", *ours.value / *theirs.value);
  return text;
}

/// Every figure of a column in table order: the fixed workloads, the
/// throughput workloads, CLBlast, then one per bench::mathCases() entry.
std::vector<const bench::Figure *> figures(const Column &column) {
  std::vector<const bench::Figure *> all = {&column.latency, &column.write, &column.read, &column.triad};
  for (const auto *group : {&column.bandwidth, &column.images, &column.compute})
    for (const bench::Figure &figure : *group)
      all.push_back(&figure);
  all.push_back(&column.computeDouble);
  for (const bench::Figure &figure : column.integers)
    all.push_back(&figure);
  all.push_back(&column.subGroups);
  for (const auto *group : {&column.gemm, &column.clblast})
    for (const bench::Figure &figure : *group)
      all.push_back(&figure);
  all.push_back(&column.clblastFirstCall);
  for (const bench::Figure &figure : column.math)
    all.push_back(&figure);
  all.push_back(&column.simCompute);
  all.push_back(&column.simMemory);
  return all;
}

const std::string kLatencyLabel = "launch latency, empty kernel (us, median; lower is better)";
const std::string kTransferLabels[] = {"clEnqueueWriteBuffer bandwidth (GB/s, best)",
                                       "clEnqueueReadBuffer bandwidth (GB/s, best)"};
const std::string kTriadLabel = "STREAM triad a=b+s*c (GB/s, best)";
const std::string kSimulatedLabels[] = {"simulated instructions, compute-bound (M/s, device)",
                                        "simulated instructions, memory-bound (M/s, device)"};

std::string mathLabel(const bench::MathCase &math) { return std::string(math.label) + " (Melem/s, best)"; }

/// A row of the table: its label, which of the machine's limits it is a
/// fraction of, and whether the row shows the limit itself in the machine's
/// column.
struct Row {
  std::string label;
  const bench::Figure *limit = nullptr;
  bool shown = false;
};

/// Row i is the i-th figure of every column (see figures()).
std::vector<Row> tableRows(const bench::MachineLimits *machine) {
  auto limit = [&](const bench::Figure bench::MachineLimits::*figure) {
    return machine ? &(machine->*figure) : nullptr;
  };
  std::vector<Row> rows = {{kLatencyLabel},
                           {kTransferLabels[0], limit(&bench::MachineLimits::triad)},
                           {kTransferLabels[1], limit(&bench::MachineLimits::triad)},
                           {kTriadLabel, limit(&bench::MachineLimits::triad), machine != nullptr}};
  auto addLabels = [&](std::span<const std::string> group, const bench::Figure *groupLimit, bool bestShowsLimit) {
    for (size_t i = 0; i < group.size(); ++i)
      rows.push_back({group[i], groupLimit, groupLimit && bestShowsLimit && i == 0});
  };
  addLabels(bench::globalBandwidthLabels(), limit(&bench::MachineLimits::triad), false);
  addLabels(bench::imageBandwidthLabels(), limit(&bench::MachineLimits::triad), false);
  addLabels(bench::peakComputeLabels(), limit(&bench::MachineLimits::fmaFloat), true);
  addLabels(std::span(&bench::peakComputeDoubleLabel(), 1), limit(&bench::MachineLimits::fmaDouble), true);
  addLabels(bench::integerComputeLabels(), nullptr, false);
  addLabels(std::span(&bench::subGroupCollectivesLabel(), 1), nullptr, false);
  addLabels(bench::sgemmLabels(), limit(&bench::MachineLimits::fmaFloat), false);
  addLabels(bench::clblastSgemmLabels(), limit(&bench::MachineLimits::fmaFloat), false);
  addLabels(std::span(&bench::clblastFirstCallLabel(), 1), nullptr, false);
  for (const bench::MathCase &math : bench::mathCases())
    rows.push_back({mathLabel(math)});
  for (const std::string &label : kSimulatedLabels)
    rows.push_back({label});
  return rows;
}

/// The rows --only chose: those whose label contains `only` (all if empty).
struct RowFilter {
  std::string only;
  bool operator()(const std::string &label) const { return label.find(only) != std::string::npos; }
  bool any(std::span<const std::string> labels) const { return std::any_of(labels.begin(), labels.end(), *this); }
};

void printTable(const std::vector<Column> &columns, const bench::MachineLimits *machine, const RowFilter &chosen) {
  std::printf("\nDevices:\n");
  for (size_t i = 0; i < columns.size(); ++i)
    std::printf("  [%zu] %s: %s\n", i + 1, columns[i].platform.c_str(), columns[i].device.c_str());
  std::vector<size_t> onThisCpu;
  for (size_t i = 0; i < columns.size(); ++i)
    if (machine && columns[i].onThisCpu)
      onThisCpu.push_back(i);
  if (machine) {
    std::printf("  [M] this machine, native C++ on %u threads: STREAM triad %s GB/s (%s loop, huge pages), "
                "multiply-add peak %s GFLOPS float, %s GFLOPS double (%s)\n",
                machine->threads, formatFigure(machine->triad).c_str(), machine->triadLoop.c_str(),
                formatFigure(machine->fmaFloat).c_str(), formatFigure(machine->fmaDouble).c_str(),
                machine->vectors.c_str());
    if (!onThisCpu.empty())
      std::printf("  [k]/[M]: the fraction of the machine a CPU device reaches: bandwidth rows of [M]'s triad, "
                  "compute and SGEMM rows of its multiply-add peak\n");
  }

  // Every Polymux device against every other device.
  std::vector<std::pair<size_t, size_t>> ratios;
  for (size_t p = 0; p < columns.size(); ++p)
    for (size_t o = 0; o < columns.size(); ++o)
      if (columns[p].polymux && !columns[o].polymux)
        ratios.push_back({p, o});
  const std::vector<Row> rows = tableRows(machine);

  char header[32];
  std::printf("\n%-60s", "workload");
  for (size_t i = 0; i < columns.size(); ++i) {
    std::snprintf(header, sizeof header, "[%zu]", i + 1);
    std::printf(" %10s", header);
  }
  if (machine)
    std::printf(" %10s", "[M]");
  for (auto [p, o] : ratios) {
    std::snprintf(header, sizeof header, "[%zu]/[%zu]", p + 1, o + 1);
    std::printf(" %10s", header);
  }
  for (size_t i : onThisCpu) {
    std::snprintf(header, sizeof header, "[%zu]/[M]", i + 1);
    std::printf(" %10s", header);
  }
  std::printf("\n");
  for (size_t row = 0; row < rows.size(); ++row) {
    if (!chosen(rows[row].label))
      continue;
    std::printf("%-60s", rows[row].label.c_str());
    for (const Column &column : columns)
      std::printf(" %10s", formatFigure(*figures(column)[row]).c_str());
    if (machine)
      std::printf(" %10s", rows[row].shown ? formatFigure(*rows[row].limit).c_str() : "-");
    for (auto [p, o] : ratios)
      std::printf(" %10s", formatRatio(*figures(columns[p])[row], *figures(columns[o])[row]).c_str());
    for (size_t i : onThisCpu)
      std::printf(" %10s", rows[row].limit ? formatRatio(*figures(columns[i])[row], *rows[row].limit).c_str() : "-");
    std::printf("\n");
  }
  if (ratios.empty())
    std::printf("(no ratio: needs a Polymux device and another platform's device)\n");
}

bench::Sizes quickSizes() {
  bench::Sizes sizes;
  sizes.quick = true;
  sizes.latencyRuns = 200;
  sizes.transferBytes = size_t{32} << 20;
  sizes.transferRuns = 3;
  sizes.triadElements = size_t{1} << 22;
  sizes.triadRuns = 10;
  sizes.mathElements = size_t{1} << 18;
  return sizes;
}

/// Prints the simulated-instruction rates of every counting Polymux device.
int printSimulatorRates(const std::vector<cl_platform_id> &platforms) {
  bool failed = false;
  for (cl_platform_id platform : platforms) {
    if (bench::platformName(platform) != kPolymuxPlatform)
      continue;
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> devices(count);
    bench::check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr), "clGetDeviceIDs");
    for (cl_device_id device : devices) {
      if (!bench::countsInstructions(device))
        continue;
      bench::DeviceSession session(platform, device);
      bench::SimulatorRates rates = bench::simulatorRates(session, 3);
      std::printf("%s, %u harts: compute-bound %s M instr/s (%s per hart), memory-bound %s M instr/s (%s per hart)\n",
                  bench::deviceName(device).c_str(), rates.computeUnits, formatFigure(rates.compute).c_str(),
                  perUnit(rates.compute, rates.computeUnits).c_str(), formatFigure(rates.memory).c_str(),
                  perUnit(rates.memory, rates.computeUnits).c_str());
      failed |= !rates.compute.value || !rates.memory.value;
    }
  }
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  // Line-buffered even into a pipe: a run killed by a timeout still shows how far it got.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bench::Sizes sizes;
  bool simulatorRatesOnly = false;
  RowFilter chosen;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      sizes = quickSizes();
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      chosen.only = argv[++i];
    } else if (std::strcmp(argv[i], "--clblast-first-call") == 0 && i + 2 < argc) {
      return bench::runClblastFirstCall(argv[i + 1], static_cast<unsigned>(std::atoi(argv[i + 2])));
    } else if (std::strcmp(argv[i], "--simulator-rates") == 0) {
      simulatorRatesOnly = true;
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--only SUBSTRING] | --simulator-rates\n", argv[0]);
      return 2;
    }
  }

  cl_uint platformCount = 0;
  if (clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0) {
    std::fprintf(stderr, "polymux-bench: no OpenCL platform (set OCL_ICD_VENDORS, or use scripts/bench)\n");
    return 1;
  }
  std::vector<cl_platform_id> platforms(platformCount);
  bench::check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");
  if (simulatorRatesOnly)
    return printSimulatorRates(platforms);

  // Which rows run, and whether one of them is a fraction of the machine's
  // limits (a placeholder stands for the limits not measured yet).
  const bench::MachineLimits placeholder;
  const std::vector<Row> allRows = tableRows(&placeholder);
  size_t chosenRows = 0;
  bool limitsNeeded = false;
  for (const Row &row : allRows)
    if (chosen(row.label)) {
      ++chosenRows;
      limitsNeeded |= row.limit != nullptr;
    }
  if (chosenRows == 0) {
    std::fprintf(stderr, "polymux-bench: no row's label contains \"%s\"\n", chosen.only.c_str());
    return 2;
  }
  if (!chosen.only.empty())
    std::printf("--only \"%s\": %zu of the %zu rows\n", chosen.only.c_str(), chosenRows, allRows.size());

  std::printf("sizes: %zu launches, %zu MiB transfers, triad 3 x %zu MiB, math %zu elements\n", sizes.latencyRuns,
              sizes.transferBytes >> 20, (sizes.triadElements * sizeof(float)) >> 20, sizes.mathElements);
  // First, while no device's threads run: the machine's own limits.
  std::optional<bench::MachineLimits> machine;
  bool failed = false;
  if (limitsNeeded) {
    std::fprintf(stderr, "measuring this machine's limits (native C++)\n");
    machine = bench::measureMachineLimits(sizes);
    for (const bench::Figure *figure : {&machine->triad, &machine->fmaFloat, &machine->fmaDouble})
      if (!figure->value) {
        failed = true;
        std::fprintf(stderr, "  machine limits: %s\n", figure->problem.c_str());
      }
  }
  std::vector<Column> columns;
  for (cl_platform_id platform : platforms) {
    std::string platformName = bench::platformName(platform);
    cl_uint deviceCount = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> devices(deviceCount);
    bench::check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, deviceCount, devices.data(), nullptr), "clGetDeviceIDs");
    for (unsigned deviceIndex = 0; deviceIndex < deviceCount; ++deviceIndex) {
      cl_device_id device = devices[deviceIndex];
      Column column;
      column.platform = platformName;
      column.device = bench::deviceName(device);
      column.polymux = platformName == kPolymuxPlatform;
      column.onThisCpu = bench::deviceFacts(device).kind == bench::DeviceFacts::Kind::Cpu;
      std::fprintf(stderr, "running on %s: %s\n", column.platform.c_str(), column.device.c_str());
      const bool simulated = bench::countsInstructions(device);
      const bench::Sizes deviceSizes = simulated ? quickSizes() : sizes;
      column.simCompute.unsupported = column.simMemory.unsupported = !simulated;
      column.math.resize(bench::mathCases().size());
      std::string sessionError;
      try {
        bench::DeviceSession session(platform, device);
        if (chosen(kLatencyLabel))
          column.latency = bench::launchLatencyUs(session, deviceSizes);
        if (chosen.any(kTransferLabels)) {
          auto transfer = bench::transferBandwidth(session, deviceSizes);
          column.write = transfer.write;
          column.read = transfer.read;
        }
        if (chosen(kTriadLabel))
          column.triad = bench::triadBandwidth(session, deviceSizes);
        if (chosen.any(bench::globalBandwidthLabels()))
          column.bandwidth = bench::globalBandwidth(session, deviceSizes);
        if (chosen.any(bench::imageBandwidthLabels()))
          column.images = bench::imageBandwidth(session, deviceSizes);
        if (chosen.any(bench::peakComputeLabels()))
          column.compute = bench::peakCompute(session, deviceSizes);
        if (chosen(bench::peakComputeDoubleLabel()))
          column.computeDouble = bench::peakComputeDouble(session, deviceSizes);
        if (chosen.any(bench::integerComputeLabels()))
          column.integers = bench::integerCompute(session, deviceSizes);
        if (chosen(bench::subGroupCollectivesLabel()))
          column.subGroups = bench::subGroupCollectives(session, deviceSizes);
        if (chosen.any(bench::sgemmLabels()))
          column.gemm = bench::sgemm(session, deviceSizes);
        if (chosen.any(bench::clblastSgemmLabels()))
          column.clblast = bench::clblastSgemm(session, deviceSizes);
        if (chosen(bench::clblastFirstCallLabel()))
          column.clblastFirstCall = bench::clblastFirstCallMs(device, platformName, deviceIndex);
        for (size_t i = 0; i < bench::mathCases().size(); ++i)
          if (chosen(mathLabel(bench::mathCases()[i])))
            column.math[i] = bench::mathThroughput(session, bench::mathCases()[i], deviceSizes);
        if (simulated && chosen.any(kSimulatedLabels)) {
          bench::SimulatorRates rates = bench::simulatorRates(session, 3);
          column.simCompute = rates.compute;
          column.simMemory = rates.memory;
        }
      } catch (const bench::ClError &error) {
        sessionError = std::string(error.what()) + " -> " + std::to_string(error.code());
      }
      // A session that failed early ran none of these.
      column.bandwidth.resize(bench::globalBandwidthLabels().size());
      column.images.resize(bench::imageBandwidthLabels().size());
      column.compute.resize(bench::peakComputeLabels().size());
      column.integers.resize(bench::integerComputeLabels().size());
      column.gemm.resize(bench::sgemmLabels().size());
      column.clblast.resize(bench::clblastSgemmLabels().size());
      const std::vector<const bench::Figure *> all = figures(column);
      const std::vector<Row> rows = tableRows(nullptr);
      for (size_t row = 0; row < rows.size(); ++row) {
        const bench::Figure &figure = *all[row];
        if (chosen(rows[row].label) && !figure.value && !figure.unsupported) {
          failed = true;
          const std::string why = !figure.problem.empty()
                                      ? figure.problem
                                      : "not run" + (sessionError.empty() ? "" : " (" + sessionError + ")");
          std::fprintf(stderr, "  %s: %s\n", figure.wrong ? "WRONG RESULT" : "error", why.c_str());
        }
      }
      columns.push_back(std::move(column));
    }
  }
  printTable(columns, machine ? &*machine : nullptr, chosen);
  return failed ? 1 : 0;
}
