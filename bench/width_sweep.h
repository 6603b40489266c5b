// The workloads measured at several vector widths (peak compute, global
// bandwidth) share their table rows' shape: the best width, then each width.
#pragma once

#include "kernel_text.h"
#include "workload_support.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace bench {

/// `best`, then "<before><floatN><after>" for each width.
inline std::vector<std::string> widthLabels(const std::string &best, const std::string &before,
                                            std::span<const unsigned> widths, const std::string &after) {
  std::vector<std::string> labels = {best};
  for (unsigned width : widths)
    labels.push_back(before + floatType(width) + after);
  return labels;
}

/// Figures for `widthCount` widths and the best of them first. `measure`
/// prepares what the widths share and fills figures 1..widthCount; an
/// OpenCL error in the shared part marks every figure.
inline std::vector<Figure> sweepWidths(size_t widthCount, const std::function<void(std::span<Figure>)> &measure) {
  std::vector<Figure> figures(widthCount + 1);
  try {
    measure(std::span(figures).subspan(1));
  } catch (const ClError &error) {
    for (Figure &figure : figures)
      figure = fromError(error);
    return figures;
  }
  figures[0] = bestOf(std::span(figures).subspan(1));
  return figures;
}

} // namespace bench
