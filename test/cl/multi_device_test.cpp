// Buffers shared by the devices of one context: what a kernel or transfer
// writes on one device is what a command on another device of the context
// sees, at the synchronisation points the memory model defines (commands
// ordered by events, maps, clEnqueueMigrateMemObjects). Every test runs over
// every ordered pair of devices of the platform, twice: with the migration
// path Polymux chooses and with every migration forced through host staging
// memory (POLYMUX_MIGRATION=staged, the path devices whose memory the host
// cannot see take). Devices whose compiler is unavailable take part through
// transfers only. With fewer than two devices every test is skipped.
#include "cl_test.h"
#include "command_buffer_api.h"

#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace {

using namespace cltest;

constexpr const char *kSource = R"CLC(
kernel void add(global int *data, int value) {
  data[get_global_id(0)] += value;
}
kernel void scaled_copy(global const int *in, global int *out, int factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
)CLC";

constexpr size_t kCount = 1024; ///< ints per buffer
constexpr size_t kBytes = kCount * sizeof(cl_int);

/// Every device of the platform under test, custom devices included
/// (CL_DEVICE_TYPE_ALL leaves those out).
std::vector<cl_device_id> everyDevice() {
  constexpr cl_device_type kEveryType =
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  cl_platform_id platform = platformUnderTest();
  cl_uint count = 0;
  if (!platform || clGetDeviceIDs(platform, kEveryType, 0, nullptr, &count) != CL_SUCCESS)
    return {};
  std::vector<cl_device_id> devices(count);
  if (clGetDeviceIDs(platform, kEveryType, count, devices.data(), nullptr) != CL_SUCCESS)
    return {};
  return devices;
}

/// `first + i * step` for every i.
std::vector<cl_int> sequence(cl_int first, cl_int step = 1, size_t count = kCount) {
  std::vector<cl_int> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = first + static_cast<cl_int>(i) * step;
  return values;
}

/// Where migrations go: Polymux's choice, or always through host staging.
enum class Path { Chosen, Staged };
const char *name(Path path) { return path == Path::Staged ? "Staged" : "Chosen"; }
void PrintTo(Path path, std::ostream *os) { *os << name(path); }

class MultiDeviceTest : public testing::TestWithParam<Path> {
protected:
  void SetUp() override {
    devices_ = everyDevice();
    if (devices_.size() < 2)
      GTEST_SKIP() << "multi-device tests need two devices in the platform; it has " << devices_.size();
    if (GetParam() == Path::Staged)
      setenv("POLYMUX_MIGRATION", "staged", 1);
    cl_int err = CL_SUCCESS;
    context_.reset(
        clCreateContext(nullptr, static_cast<cl_uint>(devices_.size()), devices_.data(), nullptr, nullptr, &err));
    ASSERT_CL(err);
    for (cl_device_id device : devices_) {
      queues_.emplace_back(clCreateCommandQueueWithProperties(context_, device, nullptr, &err));
      ASSERT_CL(err);
    }
    for (cl_device_id device : devices_) {
      programs_.push_back(buildFor(device));
      if (HasFatalFailure())
        return;
    }
  }
  void TearDown() override { unsetenv("POLYMUX_MIGRATION"); }

