// Shared virtual memory: clSVMAlloc, the clEnqueueSVM* commands,
// clSetKernelArgSVMPointer and clSetKernelExecInfo, on every device that
// reports CL_DEVICE_SVM_CAPABILITIES; devices that report none are checked
// for the errors of a context without SVM.
#include "cl_test.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <numeric>
#include <vector>

namespace cltest {
namespace {

/// An allocation of clSVMAlloc, freed with clSVMFree.
class SvmPointer {
public:
  SvmPointer() = default;
  SvmPointer(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment = 0)
      : context_(context), pointer_(clSVMAlloc(context, flags, size, alignment)) {}
  SvmPointer(SvmPointer &&other) noexcept : context_(other.context_), pointer_(other.pointer_) {
    other.pointer_ = nullptr;
  }
  ~SvmPointer() {
    if (pointer_)
      clSVMFree(context_, pointer_);
  }
  void *get() const { return pointer_; }
  template <class T> T *as() const { return static_cast<T *>(pointer_); }
  explicit operator bool() const { return pointer_ != nullptr; }
  void *release() { return std::exchange(pointer_, nullptr); }

private:
  cl_context context_ = nullptr;
  void *pointer_ = nullptr;
};

constexpr const char *kSource = R"CLC(
typedef struct Node {
  global struct Node *next;
  int value;
} Node;

// Walks the list from `head`, storing the sum of its values in *sum.
kernel void walk(global const Node *head, global int *sum) {
  int total = 0;
  for (global const Node *node = head; node; node = node->next)
    total += node->value;
  *sum = total;
}

kernel void iota(global int *out, int base) {
  size_t i = get_global_id(0);
  out[i] = base + (int)i;
}

// out[i] = *in[i].p: pointers stored in SVM memory, read by the kernel
// (a kernel parameter cannot be a pointer to a pointer).
typedef struct Slot {
  global int *p;
} Slot;
kernel void gather(global int *out, global const Slot *in) {
  size_t i = get_global_id(0);
  out[i] = *in[i].p;
}

kernel void increment(global int *data) { data[get_global_id(0)] += 1; }

// Adds 1 to *counter `times` times per work-item, atomically for every SVM
// device and the host.
kernel void count(global atomic_int *counter, int times) {
  for (int i = 0; i < times; ++i)
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_svm_devices);
}
)CLC";

struct Node {
  Node *next;
  cl_int value;
};

class SvmTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    capabilities_ = deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES);
    if (!(capabilities_ & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      GTEST_SKIP() << "the device reports no shared virtual memory (CL_DEVICE_SVM_CAPABILITIES 0)";
    program_ = build(kSource, "-cl-std=CL3.0");
    ASSERT_TRUE(program_);
  }

  SvmPointer alloc(size_t size, cl_svm_mem_flags flags = CL_MEM_READ_WRITE) {
    return SvmPointer(context_, flags, size);
  }
  void map(void *pointer, size_t size, cl_map_flags flags = CL_MAP_READ | CL_MAP_WRITE) {
    ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, flags, pointer, size, 0, nullptr, nullptr));
  }
  void unmap(void *pointer) {
    ASSERT_CL(clEnqueueSVMUnmap(queue_, pointer, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  void run(cl_kernel k, size_t global) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }

  cl_device_svm_capabilities capabilities_ = 0;
  Program program_;
};
CLTEST_INSTANTIATE(SvmTest);

TEST_P(SvmTest, AllocationsAreAlignedAndDistinct) {
  SvmPointer a = alloc(100), b = alloc(100);
  SvmPointer aligned(context_, CL_MEM_READ_WRITE, 64, 4096);
  ASSERT_TRUE(a && b && aligned);
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.get()) % 128, 0u) << "default alignment is that of long16";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned.get()) % 4096, 0u);
}

