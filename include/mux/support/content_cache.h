// Objects a device makes from a byte string (a program binary), shared by
// content: loading bytes equal to earlier ones returns the object made
// then, while anyone still holds it, and the `retained` most recently used
// objects stay alive even when nobody does. A program that is built,
// released and built again (a kernel-cache hit in a new context, a library
// that builds per call) then reuses what the device made for it instead of
// making it again, which on some drivers costs memory that is never given
// back (lavapipe keeps heap for every pipeline it ever compiled:
// doc/reliability.md).
//
// Thread-safe. `make` runs under the cache's lock, so two threads loading
// the same bytes make the object once.
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace mux::support {

template <typename T> class ContentCache {
public:
  explicit ContentCache(size_t retained) : retained_(retained) {}

  /// The object for `bytes`: the one made from equal bytes if it is still
  /// alive, else `make()` (an llvm::Expected<std::shared_ptr<T>>), which
  /// is remembered when it succeeds.
  template <typename Make> llvm::Expected<std::shared_ptr<T>> getOrMake(std::span<const std::byte> bytes, Make make) {
    const uint64_t hash =
        llvm::xxh3_64bits(llvm::ArrayRef(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
    std::lock_guard lock(mutex_);
    auto [first, last] = entries_.equal_range(hash);
    for (auto it = first; it != last; ++it) {
      if (!std::ranges::equal(it->second.bytes, bytes))
        continue;
      if (std::shared_ptr<T> alive = it->second.object.lock()) {
        keep(alive);
        return alive;
      }
      entries_.erase(it);
      break;
    }
    llvm::Expected<std::shared_ptr<T>> made = make();
    if (!made)
      return made.takeError();
    dropExpired();
    entries_.emplace(hash, Entry{std::vector<std::byte>(bytes.begin(), bytes.end()), *made});
    keep(*made);
    return made;
  }

  /// Forgets every object; those still held elsewhere live on.
  void clear() {
    std::deque<std::shared_ptr<T>> released;
    {
      std::lock_guard lock(mutex_);
      entries_.clear();
      released.swap(recent_);
    }
  }

  /// How many objects are alive and findable (for tests).
  size_t size() const {
    std::lock_guard lock(mutex_);
    return static_cast<size_t>(
        std::ranges::count_if(entries_, [](const auto &e) { return !e.second.object.expired(); }));
  }

private:
  struct Entry {
    std::vector<std::byte> bytes;
    std::weak_ptr<T> object;
  };

  /// Makes `object` the most recently used one; the oldest beyond
  /// `retained_` is let go (destroyed here unless held elsewhere).
  void keep(const std::shared_ptr<T> &object) {
    if (auto it = std::ranges::find(recent_, object); it != recent_.end())
      recent_.erase(it);
    recent_.push_back(object);
    while (recent_.size() > retained_)
      recent_.pop_front();
  }

  void dropExpired() {
    std::erase_if(entries_, [](const auto &e) { return e.second.object.expired(); });
  }

  const size_t retained_;
  mutable std::mutex mutex_;
  std::unordered_multimap<uint64_t, Entry> entries_;
  std::deque<std::shared_ptr<T>> recent_; ///< least recently used first
};

} // namespace mux::support
