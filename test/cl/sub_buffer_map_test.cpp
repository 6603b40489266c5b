// Sub-buffers (alignment, bounds, info, aliasing with the parent) and
// mapping (read and write maps, USE_HOST_PTR pointer rules, map count).
#include "cl_test.h"

#include <cstring>
#include <numeric>

using namespace cltest;

namespace {

class SubBufferTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    align_ = deviceInfo<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    ASSERT_GE(align_, 1u);
  }
  Mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err) {
    cl_buffer_region region{origin, size};
    return Mem(clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err));
  }
  size_t align_ = 0;
};

class MapTest : public DeviceTest {};

template <typename T> T memInfo(cl_mem mem, cl_mem_info param) {
  T value{};
  EXPECT_CL(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr));
  return value;
}

std::vector<int> iota(size_t count, int start) {
  std::vector<int> v(count);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace

TEST_P(SubBufferTest, InfoAndAliasing) {
  const size_t elements = 4 * align_ / sizeof(int);
  auto initial = iota(elements, 1000);
  Mem parent = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, elements * sizeof(int), initial.data());
  ASSERT_TRUE(parent);
  cl_int err = CL_SUCCESS;
  Mem sub = subBuffer(parent, CL_MEM_READ_WRITE, align_, 2 * align_, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memInfo<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT), parent.get());
  EXPECT_EQ(memInfo<size_t>(sub, CL_MEM_OFFSET), align_);
  EXPECT_EQ(memInfo<size_t>(sub, CL_MEM_SIZE), 2 * align_);
  EXPECT_EQ(memInfo<cl_context>(sub, CL_MEM_CONTEXT), context_.get());
  EXPECT_EQ(memInfo<cl_mem_object_type>(sub, CL_MEM_TYPE), cl_mem_object_type(CL_MEM_OBJECT_BUFFER));

  // The sub-buffer sees the parent's data...
  const size_t first = align_ / sizeof(int), count = 2 * align_ / sizeof(int);
  auto seen = read<int>(sub, count);
  EXPECT_TRUE(std::equal(seen.begin(), seen.end(), initial.begin() + first));
  // ...and writes through it land in the parent.
  auto patch = iota(count, -500);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, sub, CL_TRUE, 0, count * sizeof(int), patch.data(), 0, nullptr, nullptr));
  auto expected = initial;
  std::copy(patch.begin(), patch.end(), expected.begin() + first);
  EXPECT_EQ(read<int>(parent, elements), expected);
  // A fill of the parent shows through the sub-buffer.
  int value = 77;
  ASSERT_CL(clEnqueueFillBuffer(queue_, parent, &value, sizeof(value), 0, elements * sizeof(int), 0, nullptr, nullptr));
  EXPECT_EQ(read<int>(sub, count), std::vector<int>(count, 77));
}

TEST_P(SubBufferTest, KeepsParentAlive) {
  cl_int err = CL_SUCCESS;
  Mem parent = buffer(CL_MEM_READ_WRITE, 2 * align_);
  int value = 5;
  ASSERT_CL(clEnqueueFillBuffer(queue_, parent, &value, sizeof(value), 0, 2 * align_, 0, nullptr, nullptr));
  Mem sub = subBuffer(parent, 0, align_, align_, &err);
  ASSERT_CL(err);
  parent.reset();
  EXPECT_EQ(read<int>(sub, align_ / sizeof(int)), std::vector<int>(align_ / sizeof(int), 5));
}

TEST_P(SubBufferTest, UseHostPtrParent) {
  std::vector<uint8_t> host(3 * align_, 0);
  Mem parent = buffer(CL_MEM_USE_HOST_PTR, host.size(), host.data());
  cl_int err = CL_SUCCESS;
  Mem sub = subBuffer(parent, 0, align_, align_, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memInfo<void *>(sub, CL_MEM_HOST_PTR), host.data() + align_);
}