// The point of SVM: a structure of pointers built on the host is walked by
// a kernel. Nodes alternate between two allocations; the second reaches the
// kernel only through CL_KERNEL_EXEC_INFO_SVM_PTRS.
TEST_P(SvmTest, KernelWalksLinkedListBuiltOnHost) {
  constexpr int kNodes = 37;
  SvmPointer even = alloc(kNodes * sizeof(Node)), odd = alloc(kNodes * sizeof(Node)), sum = alloc(sizeof(cl_int));
  ASSERT_TRUE(even && odd && sum);
  map(even.get(), kNodes * sizeof(Node));
  map(odd.get(), kNodes * sizeof(Node));
  Node *nodes[kNodes];
  for (int i = 0; i < kNodes; ++i)
    nodes[i] = (i % 2 ? odd.as<Node>() : even.as<Node>()) + i;
  int expected = 0;
  for (int i = 0; i < kNodes; ++i) {
    nodes[i]->value = i * 3 + 1;
    nodes[i]->next = i + 1 < kNodes ? nodes[i + 1] : nullptr;
    expected += i * 3 + 1;
  }
  unmap(even.get());
  unmap(odd.get());

  Kernel walk = kernel(program_, "walk");
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 0, even.get()));
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 1, sum.get()));
  void *reachable[] = {odd.get()};
  ASSERT_CL(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(reachable), reachable));
  run(walk, 1);
  map(sum.get(), sizeof(cl_int), CL_MAP_READ);
  EXPECT_EQ(*sum.as<cl_int>(), expected);
  unmap(sum.get());

  // Starting from the second node (an interior pointer into `odd`).
  ASSERT_CL(clSetKernelArgSVMPointer(walk, 0, nodes[1]));
  run(walk, 1);
  map(sum.get(), sizeof(cl_int), CL_MAP_READ);
  EXPECT_EQ(*sum.as<cl_int>(), expected - 1);
  unmap(sum.get());
}

TEST_P(SvmTest, PointersStoredInSvmReachOtherAllocations) {
  constexpr size_t kCount = 16;
  SvmPointer values = alloc(kCount * sizeof(cl_int)), table = alloc(kCount * sizeof(cl_int *)),
             out = alloc(kCount * sizeof(cl_int));
  ASSERT_TRUE(values && table && out);
  map(values.get(), kCount * sizeof(cl_int));
  map(table.get(), kCount * sizeof(cl_int *));
  for (size_t i = 0; i < kCount; ++i) {
    values.as<cl_int>()[i] = int(i * i);
    table.as<cl_int *>()[i] = values.as<cl_int>() + (kCount - 1 - i);
  }
  unmap(values.get());
  unmap(table.get());
  Kernel gather = kernel(program_, "gather");
  ASSERT_CL(clSetKernelArgSVMPointer(gather, 0, out.get()));
  ASSERT_CL(clSetKernelArgSVMPointer(gather, 1, table.get()));
  void *reachable[] = {values.get()};
  ASSERT_CL(clSetKernelExecInfo(gather, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(reachable), reachable));
  run(gather, kCount);
  std::vector<cl_int> result(kCount);
  ASSERT_CL(
      clEnqueueSVMMemcpy(queue_, CL_TRUE, result.data(), out.get(), kCount * sizeof(cl_int), 0, nullptr, nullptr));
  for (size_t i = 0; i < kCount; ++i)
    EXPECT_EQ(result[i], int((kCount - 1 - i) * (kCount - 1 - i))) << i;
}

// An argument pointing into the middle of an allocation, at an offset no
// sub-buffer could have (not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN).
TEST_P(SvmTest, InteriorPointerArgument) {
  constexpr size_t kCount = 64, kOffset = 5, kWritten = 20;
  SvmPointer data = alloc(kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  const cl_int zero = 0;
  ASSERT_CL(clEnqueueSVMMemFill(queue_, data.get(), &zero, sizeof(zero), kCount * sizeof(cl_int), 0, nullptr, nullptr));
  Kernel iota = kernel(program_, "iota");
  ASSERT_CL(clSetKernelArgSVMPointer(iota, 0, data.as<cl_int>() + kOffset));
  cl_int base = 100;
  ASSERT_CL(clSetKernelArg(iota, 1, sizeof(base), &base));
  run(iota, kWritten);
  map(data.get(), kCount * sizeof(cl_int), CL_MAP_READ);
  for (size_t i = 0; i < kCount; ++i) {
    const int expected = i >= kOffset && i < kOffset + kWritten ? int(100 + i - kOffset) : 0;
    EXPECT_EQ(data.as<cl_int>()[i], expected) << i;
  }
  unmap(data.get());
}

TEST_P(SvmTest, MemcpyAndFillMatchHostReference) {
  constexpr size_t kBytes = 4096 + 24;
  SvmPointer a = alloc(kBytes), b = alloc(kBytes);
  ASSERT_TRUE(a && b);
  std::vector<unsigned char> reference(kBytes), host(kBytes);
  std::iota(host.begin(), host.end(), 7);
  reference = host;
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_FALSE, a.get(), host.data(), kBytes, 0, nullptr, nullptr));
  // A 4-byte pattern over [64, 64 + 1024) of a.
  const cl_uint pattern = 0xA1B2C3D4u;
  Event fill;
  ASSERT_CL(
      clEnqueueSVMMemFill(queue_, a.as<unsigned char>() + 64, &pattern, sizeof(pattern), 1024, 0, nullptr, fill.out()));
  for (size_t i = 64; i < 64 + 1024; i += 4)
    std::memcpy(&reference[i], &pattern, 4);
  // SVM to SVM at unaligned interior offsets, then back to the host.
  Event copy;
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_FALSE, b.as<unsigned char>() + 3, a.as<unsigned char>() + 1, kBytes - 8, 1,
                               fill.ptr(), copy.out()));
  std::vector<unsigned char> result(kBytes, 0);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, result.data(), b.get(), kBytes, 1, copy.ptr(), nullptr));
  EXPECT_EQ(eventInfo<cl_command_type>(fill, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_MEMFILL));
  EXPECT_EQ(eventInfo<cl_command_type>(copy, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_MEMCPY));
  EXPECT_EQ(eventStatus(copy), CL_COMPLETE);
  // b was never written outside [3, kBytes - 5): its contents there are
  // whatever clSVMAlloc gave, so only the copied range is compared.
  for (size_t i = 0; i < kBytes - 8; ++i)
    ASSERT_EQ(result[3 + i], reference[1 + i]) << i;

  // Host to host: allowed, and copied in queue order.
  std::vector<unsigned char> other(kBytes, 0);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, other.data(), host.data(), kBytes, 0, nullptr, nullptr));
  EXPECT_EQ(other, host);
}

