// Buffers: creation flags, host access enforcement, info, read/write/copy/
// fill with offsets, destructor callbacks, errors. Rectangular transfers,
// sub-buffers and maps are in their own files.
#include "cl_test.h"

#include <cstring>
#include <mutex>
#include <numeric>

using namespace cltest;

namespace {

class BufferTest : public DeviceTest {};

template <typename T> T memInfo(cl_mem mem, cl_mem_info param) {
  T value{};
  EXPECT_CL(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr));
  return value;
}

std::vector<uint8_t> bytePattern(size_t size, unsigned seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<uint8_t>(i * 31 + seed * 7 + (i >> 8));
  return bytes;
}

// Number of set bits among `mask` in `flags`.
int count(cl_mem_flags flags, cl_mem_flags mask) { return __builtin_popcountll(flags & mask); }

} // namespace

// Every combination of device access, host pointer and host access flags:
// the valid ones create a buffer with the right contents and enforce the host
// access restriction with CL_INVALID_OPERATION; the invalid ones fail.
TEST_P(BufferTest, EveryFlagCombination) {
  constexpr size_t kSize = 256;
  const cl_mem_flags accessModes[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY,
                                      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY};
  const cl_mem_flags hostPtrModes[] = {0,
                                       CL_MEM_USE_HOST_PTR,
                                       CL_MEM_ALLOC_HOST_PTR,
                                       CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                                       CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR};
  const cl_mem_flags hostAccessModes[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS,
                                          CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY};
  const std::vector<uint8_t> initial = bytePattern(kSize, 1);
  Mem scratch = buffer(CL_MEM_READ_WRITE, kSize);
  ASSERT_TRUE(scratch);

  for (cl_mem_flags access : accessModes)
    for (cl_mem_flags hostPtrMode : hostPtrModes)
      for (cl_mem_flags hostAccess : hostAccessModes) {
        cl_mem_flags flags = access | hostPtrMode | hostAccess;
        SCOPED_TRACE(testing::Message() << "flags 0x" << std::hex << flags);
        bool valid =
            count(access, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY) <= 1 &&
            !(hostPtrMode & CL_MEM_USE_HOST_PTR && hostPtrMode & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) &&
            count(hostAccess, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) <= 1;
        bool passHostPtr = hostPtrMode & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        std::vector<uint8_t> host = initial;
        cl_int err = CL_SUCCESS;
        Mem mem(clCreateBuffer(context_, flags, kSize, passHostPtr ? host.data() : nullptr, &err));
        if (!valid) {
          EXPECT_CL_ERR(CL_INVALID_VALUE, err);
          expectNoHandle(mem);
          continue;
        }
        ASSERT_CL(err);
        ASSERT_TRUE(mem);
        cl_mem_flags reported = memInfo<cl_mem_flags>(mem, CL_MEM_FLAGS);
        EXPECT_TRUE(reported == flags || (flags == 0 && reported == CL_MEM_READ_WRITE)) << reported;
        EXPECT_EQ(memInfo<size_t>(mem, CL_MEM_SIZE), kSize);
        void *hostPtr = memInfo<void *>(mem, CL_MEM_HOST_PTR);
        EXPECT_EQ(hostPtr, (flags & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr);

        if (passHostPtr) {
          // The device sees the host data (read through a device-side copy,
          // which host access flags do not restrict).
          ASSERT_CL(clEnqueueCopyBuffer(queue_, mem, scratch, 0, 0, kSize, 0, nullptr, nullptr));
          EXPECT_EQ(read<uint8_t>(scratch, kSize), initial);
        }

        std::vector<uint8_t> data(kSize, 0x5a);
        bool hostCanRead = !(hostAccess & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
        bool hostCanWrite = !(hostAccess & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
        cl_int readErr = clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, kSize, data.data(), 0, nullptr, nullptr);
        cl_int writeErr = clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, kSize, data.data(), 0, nullptr, nullptr);
        EXPECT_CL_ERR(hostCanRead ? CL_SUCCESS : CL_INVALID_OPERATION, readErr);
        EXPECT_CL_ERR(hostCanWrite ? CL_SUCCESS : CL_INVALID_OPERATION, writeErr);
        if (hostCanRead && passHostPtr)
          EXPECT_EQ(data, initial);

        size_t origin[3] = {0, 0, 0}, region[3] = {16, 2, 1};
        EXPECT_CL_ERR(hostCanRead ? CL_SUCCESS : CL_INVALID_OPERATION,
                      clEnqueueReadBufferRect(queue_, mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data.data(), 0,
                                              nullptr, nullptr));
        EXPECT_CL_ERR(hostCanWrite ? CL_SUCCESS : CL_INVALID_OPERATION,
                      clEnqueueWriteBufferRect(queue_, mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data.data(), 0,
                                               nullptr, nullptr));
        for (cl_map_flags mapFlags :
             {cl_map_flags(CL_MAP_READ), cl_map_flags(CL_MAP_WRITE), cl_map_flags(CL_MAP_WRITE_INVALIDATE_REGION)}) {
          bool allowed = mapFlags == CL_MAP_READ ? hostCanRead : hostCanWrite;
          void *ptr = clEnqueueMapBuffer(queue_, mem, CL_TRUE, mapFlags, 0, kSize, 0, nullptr, nullptr, &err);
          EXPECT_CL_ERR(allowed ? CL_SUCCESS : CL_INVALID_OPERATION, err) << " map flags " << mapFlags;
          if (ptr) {
            EXPECT_TRUE(allowed);
            EXPECT_CL(clEnqueueUnmapMemObject(queue_, mem, ptr, 0, nullptr, nullptr));
          }
        }
        ASSERT_CL(clFinish(queue_));
      }
}

TEST_P(BufferTest, HostPtrErrors) {
  std::vector<uint8_t> host(64);
  cl_int err = CL_SUCCESS;
  Mem m1(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, 64, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, err);
  Mem m2(clCreateBuffer(context_, CL_MEM_COPY_HOST_PTR, 64, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, err);
  Mem m3(clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, host.data(), &err));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, err);
  Mem m4(clCreateBuffer(context_, CL_MEM_ALLOC_HOST_PTR, 64, host.data(), &err));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, err);
  expectNoHandle(m1);
  expectNoHandle(m2);
  expectNoHandle(m3);
  expectNoHandle(m4);
}