  /// kSource built for `device` alone, or an empty holder when the device
  /// cannot build kernels (its compiler is unavailable): it then only runs
  /// transfers.
  Program buildFor(cl_device_id device) {
    const char *text = kSource;
    cl_int err = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
    EXPECT_CL(err);
    err = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
    if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILER_NOT_AVAILABLE || err == CL_INVALID_OPERATION) {
      std::cerr << deviceString(device, CL_DEVICE_NAME) << " runs no kernels here (" << errorName(err)
                << "): " << programBuildLog(program, device) << "\n";
      return {};
    }
    EXPECT_CL(err) << programBuildLog(program, device);
    return program;
  }

  size_t deviceCount() const { return devices_.size(); }
  bool runsKernels(size_t device) const { return static_cast<bool>(programs_[device]); }
  std::string name(size_t device) const { return deviceString(devices_[device], CL_DEVICE_NAME); }

  /// Every ordered pair of distinct devices.
  std::vector<std::pair<size_t, size_t>> pairs() const {
    std::vector<std::pair<size_t, size_t>> result;
    for (size_t a = 0; a < deviceCount(); ++a)
      for (size_t b = 0; b < deviceCount(); ++b)
        if (a != b)
          result.emplace_back(a, b);
    return result;
  }
  /// Ordered pairs whose first device runs kernels.
  std::vector<std::pair<size_t, size_t>> pairsWithKernelsOnFirst() const {
    std::vector<std::pair<size_t, size_t>> result;
    for (auto pair : pairs())
      if (runsKernels(pair.first))
        result.push_back(pair);
    return result;
  }

  Mem buffer(cl_mem_flags flags = CL_MEM_READ_WRITE, size_t bytes = kBytes, void *host = nullptr) {
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateBuffer(context_, flags, bytes, host, &err));
    EXPECT_CL(err);
    return mem;
  }
  /// A CL_MEM_COPY_HOST_PTR buffer of `values`.
  Mem bufferHolding(std::vector<cl_int> values) {
    return buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int), values.data());
  }
  Mem subBuffer(cl_mem parent, size_t origin, size_t size) {
    cl_buffer_region region{origin, size};
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    EXPECT_CL(err);
    return mem;
  }

  /// Non-blocking write of all of `values` at `offset` ints (the values
  /// are kept until the test ends: the write reads them when it runs).
  Event write(size_t device, cl_mem mem, std::vector<cl_int> values, const Event &after = {}, size_t offset = 0) {
    std::lock_guard lock(writtenMutex_);
    const std::vector<cl_int> &kept = written_.emplace_back(std::move(values));
    Event done;
    EXPECT_CL(clEnqueueWriteBuffer(queues_[device], mem, CL_FALSE, offset * sizeof(cl_int),
                                   kept.size() * sizeof(cl_int), kept.data(), after ? 1 : 0,
                                   after ? after.ptr() : nullptr, done.out()));
    return done;
  }
  /// Blocking read of `count` ints at `offset` ints.
  std::vector<cl_int> read(size_t device, cl_mem mem, const Event &after = {}, size_t count = kCount,
                           size_t offset = 0) {
    std::vector<cl_int> values(count, -12345);
    EXPECT_CL(clEnqueueReadBuffer(queues_[device], mem, CL_TRUE, offset * sizeof(cl_int), count * sizeof(cl_int),
                                  values.data(), after ? 1 : 0, after ? after.ptr() : nullptr, nullptr));
    return values;
  }
  /// data[i] += value over `count` ints, on a device that runs kernels.
  Event add(size_t device, cl_mem mem, cl_int value, const Event &after = {}, size_t count = kCount) {
    cl_int err = CL_SUCCESS;
    Kernel kernel(clCreateKernel(programs_[device], "add", &err));
    EXPECT_CL(err);
    EXPECT_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &mem));
    EXPECT_CL(clSetKernelArg(kernel, 1, sizeof(cl_int), &value));
    Event done;
    EXPECT_CL(clEnqueueNDRangeKernel(queues_[device], kernel, 1, nullptr, &count, nullptr, after ? 1 : 0,
                                     after ? after.ptr() : nullptr, done.out()));
    return done;
  }
  /// out[i] = in[i] * factor, on a device that runs kernels.
  Event scaledCopy(size_t device, cl_mem in, cl_mem out, cl_int factor, const Event &after) {
    cl_int err = CL_SUCCESS;
    Kernel kernel(clCreateKernel(programs_[device], "scaled_copy", &err));
    EXPECT_CL(err);
    EXPECT_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in));
    EXPECT_CL(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out));
    EXPECT_CL(clSetKernelArg(kernel, 2, sizeof(cl_int), &factor));
    Event done;
    EXPECT_CL(
        clEnqueueNDRangeKernel(queues_[device], kernel, 1, nullptr, &kCount, nullptr, 1, after.ptr(), done.out()));
    return done;
  }
  Event copy(size_t device, cl_mem src, cl_mem dst, const Event &after) {
    Event done;
    EXPECT_CL(clEnqueueCopyBuffer(queues_[device], src, dst, 0, 0, kBytes, 1, after.ptr(), done.out()));
    return done;
  }
  Event userEvent() {
    cl_int err = CL_SUCCESS;
    Event event(clCreateUserEvent(context_, &err));
    EXPECT_CL(err);
    return event;
  }
  /// The largest sub-buffer alignment of the context's devices, in bytes.
  size_t subBufferAlignment() const {
    size_t bytes = 1;
    for (cl_device_id device : devices_)
      bytes = std::max<size_t>(bytes, deviceInfo<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
    return bytes;
  }

  std::vector<cl_device_id> devices_;
  Context context_;
  std::vector<Queue> queues_;
  std::vector<Program> programs_; ///< by device; empty where no kernels run
  std::mutex writtenMutex_;
  std::deque<std::vector<cl_int>> written_; ///< sources of non-blocking writes
};

