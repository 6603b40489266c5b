// __local memory and barriers: tree reduction, Hillis-Steele and Blelloch
// scans, a multi-kernel prefix sum over many work-groups, a tiled matrix
// multiply, barriers in loops and branches, __local arguments (several at
// once, odd sizes, the largest allowed, invalid sizes), kernel-scope __local
// variables next to __local arguments, CL_KERNEL_LOCAL_MEM_SIZE, and 1D/2D/3D
// and non-uniform work-groups. Kernels are in test/kernels/local_memory.cl;
// every expected value is computed here on the host.
#include "cl_test.h"
#include "test_kernels.h"

#include <array>
#include <cstdint>
#include <numeric>

using namespace cltest;

namespace {

using Triple = std::array<size_t, 3>;

class LocalMemoryTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    program_ = build(kernels::local_memory);
    ASSERT_TRUE(program_);
  }

  // The largest power of two work-group size, at most `cap`, that `k` can
  // run with on this device.
  size_t powerOfTwoGroup(cl_kernel k, size_t cap) {
    size_t limit = 0;
    EXPECT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr));
    size_t size = 1;
    while (size * 2 <= std::min(limit, cap))
      size *= 2;
    return size;
  }
  size_t kernelWorkGroupSize(cl_kernel k) {
    size_t limit = 0;
    EXPECT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr));
    return limit;
  }
  cl_ulong kernelLocalMemSize(cl_kernel k) {
    cl_ulong size = 0;
    EXPECT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof(size), &size, nullptr));
    return size;
  }
  template <typename T> Mem input(const std::vector<T> &values, cl_mem_flags flags = CL_MEM_READ_ONLY) {
    return buffer(flags | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T), const_cast<T *>(values.data()));
  }
  cl_int run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local) {
    return clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, nullptr);
  }
  // OpenCL C 2.0 or later, for non-uniform work-groups.
  const char *modernStd() { return deviceSupportsOpenCLC(device(), 3, 0) ? "-cl-std=CL3.0" : "-cl-std=CL2.0"; }
  bool supportsNonUniform() {
    if (!deviceSupportsOpenCLC(device(), 2, 0) && !deviceSupportsOpenCLC(device(), 3, 0))
      return false;
    return deviceInfo<cl_bool>(device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) == CL_TRUE;
  }

  // Exclusive prefix sum of `data` in place on the device: Blelloch scan per
  // block of `block` elements, recursive scan of the block sums, then the
  // block offsets added back.
  void deviceExclusiveScan(cl_mem data, cl_uint n, size_t block) {
    Kernel scan = kernel(program_, "scan_blelloch");
    Kernel add = kernel(program_, "add_block_offsets");
    size_t groups = (n + block - 1) / block;
    size_t global = groups * block;
    Mem sums = groups > 1 ? buffer(CL_MEM_READ_WRITE, groups * sizeof(cl_uint)) : Mem();
    setArgs(scan, data, n, sums.get());
    ASSERT_CL(clSetKernelArg(scan, 3, block * sizeof(cl_uint), nullptr));
    ASSERT_CL(run(scan, 1, &global, &block));
    if (groups == 1)
      return;
    deviceExclusiveScan(sums, static_cast<cl_uint>(groups), block);
    setArgs(add, data, n, sums.get());
    ASSERT_CL(run(add, 1, &global, &block));
  }

  Program program_;
};

std::vector<cl_uint> pseudoRandom(size_t n, cl_uint seed, cl_uint modulus) {
  std::vector<cl_uint> values(n);
  cl_uint state = seed;
  for (auto &v : values) {
    state = state * 1664525u + 1013904223u;
    v = (state >> 8) % modulus;
  }
  return values;
}

} // namespace

TEST_P(LocalMemoryTest, TreeReduction) {
  Kernel k = kernel(program_, "reduce_sum");
  const size_t maxGroup = kernelWorkGroupSize(k);
  // Powers of two and sizes that are not, with a partial last group.
  for (size_t local : {size_t(1), size_t(7), size_t(64), size_t(100), size_t(256), maxGroup}) {
    local = std::min(local, maxGroup);
    const cl_uint n = static_cast<cl_uint>(local * 37 + local / 2 + 1);
    SCOPED_TRACE(testing::Message() << "local size " << local << ", n " << n);
    auto values = pseudoRandom(n, static_cast<cl_uint>(local), 1u << 20);
    size_t groups = (n + local - 1) / local, global = groups * local;
    Mem in = input(values), sums = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(cl_uint));
    setArgs(k, in.get(), n, sums.get());
    ASSERT_CL(clSetKernelArg(k, 3, local * sizeof(cl_uint), nullptr));
    ASSERT_CL(run(k, 1, &global, &local));
    auto result = read<cl_uint>(sums, groups);
    for (size_t g = 0; g < groups; ++g) {
      cl_uint expected = 0;
      for (size_t i = g * local; i < std::min<size_t>(n, (g + 1) * local); ++i)
        expected += values[i];
      ASSERT_EQ(result[g], expected) << "group " << g;
    }
  }
}

