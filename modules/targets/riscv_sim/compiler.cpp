// The riscv_sim compiler: the shared CPU pipeline for rv64gc/lp64d, whose
// link step makes one static ELF per program with lld, laid out by the
// device's linker script and linked with the device runtime.
#include "device.h"

#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/cpu_capabilities.h"
#include "compiler/cpu_target.h"
#include "compiler/elf_linker.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

// Embedded by CMakeLists.txt: the builtins library and the device runtime.
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_riscv_sim_begin[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_riscv_sim_end[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_riscv_sim_runtime_begin[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_riscv_sim_runtime_end[];

namespace riscv_sim {

std::unique_ptr<compiler::Target> createCompiler(const DeviceDescription &description, const mux::DeviceInfo &info) {
  compiler::CpuTargetConfig config;
  config.name = "riscv_sim";
  config.triple = "riscv64-unknown-elf";
  config.cpu = "generic-rv64";
  config.features = "+m,+a,+f,+d,+c,+zicsr,+zifencei";
  config.abi = "lp64d";
  // As the builtins library is compiled (CMakeLists.txt).
  config.frontendFeatures = {"+m", "+a", "+f", "+d", "+c"};
  config.extensions = compiler::clExtensionsFor(info);
  config.subGroupSize = info.subGroupSizes.empty() ? 1 : info.subGroupSizes.front();
  config.maxWorkGroupSize = info.maxWorkGroupSize;
  config.binaryMagic = std::string(kBinaryMagic);
  config.readsSpirv = true;
  config.builtinLibrary = std::as_bytes(std::span(polymux_builtins_riscv_sim_begin, polymux_builtins_riscv_sim_end));
  // Programs are linked at the fixed addresses of the program window;
  // medany reaches anything within 2 GiB of the code.
  config.relocationModel = llvm::Reloc::Static;
  config.codeModel = llvm::CodeModel::Medium;
  auto runtime = std::as_bytes(std::span(polymux_riscv_sim_runtime_begin, polymux_riscv_sim_runtime_end));
  std::string script = description.linkerScript();
  config.link = [runtime, script](std::span<const std::byte> object,
                                  const compiler::CpuBinary &binary) -> llvm::Expected<std::vector<std::byte>> {
    std::vector<std::string> entries;
    for (const compiler::CpuKernelBinaryInfo &kernel : binary.kernels)
      entries.push_back(compiler::abi::kEntryPrefix + kernel.name);
    std::span<const std::byte> objects[] = {object, runtime};
    return compiler::linkStaticElf(objects, script, entries);
  };
  config.linkIdentity = script + " runtime " +
                        llvm::utohexstr(llvm::xxh3_64bits(
                            llvm::ArrayRef(reinterpret_cast<const uint8_t *>(runtime.data()), runtime.size())));
  config.dumpExtension = "elf";
  return compiler::createCpuTarget(std::move(config));
}

} // namespace riscv_sim