constexpr const char *kNoKernelPair = "needs a device that runs kernels and another device in the platform";

std::string pathName(const testing::TestParamInfo<Path> &info) { return name(info.param); }

INSTANTIATE_TEST_SUITE_P(Paths, MultiDeviceTest, testing::Values(Path::Chosen, Path::Staged), pathName);

TEST_P(MultiDeviceTest, KernelWriteIsReadOnAnotherDevice) {
  auto kernelPairs = pairsWithKernelsOnFirst();
  if (kernelPairs.empty())
    GTEST_SKIP() << kNoKernelPair;
  for (auto [k, other] : kernelPairs) {
    SCOPED_TRACE("kernel on " + name(k) + ", read on " + name(other));
    Mem mem = bufferHolding(sequence(0));
    Event added = add(k, mem, 7);
    EXPECT_EQ(sequence(7), read(other, mem, added));
    EXPECT_EQ(sequence(7), read(k, mem));
    // And back: written on the other device, added to on k, read there again.
    Event written = write(other, mem, sequence(100, 2));
    Event addedAgain = add(k, mem, 1, written);
    EXPECT_EQ(sequence(101, 2), read(other, mem, addedAgain));
  }
}

// An image written by a kernel on one device and read by a kernel on
// another: each device reads the texels through a descriptor of its own
// (image_abi.h) after they migrated.
TEST_P(MultiDeviceTest, ImageKernelsOnTwoDevices) {
  const char *imageSource = R"CLC(
kernel void fill(write_only image2d_t img, int base) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(img, (int2)(x, y), (int4)(base + y * 100 + x));
}
kernel void gather(read_only image2d_t img, global int *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagei(img, (int2)(x, y)).x;
}
)CLC";
  std::vector<Program> imagePrograms;
  for (size_t device = 0; device < deviceCount(); ++device) {
    imagePrograms.emplace_back();
    if (!runsKernels(device) || !deviceInfo<cl_bool>(devices_[device], CL_DEVICE_IMAGE_SUPPORT))
      continue;
    cl_int err = CL_SUCCESS;
    imagePrograms.back().reset(clCreateProgramWithSource(context_, 1, &imageSource, nullptr, &err));
    ASSERT_CL(err);
    ASSERT_CL(clBuildProgram(imagePrograms.back(), 1, &devices_[device], "", nullptr, nullptr))
        << programBuildLog(imagePrograms.back(), devices_[device]);
  }
  constexpr size_t kWidth = 16, kHeight = 4;
  const size_t global[2] = {kWidth, kHeight};
  const cl_image_format format{CL_R, CL_SIGNED_INT32};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = kWidth;
  desc.image_height = kHeight;
  size_t ran = 0;
  for (auto [a, b] : pairs()) {
    if (!imagePrograms[a] || !imagePrograms[b])
      continue;
    SCOPED_TRACE("written on " + name(a) + ", read on " + name(b));
    ++ran;
    cl_int err = CL_SUCCESS;
    Mem img(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
    ASSERT_CL(err);
    Mem out = buffer(CL_MEM_READ_WRITE, kWidth * kHeight * sizeof(cl_int));
    Kernel fill(clCreateKernel(imagePrograms[a], "fill", &err));
    ASSERT_CL(err);
    const cl_int base = 1000 * cl_int(a + 1);
    cl_mem imgHandle = img, outHandle = out;
    ASSERT_CL(clSetKernelArg(fill, 0, sizeof(cl_mem), &imgHandle));
    ASSERT_CL(clSetKernelArg(fill, 1, sizeof(cl_int), &base));
    Event filled;
    ASSERT_CL(clEnqueueNDRangeKernel(queues_[a], fill, 2, nullptr, global, nullptr, 0, nullptr, filled.out()));
    Kernel gather(clCreateKernel(imagePrograms[b], "gather", &err));
    ASSERT_CL(err);
    ASSERT_CL(clSetKernelArg(gather, 0, sizeof(cl_mem), &imgHandle));
    ASSERT_CL(clSetKernelArg(gather, 1, sizeof(cl_mem), &outHandle));
    Event gathered;
    ASSERT_CL(clEnqueueNDRangeKernel(queues_[b], gather, 2, nullptr, global, nullptr, 1, filled.ptr(), gathered.out()));
    std::vector<cl_int> expected;
    for (size_t y = 0; y < kHeight; ++y)
      for (size_t x = 0; x < kWidth; ++x)
        expected.push_back(base + cl_int(y * 100 + x));
    EXPECT_EQ(expected, read(b, out, gathered, kWidth * kHeight));
  }
  if (ran == 0)
    GTEST_SKIP() << "needs two devices that run image kernels";
}