TEST_P(BufferTest, CreateErrors) {
  cl_int err = CL_SUCCESS;
  Mem m1(clCreateBuffer(context_, CL_MEM_READ_WRITE, 0, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err);
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  Mem m2(clCreateBuffer(context_, CL_MEM_READ_WRITE, maxAlloc + 1, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err);
  Mem m3(clCreateBuffer(context_, cl_mem_flags(1) << 40, 64, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  Mem m4(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);
  expectNoHandle(m1);
  expectNoHandle(m2);
  expectNoHandle(m3);
  expectNoHandle(m4);
  // A null errcode_ret is allowed.
  Mem ok(clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, nullptr));
  EXPECT_TRUE(ok);
}

TEST_P(BufferTest, CreateWithProperties) {
  cl_int err = CL_SUCCESS;
  cl_mem_properties empty[] = {0};
  Mem mem(clCreateBufferWithProperties(context_, empty, CL_MEM_READ_WRITE, 64, nullptr, &err));
  ASSERT_CL(err);
  size_t size = 0;
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(empty));
  Mem noProps(clCreateBufferWithProperties(context_, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err));
  ASSERT_CL(err);
  ASSERT_CL(clGetMemObjectInfo(noProps, CL_MEM_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, 0u);
  cl_mem_properties unknown[] = {0x7fff, 0, 0};
  Mem bad(clCreateBufferWithProperties(context_, unknown, CL_MEM_READ_WRITE, 64, nullptr, &err));
  expectNoHandle(bad);
  EXPECT_CL_ERR(CL_INVALID_PROPERTY, err);
}

TEST_P(BufferTest, Info) {
  Mem mem = buffer(CL_MEM_READ_ONLY, 100);
  ASSERT_TRUE(mem);
  EXPECT_EQ(memInfo<cl_mem_object_type>(mem, CL_MEM_TYPE), cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(memInfo<cl_mem_flags>(mem, CL_MEM_FLAGS), cl_mem_flags(CL_MEM_READ_ONLY));
  EXPECT_EQ(memInfo<size_t>(mem, CL_MEM_SIZE), 100u);
  EXPECT_EQ(memInfo<cl_context>(mem, CL_MEM_CONTEXT), context_.get());
  EXPECT_EQ(memInfo<cl_mem>(mem, CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(memInfo<size_t>(mem, CL_MEM_OFFSET), 0u);
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(memInfo<cl_bool>(mem, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_REFERENCE_COUNT), 1u);
  ASSERT_CL(clRetainMemObject(mem));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_REFERENCE_COUNT), 2u);
  ASSERT_CL(clReleaseMemObject(mem));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_REFERENCE_COUNT), 1u);
  cl_uint value = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(mem, 0x7fff, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(mem, CL_MEM_SIZE, 1, &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clRetainMemObject(nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr));
}

TEST_P(BufferTest, ReadWriteWithOffsets) {
  constexpr size_t kSize = 1000;
  const auto initial = bytePattern(kSize, 2);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kSize, const_cast<uint8_t *>(initial.data()));
  ASSERT_TRUE(mem);
  auto patch = bytePattern(123, 9);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 301, patch.size(), patch.data(), 0, nullptr, nullptr));
  auto expected = initial;
  std::copy(patch.begin(), patch.end(), expected.begin() + 301);
  EXPECT_EQ(read<uint8_t>(mem, kSize), expected);
  // A partial read at an offset.
  std::vector<uint8_t> part(77, 0);
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_TRUE, 290, part.size(), part.data(), 0, nullptr, nullptr));
  EXPECT_TRUE(std::equal(part.begin(), part.end(), expected.begin() + 290));
  // Non-blocking transfers complete by clFinish.
  std::vector<uint8_t> late(kSize, 0);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_FALSE, 0, kSize, initial.data(), 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueReadBuffer(queue_, mem, CL_FALSE, 0, kSize, late.data(), 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(late, initial);
}

