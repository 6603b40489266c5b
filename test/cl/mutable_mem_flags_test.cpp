// cl_polymux_mutable_mem_flags: clModifyMemoryFlagsPOLYMUX replaces the
// kernel- and host-access flags of a buffer; every later API call checks the
// new flags, commands enqueued before keep the ones they were checked with,
// and sub-buffers never become more permissive than their parent.
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

namespace cltest {
namespace {

cl_mem_flags memFlags(cl_mem mem) {
  cl_mem_flags flags = 0;
  EXPECT_CL(clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof(flags), &flags, nullptr));
  return flags;
}

constexpr cl_mem_flags kHostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kKernelAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

class MutableMemFlagsTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    modify_ = extensionFunction<clModifyMemoryFlagsPOLYMUX_fn>("clModifyMemoryFlagsPOLYMUX");
    ASSERT_NE(modify_, nullptr);
    align_ = deviceInfo<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  }
  cl_int modify(cl_mem mem, cl_mem_flags flags) { return modify_(mem, flags); }
  Mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int *err) {
    cl_buffer_region region{origin, size};
    return Mem(clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err));
  }
  cl_int readInt(cl_mem mem, cl_int &value) {
    return clEnqueueReadBuffer(queue_, mem, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr);
  }
  cl_int writeInt(cl_mem mem, cl_int value) {
    return clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr);
  }
  /// Maps and unmaps one int; the error of the map.
  cl_int mapInt(cl_mem mem, cl_map_flags flags) {
    cl_int err = CL_SUCCESS;
    void *view = clEnqueueMapBuffer(queue_, mem, CL_TRUE, flags, 0, sizeof(cl_int), 0, nullptr, nullptr, &err);
    if (view)
      EXPECT_CL(clEnqueueUnmapMemObject(queue_, mem, view, 0, nullptr, nullptr));
    EXPECT_CL(clFinish(queue_));
    return err;
  }

  clModifyMemoryFlagsPOLYMUX_fn modify_ = nullptr;
  size_t align_ = 0;
};

TEST_P(MutableMemFlagsTest, ReportedByEveryDevice) {
  EXPECT_TRUE(deviceHasExtension(device(), CL_POLYMUX_MUTABLE_MEM_FLAGS_EXTENSION_NAME));
}

TEST_P(MutableMemFlagsTest, HostTransfersFollowTheCurrentFlags) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
  ASSERT_TRUE(mem);
  ASSERT_CL(writeInt(mem, 11));

  ASSERT_CL(modify(mem, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY));
  cl_int value = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, writeInt(mem, 12));
  size_t origin[3] = {0, 0, 0}, region[3] = {sizeof(cl_int), 1, 1};
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clEnqueueWriteBufferRect(queue_, mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                                               &value, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, mapInt(mem, CL_MAP_WRITE));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, mapInt(mem, CL_MAP_WRITE_INVALIDATE_REGION));
  EXPECT_CL(readInt(mem, value));
  EXPECT_EQ(value, 11);
  EXPECT_CL(mapInt(mem, CL_MAP_READ));

  ASSERT_CL(modify(mem, CL_MEM_HOST_WRITE_ONLY));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_HOST_WRITE_ONLY));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, readInt(mem, value));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, clEnqueueReadBufferRect(queue_, mem, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                                              &value, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, mapInt(mem, CL_MAP_READ));
  EXPECT_CL(writeInt(mem, 13));
  EXPECT_CL(mapInt(mem, CL_MAP_WRITE_INVALIDATE_REGION));

  ASSERT_CL(modify(mem, CL_MEM_HOST_NO_ACCESS));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, readInt(mem, value));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, writeInt(mem, 14));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, mapInt(mem, CL_MAP_READ | CL_MAP_WRITE));
  // Device-side commands do not check host access.
  cl_int pattern = 15;
  EXPECT_CL(clEnqueueFillBuffer(queue_, mem, &pattern, sizeof(pattern), 0, sizeof(pattern), 0, nullptr, nullptr));

  // Back to the defaults: everything is allowed again.
  ASSERT_CL(modify(mem, 0));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(0));
  EXPECT_CL(readInt(mem, value));
  EXPECT_EQ(value, 15);
  EXPECT_CL(writeInt(mem, 16));
  EXPECT_CL(mapInt(mem, CL_MAP_READ | CL_MAP_WRITE));
}

TEST_P(MutableMemFlagsTest, KernelAccessFlagsChangeAndKernelsRun) {
  Program program = build("kernel void inc(global int *p) { p[get_global_id(0)] += 1; }");
  ASSERT_TRUE(program);
  Kernel kernel = this->kernel(program, "inc");
  std::vector<cl_int> values = {1, 2, 3, 4};
  Mem mem = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int), values.data());
  ASSERT_TRUE(mem);
  ASSERT_CL(modify(mem, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));
  setArgs(kernel.get(), mem.get());
  size_t global = values.size();
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(mem, values.size()), (std::vector<cl_int>{2, 3, 4, 5}));
  ASSERT_CL(modify(mem, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR));
}