TEST_P(MultiDeviceTest, TransferPingPong) {
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("write on " + name(a) + ", copy on " + name(b));
    Mem src = buffer();
    Mem dst = buffer();
    for (cl_int round = 0; round < 3; ++round) {
      std::vector<cl_int> values = sequence(round * 1000, round + 1);
      Event written = write(a, src, values);
      Event copied = copy(b, src, dst, written);
      EXPECT_EQ(values, read(a, dst, copied)) << "round " << round;
      EXPECT_EQ(values, read(b, src, written)) << "round " << round;
    }
  }
}

TEST_P(MultiDeviceTest, OutOfOrderQueuesOrderMigrationsByEvents) {
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  for (size_t d = 0; d < deviceCount(); ++d) {
    cl_int err = CL_SUCCESS;
    queues_[d].reset(clCreateCommandQueueWithProperties(context_, devices_[d], properties, &err));
    ASSERT_CL(err);
  }
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("out-of-order queues, write on " + name(a) + ", copy on " + name(b));
    Mem src = buffer();
    Mem dst = buffer();
    Event written = write(a, src, sequence(11, 3));
    Event copied = copy(b, src, dst, written);
    Event last = std::move(copied);
    std::vector<cl_int> expected = sequence(11, 3);
    if (runsKernels(a)) {
      last = add(a, dst, -11, last);
      expected = sequence(0, 3);
    }
    EXPECT_EQ(expected, read(b, dst, last));
    EXPECT_EQ(sequence(11, 3), read(b, src, written));
  }
}

TEST_P(MultiDeviceTest, KernelPingPong) {
  std::vector<size_t> kernelDevices;
  for (size_t d = 0; d < deviceCount(); ++d)
    if (runsKernels(d))
      kernelDevices.push_back(d);
  if (kernelDevices.size() < 2)
    GTEST_SKIP() << "needs two devices that run kernels; the platform has " << kernelDevices.size();
  for (size_t a : kernelDevices)
    for (size_t b : kernelDevices) {
      if (a == b)
        continue;
      SCOPED_TRACE("kernels alternate between " + name(a) + " and " + name(b));
      std::vector<cl_int> expected = sequence(0);
      Mem mem = bufferHolding(expected);
      Event last;
      for (cl_int round = 0; round < 6; ++round) {
        last = add(round % 2 ? b : a, mem, round + 1, last);
        for (cl_int &value : expected)
          value += round + 1;
      }
      EXPECT_EQ(expected, read(a, mem, last));
      EXPECT_EQ(expected, read(b, mem, last));
    }
}