TEST_P(LocalMemoryTest, HillisSteeleScan) {
  Kernel k = kernel(program_, "scan_hillis_steele");
  const size_t maxGroup = kernelWorkGroupSize(k);
  for (size_t local : {size_t(1), size_t(13), size_t(128), size_t(200), maxGroup}) {
    local = std::min(local, maxGroup);
    SCOPED_TRACE(testing::Message() << "local size " << local);
    const size_t groups = 9, n = groups * local;
    auto values = pseudoRandom(n, 99, 1000);
    Mem in = input(values), inclusive = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint)),
        exclusive = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
    setArgs(k, in.get(), inclusive.get(), exclusive.get());
    ASSERT_CL(clSetKernelArg(k, 3, local * sizeof(cl_uint), nullptr));
    ASSERT_CL(clSetKernelArg(k, 4, local * sizeof(cl_uint), nullptr));
    ASSERT_CL(run(k, 1, &n, &local));
    auto inc = read<cl_uint>(inclusive, n), exc = read<cl_uint>(exclusive, n);
    for (size_t g = 0; g < groups; ++g) {
      cl_uint running = 0;
      for (size_t i = g * local; i < (g + 1) * local; ++i) {
        ASSERT_EQ(exc[i], running) << "exclusive, element " << i;
        running += values[i];
        ASSERT_EQ(inc[i], running) << "inclusive, element " << i;
      }
    }
  }
}

TEST_P(LocalMemoryTest, BlellochScanOneGroup) {
  Kernel k = kernel(program_, "scan_blelloch");
  const size_t block = powerOfTwoGroup(k, 1024);
  // n below, at and (for the bounds check) not a multiple of the block.
  for (cl_uint n : {cl_uint(1), cl_uint(std::min(block, block / 2 + 3)), cl_uint(block)}) {
    SCOPED_TRACE(testing::Message() << "block " << block << ", n " << n);
    auto values = pseudoRandom(n, n, 5000);
    Mem data = input(values, CL_MEM_READ_WRITE);
    Mem total = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint));
    setArgs(k, data.get(), n, total.get());
    ASSERT_CL(clSetKernelArg(k, 3, block * sizeof(cl_uint), nullptr));
    ASSERT_CL(run(k, 1, &block, &block));
    auto result = read<cl_uint>(data, n);
    cl_uint running = 0;
    for (cl_uint i = 0; i < n; ++i) {
      ASSERT_EQ(result[i], running) << i;
      running += values[i];
    }
    EXPECT_EQ(read<cl_uint>(total, 1)[0], running);
  }
}

TEST_P(LocalMemoryTest, PrefixSumAcrossWorkGroups) {
  Kernel probe = kernel(program_, "scan_blelloch");
  const size_t block = powerOfTwoGroup(probe, 256);
  // Large, and not a multiple of the block: several levels of block sums.
  for (cl_uint n : {cl_uint(block * block + 17), cl_uint(3000001)}) {
    SCOPED_TRACE(testing::Message() << "block " << block << ", n " << n);
    auto values = pseudoRandom(n, 12345, 1u << 16);
    Mem data = input(values, CL_MEM_READ_WRITE);
    deviceExclusiveScan(data, n, block);
    ASSERT_FALSE(HasFatalFailure());
    auto result = read<cl_uint>(data, n);
    cl_uint running = 0;
    for (cl_uint i = 0; i < n; ++i) {
      ASSERT_EQ(result[i], running) << "element " << i;
      running += values[i];
    }
  }
}