TEST_P(MutableMemFlagsTest, AllocationFlagsStay) {
  std::vector<cl_int> host = {7, 8, 9, 10};
  Mem mem = buffer(CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, host.size() * sizeof(cl_int), host.data());
  ASSERT_TRUE(mem);
  // Omitting, swapping or adding an allocation flag is refused.
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_READ_ONLY));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE));

  ASSERT_CL(modify(mem, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  void *hostPtr = nullptr;
  ASSERT_CL(clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof(hostPtr), &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, host.data());
  EXPECT_EQ(read<cl_int>(mem, host.size()), host);

  Mem allocated = buffer(CL_MEM_ALLOC_HOST_PTR, sizeof(cl_int));
  ASSERT_TRUE(allocated);
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(allocated, CL_MEM_HOST_READ_ONLY));
  EXPECT_CL(modify(allocated, CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_READ_ONLY));
}

TEST_P(MutableMemFlagsTest, Errors) {
  Mem mem = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, sizeof(cl_int));
  ASSERT_TRUE(mem);
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, modify(nullptr, CL_MEM_READ_WRITE));
  // A handle of another kind.
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, modify(reinterpret_cast<cl_mem>(queue_.get()), CL_MEM_READ_WRITE));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_KERNEL_READ_AND_WRITE));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, cl_mem_flags{1} << 40));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(mem, CL_MEM_COPY_HOST_PTR));
  // A failed call changes nothing.
  EXPECT_EQ(memFlags(mem), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  cl_int value = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, readInt(mem, value));
}