TEST_P(MultiDeviceTest, KernelsAndTransfersAlternate) {
  auto kernelPairs = pairsWithKernelsOnFirst();
  if (kernelPairs.empty())
    GTEST_SKIP() << kNoKernelPair;
  for (auto [k, other] : kernelPairs) {
    SCOPED_TRACE("kernels on " + name(k) + ", copies on " + name(other));
    std::vector<cl_int> expected = sequence(3);
    Mem mem = bufferHolding(expected);
    Mem tmp = buffer();
    Event last;
    for (int round = 0; round < 3; ++round) {
      last = add(k, mem, 1, last);
      last = copy(other, mem, tmp, last);
      last = scaledCopy(k, tmp, mem, 2, last);
      for (cl_int &value : expected)
        value = (value + 1) * 2;
    }
    EXPECT_EQ(expected, read(other, mem, last));
    EXPECT_EQ(expected, read(k, mem));
  }
}

TEST_P(MultiDeviceTest, SubBuffersOfOneBufferOnDifferentDevices) {
  const size_t half = std::max<size_t>(subBufferAlignment(), kBytes / 2) / sizeof(cl_int);
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("first half on " + name(a) + ", second half on " + name(b));
    Mem root = buffer(CL_MEM_READ_WRITE, 2 * half * sizeof(cl_int));
    Mem first = subBuffer(root, 0, half * sizeof(cl_int));
    Mem second = subBuffer(root, half * sizeof(cl_int), half * sizeof(cl_int));
    // Unordered with each other: each sub-buffer has its own device.
    Event firstWritten = write(a, first, sequence(1, 1, half));
    Event secondWritten = write(b, second, sequence(-1, -1, half));
    cl_event both[] = {firstWritten, secondWritten};
    ASSERT_CL(clWaitForEvents(2, both));
    std::vector<cl_int> expected = sequence(1, 1, half);
    std::vector<cl_int> secondValues = sequence(-1, -1, half);
    expected.insert(expected.end(), secondValues.begin(), secondValues.end());
    EXPECT_EQ(expected, read(a, root, {}, 2 * half));
    EXPECT_EQ(expected, read(b, root, {}, 2 * half));

    if (runsKernels(a)) {
      // A kernel on a sub-buffer, read through the root on the other device.
      Event added = add(a, first, 10, {}, half);
      for (size_t i = 0; i < half; ++i)
        expected[i] += 10;
      EXPECT_EQ(expected, read(b, root, added, 2 * half));
    }
    EXPECT_EQ(secondValues, read(a, second, {}, half));
  }
}

TEST_P(MultiDeviceTest, MapOnAnotherDeviceSeesWritesAndUnmapPublishesThem) {
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("written on " + name(a) + ", mapped on " + name(b));
    Mem mem = buffer();
    Event written = write(a, mem, sequence(0));
    cl_int err = CL_SUCCESS;
    auto *mapped = static_cast<cl_int *>(clEnqueueMapBuffer(queues_[b], mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                            kBytes, 1, written.ptr(), nullptr, &err));
    ASSERT_CL(err);
    EXPECT_EQ(sequence(0), std::vector<cl_int>(mapped, mapped + kCount));
    for (size_t i = 0; i < kCount; ++i)
      mapped[i] *= 3;
    Event unmapped;
    ASSERT_CL(clEnqueueUnmapMemObject(queues_[b], mem, mapped, 0, nullptr, unmapped.out()));
    EXPECT_EQ(sequence(0, 3), read(a, mem, unmapped));

    std::vector<cl_int> expected = sequence(0, 3);
    Event last = std::move(unmapped);
    if (runsKernels(a)) {
      last = add(a, mem, 1, last);
      expected = sequence(1, 3);
    }
    // A map that discards a range: only that range comes from the map.
    auto *quarter = static_cast<cl_int *>(clEnqueueMapBuffer(queues_[b], mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                             kBytes / 4, kBytes / 4, 1, last.ptr(), nullptr, &err));
    ASSERT_CL(err);
    for (size_t i = 0; i < kCount / 4; ++i)
      quarter[i] = -7;
    ASSERT_CL(clEnqueueUnmapMemObject(queues_[b], mem, quarter, 0, nullptr, unmapped.out()));
    std::fill(expected.begin() + kCount / 4, expected.begin() + kCount / 2, -7);
    EXPECT_EQ(expected, read(a, mem, unmapped));
    EXPECT_EQ(expected, read(b, mem));
  }
}

