// NDRange geometry: every work-item builtin in 1, 2 and 3 dimensions, global
// offsets, non-uniform work-groups, NULL local sizes, required work-group
// sizes, and enqueue errors. A kernel records each builtin for each
// work-item and the host recomputes them.
#include "cl_test.h"
#include "test_kernels.h"

#include <array>

using namespace cltest;

namespace {

constexpr size_t kFields = 25; // see work_item.cl

using Triple = std::array<size_t, 3>;

struct Range {
  cl_uint dims;
  Triple global;
  Triple local; // {0,0,0}: pass NULL
  Triple offset;
  size_t count() const { return global[0] * global[1] * global[2]; }
};

class WorkItemTest : public DeviceTest {
protected:
  // Records the builtins for `range`; returns the enqueue error code.
  cl_int record(cl_program program, const Range &range, std::vector<cl_uint> &out) {
    Kernel k = kernel(program, "record_ids");
    if (!k)
      return CL_INVALID_KERNEL;
    out.assign(range.count() * kFields, 0xdeadbeef);
    Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out.size() * sizeof(cl_uint), out.data());
    cl_mem m = mem;
    EXPECT_CL(setArg(k, 0, m));
    bool nullLocal = range.local[0] == 0;
    cl_int err = clEnqueueNDRangeKernel(queue_, k, range.dims, range.offset.data(), range.global.data(),
                                        nullLocal ? nullptr : range.local.data(), 0, nullptr, nullptr);
    if (err == CL_SUCCESS)
      out = read<cl_uint>(mem, out.size());
    return err;
  }

  // Checks the recorded builtins of every work-item against `range`. With a
  // NULL local size the implementation's choice is checked for consistency.
  void check(const Range &range, const std::vector<cl_uint> &out) {
    Triple local = range.local;
    if (local[0] == 0) {
      // Learn the chosen (enqueued) size from the first work-item.
      for (unsigned d = 0; d < 3; ++d)
        local[d] = out[1 + d * 8 + 7];
      for (unsigned d = 0; d < range.dims; ++d) {
        ASSERT_GE(local[d], 1u);
        ASSERT_LE(local[d], range.global[d]);
      }
    }
    for (unsigned d = range.dims; d < 3; ++d) {
      ASSERT_EQ(range.global[d], 1u);
      local[d] = 1;
    }
    for (size_t z = 0; z < range.global[2]; ++z)
      for (size_t y = 0; y < range.global[1]; ++y)
        for (size_t x = 0; x < range.global[0]; ++x) {
          Triple pos = {x, y, z};
          const cl_uint *o = &out[((z * range.global[1] + y) * range.global[0] + x) * kFields];
          ASSERT_EQ(o[0], range.dims) << "get_work_dim at " << x << "," << y << "," << z;
          for (unsigned d = 0; d < 3; ++d) {
            const cl_uint *f = o + 1 + d * 8;
            size_t groups = (range.global[d] + local[d] - 1) / local[d];
            size_t group = pos[d] / local[d];
            size_t thisLocal =
                group == groups - 1 && range.global[d] % local[d] ? range.global[d] % local[d] : local[d];
            bool used = d < range.dims;
            size_t offset = used ? range.offset[d] : 0;
            SCOPED_TRACE(testing::Message() << "work-item " << x << "," << y << "," << z << " dimension " << d);
            ASSERT_EQ(f[0], pos[d] + offset) << "get_global_id";
            ASSERT_EQ(f[1], pos[d] % local[d]) << "get_local_id";
            ASSERT_EQ(f[2], group) << "get_group_id";
            ASSERT_EQ(f[3], range.global[d]) << "get_global_size";
            ASSERT_EQ(f[4], thisLocal) << "get_local_size";
            ASSERT_EQ(f[5], groups) << "get_num_groups";
            ASSERT_EQ(f[6], offset) << "get_global_offset";
            ASSERT_EQ(f[7], local[d]) << "get_enqueued_local_size";
          }
        }
  }

  // OpenCL C 2.0+ is needed for get_enqueued_local_size and non-uniform
  // work-groups.
  const char *modernStd() { return deviceSupportsOpenCLC(device(), 3, 0) ? "-cl-std=CL3.0" : "-cl-std=CL2.0"; }
};

} // namespace