TEST_P(LocalMemoryTest, TiledMatrixMultiply) {
  // 16x16 tiles when the device runs 256 work-items per group, else 8x8.
  Kernel probe = kernel(program_, "matmul_tiled");
  const size_t tile = kernelWorkGroupSize(probe) >= 256 ? 16 : 8;
  Program program = build(kernels::local_memory, tile == 16 ? "-DTILE=16" : "-DTILE=8");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "matmul_tiled");
  const std::array<int, 3> shapes[] = {{16, 16, 16}, {1, 1, 1}, {33, 17, 45}, {100, 64, 7}, {5, 130, 64}, {64, 3, 129}};
  for (const auto &[m, n, depth] : shapes) {
    SCOPED_TRACE(testing::Message() << "m " << m << " n " << n << " k " << depth);
    // Small integers: every partial sum is exact in float, in any order.
    std::vector<float> a(size_t(m) * depth), b(size_t(depth) * n);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = static_cast<float>(static_cast<int>(i * 7 % 9) - 4);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = static_cast<float>(static_cast<int>(i * 5 % 7) - 3);
    Mem ma = input(a), mb = input(b), mc = buffer(CL_MEM_WRITE_ONLY, size_t(m) * n * sizeof(float));
    setArgs(k, ma.get(), mb.get(), mc.get(), m, n, depth);
    size_t global[2] = {(size_t(n) + tile - 1) / tile * tile, (size_t(m) + tile - 1) / tile * tile};
    size_t local[2] = {tile, tile};
    ASSERT_CL(run(k, 2, global, local));
    auto c = read<float>(mc, size_t(m) * n);
    for (int row = 0; row < m; ++row)
      for (int col = 0; col < n; ++col) {
        float expected = 0.0f;
        for (int i = 0; i < depth; ++i)
          expected += a[size_t(row) * depth + i] * b[size_t(i) * n + col];
        ASSERT_EQ(c[size_t(row) * n + col], expected) << "C[" << row << "][" << col << "]";
      }
  }
}

TEST_P(LocalMemoryTest, BarriersInLoopsAndBranches) {
  Kernel k = kernel(program_, "rotate_rounds");
  const size_t maxGroup = kernelWorkGroupSize(k);
  for (size_t local : {size_t(1), size_t(5), size_t(64), maxGroup}) {
    local = std::min(local, maxGroup);
    for (auto [rounds, inner] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{7, 3}, std::pair{20, 1}}) {
      SCOPED_TRACE(testing::Message() << "local " << local << " rounds " << rounds << " inner " << inner);
      const size_t groups = 4, n = groups * local;
      auto values = pseudoRandom(n, static_cast<cl_uint>(local + rounds), 1u << 30);
      Mem data = input(values, CL_MEM_READ_WRITE);
      setArgs(k, data.get(), rounds, inner);
      ASSERT_CL(clSetKernelArg(k, 3, local * sizeof(cl_uint), nullptr));
      ASSERT_CL(run(k, 1, &n, &local));
      auto result = read<cl_uint>(data, n);
      for (size_t g = 0; g < groups; ++g) {
        std::vector<cl_uint> v(values.begin() + g * local, values.begin() + (g + 1) * local);
        for (int r = 0; r < rounds; ++r) {
          std::vector<cl_uint> next(local);
          for (size_t i = 0; i < local; ++i)
            next[i] = v[(i + 1) % local] + static_cast<cl_uint>(r);
          for (int j = 0; j < inner; ++j)
            for (cl_uint &x : next)
              x += static_cast<cl_uint>(j);
          v = next;
        }
        if (g % 2) {
          std::vector<cl_uint> mirrored(local);
          for (size_t i = 0; i < local; ++i)
            mirrored[i] = v[local - 1 - i] * 2u;
          v = mirrored;
        }
        for (size_t i = 0; i < local; ++i)
          ASSERT_EQ(result[g * local + i], v[i]) << "group " << g << " item " << i;
      }
    }
  }
}

TEST_P(LocalMemoryTest, SeveralLocalArgumentsOfOddSizes) {
  Kernel k = kernel(program_, "local_regions");
  const size_t maxGroup = kernelWorkGroupSize(k);
  struct Case {
    size_t local;
    cl_uint oddSize;
    cl_uint words;
  };
  for (Case c : {Case{1, 1, 1}, Case{3, 13, 5}, Case{32, 333, 77}, Case{64, 4093, 1000}, Case{17, 1, 3}}) {
    c.local = std::min(c.local, maxGroup);
    SCOPED_TRACE(testing::Message() << "local " << c.local << " odd " << c.oddSize << " words " << c.words);
    const size_t groups = 5, n = groups * c.local;
    Mem out = buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
    ASSERT_CL(clSetKernelArg(k, 0, 1, nullptr));
    ASSERT_CL(clSetKernelArg(k, 1, c.oddSize, nullptr));
    ASSERT_CL(setArg(k, 2, c.oddSize));
    ASSERT_CL(clSetKernelArg(k, 3, c.words * sizeof(cl_uint), nullptr));
    ASSERT_CL(setArg(k, 4, c.words));
    ASSERT_CL(setArg(k, 5, out.get()));
    ASSERT_CL(run(k, 1, &n, &c.local));
    EXPECT_EQ(read<cl_uint>(out, n), std::vector<cl_uint>(n, 0)) << "bytes found wrong per work-item";
  }
}

