#include "executable.h"

#include "compiler/abi/cpu_kernel_abi.h"
#include "mux/status.h"

#include "llvm/Object/ELF.h"

#include <cstring>

namespace riscv_sim {

namespace {

/// The program as a device with `fault` runs it (device_description.h).
std::shared_ptr<const sim::DecodedCode> withInjectedFault(const sim::DecodedCode &code, InjectedFault fault) {
  auto faulty = std::make_shared<sim::DecodedCode>(code);
  if (fault == InjectedFault::Alu) {
    faulty->substitute(sim::Opcode::Mul, sim::Opcode::MulFaulty);
    faulty->substitute(sim::Opcode::Mulw, sim::Opcode::MulwFaulty);
  } else if (fault == InjectedFault::Memory) {
    faulty->substitute(sim::Opcode::Sw, sim::Opcode::SwFaulty);
    faulty->substitute(sim::Opcode::Sd, sim::Opcode::SdFaulty);
  }
  return faulty;
}

llvm::Error invalid(const std::string &message) {
  return mux::makeError(mux::Status::InvalidArgument, "invalid riscv_sim binary: " + message);
}

class Executable final : public mux::Executable {
public:
  Executable(std::shared_ptr<const LoadedProgram> program, size_t maxWorkGroupSize)
      : program_(std::move(program)), maxWorkGroupSize_(maxWorkGroupSize) {}

  llvm::Expected<std::unique_ptr<mux::Kernel>> createKernel(std::string_view name) override {
    for (const compiler::CpuKernelBinaryInfo &info : program_->binary().kernels)
      if (info.name == name)
        return std::make_unique<Kernel>(program_, info, program_->entryOf(name), maxWorkGroupSize_);
    return mux::makeError(mux::Status::InvalidArgument, "no kernel named '" + std::string(name) + "'");
  }

private:
  std::shared_ptr<const LoadedProgram> program_;
  size_t maxWorkGroupSize_;
};

} // namespace

llvm::Expected<std::shared_ptr<LoadedProgram>> LoadedProgram::load(std::span<const std::byte> bytes,
                                                                   const DeviceDescription &description) {
  auto decoded = compiler::decodeCpuBinary(bytes, kBinaryMagic);
  if (!decoded)
    return decoded.takeError();
  auto program = std::make_shared<LoadedProgram>();
  program->binary_ = std::move(*decoded);
  const std::vector<std::byte> &image = program->binary_.object;
  llvm::StringRef imageText(reinterpret_cast<const char *>(image.data()), image.size());
  auto elf = llvm::object::ELF64LEFile::create(imageText);
  if (!elf)
    return invalid(llvm::toString(elf.takeError()));
  if (elf->getHeader().e_machine != llvm::ELF::EM_RISCV || elf->getHeader().e_type != llvm::ELF::ET_EXEC)
    return invalid("not a RISC-V executable");

  auto headers = elf->program_headers();
  if (!headers)
    return invalid(llvm::toString(headers.takeError()));
  const uint64_t windowEnd = description.programBase + description.programSize;
  for (const auto &header : *headers) {
    if (header.p_type != llvm::ELF::PT_LOAD || header.p_memsz == 0)
      continue;
    if (header.p_vaddr < description.programBase || header.p_memsz > windowEnd - header.p_vaddr ||
        header.p_filesz > header.p_memsz || header.p_offset > image.size() ||
        header.p_filesz > image.size() - header.p_offset)
      return invalid("a segment lies outside the program window or the file");
    Segment segment;
    segment.base = header.p_vaddr;
    segment.size = header.p_memsz;
    segment.writable = header.p_flags & llvm::ELF::PF_W;
    segment.executable = header.p_flags & llvm::ELF::PF_X;
    segment.host = std::make_unique<std::byte[]>(header.p_memsz); // zeroed: bss
    std::memcpy(segment.host.get(), image.data() + header.p_offset, header.p_filesz);
    program->segments_.push_back(std::move(segment));
  }

  auto sections = elf->sections();
  if (!sections)
    return invalid(llvm::toString(sections.takeError()));
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto symbols = elf->symbols(&section);
    auto names = elf->getStringTableForSymtab(section);
    if (!symbols || !names) {
      llvm::consumeError(symbols.takeError());
      llvm::consumeError(names.takeError());
      return invalid("unreadable symbol table");
    }
    for (const auto &symbol : *symbols) {
      auto name = symbol.getName(*names);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (name->consume_front(compiler::abi::kEntryPrefix))
        program->entries_.emplace_back(name->str(), symbol.st_value);
    }
  }
  const Segment *code = nullptr;
  for (const Segment &segment : program->segments_)
    if (segment.executable) {
      if (code)
        return invalid("more than one executable segment");
      code = &segment;
    }
  if (!code)
    return invalid("no executable segment");
  program->code_ = sim::DecodedCode::decode(
      {code->base, code->size, code->host.get(), sim::Read | sim::Execute, "program code"});
  if (description.fault != InjectedFault::None)
    program->code_ = withInjectedFault(*program->code_, description.fault);
  for (const compiler::CpuKernelBinaryInfo &kernel : program->binary_.kernels)
    if (!program->entryOf(kernel.name))
      return invalid("kernel '" + kernel.name + "' has no entry point");
  return program;
}

uint64_t LoadedProgram::entryOf(std::string_view name) const {
  for (const auto &[kernel, address] : entries_)
    if (kernel == name)
      return address;
  return 0;
}

llvm::Expected<std::unique_ptr<mux::Executable>> loadExecutable(std::span<const std::byte> binary,
                                                                const DeviceDescription &description,
                                                                size_t maxWorkGroupSize) {
  auto program = LoadedProgram::load(binary, description);
  if (!program)
    return program.takeError();
  return std::make_unique<Executable>(std::move(*program), maxWorkGroupSize);
}

} // namespace riscv_sim
