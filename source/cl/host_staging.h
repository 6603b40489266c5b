// Transfers between host memory and a device buffer that work on every
// device. Where the device's commands may touch host pointers
// (mux::DeviceInfo::commandsAccessHostMemory) a command records the transfer
// itself; elsewhere (a GPU) the data goes through a host-visible staging
// buffer of that device: a write copies the host bytes into it when the
// command is enqueued (the application may not change them before the
// command completes anyway) and records a buffer copy; a read records a
// buffer copy into it and copies the bytes out to the host once the command
// has completed, before its event does.
#pragma once

#include "command.h"
#include "staging_buffer.h"

#include "mux/device.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace polymux::cl {

/// Runs `then` after what `command` already does on completion.
void appendOnComplete(Command &command, std::function<void()> then);

/// Whether commands on `device` may read and write host pointers.
inline bool commandsAccessHostMemory(const mux::Device &device) { return device.info().commandsAccessHostMemory; }

/// Sets `command` to read `size` bytes at `srcOffset` of `src` into `dst`.
/// Runs after any onComplete the command already has. The cl error of a
/// failed staging allocation, else CL_SUCCESS.
cl_int setHostRead(Command &command, mux::Device &device, mux::Buffer &src, uint64_t srcOffset, void *dst,
                   uint64_t size);
/// Sets `command` to write `size` bytes of `src` at `dstOffset` of `dst`.
cl_int setHostWrite(Command &command, mux::Device &device, mux::Buffer &dst, uint64_t dstOffset, const void *src,
                    uint64_t size);
/// The rectangular forms: `rect`'s src side is the buffer for a read and the
/// host for a write (as CommandBuffer::readBufferRect / writeBufferRect).
cl_int setHostReadRect(Command &command, mux::Device &device, mux::Buffer &src, void *dst, const mux::RectRegion &rect);
cl_int setHostWriteRect(Command &command, mux::Device &device, mux::Buffer &dst, const void *src,
                        const mux::RectRegion &rect);

} // namespace polymux::cl