TEST_P(SvmTest, MapUnmapRoundTripWithEvents) {
  constexpr size_t kCount = 256;
  SvmPointer data = alloc(kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  Event mapped;
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, data.get(), kCount * sizeof(cl_int), 0,
                            nullptr, mapped.out()));
  EXPECT_EQ(eventInfo<cl_command_type>(mapped, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_MAP));
  EXPECT_EQ(eventStatus(mapped), CL_COMPLETE);
  for (size_t i = 0; i < kCount; ++i)
    data.as<cl_int>()[i] = int(i);
  Event unmapped;
  ASSERT_CL(clEnqueueSVMUnmap(queue_, data.get(), 0, nullptr, unmapped.out()));
  Kernel increment = kernel(program_, "increment");
  ASSERT_CL(clSetKernelArgSVMPointer(increment, 0, data.get()));
  const size_t global = kCount;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, increment, 1, nullptr, &global, nullptr, 1, unmapped.ptr(), nullptr));
  map(data.get(), kCount * sizeof(cl_int), CL_MAP_READ);
  EXPECT_EQ(eventInfo<cl_command_type>(unmapped, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_UNMAP));
  for (size_t i = 0; i < kCount; ++i)
    EXPECT_EQ(data.as<cl_int>()[i], int(i + 1)) << i;
  unmap(data.get());

  const void *pointers[] = {data.get()};
  Event migrated;
  ASSERT_CL(clEnqueueSVMMigrateMem(queue_, 1, pointers, nullptr, 0, 0, nullptr, migrated.out()));
  ASSERT_CL(clWaitForEvents(1, migrated.ptr()));
  EXPECT_EQ(eventInfo<cl_command_type>(migrated, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_MIGRATE_MEM));
}

// Fine-grained buffers: the host reads and writes without map or unmap.
TEST_P(SvmTest, FineGrainedBufferNeedsNoMap) {
  if (!(capabilities_ & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    GTEST_SKIP() << "the device reports no fine-grained buffer SVM";
  constexpr size_t kCount = 128;
  SvmPointer data = alloc(kCount * sizeof(cl_int), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER);
  ASSERT_TRUE(data);
  for (size_t i = 0; i < kCount; ++i)
    data.as<cl_int>()[i] = int(3 * i);
  Kernel increment = kernel(program_, "increment");
  ASSERT_CL(clSetKernelArgSVMPointer(increment, 0, data.get()));
  run(increment, kCount);
  for (size_t i = 0; i < kCount; ++i)
    EXPECT_EQ(data.as<cl_int>()[i], int(3 * i + 1)) << i;
}

// SVM atomics: the host and a running kernel add to one counter at once,
// and no increment is lost.
TEST_P(SvmTest, AtomicsAreSharedWithTheHost) {
  if (!(capabilities_ & CL_DEVICE_SVM_ATOMICS))
    GTEST_SKIP() << "the device reports no SVM atomics";
  auto *counter = static_cast<std::atomic<cl_int> *>(
      clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(cl_int), 0));
  ASSERT_NE(counter, nullptr);
  new (counter) std::atomic<cl_int>(0);
  Kernel count = kernel(program_, "count");
  const cl_int times = 2000;
  const size_t items = 64;
  ASSERT_CL(clSetKernelArgSVMPointer(count, 0, counter));
  ASSERT_CL(clSetKernelArg(count, 1, sizeof(times), &times));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, count, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFlush(queue_));
  constexpr int kHostAdds = 100000;
  for (int i = 0; i < kHostAdds; ++i)
    counter->fetch_add(1, std::memory_order_relaxed);
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(counter->load(), kHostAdds + times * cl_int(items));
  clSVMFree(context_, counter);
}