TEST_P(BufferTest, ReadWriteErrors) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 64);
  std::vector<uint8_t> host(128);
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 65, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue_, mem, CL_TRUE, 60, 8, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 64, 1, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clEnqueueReadBuffer(queue_, nullptr, CL_TRUE, 0, 8, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE,
                clEnqueueReadBuffer(nullptr, mem, CL_TRUE, 0, 8, host.data(), 0, nullptr, nullptr));
  // Wait list inconsistencies.
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST,
                clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 8, host.data(), 1, nullptr, nullptr));
  cl_event none = nullptr;
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST,
                clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 8, host.data(), 0, &none, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST,
                clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, 8, host.data(), 1, &none, nullptr));
  // A buffer from another context.
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  Context other(clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  Mem foreign(clCreateBuffer(other, CL_MEM_READ_WRITE, 64, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT,
                clEnqueueReadBuffer(queue_, foreign, CL_TRUE, 0, 8, host.data(), 0, nullptr, nullptr));
}

TEST_P(BufferTest, CopyWithOffsetsAndOverlap) {
  constexpr size_t kSize = 512;
  const auto a = bytePattern(kSize, 3);
  const auto b = bytePattern(kSize, 4);
  Mem src = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kSize, const_cast<uint8_t *>(a.data()));
  Mem dst = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kSize, const_cast<uint8_t *>(b.data()));
  ASSERT_TRUE(src && dst);
  ASSERT_CL(clEnqueueCopyBuffer(queue_, src, dst, 17, 200, 99, 0, nullptr, nullptr));
  auto expected = b;
  std::copy(a.begin() + 17, a.begin() + 17 + 99, expected.begin() + 200);
  EXPECT_EQ(read<uint8_t>(dst, kSize), expected);

  // Within one buffer: disjoint ranges are fine, overlapping ones are not.
  ASSERT_CL(clEnqueueCopyBuffer(queue_, src, src, 0, 256, 256, 0, nullptr, nullptr));
  auto self = a;
  std::copy(a.begin(), a.begin() + 256, self.begin() + 256);
  EXPECT_EQ(read<uint8_t>(src, kSize), self);
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue_, src, src, 0, 100, 101, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue_, src, src, 100, 0, 101, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, src, dst, 500, 0, 13, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, src, dst, 0, 500, 13, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, src, dst, 0, 0, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue_, src, nullptr, 0, 0, 4, 0, nullptr, nullptr));
}

