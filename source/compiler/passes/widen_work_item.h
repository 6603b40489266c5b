// Builds the vector form of a work-item function: one call runs `width`
// consecutive work-items of dimension 0 in SIMD lanes.
#pragma once

#include "linearize_divergence.h"
#include "work_item_uniformity.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

namespace compiler {

struct WidenedWorkItem {
  /// Same parameters as the scalar function; its local-id argument of
  /// dimension 0 is the id of lane 0.
  llvm::Function *function = nullptr;
  unsigned width = 0;
  /// Instructions that run once per lane (calls without a vector form,
  /// atomics, values of aggregate type) on values of vector type: code
  /// already written for SIMD.
  unsigned scalarizedVectorInstructions = 0;
  /// Estimated cost per work-item of the scalar form and of this vector
  /// form, in scalar instructions, each weighted by kLoopWeight per loop
  /// around it: a vector instruction costs 1 / width of a scalar one per
  /// work-item, a gathered or scattered element kGatheredElementCost.
  double scalarCost = 0;
  double vectorCost = 0;

  /// Whether this form should run instead of the scalar one.
  bool pays() const { return vectorCost < scalarCost; }
};

/// How much more an instruction inside a loop weighs than one around it.
inline constexpr double kLoopWeight = 8;
/// A lane's element of a gather or scatter, in scalar instructions: x86
/// cores fetch about one element per cycle or less (AMD's Zen 4 microcodes
/// them) and retire four to six scalar instructions meanwhile.
inline constexpr double kGatheredElementCost = 8;
/// How many times more a gathered element costs when each lane's address
/// moves by a few elements per iteration of the loop around it: the
/// scalar form then loads several of them at once.
inline constexpr double kStreamedGatherFactor = 4;

/// Widens `scalar`, whose divergent control flow has been linearised
/// (`masks`), into a new internal function `name` of the same module.
/// Uniform values stay scalar; varying ones of scalar type become vectors of
/// `width` elements; memory accesses become vector loads and stores where
/// lanes are consecutive (`uniformity.stride`), gathers and scatters where
/// not, masked in masked blocks; the rest runs lane by lane, under the lane's
/// mask when it has side effects or may fault. Sub-group collective markers
/// (group_collectives.h) become vector operations and sub-group barriers
/// nothing: the caller promises that the lanes of a vector are always one
/// whole sub-group (width = the sub-group size, and full sub-groups
/// only). Fails with
/// Status::Unsupported for what it cannot widen (a private array of run-time
/// size).
llvm::Expected<WidenedWorkItem> widenWorkItem(llvm::Function &scalar, llvm::Argument &laneId,
                                              WorkItemUniformity &uniformity, const BlockMasks &masks, unsigned width,
                                              const llvm::Twine &name);

} // namespace compiler
