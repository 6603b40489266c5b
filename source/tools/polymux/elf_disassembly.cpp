#include "elf_disassembly.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace polymux::tool {
namespace {

void initializeDisassemblers() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllDisassemblers();
  });
}

/// What a disassembler for one architecture needs.
struct Disassembler {
  std::unique_ptr<const llvm::MCRegisterInfo> registers;
  std::unique_ptr<const llvm::MCAsmInfo> asmInfo;
  std::unique_ptr<const llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<const llvm::MCInstrInfo> instructions;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<const llvm::MCDisassembler> decoder;
  std::unique_ptr<llvm::MCInstPrinter> printer;
};

llvm::Expected<Disassembler> createDisassembler(const llvm::object::ObjectFile &object) {
  llvm::Triple triple = object.makeTriple();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no disassembler for %s: %s", triple.str().c_str(), error.c_str());
  auto features = object.getFeatures();
  if (!features)
    return features.takeError();
  std::string cpu = object.tryGetCPUName().value_or("").str();

  Disassembler d;
  d.registers.reset(target->createMCRegInfo(triple));
  llvm::MCTargetOptions options;
  if (d.registers)
    d.asmInfo.reset(target->createMCAsmInfo(*d.registers, triple, options));
  d.subtarget.reset(target->createMCSubtargetInfo(triple, cpu, features->getString()));
  d.instructions.reset(target->createMCInstrInfo());
  if (!d.registers || !d.asmInfo || !d.subtarget || !d.instructions)
    return llvm::createStringError("LLVM has no machine-code support for %s", triple.str().c_str());
  d.context = std::make_unique<llvm::MCContext>(triple, d.asmInfo.get(), d.registers.get(), d.subtarget.get());
  d.decoder.reset(target->createMCDisassembler(*d.subtarget, *d.context));
  d.printer.reset(
      target->createMCInstPrinter(triple, d.asmInfo->getAssemblerDialect(), *d.asmInfo, *d.instructions, *d.registers));
  if (!d.decoder || !d.printer)
    return llvm::createStringError("LLVM cannot disassemble %s", triple.str().c_str());
  // Branch and call targets as addresses, as objdump shows them.
  d.printer->setPrintBranchImmAsAddress(true);
  d.printer->setPrintImmHex(true);
  return d;
}

/// Symbols worth a label: functions and untyped code labels, not sections,
/// files, local .L labels or mapping symbols ($x, $d).
bool isLabel(const llvm::object::SymbolRef &symbol, llvm::StringRef name) {
  auto type = symbol.getType();
  if (!type) {
    llvm::consumeError(type.takeError());
    return false;
  }
  if (*type != llvm::object::SymbolRef::ST_Function && *type != llvm::object::SymbolRef::ST_Unknown)
    return false;
  return !name.empty() && !name.starts_with(".L") && !name.starts_with("$");
}

/// Labels of `section`, by offset into it.
std::multimap<uint64_t, std::string> labelsOf(const llvm::object::ObjectFile &object,
                                              const llvm::object::SectionRef &section) {
  std::multimap<uint64_t, std::string> labels;
  for (const llvm::object::SymbolRef &symbol : object.symbols()) {
    auto symbolSection = symbol.getSection();
    auto name = symbol.getName();
    auto address = symbol.getAddress();
    if (!symbolSection || !name || !address) {
      llvm::consumeError(symbolSection.takeError());
      llvm::consumeError(name.takeError());
      llvm::consumeError(address.takeError());
      continue;
    }
    if (*symbolSection == object.section_end() || **symbolSection != section || !isLabel(symbol, *name))
      continue;
    labels.emplace(*address - section.getAddress(), name->str());
  }
  return labels;
}

