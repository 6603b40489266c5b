// Sequences of OpenCL API calls with random and invalid arguments. An input
// is a byte program: each step takes one byte for the call and then the
// bytes its arguments need (FuzzedDataProvider). The harness keeps pools of
// the objects the sequence created (contexts, queues, buffers and
// sub-buffers, kernels, events, user events) and draws every handle from
// them, or instead passes null, a handle of another type or a fake handle.
// Sizes, offsets and flags come from sets with the edge values (0, 1,
// unaligned, just past the end, overflowing) and from raw bytes. Wait lists
// mix the pool's events: completed, pending, failed (user events set to an
// error) and events of other contexts.
//
// The harness keeps to what a correct application must do, so that every
// report is the driver's fault:
//  - a handle is never used after the application released its last
//    reference (undefined behaviour: it may be freed memory);
//  - nothing blocks (blocking transfers or maps, clFinish, clWaitForEvents)
//    while a user event is still pending, which would wait forever;
//  - host memory handed to the driver is static and large enough for any
//    size a correct driver accepts (buffers are at most 64 KiB);
//  - before a kernel is enqueued its buffer arguments are set to live
//    buffers and its bounds to their sizes (the kernels check their bounds;
//    the driver keeps no reference to a buffer set as an argument).
// At the end every user event is completed, every mapping undone, every
// queue finished and every object released: nothing may leak or stay alive.
#include "cl_entry.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const cl_icd_dispatch &api() { return *fuzz::cl().api; }

constexpr size_t kMaxBuffer = 64 * 1024;
constexpr size_t kPoolLimit = 12;
/// Host memory for transfers, USE_HOST_PTR buffers and rect regions.
alignas(4096) unsigned char hostMemory[1 << 20];
alignas(4096) unsigned char hostPointerArena[1 << 20];

const char *kSource = R"(
kernel void fill(global uint *p, uint n, uint v) {
  size_t i = get_global_id(0);
  if (i < n) p[i] = v + (uint)i;
}
kernel void rotate(global const uint *in, global uint *out, uint n, local uint *scratch) {
  size_t l = get_local_id(0), i = get_global_id(0);
  scratch[l] = i < n ? in[i] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) out[i] = scratch[(l + 1) % get_local_size(0)];
}
)";

/// The context and program every sequence may use, built once.
struct Shared {
  cl_context context = nullptr;
  cl_program program = nullptr;
  size_t maxWorkGroup = 1;
};

const Shared &shared() {
  static const Shared instance = [] {
    const fuzz::Cl &cl = fuzz::cl();
    Shared s;
    cl_int err = CL_SUCCESS;
    s.context = cl.context;
    s.program = api().clCreateProgramWithSource(s.context, 1, &kSource, nullptr, &err);
    if (api().clBuildProgram(s.program, 1, &cl.device, nullptr, nullptr, nullptr) != CL_SUCCESS)
      std::abort();
    api().clGetDeviceInfo(cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof s.maxWorkGroup, &s.maxWorkGroup, nullptr);
    return s;
  }();
  return instance;
}

std::atomic<unsigned> callbacks;
void CL_CALLBACK eventCallback(cl_event, cl_int, void *) { callbacks.fetch_add(1, std::memory_order_relaxed); }
void CL_CALLBACK memCallback(cl_mem, void *) { callbacks.fetch_add(1, std::memory_order_relaxed); }
void CL_CALLBACK contextCallback(cl_context, void *) { callbacks.fetch_add(1, std::memory_order_relaxed); }

/// Not a Polymux handle: the driver must see that without using it.
struct FakeHandle {
  const void *dispatch;
  void *object;
  uint32_t kind;
};
FakeHandle fakeHandle{&fakeHandle, nullptr, 0x4d454d4f};

struct Buffer {
  cl_mem mem;
  cl_context context;
  size_t size;
};
struct Mapping {
  cl_command_queue queue;
  cl_mem mem;
  void *pointer;
};

class Sequence {
public:
  explicit Sequence(FuzzedDataProvider &in) : in_(in) {}
  ~Sequence() { finish(); }

