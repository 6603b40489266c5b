// Program binaries into clCreateProgramWithBinary: corrupt, truncated and
// foreign ones (the seeds are binaries of every target, so the fuzzed
// device also sees the others'). The container ends in a checksum that
// catches almost every mutation at once, so each input is also tried with
// the checksum made right: that reaches the parsers behind it (the module,
// its kernel metadata, the target's binary). A binary that loads is built,
// its kernels created and its info read; kernels are never run.
#include "cl_entry.h"

#include "llvm/Support/xxhash.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

const cl_icd_dispatch &api() { return *fuzz::cl().api; }

void load(cl_context context, cl_device_id device, const std::vector<uint8_t> &bytes) {
  const unsigned char *pointer = bytes.data();
  size_t size = bytes.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program program = api().clCreateProgramWithBinary(context, 1, &device, &size, &pointer, &status, &err);
  if (!program)
    return;
  if (api().clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr) == CL_SUCCESS) {
    cl_uint count = 0;
    if (api().clCreateKernelsInProgram(program, 0, nullptr, &count) == CL_SUCCESS && count > 0) {
      std::vector<cl_kernel> kernels(count);
      if (api().clCreateKernelsInProgram(program, count, kernels.data(), nullptr) == CL_SUCCESS)
        for (cl_kernel kernel : kernels) {
          cl_uint args = 0;
          api().clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
          size_t workGroup = 0;
          api().clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof workGroup, &workGroup,
                                         nullptr);
          api().clReleaseKernel(kernel);
        }
    }
  }
  cl_program_binary_type type;
  api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr);
  size_t optionsSize = 0;
  api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &optionsSize);
  api().clReleaseProgram(program);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const fuzz::Cl &cl = fuzz::cl();
  cl_context context = cl.context;
  // Copied: the fuzzer's buffer ends exactly at `size`, so reads past it are
  // caught, and the checked copy can be changed.
  std::vector<uint8_t> bytes(data, data + size);
  load(context, cl.device, bytes);
  if (size > 8) {
    uint64_t sum = llvm::xxh3_64bits(llvm::ArrayRef(data, size - 8));
    if (std::memcmp(bytes.data() + size - 8, &sum, 8) != 0) {
      std::memcpy(bytes.data() + size - 8, &sum, 8);
      load(context, cl.device, bytes);
    }
  }
  return 0;
}