TEST_P(LocalMemoryTest, LargestLocalArgument) {
  Kernel k = kernel(program_, "fill_local");
  const cl_ulong deviceLocal = deviceInfo<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE);
  ASSERT_GT(deviceLocal, 0u);
  const cl_ulong own = kernelLocalMemSize(k); // no argument size set yet: counts as 0
  ASSERT_LE(own, deviceLocal);
  const cl_ulong largest = deviceLocal - own;
  const size_t local = std::min<size_t>(64, kernelWorkGroupSize(k)), groups = 3, n = local * groups;
  Mem out = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(cl_ulong));
  ASSERT_CL(clSetKernelArg(k, 0, largest, nullptr));
  ASSERT_CL(setArg(k, 1, largest));
  ASSERT_CL(setArg(k, 2, out.get()));
  EXPECT_EQ(kernelLocalMemSize(k), deviceLocal);
  ASSERT_CL(run(k, 1, &n, &local));
  cl_ulong expected = 0;
  for (cl_ulong i = 0; i < largest; ++i)
    expected += static_cast<cl_uchar>(i * 31 + 7) * (i % 13 + 1);
  EXPECT_EQ(read<cl_ulong>(out, groups), std::vector<cl_ulong>(groups, expected));
}

TEST_P(LocalMemoryTest, InvalidLocalArgumentSizes) {
  Kernel k = kernel(program_, "fill_local");
  const cl_ulong deviceLocal = deviceInfo<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE);
  Mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_ulong));
  // Zero bytes: CL_INVALID_ARG_SIZE (clSetKernelArg).
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 0, nullptr));
  // A value for a __local argument: CL_INVALID_ARG_VALUE.
  cl_int value = 0;
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(value), &value));
  // One byte more than the device has: refused by clSetKernelArg (a size
  // restriction) or, as the spec names for clEnqueueNDRangeKernel, with
  // CL_OUT_OF_RESOURCES when the kernel is enqueued.
  const size_t one = 1;
  ASSERT_CL(setArg(k, 1, cl_ulong(1)));
  ASSERT_CL(setArg(k, 2, out.get()));
  cl_int err = clSetKernelArg(k, 0, deviceLocal + 1, nullptr);
  if (err == CL_SUCCESS)
    EXPECT_CL_ERR(CL_OUT_OF_RESOURCES, run(k, 1, &one, &one));
  else
    EXPECT_TRUE(err == CL_INVALID_ARG_SIZE || err == CL_MAX_SIZE_RESTRICTION_EXCEEDED) << errorName(err);
  // Two arguments that fit one by one but not together.
  Kernel regions = kernel(program_, "local_regions");
  const size_t half = deviceLocal / 2 + 16;
  ASSERT_CL(clSetKernelArg(regions, 0, 1, nullptr));
  ASSERT_CL(clSetKernelArg(regions, 1, half, nullptr));
  ASSERT_CL(setArg(regions, 2, cl_uint(1)));
  ASSERT_CL(clSetKernelArg(regions, 3, half, nullptr));
  ASSERT_CL(setArg(regions, 4, cl_uint(1)));
  Mem counts = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint));
  ASSERT_CL(setArg(regions, 5, counts.get()));
  EXPECT_CL_ERR(CL_OUT_OF_RESOURCES, run(regions, 1, &one, &one));
  // The kernel runs once the sizes fit again.
  ASSERT_CL(clSetKernelArg(regions, 3, 16, nullptr));
  ASSERT_CL(run(regions, 1, &one, &one));
  EXPECT_EQ(read<cl_uint>(counts, 1)[0], 0u);
}