TEST_P(WorkItemTest, UniformRanges) {
  Program program = build(kernels::work_item, modernStd());
  ASSERT_TRUE(program);
  const Range ranges[] = {
      {1, {64, 1, 1}, {16, 1, 1}, {0, 0, 0}},   {1, {60, 1, 1}, {60, 1, 1}, {0, 0, 0}},
      {1, {48, 1, 1}, {8, 1, 1}, {1000, 0, 0}}, {2, {16, 12, 1}, {4, 3, 1}, {0, 0, 0}},
      {2, {8, 10, 1}, {8, 2, 1}, {5, 17, 0}},   {3, {8, 6, 4}, {2, 3, 2}, {0, 0, 0}},
      {3, {4, 4, 6}, {4, 2, 3}, {1, 2, 3}},     {3, {6, 1, 5}, {1, 1, 5}, {0, 9, 0}},
  };
  for (const Range &range : ranges) {
    SCOPED_TRACE(testing::Message() << "dims " << range.dims << " global " << range.global[0] << "x" << range.global[1]
                                    << "x" << range.global[2] << " local " << range.local[0] << "x" << range.local[1]
                                    << "x" << range.local[2] << " offset " << range.offset[0] << "," << range.offset[1]
                                    << "," << range.offset[2]);
    std::vector<cl_uint> out;
    ASSERT_CL(record(program, range, out));
    ASSERT_NO_FATAL_FAILURE(check(range, out));
  }
}

TEST_P(WorkItemTest, OpenCLC12BuildWithUniformRange) {
  Program program = build(kernels::work_item, "-cl-std=CL1.2");
  ASSERT_TRUE(program);
  Range range{2, {12, 8, 1}, {4, 4, 1}, {3, 0, 0}};
  std::vector<cl_uint> out;
  ASSERT_CL(record(program, range, out));
  check(range, out);
}

TEST_P(WorkItemTest, NullLocalSize) {
  Program program = build(kernels::work_item, modernStd());
  ASSERT_TRUE(program);
  const Range ranges[] = {
      {1, {1000, 1, 1}, {0, 0, 0}, {0, 0, 0}},
      {2, {30, 20, 1}, {0, 0, 0}, {7, 0, 0}},
      {3, {7, 5, 3}, {0, 0, 0}, {0, 0, 2}},
  };
  for (const Range &range : ranges) {
    SCOPED_TRACE(range.dims);
    std::vector<cl_uint> out;
    ASSERT_CL(record(program, range, out));
    ASSERT_NO_FATAL_FAILURE(check(range, out));
  }
}

// Polymux's own choice, not the specification's: a CPU device runs each
// work-group as a loop on one thread, so a NULL local size gets groups of up
// to 1024 work-items while every compute unit still gets 4 groups; other
// devices aim at 256.
TEST_P(WorkItemTest, NullLocalSizeOnACpuAmortisesGroups) {
  if (deviceInfo<cl_device_type>(device(), CL_DEVICE_TYPE) != CL_DEVICE_TYPE_CPU)
    GTEST_SKIP() << "the larger groups are for CPU devices";
  Program program = build(R"(
__kernel void local_size(__global uint *out) {
  if (get_global_id(0) == 0)
    out[0] = (uint)get_local_size(0);
})");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "local_size");
  size_t kernelMax = 0;
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernelMax), &kernelMax, nullptr));
  const size_t units = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  // Powers of two times the groups wanted: each size divides them evenly.
  for (size_t target : {1024u, 512u, 256u}) {
    const size_t global = target * 4 * units;
    SCOPED_TRACE(global);
    Mem out = buffer(CL_MEM_READ_WRITE, sizeof(cl_uint));
    cl_mem m = out;
    ASSERT_CL(setArg(k, 0, m));
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    EXPECT_EQ(read<cl_uint>(out, 1)[0], std::min(target, kernelMax));
  }
}

TEST_P(WorkItemTest, NonUniformWorkGroups) {
  bool supported = deviceInfo<cl_bool>(device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
  Program modern = build(kernels::work_item, modernStd());
  ASSERT_TRUE(modern);
  const Range ranges[] = {
      {1, {70, 1, 1}, {16, 1, 1}, {0, 0, 0}},
      {2, {10, 7, 1}, {4, 3, 1}, {2, 1, 0}},
      {3, {5, 6, 7}, {2, 4, 3}, {0, 0, 0}},
  };
  for (const Range &range : ranges) {
    SCOPED_TRACE(range.dims);
    std::vector<cl_uint> out;
    cl_int err = record(modern, range, out);
    if (!supported) {
      EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, err);
      continue;
    }
    ASSERT_CL(err);
    ASSERT_NO_FATAL_FAILURE(check(range, out));
  }
  // OpenCL C 1.2 programs, and -cl-uniform-work-group-size, need uniform
  // work-groups.
  Program legacy = build(kernels::work_item, "-cl-std=CL1.2");
  ASSERT_TRUE(legacy);
  std::vector<cl_uint> out;
  EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, record(legacy, ranges[1], out));
  std::string uniformOptions = std::string(modernStd()) + " -cl-uniform-work-group-size";
  Program uniform = build(kernels::work_item, uniformOptions.c_str());
  ASSERT_TRUE(uniform);
  EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, record(uniform, ranges[1], out));
}