TEST_P(MultiDeviceTest, UseHostPtrAcrossDevices) {
  // Page-aligned memory can be wrapped by a device; 4 bytes in, it is copied.
  for (size_t misalignment : {size_t(0), sizeof(cl_int)}) {
    for (auto [a, b] : pairs()) {
      SCOPED_TRACE("host memory " + std::to_string(misalignment) + " bytes past a page, written on " + name(a) +
                   ", read on " + name(b));
      std::vector<cl_int> storage(kCount + 4096 / sizeof(cl_int) * 2);
      auto address = reinterpret_cast<uintptr_t>(storage.data());
      auto *host = reinterpret_cast<cl_int *>((address + 4095) / 4096 * 4096 + misalignment);
      std::vector<cl_int> expected = sequence(0);
      std::memcpy(host, expected.data(), kBytes);
      Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, kBytes, host);
      EXPECT_EQ(expected, read(b, mem)) << "initial contents";

      Event written = write(a, mem, sequence(-1, -1, kCount / 4), {}, kCount / 4);
      std::copy_n(sequence(-1, -1, kCount / 4).begin(), kCount / 4, expected.begin() + kCount / 4);
      Event last = std::move(written);
      if (runsKernels(a)) {
        last = add(a, mem, 5, last);
        for (cl_int &value : expected)
          value += 5;
      }
      EXPECT_EQ(expected, read(b, mem, last));
      // A map gives the application's own memory, holding the latest data.
      cl_int err = CL_SUCCESS;
      void *mapped = clEnqueueMapBuffer(queues_[b], mem, CL_TRUE, CL_MAP_READ, 0, kBytes, 1, last.ptr(), nullptr, &err);
      ASSERT_CL(err);
      EXPECT_EQ(static_cast<void *>(host), mapped);
      EXPECT_EQ(expected, std::vector<cl_int>(host, host + kCount));
      Event unmapped;
      ASSERT_CL(clEnqueueUnmapMemObject(queues_[b], mem, mapped, 0, nullptr, unmapped.out()));
      ASSERT_CL(clWaitForEvents(1, unmapped.ptr()));
    }
  }
}

TEST_P(MultiDeviceTest, CopyHostPtrContentsAreValidEverywhere) {
  std::vector<cl_int> initial = sequence(42);
  Mem mem = bufferHolding(initial);
  for (size_t d = 0; d < deviceCount(); ++d)
    EXPECT_EQ(initial, read(d, mem)) << name(d);
  const cl_int pattern = 9;
  Event filled;
  ASSERT_CL(clEnqueueFillBuffer(queues_[0], mem, &pattern, sizeof(pattern), kBytes / 2, kBytes / 2, 0, nullptr,
                                filled.out()));
  std::fill(initial.begin() + kCount / 2, initial.end(), pattern);
  for (size_t d = 1; d < deviceCount(); ++d)
    EXPECT_EQ(initial, read(d, mem, filled)) << name(d);
}

