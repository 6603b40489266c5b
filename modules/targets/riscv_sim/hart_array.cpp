#include "hart_array.h"

#include <sys/mman.h>

#include <string>

namespace riscv_sim {

llvm::Expected<std::unique_ptr<HartArray>> HartArray::create(const DeviceDescription &description) {
  std::vector<std::byte *> scratch;
  for (unsigned i = 0; i < description.harts; ++i) {
    // Pages are provided on first touch: an idle hart costs address space only.
    void *memory = mmap(nullptr, description.scratchSize, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
      for (std::byte *previous : scratch)
        munmap(previous, description.scratchSize);
      return mux::makeError(mux::Status::OutOfMemory, "cannot reserve the local memory of hart " + std::to_string(i));
    }
    scratch.push_back(static_cast<std::byte *>(memory));
  }
  return std::unique_ptr<HartArray>(new HartArray(description.scratchSize, std::move(scratch)));
}

HartArray::HartArray(uint64_t scratchSize, std::vector<std::byte *> scratch)
    : scratchSize_(scratchSize), scratch_(std::move(scratch)), pool_(static_cast<unsigned>(scratch_.size())) {}

HartArray::~HartArray() {
  for (std::byte *memory : scratch_)
    munmap(memory, scratchSize_);
}

} // namespace riscv_sim