  void run() {
    for (int steps = 0; steps < 64 && in_.remaining_bytes() > 0; ++steps)
      step(in_.ConsumeIntegral<uint8_t>());
  }

private:
  FuzzedDataProvider &in_;
  std::vector<cl_context> contexts_;
  std::vector<cl_command_queue> queues_;
  std::vector<Buffer> buffers_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_event> events_;
  std::vector<cl_event> pendingUserEvents_;
  std::vector<cl_program> programs_;
  std::vector<Mapping> mappings_;

  // --- drawing arguments ---------------------------------------------------

  /// An element of `pool`, or one of the invalid handles.
  template <class Handle> Handle pick(const std::vector<Handle> &pool) {
    uint8_t choice = in_.ConsumeIntegral<uint8_t>();
    if (!pool.empty() && choice < 224)
      return pool[choice % pool.size()];
    switch (choice % 4) {
    case 0:
      return nullptr;
    case 1:
      return reinterpret_cast<Handle>(&fakeHandle);
    case 2: // a live handle of another type
      return reinterpret_cast<Handle>(shared().context);
    default:
      return buffers_.empty() ? nullptr : reinterpret_cast<Handle>(buffers_.front().mem);
    }
  }
  cl_context context() {
    if (in_.ConsumeBool())
      return shared().context;
    return pick(contexts_);
  }
  Buffer *buffer() {
    if (buffers_.empty())
      return nullptr;
    return &buffers_[in_.ConsumeIntegral<uint8_t>() % buffers_.size()];
  }
  cl_mem mem() {
    if (buffers_.empty() || in_.ConsumeIntegral<uint8_t>() >= 232)
      return pick(std::vector<cl_mem>{});
    return buffers_[in_.ConsumeIntegral<uint8_t>() % buffers_.size()].mem;
  }
  size_t size(size_t scale = kMaxBuffer) {
    static constexpr size_t kEdges[] = {0,
                                        1,
                                        3,
                                        4,
                                        8,
                                        64,
                                        128,
                                        4096,
                                        4097,
                                        kMaxBuffer,
                                        kMaxBuffer + 1,
                                        SIZE_MAX,
                                        SIZE_MAX - 3,
                                        size_t(1) << 40,
                                        size_t(1) << 32};
    if (in_.ConsumeBool())
      return kEdges[in_.ConsumeIntegralInRange<size_t>(0, std::size(kEdges) - 1)];
    return in_.ConsumeIntegralInRange<size_t>(0, scale);
  }
  template <class T> T flags(std::initializer_list<T> known) {
    T result = 0;
    uint8_t mask = in_.ConsumeIntegral<uint8_t>();
    size_t i = 0;
    for (T flag : known)
      if (mask & (1u << (i++ % 8)))
        result |= flag;
    if (in_.ConsumeIntegral<uint8_t>() > 240) // an undefined bit
      result |= T(1) << in_.ConsumeIntegralInRange<unsigned>(0, 63);
    return result;
  }
  /// A wait list from the event pool; its count may not match.
  struct WaitList {
    std::vector<cl_event> events;
    cl_uint count = 0;
    const cl_event *data() const { return events.empty() ? nullptr : events.data(); }
  };
  WaitList waitList() {
    WaitList list;
    unsigned n = in_.ConsumeIntegralInRange<unsigned>(0, 3);
    for (unsigned i = 0; i < n; ++i)
      list.events.push_back(pick(events_));
    list.count = static_cast<cl_uint>(list.events.size());
    if (in_.ConsumeIntegral<uint8_t>() > 248)
      list.count = list.count ? 0 : 1; // a count that does not match the list
    return list;
  }
  bool blocking() { return pendingUserEvents_.empty() && in_.ConsumeBool(); }
  /// Where an enqueue returns its event: kept in the pool, or not asked for.
  cl_event *eventOut(cl_event &slot) { return in_.ConsumeBool() ? &slot : nullptr; }
  void keep(cl_event event) {
    if (!event)
      return;
    if (events_.size() >= kPoolLimit) {
      api().clReleaseEvent(event);
      return;
    }
    events_.push_back(event);
  }
  template <class Handle> void keep(std::vector<Handle> &pool, Handle handle, cl_int (*release)(Handle)) {
    if (!handle)
      return;
    if (pool.size() >= kPoolLimit) {
      release(handle);
      return;
    }
    pool.push_back(handle);
  }

