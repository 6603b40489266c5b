// The shared CPU pipeline configured for another triple than the host's:
// riscv64 with the lp64d ABI, static code and an lld link step against a
// linker script (what the riscv_sim target does), checked on the ELF file it
// produces. Needs no simulator: the pipeline and the link are the subject.
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/cpu_binary.h"
#include "compiler/cpu_target.h"
#include "compiler/elf_linker.h"

#include "llvm/Object/ELF.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace compiler {
namespace {

constexpr const char *kMagic = "PMXTEST";
constexpr uint64_t kProgramBase = 0x10000000;

std::string linkerScript(const char *length) {
  return std::string("MEMORY { PROGRAM (rwx) : ORIGIN = 0x10000000, LENGTH = ") + length + R"( }
PHDRS { text PT_LOAD FLAGS(5); data PT_LOAD FLAGS(6); }
SECTIONS {
  .text : { *(.text .text.*) } > PROGRAM :text
  . = ALIGN(4096);
  .data : { *(.rodata .rodata.* .srodata .srodata.* .data .data.* .sdata .sdata.* .bss .bss.* .sbss .sbss.*) } > PROGRAM :data
}
)";
}

std::unique_ptr<Target> riscvCompiler(std::string script) {
  CpuTargetConfig config;
  config.name = "test-riscv";
  config.triple = "riscv64-unknown-elf";
  config.cpu = "generic-rv64";
  config.features = "+m,+a,+f,+d,+c";
  config.abi = "lp64d";
  config.frontendFeatures = {"+m", "+a", "+f", "+d", "+c"};
  config.extensions = {"cl_khr_fp64", "__opencl_c_fp64", "__opencl_c_int64",
                       "__opencl_c_program_scope_global_variables"};
  config.binaryMagic = kMagic;
  config.relocationModel = llvm::Reloc::Static;
  config.codeModel = llvm::CodeModel::Medium;
  config.link = [script](std::span<const std::byte> object, const CpuBinary &binary) {
    std::vector<std::string> roots;
    for (const CpuKernelBinaryInfo &kernel : binary.kernels)
      roots.push_back(abi::kEntryPrefix + kernel.name);
    std::span<const std::byte> objects[] = {object};
    return linkStaticElf(objects, script, roots);
  };
  config.linkIdentity = script;
  return createCpuTarget(std::move(config));
}

struct ElfFacts {
  uint16_t machine = 0;
  uint16_t type = 0;
  std::vector<std::pair<uint64_t, uint32_t>> loads; ///< address, flags
  std::map<std::string, uint64_t> symbols;
};

ElfFacts readElf(const std::vector<std::byte> &image) {
  ElfFacts facts;
  auto elf = llvm::object::ELF64LEFile::create(
      llvm::StringRef(reinterpret_cast<const char *>(image.data()), image.size()));
  if (!elf) {
    ADD_FAILURE() << llvm::toString(elf.takeError());
    return facts;
  }
  facts.machine = elf->getHeader().e_machine;
  facts.type = elf->getHeader().e_type;
  for (const auto &header : llvm::cantFail(elf->program_headers()))
    if (header.p_type == llvm::ELF::PT_LOAD)
      facts.loads.emplace_back(header.p_vaddr, header.p_flags);
  for (const auto &section : llvm::cantFail(elf->sections())) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto names = llvm::cantFail(elf->getStringTableForSymtab(section));
    for (const auto &symbol : llvm::cantFail(elf->symbols(&section)))
      if (auto name = symbol.getName(names); name && !name->empty())
        facts.symbols[name->str()] = symbol.st_value;
      else if (!name)
        llvm::consumeError(name.takeError());
  }
  return facts;
}

std::vector<std::byte> buildElf(Target &target, std::string_view source, std::string &log) {
  auto module = target.build(source, "-cl-std=CL3.0", log);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError()) << "\n" << log;
    return {};
  }
  auto binary = (*module)->binary();
  EXPECT_TRUE(static_cast<bool>(binary));
  auto decoded = decodeCpuBinary(*binary, kMagic);
  if (!decoded) {
    ADD_FAILURE() << llvm::toString(decoded.takeError());
    return {};
  }
  return decoded->object;
}

TEST(StaticElfTargetTest, LinksOneExecutableWithEveryEntryPointInsideTheWindow) {
  auto target = riscvCompiler(linkerScript("64M"));
  std::string log;
  std::vector<std::byte> elf = buildElf(*target, R"(
    __global int counter;
    kernel void add(global float *a, global const float *b) { a[get_global_id(0)] += b[get_global_id(0)]; }
    kernel void count(global int *out) { out[get_global_id(0)] = atomic_inc(&counter); }
  )", log);
  ASSERT_FALSE(elf.empty());
  ElfFacts facts = readElf(elf);
  EXPECT_EQ(facts.machine, llvm::ELF::EM_RISCV);
  EXPECT_EQ(facts.type, llvm::ELF::ET_EXEC);
  for (const char *kernel : {"add", "count"}) {
    std::string entry = std::string(abi::kEntryPrefix) + kernel;
    ASSERT_TRUE(facts.symbols.count(entry)) << entry;
    EXPECT_GE(facts.symbols[entry], kProgramBase);
    EXPECT_LT(facts.symbols[entry], kProgramBase + (64u << 20));
  }
  // Code is read/execute, the program-scope variable read/write, in segments
  // of their own.
  ASSERT_EQ(facts.loads.size(), 2u);
  EXPECT_EQ(facts.loads[0].second, llvm::ELF::PF_R | llvm::ELF::PF_X);
  EXPECT_EQ(facts.loads[1].second, llvm::ELF::PF_R | llvm::ELF::PF_W);
  EXPECT_GE(facts.symbols["counter"], facts.loads[1].first);
}

TEST(StaticElfTargetTest, WideVectorBuiltinsBuildWhereTheAbiPassesThemByReference) {
  // riscv64 passes vectors over 16 bytes by reference: the exact builtins
  // must still get bodies (x86-64 passes them by value).
  auto target = riscvCompiler(linkerScript("64M"));
  std::string log;
  std::vector<std::byte> elf = buildElf(*target, R"(
    kernel void k(global float8 *f, global double4 *d, global long8 *l) {
      size_t i = get_global_id(0);
      f[i] = fmax(fabs(f[i]), (float8)(1.0f));
      d[i] = fma(d[i], d[i], sqrt(d[i]));
      l[i] = clamp(l[i], (long8)(-5), (long8)(5)) + popcount(l[i]);
    }
  )", log);
  EXPECT_FALSE(elf.empty()) << log;
}

TEST(StaticElfTargetTest, AProgramThatDoesNotFitItsWindowFailsWithTheLinkersMessage) {
  auto target = riscvCompiler(linkerScript("64"));
  std::string log;
  auto module = target->build("kernel void k(global int *a) { a[get_global_id(0)] *= 3; }", "", log);
  ASSERT_FALSE(static_cast<bool>(module));
  llvm::consumeError(module.takeError());
  EXPECT_NE(log.find("linking the program failed"), std::string::npos) << log;
  EXPECT_NE(log.find("PROGRAM"), std::string::npos) << log; // lld names the overflowing region
}

} // namespace
} // namespace compiler
