// Where the CPU memory helpers (HostMemory) take their storage from: the
// process heap, where a device address is the host pointer, or a window of
// device addresses that a target backs with host memory (a simulator's DRAM).
#pragma once

#include "mux/status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace mux::support {

class MemoryArena {
public:
  /// One allocation: the host view of it and the address kernels use.
  struct Block {
    std::byte *host = nullptr;
    uint64_t deviceAddress = 0;
  };

  virtual ~MemoryArena() = default;
  /// `alignment` is a power of two. OutOfMemory when no room is left.
  virtual llvm::Expected<Block> allocate(uint64_t size, uint64_t alignment) = 0;
  /// Returns a block from allocate() with the same size and alignment.
  virtual void release(Block block, uint64_t size, uint64_t alignment) = 0;
  /// The device address of host memory the arena did not allocate, for
  /// wrapping application memory; nullopt when the device cannot address it.
  virtual std::optional<uint64_t> deviceAddressOf(const void *host) const = 0;
};

/// The process heap: device addresses are host addresses.
MemoryArena &heapArena();

/// A window of device addresses [base, base + size) backed by one host
/// reservation whose pages the system provides on first touch. Blocks are
/// placed first-fit and freed blocks coalesce; whole pages of a freed block
/// go back to the system. Only memory inside the window can be wrapped.
class WindowArena final : public MemoryArena {
public:
  /// OutOfMemory when the host cannot reserve `size` bytes of address space.
  static llvm::Expected<std::unique_ptr<WindowArena>> create(uint64_t base, uint64_t size);
  /// A window whose device addresses are its host addresses (base is where
  /// the host reservation landed): host pointers into it are valid device
  /// pointers, which shared virtual memory needs.
  static llvm::Expected<std::unique_ptr<WindowArena>> createIdentity(uint64_t size);
  ~WindowArena() override;

  llvm::Expected<Block> allocate(uint64_t size, uint64_t alignment) override;
  void release(Block block, uint64_t size, uint64_t alignment) override;
  /// The device address of a host pointer inside the window, else nullopt.
  std::optional<uint64_t> deviceAddressOf(const void *host) const override;
  bool identityMapped() const { return reinterpret_cast<uint64_t>(host_) == base_; }

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  /// The host view of the whole window (what a simulator maps).
  std::byte *host() const { return host_; }

private:
  WindowArena(uint64_t base, uint64_t size, std::byte *host);

  uint64_t base_;
  uint64_t size_;
  std::byte *host_;
  std::mutex mutex_;
  /// Free ranges of the window: offset -> size.
  std::map<uint64_t, uint64_t> free_;
};

} // namespace mux::support