TEST_P(MultiDeviceTest, MigrateMemObjectsMovesTheContents) {
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("written on " + name(a) + ", migrated to " + name(b));
    Mem mem = buffer();
    Mem other = buffer();
    Event written = write(a, mem, sequence(5, 5));
    cl_mem objects[] = {mem, other};
    Event migrated;
    ASSERT_CL(clEnqueueMigrateMemObjects(queues_[b], 2, objects, 0, 1, written.ptr(), migrated.out()));
    ASSERT_CL(clWaitForEvents(1, migrated.ptr()));
    EXPECT_EQ(sequence(5, 5), read(b, mem));
    EXPECT_EQ(sequence(5, 5), read(a, mem));

    // Contents declared undefined are not copied; what is written after is
    // what every device sees.
    Event undefined;
    ASSERT_CL(clEnqueueMigrateMemObjects(queues_[a], 1, objects, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                         undefined.out()));
    Event rewritten = write(a, mem, sequence(-3), undefined);
    EXPECT_EQ(sequence(-3), read(b, mem, rewritten));

    // To the host: a hint that leaves the contents where they are.
    Event toHost;
    ASSERT_CL(clEnqueueMigrateMemObjects(queues_[a], 1, objects, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, toHost.out()));
    EXPECT_EQ(sequence(-3), read(b, mem, toHost));
  }
}

TEST_P(MultiDeviceTest, MigrateMemObjectsRejectsBadArguments) {
  Mem mem = buffer();
  cl_mem objects[] = {mem};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queues_[0], 0, objects, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queues_[0], 1, nullptr, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(queues_[0], 1, objects, 1 << 7, 0, nullptr, nullptr));
  cl_mem nullObject[] = {nullptr};
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(queues_[0], 1, nullObject, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueMigrateMemObjects(nullptr, 1, objects, 0, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMigrateMemObjects(queues_[0], 1, objects, 0, 1, nullptr, nullptr));

  cl_int err = CL_SUCCESS;
  Context single(clCreateContext(nullptr, 1, &devices_[0], nullptr, nullptr, &err));
  ASSERT_CL(err);
  Mem foreign(clCreateBuffer(single, CL_MEM_READ_WRITE, kBytes, nullptr, &err));
  ASSERT_CL(err);
  cl_mem foreignObjects[] = {foreign};
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, clEnqueueMigrateMemObjects(queues_[0], 1, foreignObjects, 0, 0, nullptr, nullptr));
}

/// Whether `event` completes within a second (it must not wait for a user
/// event that is still pending).
bool completesSoon(cl_event event) {
  return waitUntil([&] { return eventStatus(event) <= CL_COMPLETE; }, std::chrono::seconds(1)) &&
         eventStatus(event) == CL_COMPLETE;
}

TEST_P(MultiDeviceTest, ReadsLeaveTheContentsWhereTheyAre) {
  for (auto [a, b] : pairs()) {
    SCOPED_TRACE("written on " + name(a) + ", read on " + name(b));
    cl_int err = CL_SUCCESS;
    Queue secondQueueOnB(clCreateCommandQueueWithProperties(context_, devices_[b], nullptr, &err));
    ASSERT_CL(err);
    Mem mem = buffer();
    Mem target = buffer();
    ASSERT_CL(clEnqueueWriteBuffer(queues_[a], mem, CL_TRUE, 0, kBytes, sequence(0).data(), 0, nullptr, nullptr));

    // A copy out of `mem` on b, held back: it only reads `mem`.
    Event gate = userEvent();
    Event copied = copy(b, mem, target, gate);
    std::vector<cl_int> values(kCount);
    Event readOnA, readOnB;
    ASSERT_CL(clEnqueueReadBuffer(queues_[a], mem, CL_FALSE, 0, kBytes, values.data(), 0, nullptr, readOnA.out()));
    EXPECT_TRUE(completesSoon(readOnA)) << "a read on the writing device waited for a reader elsewhere";
    EXPECT_EQ(sequence(0), values);
    ASSERT_CL(clEnqueueReadBuffer(secondQueueOnB, mem, CL_FALSE, 0, kBytes, values.data(), 0, nullptr, readOnB.out()));
    EXPECT_TRUE(completesSoon(readOnB)) << "the copy already on b was not used";
    EXPECT_EQ(sequence(0), values);

    // Rewriting the first half on a, held back, leaves b's second half valid.
    Event secondGate = userEvent();
    Event rewritten = write(a, mem, sequence(-1, -1, kCount / 2), secondGate);
    std::vector<cl_int> secondHalf(kCount / 2);
    ASSERT_CL(clEnqueueReadBuffer(secondQueueOnB, mem, CL_FALSE, kBytes / 2, kBytes / 2, secondHalf.data(), 0, nullptr,
                                  readOnB.out()));
    EXPECT_TRUE(completesSoon(readOnB)) << "a range nobody rewrote waited for a rewrite of another range";
    EXPECT_EQ(sequence(kCount / 2, 1, kCount / 2), secondHalf);

    ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
    ASSERT_CL(clSetUserEventStatus(secondGate, CL_COMPLETE));
    EXPECT_EQ(sequence(0), read(a, target, copied));
    std::vector<cl_int> expected = sequence(0);
    std::copy_n(sequence(-1, -1, kCount / 2).begin(), kCount / 2, expected.begin());
    EXPECT_EQ(expected, read(b, mem, rewritten));
  }
}

