// Worker operations on memory objects: fills, copies, maps for reading and
// for writing, and sub-buffers, with destructor callbacks.
#include "callbacks.h"
#include "reference.h"
#include "run_state.h"
#include "worker.h"

#include <algorithm>

namespace stress {

void Worker::copyAndMap() {
  const size_t n = randomElements();
  const std::vector<uint32_t> source = randomData(n);
  const uint32_t pattern = random32();
  const cl_mem_flags flags = below(2) ? CL_MEM_READ_WRITE : CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR;
  state_.beat("copy and map: creating buffers");
  Mem from = createBuffer(run_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes(n),
                          const_cast<uint32_t *>(source.data()));
  Mem to = createBuffer(run_.context, flags, bytes(n));
  watchDestructor(tally_, to);
  // Fill, then copy a random range of `from` to a random place in `to`.
  const size_t length = 1 + below(n), origin = below(n - length + 1), target = below(n - length + 1);
  state_.beat("copy and map: fill and copy");
  ok(clEnqueueFillBuffer(inOrder_, to, &pattern, sizeof(pattern), 0, bytes(n), 0, nullptr, nullptr),
     "clEnqueueFillBuffer");
  ok(clEnqueueCopyBuffer(inOrder_, from, to, bytes(origin), bytes(target), bytes(length), 0, nullptr, nullptr),
     "clEnqueueCopyBuffer");
  std::vector<uint32_t> want(n, pattern);
  std::copy_n(source.begin() + origin, length, want.begin() + target);
  cl_int err = CL_SUCCESS;
  state_.beat("copy and map: blocking map for reading");
  auto *mapped = static_cast<uint32_t *>(
      clEnqueueMapBuffer(inOrder_, to, CL_TRUE, CL_MAP_READ, 0, bytes(n), 0, nullptr, nullptr, &err));
  ok(err, "clEnqueueMapBuffer(CL_MAP_READ)");
  check(mapped, want, "copy and map: mapped for reading");
  ok(clEnqueueUnmapMemObject(inOrder_, to, mapped, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
  // Map a range for writing without blocking, wait for it, write, unmap.
  const size_t count = 1 + below(n), first = below(n - count + 1);
  Event mapEvent, unmapEvent;
  state_.beat("copy and map: map for writing");
  mapped = static_cast<uint32_t *>(clEnqueueMapBuffer(inOrder_, to, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                      bytes(first), bytes(count), 0, nullptr, mapEvent.out(), &err));
  ok(err, "clEnqueueMapBuffer(CL_MAP_WRITE_INVALIDATE_REGION)");
  state_.beat("copy and map: waiting for the map");
  ok(clWaitForEvents(1, mapEvent.ptr()), "clWaitForEvents(map)");
  for (size_t i = 0; i < count; ++i)
    mapped[i] = want[first + i] = random32();
  ok(clEnqueueUnmapMemObject(inOrder_, to, mapped, 0, nullptr, unmapEvent.out()), "clEnqueueUnmapMemObject");
  watchEvent(tally_, unmapEvent, CL_COMPLETE, Expect::Complete);
  state_.beat("copy and map: blocking read after the unmap");
  const std::vector<uint32_t> got = readBack(outOfOrder_, to, n, unmapEvent);
  tally_.transfers += 3;
  tally_.maps += 2;
  check(got, want, "copy and map: read after writing through a map");
}

void Worker::fillAndSubBuffer() {
  // The worker's own kernel on a sub-buffer changes that range of its
  // parent and nothing else.
  const size_t align = std::max<size_t>(1, run_.device.baseAddressAlignBytes / sizeof(uint32_t));
  const size_t n = randomElements() + align;
  std::vector<uint32_t> want = randomData(n);
  state_.beat("sub-buffer: creating buffers");
  Mem parent = createBuffer(run_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes(n), want.data());
  watchDestructor(tally_, parent);
  const size_t origin = align * below(n / align), size = 1 + below(n - origin);
  const cl_buffer_region region{bytes(origin), bytes(size)};
  cl_int err = CL_SUCCESS;
  Mem sub(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ok(err, "clCreateSubBuffer");
  watchDestructor(tally_, sub);
  const uint32_t pattern = random32();
  state_.beat("sub-buffer: fill and kernel");
  ok(clEnqueueFillBuffer(inOrder_, sub, &pattern, sizeof(pattern), 0, bytes(size), 0, nullptr, nullptr),
     "clEnqueueFillBuffer(sub-buffer)");
  setArgs(ownSalted_, sub.get());
  enqueueKernel(inOrder_, ownSalted_, size, 0);
  std::fill_n(want.begin() + origin, size, pattern);
  const std::vector<uint32_t> range = reference::salted(
      std::vector<uint32_t>(want.begin() + origin, want.begin() + origin + size), ownScale_, ownSalt_);
  std::copy(range.begin(), range.end(), want.begin() + origin);
  state_.beat("sub-buffer: blocking read of the parent");
  const std::vector<uint32_t> got = readBack(inOrder_, parent, n);
  ++tally_.kernels;
  tally_.transfers += 2;
  check(got, want, "sub-buffer");
}

} // namespace stress