TEST_P(MutableMemFlagsTest, SubBuffersAreNeverMorePermissiveThanTheParent) {
  ASSERT_GE(align_, 1u);
  Mem parent = buffer(CL_MEM_READ_WRITE, 2 * align_);
  ASSERT_TRUE(parent);
  cl_int err = CL_SUCCESS;
  Mem writeOnly = subBuffer(parent, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 0, align_, &err);
  ASSERT_CL(err);
  Mem inherits = subBuffer(parent, 0, align_, align_, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memFlags(inherits), cl_mem_flags(CL_MEM_READ_WRITE));

  // The parent becomes read-only for kernels and write-only for the host:
  // existing sub-buffers are limited by it while it stays so...
  ASSERT_CL(modify(parent, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  EXPECT_EQ(memFlags(writeOnly), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  EXPECT_EQ(memFlags(inherits), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  cl_int value = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, readInt(writeOnly, value));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, writeInt(writeOnly, 1));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, readInt(inherits, value));
  EXPECT_CL(writeInt(inherits, 2));
  // ...new sub-buffers are checked against its new flags...
  expectNoHandle(subBuffer(parent, CL_MEM_WRITE_ONLY, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  expectNoHandle(subBuffer(parent, CL_MEM_HOST_READ_ONLY, 0, align_, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  Mem created = subBuffer(parent, 0, 0, align_, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memFlags(created), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  // ...and so are modifications of a sub-buffer.
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(created, CL_MEM_READ_WRITE));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(created, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_CL(modify(created, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  EXPECT_EQ(memFlags(created), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  // A group left out is the parent's, as in clCreateSubBuffer.
  EXPECT_CL(modify(created, CL_MEM_HOST_NO_ACCESS));
  EXPECT_EQ(memFlags(created), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));

  // When the parent allows more again, each sub-buffer has its own flags back.
  ASSERT_CL(modify(parent, CL_MEM_READ_WRITE));
  EXPECT_EQ(memFlags(writeOnly), cl_mem_flags(CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(memFlags(inherits), cl_mem_flags(CL_MEM_READ_WRITE));
  EXPECT_EQ(memFlags(created), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
  EXPECT_CL(readInt(writeOnly, value));
  EXPECT_CL(modify(writeOnly, CL_MEM_READ_WRITE));
  EXPECT_CL(writeInt(writeOnly, 3));
}

TEST_P(MutableMemFlagsTest, SubBufferOfUseHostPtrParentKeepsAllocationFlags) {
  ASSERT_GE(align_, 1u);
  std::vector<unsigned char> host(2 * align_, 1);
  Mem parent = buffer(CL_MEM_USE_HOST_PTR, host.size(), host.data());
  ASSERT_TRUE(parent);
  cl_int err = CL_SUCCESS;
  Mem sub = subBuffer(parent, CL_MEM_READ_ONLY, align_, align_, &err);
  ASSERT_CL(err);
  EXPECT_EQ(memFlags(sub), cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR));
  EXPECT_CL_ERR(CL_INVALID_VALUE, modify(sub, CL_MEM_READ_WRITE));
  EXPECT_CL(modify(sub, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR));
  EXPECT_EQ(memFlags(sub), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR));
}

TEST_P(MutableMemFlagsTest, EnqueuedCommandsKeepTheirFlags) {
  Mem mem = buffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_int));
  ASSERT_TRUE(mem);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  // A write and a write map wait for the gate while the buffer becomes
  // HOST_NO_ACCESS: both still run, and the map can be unmapped.
  cl_int written = 41;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_FALSE, 0, sizeof(written), &written, 1, gate.ptr(), nullptr));
  Event mapped;
  auto *view = static_cast<cl_int *>(clEnqueueMapBuffer(queue_, mem, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                        2 * sizeof(cl_int), 0, nullptr, mapped.out(), &err));
  ASSERT_CL(err);
  ASSERT_CL(modify(mem, CL_MEM_HOST_NO_ACCESS));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, writeInt(mem, 0));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, mapped.ptr()));
  EXPECT_EQ(view[0], 41);
  view[1] = 42;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, mem, view, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(modify(mem, CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(read<cl_int>(mem, 2), (std::vector<cl_int>{41, 42}));
}

// A map for reading and writing needs both kinds of host access at one
// moment: while another thread swaps HOST_READ_ONLY and HOST_WRITE_ONLY, no
// such map may succeed, and every CL_MEM_FLAGS answer of a sub-buffer is
// one of the two states.
TEST_P(MutableMemFlagsTest, ChangesAreAtomicForOtherThreads) {
  ASSERT_GE(align_, 1u);
  Mem mem = buffer(CL_MEM_HOST_READ_ONLY, 2 * align_);
  ASSERT_TRUE(mem);
  cl_int err = CL_SUCCESS;
  Mem sub = subBuffer(mem, CL_MEM_READ_ONLY, 0, align_, &err);
  ASSERT_CL(err);
  std::atomic<bool> stop{false};
  std::atomic<int> toggles{0}, failures{0};
  std::thread toggler([&] {
    for (int i = 0; !stop; ++i, ++toggles)
      if (modify(mem, i % 2 ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY) != CL_SUCCESS)
        ++failures;
  });
  int unexpected = 0;
  // Until both threads have done many calls (the toggler starts late).
  for (int i = 0; i < 2000 || toggles < 2000; ++i) {
    cl_int mapErr = CL_SUCCESS;
    void *view =
        clEnqueueMapBuffer(queue_, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, align_, 0, nullptr, nullptr, &mapErr);
    if (view) {
      clEnqueueUnmapMemObject(queue_, mem, view, 0, nullptr, nullptr);
      ++unexpected;
    } else if (mapErr != CL_INVALID_OPERATION) {
      ++unexpected;
    }
    const cl_mem_flags subFlags = memFlags(sub);
    if (subFlags != (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY) &&
        subFlags != (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
      ++unexpected;
  }
  stop = true;
  toggler.join();
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(unexpected, 0);
}

CLTEST_INSTANTIATE(MutableMemFlagsTest);

// In a context with several devices, the kernel-access flags in effect when
// a kernel is enqueued decide whether its writes are migrated: a buffer made
// READ_WRITE after it was created READ_ONLY is written on one device and
// read on another.
TEST(MutableMemFlagsMultiDevice, KernelWritesAfterTheChangeReachTheOtherDevice) {
  const std::vector<cl_device_id> &devices = devicesUnderTest();
  if (devices.size() < 2)
    GTEST_SKIP() << "needs two devices";
  auto modify = extensionFunction<clModifyMemoryFlagsPOLYMUX_fn>("clModifyMemoryFlagsPOLYMUX");
  ASSERT_NE(modify, nullptr);
  cl_int err = CL_SUCCESS;
  Context context(clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &err));
  ASSERT_CL(err);
  Queue first(clCreateCommandQueueWithProperties(context, devices[0], nullptr, &err));
  ASSERT_CL(err);
  Queue second(clCreateCommandQueueWithProperties(context, devices[1], nullptr, &err));
  ASSERT_CL(err);
  const char *source = "kernel void inc(global int *p) { p[get_global_id(0)] += 1; }";
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  ASSERT_CL(err);
  if (clBuildProgram(program, 1, &devices[0], "", nullptr, nullptr) != CL_SUCCESS)
    GTEST_SKIP() << "the first device cannot build the kernel";
  Kernel kernel(clCreateKernel(program, "inc", &err));
  ASSERT_CL(err);
  std::vector<cl_int> values = {1, 2, 3, 4};
  Mem mem(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int),
                         values.data(), &err));
  ASSERT_CL(err);
  // Both devices hold the initial contents.
  std::vector<cl_int> seen(values.size());
  ASSERT_CL(
      clEnqueueReadBuffer(second, mem, CL_TRUE, 0, seen.size() * sizeof(cl_int), seen.data(), 0, nullptr, nullptr));
  ASSERT_CL(modify(mem, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));
  ASSERT_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &mem));
  size_t global = values.size();
  Event ran;
  ASSERT_CL(clEnqueueNDRangeKernel(first, kernel, 1, nullptr, &global, nullptr, 0, nullptr, ran.out()));
  ASSERT_CL(
      clEnqueueReadBuffer(second, mem, CL_TRUE, 0, seen.size() * sizeof(cl_int), seen.data(), 1, ran.ptr(), nullptr));
  EXPECT_EQ(seen, (std::vector<cl_int>{2, 3, 4, 5}));
}

} // namespace
} // namespace cltest
