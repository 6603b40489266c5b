#include "device_build.h"

#include "diagnostics.h"
#include "text_format.h"

#include "compiler/il/spirv_translator.h"
#include "compiler/program_target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace polymux::tool {

DeviceBuild buildForDevice(mux::Device &device, std::string_view source, std::string_view options, bool keepStages) {
  DeviceBuild result;
  compiler::BuildObserver observer;
  if (keepStages)
    observer = [&result](const llvm::Module &module, std::span<const std::byte> code, llvm::StringRef extension) {
      result.ir.clear();
      llvm::raw_string_ostream stream(result.ir);
      module.print(stream, nullptr);
      result.code.assign(code.begin(), code.end());
      result.codeKind = extension.str();
    };
  compiler::ScopedBuildObserver scope(std::move(observer));
  auto start = std::chrono::steady_clock::now();
  // A SPIR-V module is built as clCreateProgramWithIL's programs are.
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte *>(source.data()), source.size());
  auto module = compiler::il::looksLikeSpirv(bytes) ? device.compiler().buildIL(bytes, options, result.log)
                                                    : device.compiler().build(source, options, result.log);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (module) {
    result.module = std::move(*module);
    return result;
  }
  std::string message = messageOf(module.takeError());
  if (result.log.find(message) == std::string::npos)
    result.error = std::move(message);
  return result;
}

void printBuildLogs(const std::vector<std::string> &ids, const std::vector<DeviceBuild> &builds,
                    const std::string &sourcePath) {
  std::vector<bool> printed(builds.size(), false);
  for (size_t i = 0; i < builds.size(); ++i) {
    if (printed[i] || builds[i].log.empty())
      continue;
    std::vector<std::string> sameLog;
    for (size_t j = i; j < builds.size(); ++j)
      if (!printed[j] && builds[j].log == builds[i].log) {
        printed[j] = true;
        sameLog.push_back(ids[j]);
      }
    if (ids.size() > 1)
      llvm::errs() << "diagnostics for " << llvm::join(sameLog, ", ") << ":\n";
    printDiagnostics(llvm::errs(), builds[i].log, sourcePath);
  }
}

} // namespace polymux::tool
