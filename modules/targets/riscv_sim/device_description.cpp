#include "device_description.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

namespace riscv_sim {

std::string DeviceDescription::linkerScript() const {
  std::ostringstream script;
  script << std::hex;
  script << "MEMORY { PROGRAM (rwx) : ORIGIN = 0x" << programBase << ", LENGTH = 0x" << programSize << " }\n";
  script << R"(PHDRS {
  text PT_LOAD FLAGS(5);
  rodata PT_LOAD FLAGS(4);
  data PT_LOAD FLAGS(6);
}
SECTIONS {
  .text : { *(.text .text.*) } > PROGRAM :text
  . = ALIGN(4096);
  .rodata : { *(.rodata .rodata.* .srodata .srodata.*) } > PROGRAM :rodata
  . = ALIGN(4096);
  .data : { *(.data .data.* .sdata .sdata.*) } > PROGRAM :data
  .bss : { *(.bss .bss.* .sbss .sbss.* COMMON) } > PROGRAM :data
  /DISCARD/ : { *(.comment) *(.note .note.*) *(.eh_frame .eh_frame_hdr) }
}
)";
  return script.str();
}

std::string DeviceDescription::summary() const {
  std::ostringstream text;
  text << name << " harts " << harts << " return " << returnAddress << " program " << programBase << "+" << programSize
       << " scratch " << scratchBase << "+" << scratchSize << " stack " << stackSize << " guard " << stackGuardSize
       << " local " << localMemSize << " dram "
       << (dramIdentityMapped ? std::string("identity") : std::to_string(dramBase)) << "+" << dramSize << " clock "
       << clockMHz << " wg " << maxWorkGroupSize;
  return text.str();
}

DeviceDescription defaultDeviceDescription() {
  DeviceDescription description;
  if (const char *env = std::getenv("POLYMUX_RISCV_SIM_HARTS")) {
    unsigned harts = 0;
    auto [end, error] = std::from_chars(env, env + std::strlen(env), harts);
    if (error == std::errc() && *end == '\0' && harts >= 1 && harts <= 64)
      description.harts = harts;
  }
  if (const char *env = std::getenv("POLYMUX_RISCV_SIM_FAULT")) {
    if (std::string_view(env) == "alu")
      description.fault = InjectedFault::Alu;
    else if (std::string_view(env) == "memory")
      description.fault = InjectedFault::Memory;
  }
  return description;
}

} // namespace riscv_sim