TEST_P(WorkItemTest, RequiredWorkGroupSize) {
  Program program = build(kernels::work_item);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "fixed_group");
  const size_t global[2] = {8, 4};
  Mem out = buffer(CL_MEM_READ_WRITE, 2 * 32 * sizeof(cl_uint));
  ASSERT_CL(setArg(k, 0, out.get()));
  // With an explicit matching local size the kernel sees it.
  const size_t right[2] = {4, 2};
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, right, 0, nullptr, nullptr));
  auto sizes = read<cl_uint>(out, 64);
  for (size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(sizes[2 * i], 4u) << i;
    EXPECT_EQ(sizes[2 * i + 1], 2u) << i;
  }
  // A NULL local size either uses the required size or, as OpenCL 1.x
  // specified, is rejected.
  std::vector<cl_uint> zeros(64, 0);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, 64 * sizeof(cl_uint), zeros.data(), 0, nullptr, nullptr));
  cl_int err = clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr);
  if (err == CL_SUCCESS) {
    EXPECT_EQ(read<cl_uint>(out, 64), sizes);
  } else {
    EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, err);
  }
  const size_t wrong[2] = {2, 2};
  EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE,
                clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, wrong, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_P(WorkItemTest, EmptyRangesRunNothingAndComplete) {
  // OpenCL 2.1 on: a NULL global size or a zero in any dimension enqueues a
  // kernel command that runs no work-item and completes like a marker.
  Program program = build(kernels::work_item);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "record_ids");
  const size_t bytes = 64 * kFields * sizeof(cl_uint);
  std::vector<cl_uint> initial(bytes / sizeof(cl_uint), 0xabcdu);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, initial.data());
  ASSERT_CL(setArg(k, 0, out.get()));
  const size_t zeroX[3] = {0, 4, 4}, zeroZ[3] = {4, 4, 0};
  for (cl_uint dims = 1; dims <= 3; ++dims) {
    Event event;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, dims, nullptr, nullptr, nullptr, 0, nullptr, event.out()))
        << dims << " dimensions, NULL global size";
    ASSERT_CL(clWaitForEvents(1, event.ptr()));
    cl_command_type type = 0;
    ASSERT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
    EXPECT_EQ(type, cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  }
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 3, nullptr, zeroX, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 3, nullptr, zeroZ, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_uint>(out, initial.size()), initial) << "an empty range wrote results";
}

TEST_P(WorkItemTest, EnqueueErrors) {
  Program program = build(kernels::work_item);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "record_ids");
  Mem out = buffer(CL_MEM_READ_WRITE, 4096 * kFields * sizeof(cl_uint));
  ASSERT_CL(setArg(k, 0, out.get()));
  size_t global[3] = {16, 16, 16};
  EXPECT_CL_ERR(CL_INVALID_WORK_DIMENSION,
                clEnqueueNDRangeKernel(queue_, k, 0, nullptr, global, nullptr, 0, nullptr, nullptr));
  cl_uint maxDims = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> many(maxDims + 1, 1);
  EXPECT_CL_ERR(CL_INVALID_WORK_DIMENSION,
                clEnqueueNDRangeKernel(queue_, k, maxDims + 1, nullptr, many.data(), nullptr, 0, nullptr, nullptr));
  size_t maxGroup = deviceInfo<size_t>(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t tooBig[1] = {maxGroup * 2};
  size_t bigGlobal[1] = {maxGroup * 2};
  EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE,
                clEnqueueNDRangeKernel(queue_, k, 1, nullptr, bigGlobal, tooBig, 0, nullptr, nullptr));
  auto itemSizes = deviceArray<size_t>(device(), CL_DEVICE_MAX_WORK_ITEM_SIZES);
  for (unsigned d = 0; d < 3; ++d) {
    if (itemSizes[d] >= maxGroup)
      continue;
    size_t local[3] = {1, 1, 1}, g[3] = {1, 1, 1};
    local[d] = g[d] = itemSizes[d] + 1;
    EXPECT_CL_ERR(CL_INVALID_WORK_ITEM_SIZE,
                  clEnqueueNDRangeKernel(queue_, k, 3, nullptr, g, local, 0, nullptr, nullptr))
        << "dimension " << d;
  }
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE,
                clEnqueueNDRangeKernel(nullptr, k, 1, nullptr, global, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_KERNEL,
                clEnqueueNDRangeKernel(queue_, nullptr, 1, nullptr, global, nullptr, 0, nullptr, nullptr));
  // A kernel from another context.
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  Queue otherQueue;
  Context other(clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  otherQueue.reset(clCreateCommandQueueWithProperties(other, dev, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT,
                clEnqueueNDRangeKernel(otherQueue, k, 1, nullptr, global, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

CLTEST_INSTANTIATE(WorkItemTest);
