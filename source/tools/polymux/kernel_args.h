// The --arg specifications of `polymux run`: one per kernel argument, each
// turned into the same bytes for every device.
//
//   buf:TYPE:COUNT[:INIT]   a buffer of COUNT elements of TYPE (int, float4, ...)
//                           INIT: zeros (default), iota (element i is i),
//                           fill=V, random, random=LOW..HIGH, file=PATH
//                           (raw bytes), [V,V,...] (a literal list)
//   buf:TYPE:file=PATH      COUNT from the file's size
//   buf:TYPE:[V,V,...]      COUNT from the list
//   null                    a NULL buffer pointer
//   local:BYTES             a __local buffer of BYTES per work-group
//   local:TYPE:COUNT        the same, COUNT elements of TYPE
//   TYPE:V[,V...]           a value: int:5, float:2.5, float4:1,2,3,4
//                           (one value fills every lane of a vector)
#pragma once

#include "scalar_type.h"

#include "compiler/kernel_info.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::tool {

struct ArgSpec {
  enum class Kind { Buffer, Null, Local, Value };
  Kind kind = Kind::Value;
  std::string text; ///< as given, for messages
  ElementType element;
  /// Buffer: the initial contents (COUNT elements); Value: the value's bytes.
  std::vector<std::byte> bytes;
  uint64_t count = 0;      ///< Buffer: elements
  uint64_t localBytes = 0; ///< Local: bytes per work-group
};

/// Parses one --arg; random contents come from `seed` and the argument's
/// `index`, so each argument's data stays the same when others change.
llvm::Expected<ArgSpec> parseArgSpec(std::string_view text, uint64_t seed, unsigned index);

/// Checks `specs` against the kernel's parameters: one each, of the kind
/// and, where the parameter's type is a plain OpenCL C type, of the type
/// the parameter declares.
llvm::Error checkArgs(const std::vector<ArgSpec> &specs, const compiler::KernelInfo &kernel);

/// Whether the kernel may write the buffer of parameter `arg` (not
/// __constant, not a pointer to const).
bool mayWrite(const compiler::KernelArgInfo &arg);

} // namespace polymux::tool
