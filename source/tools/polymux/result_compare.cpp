#include "result_compare.h"

#include "text_format.h"

#include <algorithm>

namespace polymux::tool {
namespace {

std::string exitStatusText(const LaunchResult &launch) {
  return launch.exitStatus ? std::to_string(*launch.exitStatus) : "none";
}

/// "12" for a scalar buffer, "12.3" for lane 3 of element 12 of a vector one.
std::string indexText(const ElementType &type, uint64_t element, unsigned lane) {
  std::string text = std::to_string(element);
  if (type.lanes > 1)
    (text += '.') += std::to_string(lane);
  return text;
}

/// Compares one buffer argument; returns whether every device agrees.
bool compareBuffer(llvm::raw_ostream &out, const std::vector<DeviceResult> &results, size_t argIndex,
                   const ArgSpec &spec, const compiler::KernelArgInfo &arg, const CompareSettings &settings) {
  const ElementType &type = spec.element;
  const ScalarType &scalar = *type.scalar;
  const bool isFloat = scalar.kind == ScalarKind::Float;
  const std::vector<std::byte> &reference = results[0].launch->buffers[argIndex];
  std::vector<uint64_t> maxDistance(results.size(), 0);
  uint64_t differing = 0;
  std::vector<std::pair<uint64_t, unsigned>> shown; // element, lane
  for (uint64_t element = 0; element < spec.count; ++element)
    for (unsigned lane = 0; lane < type.lanes; ++lane) {
      const size_t offset = element * type.bytes() + lane * scalar.bytes;
      bool differs = false;
      for (size_t d = 1; d < results.size(); ++d) {
        uint64_t apart =
            distance(scalar, reference.data() + offset, results[d].launch->buffers[argIndex].data() + offset);
        maxDistance[d] = std::max(maxDistance[d], apart);
        differs |= isFloat ? apart > settings.ulp : apart != 0;
      }
      if (!differs)
        continue;
      ++differing;
      if (shown.size() < settings.rows)
        shown.emplace_back(element, lane);
    }

  const uint64_t values = spec.count * type.lanes;
  out << "argument " << argIndex << " '" << arg.name << "' (" << type.name() << "[" << spec.count << "]): ";
  uint64_t worst = *std::max_element(maxDistance.begin(), maxDistance.end());
  if (differing == 0) {
    out << "same on " << results.size() << " devices";
    if (isFloat && worst)
      out << " (within " << worst << " ULP; tolerance " << settings.ulp << ")";
    out << "\n";
    return true;
  }
  out << differing << " of " << values << " values differ";
  if (isFloat)
    out << " by more than " << settings.ulp << " ULP";
  out << "\n";

  // The table: the first differing values on every device.
  const size_t width = 24;
  out << "  " << padded("index", 10);
  for (size_t d = 0; d < results.size(); ++d)
    out << (d + 1 < results.size() ? padded(results[d].id, width) : results[d].id);
  out << "\n";
  for (auto [element, lane] : shown) {
    const size_t offset = element * type.bytes() + lane * scalar.bytes;
    out << "  " << padded(indexText(type, element, lane), 10);
    for (size_t d = 0; d < results.size(); ++d) {
      const std::byte *value = results[d].launch->buffers[argIndex].data() + offset;
      std::string text = formatScalar(scalar, value);
      uint64_t apart = distance(scalar, reference.data() + offset, value);
      if (d > 0 && isFloat && apart != 0)
        text += apart == UINT64_MAX ? " (NaN)" : " (" + std::to_string(apart) + " ulp)";
      out << (d + 1 < results.size() ? padded(text, width) : text);
    }
    out << "\n";
  }
  if (differing > shown.size())
    out << "  ... " << differing - shown.size() << " more\n";
  return false;
}

} // namespace

bool compareResults(llvm::raw_ostream &out, const std::vector<DeviceResult> &results, const std::vector<ArgSpec> &specs,
                    const compiler::KernelInfo &kernel, const CompareSettings &settings) {
  bool agree = true;
  bool sameExit = true;
  for (const DeviceResult &result : results)
    sameExit &= result.launch->exitStatus == results[0].launch->exitStatus;
  if (!sameExit) {
    agree = false;
    out << "kernel exit status (cl_polymux_kernel_exit) differs:";
    for (const DeviceResult &result : results)
      out << " " << result.id << " " << exitStatusText(*result.launch);
    out << "\n";
  }
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i].kind == ArgSpec::Kind::Buffer && mayWrite(kernel.args[i]))
      agree &= compareBuffer(out, results, i, specs[i], kernel.args[i], settings);
  return agree;
}

} // namespace polymux::tool