TEST_P(LocalMemoryTest, KernelScopeLocalsWithLocalArgument) {
  Kernel k = kernel(program_, "mixed_locals");
  const size_t maxGroup = kernelWorkGroupSize(k);
  for (size_t local : {size_t(7), size_t(16), size_t(100), maxGroup}) {
    local = std::min(local, maxGroup);
    if (local < 7)
      GTEST_SKIP() << "mixed_locals needs 7 work-items per group";
    SCOPED_TRACE(testing::Message() << "local " << local);
    const size_t groups = 6, n = groups * local;
    Mem out = buffer(CL_MEM_WRITE_ONLY, 8 * groups * sizeof(cl_long));
    ASSERT_CL(clSetKernelArg(k, 0, local * sizeof(cl_int), nullptr));
    ASSERT_CL(setArg(k, 1, out.get()));
    ASSERT_CL(run(k, 1, &n, &local));
    auto r = read<cl_long>(out, 8 * groups);
    for (size_t gi = 0; gi < groups; ++gi) {
      const cl_long g = static_cast<cl_long>(gi), l = static_cast<cl_long>(local);
      const cl_long *o = &r[8 * gi];
      EXPECT_EQ(o[0], (1 + g) + (2 + g) * 100 + (3 + g) * 10000) << "chars, group " << g;
      EXPECT_EQ(o[1], ((0ll + 1 + 2 + 3 + 4) << 40) + 5 * g) << "longs, group " << g;
      // sum over 0..6 of lid, lid + 0.5 and -lid: 21, 24.5, -21.
      EXPECT_EQ(o[2], 42 + 49 * 1000 + 21 * 1000000) << "float4s, group " << g;
      EXPECT_EQ(o[3], g + (1000 + g) * 10 + (-1) * 100 + (-2) * 1000) << "structs, group " << g;
      EXPECT_EQ(o[4], 60000 + g) << "ushort, group " << g;
      EXPECT_EQ(o[5], 3 * l * (l - 1) / 2 + l * g) << "__local argument, group " << g;
      EXPECT_EQ(o[6], 0) << "alignment of float4 (x1), long (x100) and int (x10000) __local data";
      EXPECT_EQ(o[7], 7 * g) << "float4 w, group " << g;
    }
  }
}

TEST_P(LocalMemoryTest, KernelLocalMemSize) {
  const cl_ulong deviceLocal = deviceInfo<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE);
  // The full profile's minimum for devices other than CL_DEVICE_TYPE_CUSTOM.
  if (!(deviceInfo<cl_device_type>(device(), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CUSTOM))
    EXPECT_GE(deviceLocal, 32u * 1024);
  EXPECT_EQ(deviceInfo<cl_device_local_mem_type>(device(), CL_DEVICE_LOCAL_MEM_TYPE) == CL_NONE, deviceLocal == 0);

  Kernel staticOnly = kernel(program_, "static_only");
  const cl_ulong table = kernelLocalMemSize(staticOnly);
  EXPECT_GE(table, 100 * sizeof(cl_int)) << "local int table[100]";
  EXPECT_LE(table, deviceLocal);

  Kernel mixed = kernel(program_, "mixed_locals");
  const cl_ulong declared = 3 + 5 * 8 + 7 * 16 + 2 * 8 + 2; // chars, longs, float4s, pairs, ushort
  const cl_ulong before = kernelLocalMemSize(mixed);
  EXPECT_GE(before, declared) << "kernel-scope __local variables";
  EXPECT_LE(before, deviceLocal);
  // Each __local argument size adds to it (alignment may pad a little).
  for (size_t bytes : {size_t(4), size_t(1000), size_t(4096)}) {
    ASSERT_CL(clSetKernelArg(mixed, 0, bytes, nullptr));
    const cl_ulong after = kernelLocalMemSize(mixed);
    EXPECT_GE(after, before + bytes) << bytes << "-byte __local argument";
    EXPECT_LE(after, before + bytes + 128) << bytes << "-byte __local argument";
  }
  // A kernel without __local memory of its own reports exactly its arguments.
  Kernel regions = kernel(program_, "local_regions");
  const cl_ulong none = kernelLocalMemSize(regions);
  ASSERT_CL(clSetKernelArg(regions, 0, 1, nullptr));
  ASSERT_CL(clSetKernelArg(regions, 1, 13, nullptr));
  ASSERT_CL(clSetKernelArg(regions, 3, 400, nullptr));
  EXPECT_GE(kernelLocalMemSize(regions), none + 1 + 13 + 400);
}