TEST_P(SvmTest, EnqueueSvmFreeRunsCallbackInOrder) {
  SvmPointer a = alloc(64), b = alloc(64);
  ASSERT_TRUE(a && b);
  struct Seen {
    std::vector<void *> pointers;
    cl_command_queue queue = nullptr;
    bool called = false;
  } seen;
  void *pointers[] = {a.release(), b.release()};
  auto callback = [](cl_command_queue queue, cl_uint count, void *list[], void *user) {
    auto *s = static_cast<Seen *>(user);
    s->queue = queue;
    s->pointers.assign(list, list + count);
    cl_context context = nullptr;
    clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr);
    for (void *pointer : s->pointers)
      clSVMFree(context, pointer);
    s->called = true;
  };
  Event freed;
  ASSERT_CL(clEnqueueSVMFree(queue_, 2, pointers, callback, &seen, 0, nullptr, freed.out()));
  pointers[0] = pointers[1] = nullptr; // the callback gets the list as it was
  ASSERT_CL(clWaitForEvents(1, freed.ptr()));
  EXPECT_EQ(eventInfo<cl_command_type>(freed, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_SVM_FREE));
  ASSERT_TRUE(waitUntil([&] { return seen.called; }));
  EXPECT_EQ(seen.queue, queue_.get());
  ASSERT_EQ(seen.pointers.size(), 2u);
  EXPECT_NE(seen.pointers[0], nullptr);

  // Without a callback the implementation frees them.
  void *more[] = {alloc(32).release()};
  ASSERT_NE(more[0], nullptr);
  ASSERT_CL(clEnqueueSVMFree(queue_, 1, more, nullptr, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(SvmTest, BufferOnSvmPointerSharesIt) {
  constexpr size_t kCount = 32;
  SvmPointer data = alloc(kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  Mem wrapped = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kCount * sizeof(cl_int), data.get());
  ASSERT_TRUE(wrapped);
  cl_bool usesSvm = CL_FALSE;
  ASSERT_CL(clGetMemObjectInfo(wrapped, CL_MEM_USES_SVM_POINTER, sizeof(usesSvm), &usesSvm, nullptr));
  EXPECT_EQ(usesSvm, cl_bool(CL_TRUE));
  cl_int err = CL_SUCCESS;
  Mem tooLarge(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, kCount * sizeof(cl_int), data.as<cl_int>() + 1, &err));
  EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err) << "larger than the rest of the allocation";
  expectNoHandle(tooLarge);
  Mem plain = buffer(CL_MEM_READ_WRITE, 16);
  ASSERT_CL(clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof(usesSvm), &usesSvm, nullptr));
  EXPECT_EQ(usesSvm, cl_bool(CL_FALSE));

  Kernel iota = kernel(program_, "iota");
  cl_int base = 7;
  setArgs(iota, wrapped.get(), base);
  run(iota, kCount);
  map(data.get(), kCount * sizeof(cl_int), CL_MAP_READ);
  for (size_t i = 0; i < kCount; ++i)
    EXPECT_EQ(data.as<cl_int>()[i], int(7 + i)) << i;
  unmap(data.get());
}

TEST_P(SvmTest, AllocationErrors) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0), nullptr) << "atomics need fine grain";
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_USE_HOST_PTR, 64, 0), nullptr) << "not an SVM flag";
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, maxAlloc + 1, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 3), nullptr) << "alignment not a power of two";
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 1u << 30), nullptr) << "alignment too large";
  if (!(capabilities_ & CL_DEVICE_SVM_ATOMICS))
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0), nullptr);
  if (!(capabilities_ & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0), nullptr);
  clSVMFree(context_, nullptr); // a no-op
  clSVMFree(nullptr, nullptr);
}