  // --- the calls ------------------------------------------------------------

  void step(uint8_t call) {
    static const bool trace = std::getenv("FUZZ_TRACE") != nullptr;
    if (trace)
      std::fprintf(stderr, "step %d: %zu buffers, %zu events, %zu queues\n", call % 32, buffers_.size(), events_.size(),
                   queues_.size());
    const fuzz::Cl &cl = fuzz::cl();
    cl_int err = CL_SUCCESS;
    switch (call % 32) {
    case 0: { // a context of its own, with random properties
      cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl.platform, 0};
      cl_context_properties bad[] = {in_.ConsumeIntegral<cl_context_properties>(), 0};
      cl_device_id device =
          in_.ConsumeIntegral<uint8_t>() < 240 ? cl.device : reinterpret_cast<cl_device_id>(&fakeHandle);
      const cl_context_properties *chosen = in_.ConsumeBool() ? properties : in_.ConsumeBool() ? bad : nullptr;
      cl_uint devices = in_.ConsumeIntegral<uint8_t>() < 240 ? 1 : 0;
      cl_context context = api().clCreateContext(chosen, devices, &device, nullptr, nullptr, &err);
      if (context && in_.ConsumeBool())
        api().clSetContextDestructorCallback(context, contextCallback, nullptr);
      keep(contexts_, context, api().clReleaseContext);
      break;
    }
    case 1: { // a queue with random properties
      cl_queue_properties properties[] = {
          CL_QUEUE_PROPERTIES,
          flags<cl_queue_properties>({CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE,
                                      CL_QUEUE_ON_DEVICE, CL_QUEUE_ON_DEVICE_DEFAULT}),
          0, 0, 0};
      if (in_.ConsumeIntegral<uint8_t>() > 230) {
        properties[2] = in_.ConsumeBool() ? CL_QUEUE_SIZE : in_.ConsumeIntegral<uint32_t>();
        properties[3] = in_.ConsumeIntegral<uint16_t>();
      }
      cl_device_id device =
          in_.ConsumeIntegral<uint8_t>() < 240 ? cl.device : reinterpret_cast<cl_device_id>(&fakeHandle);
      cl_command_queue queue = api().clCreateCommandQueueWithProperties(context(), device, properties, &err);
      keep(queues_, queue, api().clReleaseCommandQueue);
      break;
    }
    case 2: { // a buffer, host memory from the arena when the flags ask for it
      cl_mem_flags f = flags<cl_mem_flags>({CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_MEM_USE_HOST_PTR,
                                            CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_HOST_WRITE_ONLY,
                                            CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS});
      size_t bytes = size();
      void *host = nullptr;
      if (in_.ConsumeBool())
        host = hostPointerArena + in_.ConsumeIntegralInRange<size_t>(0, sizeof hostPointerArena / 2);
      if (host && bytes > sizeof hostPointerArena / 2)
        host = nullptr; // an arena too small would be the harness's error
      cl_context ctx = context();
      cl_mem mem = api().clCreateBuffer(ctx, f, bytes, host, &err);
      if (mem && in_.ConsumeBool())
        api().clSetMemObjectDestructorCallback(mem, memCallback, nullptr);
      if (mem && buffers_.size() >= kPoolLimit)
        api().clReleaseMemObject(mem);
      else if (mem)
        buffers_.push_back({mem, ctx, bytes});
      break;
    }
    case 3: { // a sub-buffer
      Buffer *parent = buffer();
      cl_buffer_region region{size(), size()};
      cl_mem_flags f =
          flags<cl_mem_flags>({CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_MEM_HOST_WRITE_ONLY,
                               CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS, CL_MEM_USE_HOST_PTR});
      cl_buffer_create_type type = in_.ConsumeIntegral<uint8_t>() < 240 ? CL_BUFFER_CREATE_TYPE_REGION : 0x1234;
      cl_mem sub = api().clCreateSubBuffer(parent ? parent->mem : mem(), f, type, &region, &err);
      if (sub && (!parent || buffers_.size() >= kPoolLimit))
        api().clReleaseMemObject(sub);
      else if (sub)
        buffers_.push_back({sub, parent->context, region.size});
      break;
    }
    case 4:
    case 5: { // read or write
      cl_event event = nullptr;
      WaitList wait = waitList();
      size_t offset = size(), bytes = size();
      if (bytes > sizeof hostMemory)
        bytes = in_.ConsumeBool() ? bytes : sizeof hostMemory; // huge sizes only to be refused
      bool block = blocking();
      if (bytes > sizeof hostMemory)
        block = false;
      if (call % 32 == 4)
        api().clEnqueueReadBuffer(pick(queues_), mem(), block, offset, bytes, in_.ConsumeBool() ? hostMemory : nullptr,
                                  wait.count, wait.data(), eventOut(event));
      else
        api().clEnqueueWriteBuffer(pick(queues_), mem(), block, offset, bytes, in_.ConsumeBool() ? hostMemory : nullptr,
                                   wait.count, wait.data(), eventOut(event));
      keep(event);
      break;
    }
    case 6: { // copy
      cl_event event = nullptr;
      WaitList wait = waitList();
      api().clEnqueueCopyBuffer(pick(queues_), mem(), mem(), size(), size(), size(), wait.count, wait.data(),
                                eventOut(event));
      keep(event);
      break;
    }
    case 7: { // fill with a pattern of any size
      cl_event event = nullptr;
      WaitList wait = waitList();
      static const unsigned char pattern[256] = {1, 2, 3, 4};
      size_t patternSize = in_.ConsumeIntegralInRange<size_t>(0, 200);
      api().clEnqueueFillBuffer(pick(queues_), mem(), in_.ConsumeBool() ? pattern : nullptr, patternSize, size(),
                                size(), wait.count, wait.data(), eventOut(event));
      keep(event);
      break;
    }
    case 8: { // rect read, write or copy
      cl_event event = nullptr;
      WaitList wait = waitList();
      auto coordinate = [&] { return in_.ConsumeIntegralInRange<size_t>(0, 80); };
      size_t origin[3] = {coordinate(), coordinate(), in_.ConsumeIntegralInRange<size_t>(0, 2)};
      size_t hostOrigin[3] = {coordinate(), coordinate(), in_.ConsumeIntegralInRange<size_t>(0, 2)};
      size_t region[3] = {coordinate(), coordinate(), in_.ConsumeIntegralInRange<size_t>(0, 3)};
      size_t rowPitch = coordinate() * 2, slicePitch = rowPitch * coordinate();
      size_t hostRow = coordinate() * 2, hostSlice = hostRow * coordinate();
      // The host side of any region these values allow fits hostMemory.
      switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
      case 0:
        api().clEnqueueReadBufferRect(pick(queues_), mem(), false, origin, hostOrigin, region, rowPitch, slicePitch,
                                      hostRow, hostSlice, hostMemory, wait.count, wait.data(), eventOut(event));
        break;
      case 1:
        api().clEnqueueWriteBufferRect(pick(queues_), mem(), false, origin, hostOrigin, region, rowPitch, slicePitch,
                                       hostRow, hostSlice, hostMemory, wait.count, wait.data(), eventOut(event));
        break;
      default:
        api().clEnqueueCopyBufferRect(pick(queues_), mem(), mem(), origin, hostOrigin, region, rowPitch, slicePitch,
                                      hostRow, hostSlice, wait.count, wait.data(), eventOut(event));
      }
      keep(event);
      break;
    }
    case 9: { // map
      cl_event event = nullptr;
      WaitList wait = waitList();
      cl_command_queue queue = pick(queues_);
      cl_mem m = mem();
      cl_map_flags f = flags<cl_map_flags>({CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION});
      void *pointer = api().clEnqueueMapBuffer(queue, m, blocking(), f, size(), size(), wait.count, wait.data(),
                                               eventOut(event), &err);
      if (pointer)
        mappings_.push_back({queue, m, pointer});
      keep(event);
      break;
    }
    case 10: { // unmap: a mapping of ours, or a pointer that is none
      cl_event event = nullptr;
      WaitList wait = waitList();
      if (!mappings_.empty() && in_.ConsumeBool()) {
        size_t i = in_.ConsumeIntegral<uint8_t>() % mappings_.size();
        Mapping mapping = mappings_[i];
        if (api().clEnqueueUnmapMemObject(in_.ConsumeBool() ? mapping.queue : pick(queues_), mapping.mem,
                                          mapping.pointer, wait.count, wait.data(), eventOut(event)) == CL_SUCCESS)
          mappings_.erase(mappings_.begin() + i);
      } else {
        api().clEnqueueUnmapMemObject(pick(queues_), mem(), hostMemory + in_.ConsumeIntegral<uint8_t>(), wait.count,
                                      wait.data(), eventOut(event));
      }
      keep(event);
      break;
    }
    case 11: { // a kernel of the shared program, or from a bad program or name
      const char *names[] = {"fill", "rotate", "missing", ""};
      const char *name = names[in_.ConsumeIntegralInRange<int>(0, 3)];
      cl_program program = in_.ConsumeIntegral<uint8_t>() < 230 ? shared().program : pick(programs_);
      cl_kernel kernel = api().clCreateKernel(program, in_.ConsumeIntegral<uint8_t>() < 250 ? name : nullptr, &err);
      keep(kernels_, kernel, api().clReleaseKernel);
      break;
    }
    case 12: { // any argument, any size, any value
      cl_kernel kernel = pick(kernels_);
      cl_uint index = in_.ConsumeIntegralInRange<cl_uint>(0, 5);
      cl_mem m = mem();
      uint64_t scalar = in_.ConsumeIntegral<uint64_t>();
      static const size_t kSizes[] = {0, 1, 2, 4, 8, 16, 4096, 1 << 20, SIZE_MAX};
      size_t bytes = kSizes[in_.ConsumeIntegralInRange<size_t>(0, std::size(kSizes) - 1)];
      const void *value = nullptr;
      switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
      case 0:
        value = &m;
        bytes = in_.ConsumeBool() ? sizeof m : bytes;
        break;
      case 1:
        // Never handle-sized: the driver reads a cl_mem-sized value as a
        // handle, and a handle that points nowhere is the application's error.
        value = &scalar;
        bytes = std::min(bytes, sizeof scalar);
        if (bytes == sizeof(cl_mem))
          bytes = sizeof(cl_uint);
        break;
      }
      api().clSetKernelArg(kernel, index, bytes, value);
      break;
    }
    case 13:
      enqueueKernel();
      break;
    case 14: { // a user event, possibly in another context
      cl_event event = api().clCreateUserEvent(context(), &err);
      if (event && events_.size() < kPoolLimit) {
        events_.push_back(event);
        pendingUserEvents_.push_back(event);
      } else if (event) {
        api().clSetUserEventStatus(event, CL_COMPLETE);
        api().clReleaseEvent(event);
      }
      break;
    }
    case 15: { // complete or fail a user event; or set any event's status
      cl_int status = in_.ConsumeBool() ? CL_COMPLETE : -1 - in_.ConsumeIntegral<uint8_t>();
      if (in_.ConsumeIntegral<uint8_t>() > 240)
        status = in_.ConsumeIntegral<cl_int>();
      if (!pendingUserEvents_.empty() && in_.ConsumeIntegral<uint8_t>() < 200) {
        size_t i = in_.ConsumeIntegral<uint8_t>() % pendingUserEvents_.size();
        if (api().clSetUserEventStatus(pendingUserEvents_[i], status) == CL_SUCCESS)
          pendingUserEvents_.erase(pendingUserEvents_.begin() + i);
      } else if (status <= CL_COMPLETE) {
        // Twice on a user event, or on an event that is not a user event.
        cl_event event = pick(events_);
        if (std::find(pendingUserEvents_.begin(), pendingUserEvents_.end(), event) == pendingUserEvents_.end())
          api().clSetUserEventStatus(event, status);
      }
      break;
    }
    case 16: { // marker or barrier
      cl_event event = nullptr;
      WaitList wait = waitList();
      if (in_.ConsumeBool())
        api().clEnqueueMarkerWithWaitList(pick(queues_), wait.count, wait.data(), eventOut(event));
      else
        api().clEnqueueBarrierWithWaitList(pick(queues_), wait.count, wait.data(), eventOut(event));
      keep(event);
      break;
    }
    case 17: // flush
      api().clFlush(pick(queues_));
      break;
    case 18: // finish or wait: only when nothing can wait forever
      if (!pendingUserEvents_.empty())
        break;
      if (in_.ConsumeBool()) {
        api().clFinish(pick(queues_));
      } else {
        WaitList wait = waitList();
        api().clWaitForEvents(wait.count, wait.data());
      }
      break;
    case 19: { // an event callback on any status
      cl_int status = in_.PickValueInArray({CL_COMPLETE, CL_RUNNING, CL_SUBMITTED, CL_QUEUED, 7});
      api().clSetEventCallback(pick(events_), status, in_.ConsumeBool() ? eventCallback : nullptr, nullptr);
      break;
    }
    case 20:
      queryInfo();
      break;
    case 21: { // migrate
      cl_event event = nullptr;
      WaitList wait = waitList();
      std::vector<cl_mem> objects(in_.ConsumeIntegralInRange<size_t>(0, 3));
      for (cl_mem &object : objects)
        object = mem();
      cl_mem_migration_flags f =
          flags<cl_mem_migration_flags>({CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED});
      api().clEnqueueMigrateMemObjects(pick(queues_), static_cast<cl_uint>(objects.size()),
                                       objects.empty() ? nullptr : objects.data(), f, wait.count, wait.data(),
                                       eventOut(event));
      keep(event);
      break;
    }
    case 22: { // a program from source, not built: kernels and info from it fail
      const char *sources[] = {kSource, "kernel void k(", ""};
      const char *source = sources[in_.ConsumeIntegralInRange<int>(0, 2)];
      cl_program program =
          api().clCreateProgramWithSource(context(), in_.ConsumeIntegral<uint8_t>() < 240 ? 1 : 0,
                                          in_.ConsumeIntegral<uint8_t>() < 240 ? &source : nullptr, nullptr, &err);
      keep(programs_, program, api().clReleaseProgram);
      break;
    }
    case 23: { // clone a kernel
      cl_kernel kernel = api().clCloneKernel(pick(kernels_), &err);
      keep(kernels_, kernel, api().clReleaseKernel);
      break;
    }
    case 24: { // a native kernel: no device has the capability
      cl_event event = nullptr;
      api().clEnqueueNativeKernel(pick(queues_), nullptr, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, eventOut(event));
      keep(event);
      break;
    }
    case 25: { // a task (a 1x1x1 launch)
      cl_event event = nullptr;
      cl_kernel kernel = pick(kernels_);
      WaitList wait = waitList();
      if (prepareLaunch(kernel))
        api().clEnqueueTask(pick(queues_), kernel, wait.count, wait.data(), eventOut(event));
      keep(event);
      break;
    }
    case 26:
    case 27:
    case 28:
      release(call % 32);
      break;
    case 29: { // retain then release, or release a handle that is not ours
      cl_event event = pick(events_);
      if (std::find(events_.begin(), events_.end(), event) != events_.end()) {
        api().clRetainEvent(event);
        api().clReleaseEvent(event);
      } else {
        // Not an event of ours: null, fake or another type (refused).
        api().clReleaseEvent(event);
        api().clRetainMemObject(reinterpret_cast<cl_mem>(&fakeHandle));
      }
      break;
    }
    default: { // the shared program's info, and build info of the pool's programs
      // Zeroed: CL_PROGRAM_BINARIES reads it as an array of pointers, and
      // null entries are skipped.
      char value[256] = {};
      size_t bytes = in_.ConsumeIntegralInRange<size_t>(0, sizeof value);
      cl_program program = in_.ConsumeBool() ? shared().program : pick(programs_);
      cl_uint name =
          in_.ConsumeIntegralInRange<cl_uint>(CL_PROGRAM_REFERENCE_COUNT, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT);
      api().clGetProgramInfo(program, name, bytes, in_.ConsumeBool() ? value : nullptr, nullptr);
      api().clGetProgramBuildInfo(program, cl.device, CL_PROGRAM_BUILD_STATUS + in_.ConsumeIntegralInRange(0, 4), bytes,
                                  value, nullptr);
      break;
    }
    }
  }

  /// Makes `kernel`'s launch memory-safe: live buffers of the shared context
  /// in its buffer arguments and bounds that fit them. False when `kernel`
  /// is not a kernel of the shared program (then the enqueue must fail).
  bool prepareLaunch(cl_kernel kernel) {
    if (std::find(kernels_.begin(), kernels_.end(), kernel) == kernels_.end())
      return true; // an invalid kernel: the enqueue must refuse it
    std::vector<const Buffer *> usable;
    for (const Buffer &b : buffers_)
      if (b.context == shared().context)
        usable.push_back(&b);
    if (usable.empty())
      return false;
    char name[16] = {};
    api().clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr);
    const Buffer *first = usable[in_.ConsumeIntegral<uint8_t>() % usable.size()];
    const Buffer *second = usable[in_.ConsumeIntegral<uint8_t>() % usable.size()];
    cl_uint n = static_cast<cl_uint>(std::min(first->size, second->size) / 4);
    n = std::min<cl_uint>(n, in_.ConsumeIntegral<cl_uint>());
    if (api().clSetKernelArg(kernel, 0, sizeof(cl_mem), &first->mem) != CL_SUCCESS)
      return false; // e.g. a sub-buffer that is not aligned: nothing to run
    if (std::strcmp(name, "fill") == 0) {
      cl_uint value = 7;
      return api().clSetKernelArg(kernel, 1, sizeof n, &n) == CL_SUCCESS &&
             api().clSetKernelArg(kernel, 2, sizeof value, &value) == CL_SUCCESS;
    }
    return api().clSetKernelArg(kernel, 1, sizeof(cl_mem), &second->mem) == CL_SUCCESS &&
           api().clSetKernelArg(kernel, 2, sizeof n, &n) == CL_SUCCESS &&
           api().clSetKernelArg(kernel, 3, shared().maxWorkGroup * sizeof(cl_uint), nullptr) == CL_SUCCESS;
  }

  void enqueueKernel() {
    cl_kernel kernel = pick(kernels_);
    cl_command_queue queue = pick(queues_);
    cl_uint dims = in_.ConsumeIntegralInRange<cl_uint>(0, 4);
    static const size_t kGlobal[] = {0, 1, 3, 16, 17, 64, 256, 1000, 4096};
    static const size_t kLocal[] = {0, 1, 2, 3, 4, 16, 64, 256, 1024, 1025};
    size_t global[4], local[4], offset[4];
    size_t items = 1;
    for (cl_uint i = 0; i < 4; ++i) {
      global[i] = kGlobal[in_.ConsumeIntegralInRange<size_t>(0, std::size(kGlobal) - 1)];
      if (i < dims && items * global[i] > 65536) // bounded work per input
        global[i] = 1;
      if (i < dims)
        items *= std::max<size_t>(global[i], 1);
      local[i] = kLocal[in_.ConsumeIntegralInRange<size_t>(0, std::size(kLocal) - 1)];
      offset[i] = in_.ConsumeIntegral<uint8_t>() < 250 ? in_.ConsumeIntegral<uint8_t>() : SIZE_MAX - 8;
    }
    WaitList wait = waitList();
    cl_event event = nullptr;
    if (!prepareLaunch(kernel))
      return;
    api().clEnqueueNDRangeKernel(queue, kernel, dims, in_.ConsumeBool() ? offset : nullptr,
                                 in_.ConsumeIntegral<uint8_t>() < 245 ? global : nullptr,
                                 in_.ConsumeBool() ? local : nullptr, wait.count, wait.data(), eventOut(event));
    keep(event);
  }

  void queryInfo() {
    unsigned char value[512];
    size_t bytes = in_.ConsumeBool() ? sizeof value : in_.ConsumeIntegralInRange<size_t>(0, 16);
    void *out = in_.ConsumeIntegral<uint8_t>() < 240 ? value : nullptr;
    cl_uint offset = in_.ConsumeIntegralInRange<cl_uint>(0, 16);
    switch (in_.ConsumeIntegralInRange<int>(0, 6)) {
    case 0:
      api().clGetContextInfo(context(), CL_CONTEXT_REFERENCE_COUNT + offset, bytes, out, nullptr);
      break;
    case 1:
      api().clGetCommandQueueInfo(pick(queues_), CL_QUEUE_CONTEXT + offset, bytes, out, nullptr);
      break;
    case 2:
      api().clGetMemObjectInfo(mem(), CL_MEM_TYPE + offset, bytes, out, nullptr);
      break;
    case 3:
      api().clGetEventInfo(pick(events_), CL_EVENT_COMMAND_QUEUE + offset, bytes, out, nullptr);
      break;
    case 4:
      api().clGetEventProfilingInfo(pick(events_), CL_PROFILING_COMMAND_QUEUED + offset, bytes, out, nullptr);
      break;
    case 5:
      api().clGetKernelInfo(pick(kernels_), CL_KERNEL_FUNCTION_NAME + offset, bytes, out, nullptr);
      break;
    default:
      api().clGetKernelWorkGroupInfo(pick(kernels_), fuzz::cl().device, CL_KERNEL_WORK_GROUP_SIZE + offset, bytes, out,
                                     nullptr);
    }
  }

  /// The application lets go of one object while commands may still use it.
  void release(uint8_t which) {
    auto drop = [&](auto &pool, auto release) {
      if (pool.empty())
        return;
      size_t i = in_.ConsumeIntegral<uint8_t>() % pool.size();
      release(pool[i]);
      pool.erase(pool.begin() + i);
    };
    switch (which) {
    case 26:
      if (!buffers_.empty()) {
        size_t i = in_.ConsumeIntegral<uint8_t>() % buffers_.size();
        cl_mem m = buffers_[i].mem;
        // Mappings of it stay valid until unmapped; the harness unmaps them at the end.
        if (std::none_of(mappings_.begin(), mappings_.end(), [&](const Mapping &x) { return x.mem == m; })) {
          api().clReleaseMemObject(m);
          buffers_.erase(buffers_.begin() + i);
        }
      }
      break;
    case 27:
      if (in_.ConsumeBool())
        drop(kernels_, api().clReleaseKernel);
      else if (mappings_.empty()) // a mapping is undone on its queue at the end
        drop(queues_, api().clReleaseCommandQueue);
      break;
    default: {
      // Events, never a pending user event (only it could complete it).
      if (events_.empty())
        break;
      size_t i = in_.ConsumeIntegral<uint8_t>() % events_.size();
      if (std::find(pendingUserEvents_.begin(), pendingUserEvents_.end(), events_[i]) != pendingUserEvents_.end())
        break;
      api().clReleaseEvent(events_[i]);
      events_.erase(events_.begin() + i);
    }
    }
  }

  void finish() {
    for (cl_event event : pendingUserEvents_)
      api().clSetUserEventStatus(event, CL_COMPLETE);
    for (const Mapping &mapping : mappings_)
      api().clEnqueueUnmapMemObject(mapping.queue, mapping.mem, mapping.pointer, 0, nullptr, nullptr);
    for (cl_command_queue queue : queues_)
      api().clFinish(queue);
    for (cl_event event : events_)
      api().clReleaseEvent(event);
    for (cl_kernel kernel : kernels_)
      api().clReleaseKernel(kernel);
    for (cl_program program : programs_)
      api().clReleaseProgram(program);
    for (const Buffer &b : buffers_)
      api().clReleaseMemObject(b.mem);
    for (cl_command_queue queue : queues_)
      api().clReleaseCommandQueue(queue);
    for (cl_context context : contexts_)
      api().clReleaseContext(context);
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  shared();
  FuzzedDataProvider in(data, size);
  Sequence(in).run();
  return 0;
}