TEST_P(LocalMemoryTest, PointersFromIntegers) {
  constexpr size_t kGroup = 64, kGroups = 4;
  std::vector<cl_int> in(kGroup * kGroups);
  std::iota(in.begin(), in.end(), 1000);
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * sizeof(cl_int), in.data());
  Mem output = buffer(CL_MEM_WRITE_ONLY, in.size() * sizeof(cl_int));
  Kernel k = kernel(program_, "pointers_from_integers");
  setArgs(k, output.get(), input.get());
  size_t global = in.size(), local = kGroup;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_int> out = read<cl_int>(output, in.size());
  for (size_t group = 0; group < kGroups; ++group)
    for (size_t lid = 0; lid < kGroup; ++lid) {
      // Slot lid was written by the work-item whose lid * 5 % 64 is lid
      // (5 * 13 = 65).
      const size_t writer = lid * 13 % kGroup;
      const cl_int expected = in[group * kGroup + writer] + cl_int(lid * 10 + lid % 8);
      ASSERT_EQ(out[group * kGroup + lid], expected) << "group " << group << ", work-item " << lid;
    }
}

TEST_P(LocalMemoryTest, WorkGroupsIn1D2D3D) {
  struct Case {
    cl_uint dims;
    Triple global, local;
    bool nonUniform;
  };
  const Case cases[] = {
      {1, {256, 1, 1}, {32, 1, 1}, false}, {2, {32, 24, 1}, {8, 4, 1}, false}, {3, {8, 12, 6}, {4, 2, 3}, false},
      {2, {16, 16, 1}, {16, 1, 1}, false}, {3, {4, 4, 4}, {1, 1, 4}, false},   {1, {250, 1, 1}, {32, 1, 1}, true},
      {2, {30, 17, 1}, {8, 4, 1}, true},   {3, {9, 13, 7}, {4, 2, 3}, true},   {3, {5, 5, 5}, {2, 2, 2}, true},
  };
  Program modern = supportsNonUniform() ? build(kernels::local_memory, modernStd()) : Program();
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << c.dims << "D global " << c.global[0] << "x" << c.global[1] << "x" << c.global[2]
                                    << " local " << c.local[0] << "x" << c.local[1] << "x" << c.local[2]);
    if (c.nonUniform && !modern)
      continue; // the device has no non-uniform work-groups
    Kernel k = kernel(c.nonUniform ? modern.get() : program_.get(), "exchange_nd");
    if (c.local[0] * c.local[1] * c.local[2] > kernelWorkGroupSize(k))
      continue;
    const size_t count = c.global[0] * c.global[1] * c.global[2];
    Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(cl_uint));
    ASSERT_CL(setArg(k, 0, out.get()));
    ASSERT_CL(clSetKernelArg(k, 1, c.local[0] * c.local[1] * c.local[2] * sizeof(cl_uint), nullptr));
    ASSERT_CL(run(k, c.dims, c.global.data(), c.local.data()));
    auto result = read<cl_uint>(out, count);
    for (size_t z = 0; z < c.global[2]; ++z)
      for (size_t y = 0; y < c.global[1]; ++y)
        for (size_t x = 0; x < c.global[0]; ++x) {
          const Triple pos = {x, y, z};
          Triple groupBase{}, groupSize{}, lid{};
          for (int d = 0; d < 3; ++d) {
            groupBase[d] = pos[d] / c.local[d] * c.local[d];
            groupSize[d] = std::min(c.local[d], c.global[d] - groupBase[d]);
            lid[d] = pos[d] - groupBase[d];
          }
          const size_t size = groupSize[0] * groupSize[1] * groupSize[2];
          auto globalLinearOf = [&](size_t linear) {
            Triple l = {linear % groupSize[0], linear / groupSize[0] % groupSize[1],
                        linear / (groupSize[0] * groupSize[1])};
            size_t gx = groupBase[0] + l[0], gy = groupBase[1] + l[1], gz = groupBase[2] + l[2];
            return gx + c.global[0] * (gy + c.global[1] * gz);
          };
          const size_t lin = lid[0] + groupSize[0] * (lid[1] + groupSize[1] * lid[2]);
          auto valueOf = [](size_t gid) { return static_cast<cl_uint>(gid * 3 + 1); };
          const cl_uint expected = valueOf(globalLinearOf((lin + 1) % size)) * 2u +
                                   valueOf(globalLinearOf(size - 1 - lin)) + static_cast<cl_uint>(size << 24);
          const size_t gid = x + c.global[0] * (y + c.global[1] * z);
          ASSERT_EQ(result[gid], expected) << "work-item " << x << "," << y << "," << z;
        }
  }
}

CLTEST_INSTANTIATE(LocalMemoryTest);
