// OpenCL C sources and build options into clBuildProgram, clCompileProgram
// and clLinkProgram. An input is text: its first line says what to do and
// with which options, the rest is the source:
//
//   build: -cl-std=CL2.0 -DN=4        clBuildProgram
//   compile: -cl-kernel-arg-info      clCompileProgram, the source also an
//                                     embedded header "fuzz.h"
//   link: -create-library             clCompileProgram, then clLinkProgram
//
// A first line without one of these words is a build with that line as the
// options. After a successful build every kernel is created and its
// argument info read, and the program binary is read back and loaded again,
// so the metadata paths see what the compiler made of the fuzzed source.
// Kernels are never run: a fuzzed kernel may write anywhere.
#include "cl_entry.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

const cl_icd_dispatch &api() { return *fuzz::cl().api; }

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string log(size, '\0');
  api().clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  return log;
}

/// Everything the application can ask of a built program and its kernels.
void exerciseKernels(cl_context context, cl_program program, cl_device_id device) {
  cl_uint count = 0;
  if (api().clCreateKernelsInProgram(program, 0, nullptr, &count) != CL_SUCCESS || count == 0)
    return;
  std::vector<cl_kernel> kernels(count);
  if (api().clCreateKernelsInProgram(program, count, kernels.data(), nullptr) != CL_SUCCESS)
    return;
  for (cl_kernel kernel : kernels) {
    cl_uint args = 0;
    api().clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
    for (cl_uint i = 0; i < args && i < 64; ++i) {
      char name[256];
      cl_kernel_arg_address_qualifier qualifier;
      api().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr);
      api().clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof qualifier, &qualifier, nullptr);
    }
    size_t workGroup = 0;
    api().clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof workGroup, &workGroup, nullptr);
    api().clReleaseKernel(kernel);
  }
  // The binary read back loads again as a program of its own.
  size_t size = 0;
  api().clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  if (size == 0)
    return;
  std::vector<unsigned char> binary(size);
  unsigned char *pointer = binary.data();
  if (api().clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr) != CL_SUCCESS)
    return;
  const unsigned char *bytes = binary.data();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program loaded = api().clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &status, &err);
  if (loaded) {
    api().clBuildProgram(loaded, 1, &device, nullptr, nullptr, nullptr);
    api().clReleaseProgram(loaded);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const fuzz::Cl &cl = fuzz::cl();
  cl_context context = cl.context;

  std::string_view input(reinterpret_cast<const char *>(data), size);
  size_t newline = input.find('\n');
  std::string firstLine(input.substr(0, newline));
  // The source keeps its line numbers (diagnostics point at them).
  std::string source =
      newline == std::string_view::npos ? std::string() : "\n" + std::string(input.substr(newline + 1));
  enum class Step { Build, Compile, Link } step = Step::Build;
  std::string options = firstLine;
  for (auto [word, which] : {std::pair{"build:", Step::Build}, {"compile:", Step::Compile}, {"link:", Step::Link}})
    if (firstLine.starts_with(word)) {
      step = which;
      options = firstLine.substr(std::string_view(word).size());
    }

  const char *text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = api().clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  if (!program)
    return 0;
  if (step == Step::Build) {
    if (api().clBuildProgram(program, 1, &cl.device, options.c_str(), nullptr, nullptr) == CL_SUCCESS)
      exerciseKernels(context, program, cl.device);
  } else {
    // The source is also the header "fuzz.h", so `#include "fuzz.h"` works.
    cl_program header = api().clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    const char *headerName = "fuzz.h";
    cl_int compiled = api().clCompileProgram(program, 1, &cl.device, options.c_str(), header ? 1 : 0, &header,
                                             &headerName, nullptr, nullptr);
    if (header)
      api().clReleaseProgram(header);
    if (compiled == CL_SUCCESS && step == Step::Link) {
      cl_program linked =
          api().clLinkProgram(context, 1, &cl.device, options.c_str(), 1, &program, nullptr, nullptr, &err);
      if (linked) {
        buildLog(linked, cl.device);
        if (err == CL_SUCCESS)
          exerciseKernels(context, linked, cl.device);
        api().clReleaseProgram(linked);
      }
    }
  }
  buildLog(program, cl.device);
  api().clReleaseProgram(program);
  return 0;
}
