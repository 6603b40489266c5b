// cl_polymux_const_kernel_args: clSetKernelArgConstPOLYMUX passes a buffer
// as const, only to parameters that point to const __global or __constant
// data, whether or not the program was built with -cl-kernel-arg-info.
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <vector>

namespace cltest {
namespace {

constexpr const char *kSource = R"CLC(
kernel void scale(global int *out, global const int *in, constant int *factor, int offset,
                  local const int *scratch, global int *const fixed, global const volatile int *flagged) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor[0] + offset;
}
)CLC";

enum Arg : cl_uint { Out, In, Factor, Offset, Scratch, Fixed, Flagged, ArgCount };

class ConstKernelArgsTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    setConst_ = extensionFunction<clSetKernelArgConstPOLYMUX_fn>("clSetKernelArgConstPOLYMUX");
    ASSERT_NE(setConst_, nullptr);
    // Built without -cl-kernel-arg-info.
    program_ = build(kSource);
    ASSERT_TRUE(program_);
    kernel_ = kernel(program_, "scale");
    mem_ = buffer(CL_MEM_READ_WRITE, 4 * sizeof(cl_int));
    ASSERT_TRUE(kernel_ && mem_);
  }
  cl_int setConst(cl_kernel kernel, cl_uint index, cl_mem mem) { return setConst_(kernel, index, sizeof(mem), &mem); }
  cl_bool passedAsConst(cl_kernel kernel, cl_uint index) {
    cl_bool value = CL_TRUE + 1; // neither answer
    size_t size = 0;
    EXPECT_CL(clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX, sizeof(value), &value, &size));
    EXPECT_EQ(size, sizeof(cl_bool));
    return value;
  }
  /// Sets the arguments of `scale` other than `in`; out and the rest are
  /// plain clSetKernelArg.
  void setOtherArgs(cl_kernel kernel, cl_mem out, cl_mem factor) {
    ASSERT_CL(clSetKernelArg(kernel, Out, sizeof(cl_mem), &out));
    ASSERT_CL(setConst(kernel, Factor, factor));
    cl_int offset = 3;
    ASSERT_CL(clSetKernelArg(kernel, Offset, sizeof(offset), &offset));
    ASSERT_CL(clSetKernelArg(kernel, Scratch, sizeof(cl_int), nullptr));
    ASSERT_CL(clSetKernelArg(kernel, Fixed, sizeof(cl_mem), &out));
    ASSERT_CL(setConst(kernel, Flagged, out));
  }

  clSetKernelArgConstPOLYMUX_fn setConst_ = nullptr;
  Program program_;
  Kernel kernel_; ///< `scale`
  Mem mem_;       ///< a READ_WRITE buffer of 4 ints
};

TEST_P(ConstKernelArgsTest, ReportedByEveryDevice) {
  EXPECT_TRUE(deviceHasExtension(device(), CL_POLYMUX_CONST_KERNEL_ARGS_EXTENSION_NAME));
}

// Built without -cl-kernel-arg-info: the qualifiers are not reported, yet
// the const check and the const query work.
TEST_P(ConstKernelArgsTest, ConstArgumentsRunAndAreReported) {
  cl_kernel kernel = kernel_;
  cl_kernel_arg_type_qualifier qualifier = 0;
  EXPECT_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                clGetKernelArgInfo(kernel, In, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(qualifier), &qualifier, nullptr));

  std::vector<cl_int> input = {1, 2, 3, 4}, factor = {10};
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, input.size() * sizeof(cl_int), input.data());
  Mem factorMem = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), factor.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, input.size() * sizeof(cl_int));
  ASSERT_TRUE(in && factorMem && out);
  for (cl_uint i = 0; i < ArgCount; ++i)
    EXPECT_EQ(passedAsConst(kernel, i), cl_bool{CL_FALSE}) << "argument " << i << " before it is set";

  ASSERT_CL(setConst(kernel, In, in));
  setOtherArgs(kernel, out, factorMem);
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_TRUE});
  EXPECT_EQ(passedAsConst(kernel, Factor), cl_bool{CL_TRUE});
  EXPECT_EQ(passedAsConst(kernel, Flagged), cl_bool{CL_TRUE});
  EXPECT_EQ(passedAsConst(kernel, Out), cl_bool{CL_FALSE});
  EXPECT_EQ(passedAsConst(kernel, Offset), cl_bool{CL_FALSE});

  size_t global = input.size();
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out, input.size()), (std::vector<cl_int>{13, 23, 33, 43}));
  EXPECT_EQ(read<cl_int>(in, input.size()), input);

  // A plain clSetKernelArg of the same index clears the mark.
  ASSERT_CL(clSetKernelArg(kernel, In, sizeof(cl_mem), in.ptr()));
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_FALSE});
  // A NULL buffer may be passed as const.
  EXPECT_CL(setConst_(kernel, In, sizeof(cl_mem), nullptr));
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_TRUE});
}