TEST_P(BufferTest, FillEveryPatternSize) {
  constexpr size_t kSize = 2048;
  Mem mem = buffer(CL_MEM_READ_WRITE, kSize);
  ASSERT_TRUE(mem);
  for (size_t patternSize : {1, 2, 4, 8, 16, 32, 64, 128}) {
    SCOPED_TRACE(patternSize);
    const auto background = bytePattern(kSize, static_cast<unsigned>(patternSize));
    ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, kSize, background.data(), 0, nullptr, nullptr));
    std::vector<uint8_t> pattern(patternSize);
    for (size_t i = 0; i < patternSize; ++i)
      pattern[i] = static_cast<uint8_t>(0x80 + i * 3);
    size_t offset = 3 * patternSize, size = 5 * patternSize;
    ASSERT_CL(clEnqueueFillBuffer(queue_, mem, pattern.data(), patternSize, offset, size, 0, nullptr, nullptr));
    auto expected = background;
    for (size_t i = 0; i < size; ++i)
      expected[offset + i] = pattern[i % patternSize];
    EXPECT_EQ(read<uint8_t>(mem, kSize), expected);
  }
}

TEST_P(BufferTest, FillErrors) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 256);
  uint8_t pattern[256] = {};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 3, 0, 6, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 256, 0, 256, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 0, 0, 8, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, nullptr, 4, 0, 8, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 4, 2, 8, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 4, 0, 6, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, mem, pattern, 4, 252, 8, 0, nullptr, nullptr));
}

namespace {
struct DestructorLog {
  std::mutex mutex;
  std::vector<int> order;
};
struct DestructorTag {
  DestructorLog *log;
  int id;
};
void CL_CALLBACK recordMemDestruction(cl_mem, void *userData) {
  auto *tag = static_cast<DestructorTag *>(userData);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
}
} // namespace

TEST_P(BufferTest, DestructorCallbacksInReverseOrder) {
  DestructorLog log;
  DestructorTag tags[3] = {{&log, 1}, {&log, 2}, {&log, 3}};
  std::vector<uint8_t> host(64, 1);
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, host.size(), host.data(), &err);
  ASSERT_CL(err);
  for (auto &tag : tags)
    ASSERT_CL(clSetMemObjectDestructorCallback(mem, recordMemDestruction, &tag));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(mem, nullptr, nullptr));
  ASSERT_CL(clRetainMemObject(mem));
  ASSERT_CL(clReleaseMemObject(mem));
  {
    std::lock_guard lock(log.mutex);
    EXPECT_TRUE(log.order.empty()) << "called while a reference remained";
  }
  ASSERT_CL(clReleaseMemObject(mem));
  ASSERT_TRUE(waitUntil([&] {
    std::lock_guard lock(log.mutex);
    return log.order.size() == 3;
  }));
  std::lock_guard lock(log.mutex);
  EXPECT_EQ(log.order, (std::vector<int>{3, 2, 1}));
}

CLTEST_INSTANTIATE(BufferTest);
