// The host compiler: the shared CPU compiler for the process's own CPU.
#include "compiler/cpu_binary.h"
#include "compiler/cpu_capabilities.h"
#include "compiler/cpu_target.h"
#include "executable.h"
#include "work_item_vector_bits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

// The builtins library bitcode, embedded by polymux_add_builtin_library.
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_host_begin[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_host_end[];

namespace host {
namespace {

std::string hostFeatureString() {
  llvm::SmallVector<std::string, 64> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(features);
  return llvm::join(features, ",");
}

} // namespace

std::unique_ptr<compiler::Target> createHostCompiler(const mux::DeviceInfo &info) {
  compiler::CpuTargetConfig config;
  config.name = info.targetName.empty() ? "host" : info.targetName;
  config.triple = llvm::sys::getProcessTriple();
  config.cpu = llvm::sys::getHostCPUName().str();
  config.features = hostFeatureString();
  config.vectorBits = workItemVectorBits();
  config.subGroupSize = info.subGroupSizes.empty() ? 1 : info.subGroupSizes.front();
  config.maxWorkGroupSize = info.maxWorkGroupSize;
  config.extensions = compiler::clExtensionsFor(info);
  config.binaryMagic = std::string(compiler::kHostBinaryMagic);
  config.readsSpirv = true;
  config.builtinLibrary = std::as_bytes(std::span(polymux_builtins_host_begin, polymux_builtins_host_end));
  return compiler::createCpuTarget(std::move(config));
}

} // namespace host