TEST_P(MultiDeviceTest, ThreadsPingPongBuffersThroughSharedQueues) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 10;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Mem src = buffer();
      Mem dst = buffer();
      for (int round = 0; round < kRounds; ++round) {
        const size_t a = (t + round) % deviceCount();
        const size_t b = (a + 1) % deviceCount();
        std::vector<cl_int> values = sequence(t * 100000 + round * 1000);
        Event written = write(a, src, values);
        Event copied = copy(b, src, dst, written);
        if (read(a, dst, copied) != values)
          ++failures[t];
      }
    });
  }
  for (auto &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(0, failures[t]) << "thread " << t;
}

TEST_P(MultiDeviceTest, CommandBufferMigratesEveryEnqueue) {
  // A command buffer on one device whose buffers are written and read on
  // another: each enqueue brings its inputs over first, and its outputs are
  // read back from it.
  auto kernelPairs = pairsWithKernelsOnFirst();
  if (kernelPairs.empty())
    GTEST_SKIP() << kNoKernelPair;
  CommandBufferApi api;
  ASSERT_TRUE(api.load());
  for (auto [k, other] : kernelPairs) {
    SCOPED_TRACE("command buffer on " + name(k) + ", data on " + name(other));
    Mem in = buffer();
    Mem out = buffer();
    Mem copied = buffer();
    cl_int err = CL_SUCCESS;
    Kernel kernel(clCreateKernel(programs_[k], "scaled_copy", &err));
    ASSERT_CL(err);
    const cl_int factor = -3;
    ASSERT_CL(clSetKernelArg(kernel, 0, sizeof(cl_mem), in.ptr()));
    ASSERT_CL(clSetKernelArg(kernel, 1, sizeof(cl_mem), out.ptr()));
    ASSERT_CL(clSetKernelArg(kernel, 2, sizeof(cl_int), &factor));
    cl_command_queue queue = queues_[k];
    CommandBuffer commandBuffer(api, api.create(1, &queue, nullptr, &err));
    ASSERT_CL(err);
    cl_sync_point_khr scaled = 0;
    ASSERT_CL(api.ndrange(commandBuffer, nullptr, nullptr, kernel, 1, nullptr, &kCount, nullptr, 0, nullptr, &scaled,
                          nullptr));
    ASSERT_CL(api.copy(commandBuffer, nullptr, nullptr, out, copied, 0, 0, kBytes, 1, &scaled, nullptr, nullptr));
    ASSERT_CL(api.finalize(commandBuffer));
    for (cl_int round = 0; round < 3; ++round) {
      std::vector<cl_int> values = sequence(round * 100 - 50, round + 2);
      Event written = write(other, in, values);
      Event ran;
      ASSERT_CL(api.enqueue(0, nullptr, commandBuffer, 1, written.ptr(), ran.out()));
      for (auto &value : values)
        value *= factor;
      EXPECT_EQ(values, read(other, out, ran)) << "round " << round;
      EXPECT_EQ(values, read(other, copied, ran)) << "round " << round;
    }
  }
}

} // namespace