/// Relocations against `section` (relocatable objects), by offset.
std::multimap<uint64_t, std::string> relocationsOf(const llvm::object::ObjectFile &object,
                                                   const llvm::object::SectionRef &section) {
  std::multimap<uint64_t, std::string> relocations;
  for (const llvm::object::SectionRef &candidate : object.sections()) {
    auto target = candidate.getRelocatedSection();
    if (!target) {
      llvm::consumeError(target.takeError());
      continue;
    }
    if (*target == object.section_end() || **target != section)
      continue;
    for (const llvm::object::RelocationRef &relocation : candidate.relocations()) {
      llvm::SmallString<32> type;
      relocation.getTypeName(type);
      std::string text = type.str().str();
      llvm::object::symbol_iterator symbol = relocation.getSymbol();
      if (symbol != object.symbol_end()) {
        auto name = symbol->getName();
        if (name)
          (text += ' ') += *name;
        else
          llvm::consumeError(name.takeError());
      }
      if (llvm::isa<llvm::object::ELFObjectFileBase>(&object)) {
        auto addend = llvm::object::ELFRelocationRef(relocation).getAddend();
        if (addend && *addend)
          (text += *addend > 0 ? "+" : "") += std::to_string(*addend);
        else if (!addend)
          llvm::consumeError(addend.takeError());
      }
      relocations.emplace(relocation.getOffset(), std::move(text));
    }
  }
  return relocations;
}

void disassembleSection(const Disassembler &d, const llvm::object::ObjectFile &object,
                        const llvm::object::SectionRef &section, llvm::ArrayRef<uint8_t> bytes,
                        llvm::raw_ostream &out) {
  std::multimap<uint64_t, std::string> labels = labelsOf(object, section);
  std::multimap<uint64_t, std::string> relocations = relocationsOf(object, section);
  const uint64_t base = section.getAddress();
  uint64_t offset = 0;
  while (offset < bytes.size()) {
    for (auto [at, end] = labels.equal_range(offset); at != end; ++at)
      out << "\n" << llvm::format_hex_no_prefix(base + offset, 16) << " <" << at->second << ">:\n";
    llvm::MCInst instruction;
    uint64_t size = 0;
    auto status = d.decoder->getInstruction(instruction, size, bytes.slice(offset), base + offset, llvm::nulls());
    if (size == 0)
      size = 1;
    size = std::min<uint64_t>(size, bytes.size() - offset);
    std::string hex;
    for (uint64_t i = 0; i < size; ++i)
      hex += llvm::utohexstr(bytes[offset + i], /*LowerCase=*/true, /*Width=*/2) + " ";
    out << llvm::format("%8llx:  ", static_cast<unsigned long long>(base + offset));
    out << llvm::left_justify(hex, 31);
    if (status == llvm::MCDisassembler::Success) {
      std::string text;
      llvm::raw_string_ostream stream(text);
      d.printer->printInst(&instruction, base + offset, "", *d.subtarget, stream);
      out << llvm::StringRef(text).ltrim();
    } else {
      out << "<unknown>";
    }
    for (auto at = relocations.lower_bound(offset); at != relocations.end() && at->first < offset + size; ++at)
      out << "\t# " << at->second;
    out << "\n";
    offset += size;
  }
}

} // namespace

llvm::Expected<std::string> disassembleElf(std::span<const std::byte> bytes) {
  initializeDisassemblers();
  llvm::MemoryBufferRef buffer(llvm::StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()), "code");
  auto object = llvm::object::ObjectFile::createObjectFile(buffer);
  if (!object)
    return object.takeError();
  auto disassembler = createDisassembler(**object);
  if (!disassembler)
    return disassembler.takeError();
  std::string text;
  llvm::raw_string_ostream out(text);
  out << "# " << (*object)->makeTriple().getArchName() << ", "
      << ((*object)->isRelocatableObject() ? "relocatable object" : "linked program") << "\n";
  for (const llvm::object::SectionRef &section : (*object)->sections()) {
    if (!section.isText() || section.getSize() == 0)
      continue;
    auto name = section.getName();
    auto contents = section.getContents();
    if (!name || !contents) {
      llvm::consumeError(name.takeError());
      llvm::consumeError(contents.takeError());
      continue;
    }
    out << "\nsection " << *name << ":\n";
    disassembleSection(*disassembler, **object, section, llvm::arrayRefFromStringRef(*contents), out);
  }
  return text;
}

} // namespace polymux::tool