TEST_P(ConstKernelArgsTest, NonConstParametersAreRefused) {
  cl_kernel kernel = kernel_;
  Mem &mem = mem_;
  ASSERT_CL(setConst(kernel, In, mem));
  // Pointer to non-const data; the const pointer itself does not count.
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst(kernel, Out, mem));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst(kernel, Fixed, mem));
  // Not buffer parameters at all, even with a value of the right size.
  cl_int offset = 0;
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst_(kernel, Offset, sizeof(offset), &offset));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst_(kernel, Scratch, sizeof(cl_int), nullptr));
  // A refused call leaves the argument as it was.
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_TRUE});
  ASSERT_CL(clSetKernelArg(kernel, Out, sizeof(cl_mem), mem.ptr()));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst(kernel, Out, mem));
  EXPECT_EQ(passedAsConst(kernel, Out), cl_bool{CL_FALSE});
}

TEST_P(ConstKernelArgsTest, Errors) {
  cl_kernel kernel = kernel_;
  Mem &mem = mem_;
  EXPECT_CL_ERR(CL_INVALID_KERNEL, setConst(nullptr, In, mem));
  EXPECT_CL_ERR(CL_INVALID_KERNEL, setConst(reinterpret_cast<cl_kernel>(mem.get()), In, mem));
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, setConst(kernel, ArgCount, mem));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, setConst_(kernel, In, sizeof(cl_mem) - 1, mem.ptr()));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, setConst_(kernel, Factor, 0, nullptr));
  cl_mem notMemory = reinterpret_cast<cl_mem>(queue_.get());
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, setConst(kernel, In, notMemory));

  // A buffer of another context.
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  Context other(clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  Mem foreign(clCreateBuffer(other, CL_MEM_READ_ONLY, sizeof(cl_int), nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, setConst(kernel, In, foreign));
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_FALSE});

  // The query's own errors.
  cl_bool value = CL_FALSE;
  EXPECT_CL_ERR(CL_INVALID_KERNEL,
                clGetKernelArgInfo(nullptr, In, CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(kernel, ArgCount, CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX,
                                                         sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelArgInfo(kernel, In, CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX,
                                                     sizeof(value) - 1, &value, nullptr));
}

TEST_P(ConstKernelArgsTest, CloneKeepsTheMark) {
  cl_kernel kernel = kernel_;
  Mem &mem = mem_;
  ASSERT_CL(setConst(kernel, In, mem));
  cl_int err = CL_SUCCESS;
  Kernel clone(clCloneKernel(kernel, &err));
  ASSERT_CL(err);
  EXPECT_EQ(passedAsConst(clone, In), cl_bool{CL_TRUE});
  EXPECT_EQ(passedAsConst(clone, Out), cl_bool{CL_FALSE});
  // The two kernels' marks are independent from then on.
  ASSERT_CL(clSetKernelArg(clone, In, sizeof(cl_mem), mem.ptr()));
  EXPECT_EQ(passedAsConst(clone, In), cl_bool{CL_FALSE});
  EXPECT_EQ(passedAsConst(kernel, In), cl_bool{CL_TRUE});
}

// A program created from a binary knows its parameters' qualifiers too.
TEST_P(ConstKernelArgsTest, ProgramFromBinary) {
  Program loaded = rebuildFromBinary(program_);
  ASSERT_TRUE(loaded);
  Kernel kernel = this->kernel(loaded, "scale");
  ASSERT_TRUE(kernel);
  EXPECT_CL(setConst(kernel, In, mem_));
  EXPECT_CL(setConst(kernel, Factor, mem_));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, setConst(kernel, Out, mem_));
}

CLTEST_INSTANTIATE(ConstKernelArgsTest);

} // namespace
} // namespace cltest
