// Images and samplers in a SPIR module. The SPIR-V translator presents them
// as pointers (an image as a pointer to global memory, a sampler to
// constant memory; the opencl.image2d_ro_t / opencl.sampler_t struct names
// of its typed-pointer bitcode are gone once LLVM 22 reads it), and calls
// the builtins by their OpenCL C manglings
// (_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i), a constant sampler
// through __translate_sampler_initializer(bits). What each pointer is comes
// from the kernels' argument metadata and those manglings, and follows the
// values through calls (to functions the module defines or imports),
// variables, phis and selects. On a target whose
// front end also makes them pointers (the CPU triples) that is all; where
// it gives them other types (target("spirv.Image", ...) on the SPIR-V
// triple), every such value, parameter and variable gets the type the
// target's front end gives it.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace compiler::il {

struct TargetConvention;

struct ImageHandles {
  /// Each image or sampler value (arguments, instructions) and variable
  /// (allocas holding one), by its OpenCL C type.
  llvm::MapVector<llvm::Value *, std::string> values;
  llvm::MapVector<llvm::AllocaInst *, std::string> variables;
  /// Functions returning an image or sampler.
  llvm::MapVector<llvm::Function *, std::string> returns;
  /// Parameters taking one in functions the module imports (declared, not
  /// builtins: defined by another module of clLinkProgram).
  llvm::MapVector<std::pair<llvm::Function *, unsigned>, std::string> importParams;
  /// The types used, by their OpenCL C spelling ("read_only image2d_t",
  /// "sampler_t").
  std::vector<std::string> types;
  /// OpenCL C: for types[i], a function kHandleProbePrefix<i> whose
  /// parameter has that type, for the target's front end to compile.
  std::string probeSource;

  bool empty() const { return values.empty() && variables.empty(); }
};

inline constexpr const char *kHandleProbePrefix = "__pmx_il_handle_probe_";

/// Finds the images and samplers of `spir`. Fails for a use of one that
/// OpenCL C cannot write (compared, converted, stored in memory other than
/// a variable), or a value used as two types.
llvm::Expected<ImageHandles> findImageHandles(llvm::Module &spir);

/// Gives every value of `handles` in `spir` the type of the parameter of its
/// probe in `probes` (compiled by the target's front end), and removes the
/// probes from `probes`. Pointer types need no change but must be the
/// pointers `convention` makes of SPIR's; other types replace the pointers
/// in `spir`, and the functions taking or returning them are made anew.
llvm::Error giveHandlesTargetTypes(llvm::Module &spir, ImageHandles &handles, llvm::Module &probes,
                                   const TargetConvention &convention);

} // namespace compiler::il