TEST_P(SvmTest, CommandErrors) {
  SvmPointer a = alloc(256), b = alloc(256);
  ASSERT_TRUE(a && b);
  auto *bytes = a.as<unsigned char>();
  int host[64] = {};
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE,
                clEnqueueSVMMemcpy(nullptr, CL_TRUE, a.get(), b.get(), 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue_, CL_TRUE, nullptr, b.get(), 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue_, CL_TRUE, a.get(), nullptr, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue_, CL_TRUE, bytes + 8, bytes, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(queue_, CL_TRUE, host, bytes + 200, 100, 0, nullptr, nullptr))
      << "runs past the end of the allocation";
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST,
                clEnqueueSVMMemcpy(queue_, CL_TRUE, host, a.get(), 16, 1, nullptr, nullptr));

  const cl_int pattern = 1;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, nullptr, &pattern, 4, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, a.get(), nullptr, 4, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, a.get(), &pattern, 3, 15, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, a.get(), &pattern, 256, 256, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, bytes + 2, &pattern, 4, 16, 0, nullptr, nullptr))
      << "svm_ptr not aligned to the pattern";
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, a.get(), &pattern, 4, 18, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(queue_, host, &pattern, 4, 16, 0, nullptr, nullptr)) << "not SVM";

  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, nullptr, 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, a.get(), 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                                  a.get(), 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMap(queue_, CL_TRUE, 1u << 7, a.get(), 16, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMUnmap(queue_, nullptr, 0, nullptr, nullptr));

  void *list[] = {a.get()};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(queue_, 0, list, nullptr, nullptr, 0, nullptr, nullptr));
  const void *migrate[] = {a.get()};
  const size_t tooLarge[] = {1024};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 0, migrate, nullptr, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 1, migrate, tooLarge, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(queue_, 1, migrate, nullptr, 1u << 5, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(SvmTest, KernelArgumentErrors) {
  SvmPointer a = alloc(64);
  ASSERT_TRUE(a);
  Kernel iota = kernel(program_, "iota");
  int notSvm = 0;
  EXPECT_CL_ERR(CL_INVALID_KERNEL, clSetKernelArgSVMPointer(nullptr, 0, a.get()));
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(iota, 2, a.get()));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(iota, 1, a.get())) << "a by-value argument";
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(iota, 0, &notSvm)) << "not from clSVMAlloc";
  EXPECT_CL(clSetKernelArgSVMPointer(iota, 0, nullptr));

  EXPECT_CL_ERR(CL_INVALID_KERNEL, clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
  void *list[] = {a.get()};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list), nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, list));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(iota, 0x7777, sizeof(list), list));
  cl_bool fineGrainSystem = CL_TRUE;
  if (!(capabilities_ & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
    EXPECT_CL_ERR(CL_INVALID_OPERATION, clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                                            sizeof(fineGrainSystem), &fineGrainSystem));
  fineGrainSystem = CL_FALSE;
  EXPECT_CL(
      clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof(fineGrainSystem), &fineGrainSystem));
  EXPECT_CL(clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(list), list));
  EXPECT_CL(clSetKernelExecInfo(iota, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr)) << "unsets the list";

  // A freed allocation's argument is caught at launch, not used.
  SvmPointer gone = alloc(64);
  ASSERT_TRUE(gone);
  ASSERT_CL(clSetKernelArgSVMPointer(iota, 0, gone.get()));
  cl_int base = 0;
  ASSERT_CL(clSetKernelArg(iota, 1, sizeof(base), &base));
  clSVMFree(context_, gone.release());
  const size_t global = 1;
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS,
                clEnqueueNDRangeKernel(queue_, iota, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
}

// Devices without SVM: a context of only such a device gives the errors of
// a context without SVM.
class SvmUnsupportedTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES) != 0)
      GTEST_SKIP() << "the device reports shared virtual memory (SvmTest covers it)";
  }
};
CLTEST_INSTANTIATE(SvmUnsupportedTest);

TEST_P(SvmUnsupportedTest, EntryPointsReportNoSvm) {
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 0), nullptr);
  int host[4] = {};
  int other[4] = {};
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                clEnqueueSVMMemcpy(queue_, CL_TRUE, host, other, sizeof(host), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, host, 4, 0, nullptr, nullptr));
  Program program = build("kernel void k(global int *p) { *p = 1; }");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "k");
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clSetKernelArgSVMPointer(k, 0, host));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
}

} // namespace
} // namespace cltest