TEST_P(SubBufferTest, Errors) {
  Mem parent = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 4 * align_);
  ASSERT_TRUE(parent);
  cl_int err = CL_SUCCESS;
  if (align_ > 1) {
    Mem misaligned = subBuffer(parent, 0, 1, 16, &err);
    EXPECT_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
    expectNoHandle(misaligned);
  }
  expectNoHandle(subBuffer(parent, 0, 3 * align_, 2 * align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "past the end";
  expectNoHandle(subBuffer(parent, 0, 0, 0, &err));
  EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err);
  expectNoHandle(subBuffer(parent, CL_MEM_WRITE_ONLY, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "write access on a read-only parent";
  expectNoHandle(subBuffer(parent, CL_MEM_READ_WRITE, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "read-write on a read-only parent";
  expectNoHandle(subBuffer(parent, CL_MEM_HOST_READ_ONLY, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "host access on a HOST_NO_ACCESS parent";
  expectNoHandle(subBuffer(parent, CL_MEM_COPY_HOST_PTR, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "host pointer flags";
  cl_buffer_region region{0, align_};
  Mem badType(clCreateSubBuffer(parent, 0, 0x7fff, &region, &err));
  expectNoHandle(badType);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  Mem noRegion(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err));
  expectNoHandle(noRegion);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);

  Mem sub = subBuffer(parent, 0, 0, 2 * align_, &err);
  ASSERT_CL(err);
  expectNoHandle(subBuffer(sub, 0, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, err) << "sub-buffer of a sub-buffer";
  // A sub-buffer inherits HOST_NO_ACCESS.
  int value = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                clEnqueueReadBuffer(queue_, sub, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
}

TEST_P(MapTest, ReadAndWriteMaps) {
  constexpr size_t kCount = 256;
  auto initial = iota(kCount, 10);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCount * sizeof(int), initial.data());
  ASSERT_TRUE(mem);
  cl_int err = CL_SUCCESS;
  Event mapped;
  auto *view = static_cast<int *>(clEnqueueMapBuffer(queue_, mem, CL_FALSE, CL_MAP_READ, 16 * sizeof(int),
                                                     100 * sizeof(int), 0, nullptr, mapped.out(), &err));
  ASSERT_CL(err);
  ASSERT_NE(view, nullptr);
  ASSERT_CL(clWaitForEvents(1, mapped.ptr()));
  EXPECT_EQ(eventInfo<cl_command_type>(mapped, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_MAP_BUFFER));
  EXPECT_EQ(std::vector<int>(view, view + 100), std::vector<int>(initial.begin() + 16, initial.begin() + 116));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 1u);
  Event unmapped;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, view, 0, nullptr, unmapped.out()));
  ASSERT_CL(clWaitForEvents(1, unmapped.ptr()));
  EXPECT_EQ(eventInfo<cl_command_type>(unmapped, CL_EVENT_COMMAND_TYPE), cl_command_type(CL_COMMAND_UNMAP_MEM_OBJECT));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 0u);

  // A write map: what the host writes is in the buffer after the unmap.
  auto *out = static_cast<int *>(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                    64 * sizeof(int), 32 * sizeof(int), 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  for (int i = 0; i < 32; ++i)
    out[i] = -i;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, out, 0, nullptr, nullptr));
  auto expected = initial;
  for (int i = 0; i < 32; ++i)
    expected[64 + i] = -i;
  EXPECT_EQ(read<int>(mem, kCount), expected);

  // CL_MAP_WRITE keeps the rest of the region's contents.
  auto *rw = static_cast<int *>(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                   kCount * sizeof(int), 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(std::vector<int>(rw, rw + kCount), expected);
  rw[0] = 4242;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, rw, 0, nullptr, nullptr));
  expected[0] = 4242;
  EXPECT_EQ(read<int>(mem, kCount), expected);
}

TEST_P(MapTest, MapCountWithNestedMaps) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 1024);
  cl_int err = CL_SUCCESS;
  void *a = clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 0, 512, 0, nullptr, nullptr, &err);
  ASSERT_CL(err);
  void *b = clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 512, 512, 0, nullptr, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 2u);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, a, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 1u);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, b, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(memInfo<cl_uint>(mem, CL_MEM_MAP_COUNT), 0u);
}

TEST_P(MapTest, UseHostPtrMapsIntoHostMemory) {
  constexpr size_t kCount = 128;
  std::vector<int> host = iota(kCount, 0);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kCount * sizeof(int), host.data());
  ASSERT_TRUE(mem);
  // Change the buffer on the device side...
  int value = -3;
  ASSERT_CL(
      clEnqueueFillBuffer(queue_, mem, &value, sizeof(value), 32 * sizeof(int), 16 * sizeof(int), 0, nullptr, nullptr));
  cl_int err = CL_SUCCESS;
  auto *view = static_cast<int *>(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 8 * sizeof(int),
                                                     64 * sizeof(int), 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  // ...the map pointer is derived from host_ptr, and the host memory is
  // up to date while mapped.
  EXPECT_EQ(view, host.data() + 8);
  for (int i = 0; i < 64; ++i) {
    int index = 8 + i;
    int want = index >= 32 && index < 48 ? -3 : index;
    EXPECT_EQ(view[i], want) << i;
  }
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, view, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(MapTest, Errors) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 256);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 200, 100, 0, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "out of bounds";
  EXPECT_EQ(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "zero size";
  EXPECT_EQ(clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, nullptr,
                               nullptr, &err),
            nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "READ with WRITE_INVALIDATE_REGION";
  EXPECT_EQ(clEnqueueMapBuffer(queue_, mem, CL_TRUE, cl_map_flags(1) << 20, 0, 64, 0, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err) << "unknown flag";
  int notMapped = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue_, mem, &notMapped, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clEnqueueUnmapMemObject(queue_, nullptr, &notMapped, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

CLTEST_INSTANTIATE(SubBufferTest);
CLTEST_INSTANTIATE(MapTest);
