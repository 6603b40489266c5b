// Program objects: creation from source or binaries, reference counting,
// clGetProgramInfo / clGetProgramBuildInfo. Building is in program_build.cpp.
#include "program.h"

#include "info.h"
#include "platform.h"
#include "program_binary.h"
#include "program_impl.h"

#include "compiler/il/spirv_spec_constants.h"
#include "compiler/il/spirv_translator.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace polymux::cl {

mux::Status takeStatusAndMessage(llvm::Error error, std::string &message) {
  mux::Status status = mux::Status::Success;
  llvm::handleAllErrors(
      std::move(error),
      [&](const mux::StatusError &e) {
        status = e.status();
        message += e.message();
      },
      [&](const llvm::ErrorInfoBase &e) {
        status = mux::Status::Failure;
        message += e.message();
      });
  return status;
}

Program *createProgram(Context &context, ProgramOrigin origin, std::vector<Device *> devices, std::string source) {
  auto impl = std::make_unique<Program::Impl>();
  impl->context = &context;
  impl->origin = origin;
  impl->source = std::move(source);
  impl->devices = std::move(devices);
  for (Device *device : impl->devices) {
    DeviceBuild build;
    build.device = device;
    impl->builds.push_back(std::move(build));
  }
  return new Program(std::move(impl));
}

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

Context &Program::context() const { return *impl_->context; }

std::span<Device *const> Program::devices() const { return impl_->devices; }

compiler::Module *Program::module(const Device &device) const {
  std::lock_guard lock(impl_->mutex);
  const DeviceBuild *build = impl_->find(device);
  return build && build->isExecutable() ? build->module.get() : nullptr;
}

bool Program::hasExecutable(const Device &device) const { return module(device) != nullptr; }

uint32_t Program::buildFlags(const Device &device) const {
  std::lock_guard lock(impl_->mutex);
  const DeviceBuild *build = impl_->find(device);
  return build ? build->flags : 0;
}

llvm::Expected<mux::Executable *> Program::executable(Device &device) {
  auto executable = sharedExecutable(device);
  if (!executable)
    return executable.takeError();
  return executable->get();
}

llvm::Expected<std::shared_ptr<mux::Executable>> Program::sharedExecutable(Device &device) {
  std::lock_guard lock(impl_->mutex);
  DeviceBuild *build = impl_->find(device);
  if (!build || !build->isExecutable())
    return mux::makeError(mux::Status::InvalidArgument, "no program executable for this device");
  if (!build->executable) {
    auto binary = build->module->binary();
    if (!binary)
      return binary.takeError();
    auto executable = device.mux().createExecutable(*binary);
    if (!executable)
      return executable.takeError();
    build->executable = std::move(*executable);
  }
  return build->executable;
}

namespace {

/// True when both descriptions would take the same clSetKernelArg values.
bool sameInterface(const compiler::KernelInfo &a, const compiler::KernelInfo &b) {
  if (a.args.size() != b.args.size() || a.reqdWorkGroupSize != b.reqdWorkGroupSize)
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i].kind != b.args[i].kind || a.args[i].size != b.args[i].size)
      return false;
  return true;
}

} // namespace

cl_int Program::attachKernel(std::string_view name, compiler::KernelInfo &info) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->busy)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const compiler::KernelInfo *found = nullptr;
  bool anyExecutable = false;
  for (const DeviceBuild &build : impl_->builds) {
    if (!build.isExecutable())
      continue;
    anyExecutable = true;
    for (const compiler::KernelInfo &candidate : build.module->kernels()) {
      if (candidate.name != name)
        continue;
      if (found && !sameInterface(*found, candidate))
        return CL_INVALID_KERNEL_DEFINITION;
      found = &candidate;
    }
  }
  if (!anyExecutable)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  if (!found)
    return CL_INVALID_KERNEL_NAME;
  info = *found;
  ++impl_->users;
  return CL_SUCCESS;
}

void Program::detachKernel() {
  std::lock_guard lock(impl_->mutex);
  --impl_->users;
}

std::optional<std::vector<std::string>> Program::kernelNames() const {
  std::lock_guard lock(impl_->mutex);
  for (const DeviceBuild &build : impl_->builds) {
    if (!build.isExecutable())
      continue;
    std::vector<std::string> names;
    for (const auto &kernel : build.module->kernels())
      names.push_back(kernel.name);
    return names;
  }
  return std::nullopt;
}

} // namespace polymux::cl

using namespace polymux::cl;

namespace {

template <class T> void setError(cl_int *errcodeRet, T code) {
  if (errcodeRet)
    *errcodeRet = code;
}

/// The CL_PROGRAM_BINARIES container for `build` (empty when there is
/// nothing to return). Caller holds the program's mutex.
llvm::Expected<const std::vector<std::byte> *> encodedBinary(DeviceBuild &build) {
  static const std::vector<std::byte> empty;
  if (build.status != CL_BUILD_SUCCESS || !build.module || build.binaryType == CL_PROGRAM_BINARY_TYPE_NONE)
    return &empty;
  if (!build.encodedBinary) {
    auto module = build.module->serialize();
    if (!module)
      return module.takeError();
    ProgramBinary binary;
    binary.type = build.binaryType;
    binary.flags = build.flags;
    binary.compilerIdentity = build.device->mux().compiler().identity();
    binary.options = build.options;
    binary.module = std::move(*module);
    build.encodedBinary = encodeProgramBinary(binary);
  }
  return &*build.encodedBinary;
}

/// Loads one application binary for `device`; CL_INVALID_BINARY when it is
/// not ours, corrupt, or for another device or compiler.
cl_int loadBinary(Device &device, std::span<const std::byte> bytes, DeviceBuild &build) {
  auto decoded = decodeProgramBinary(bytes);
  if (!decoded) {
    llvm::consumeError(decoded.takeError());
    return CL_INVALID_BINARY;
  }
  compiler::Target &compiler = device.mux().compiler();
  if (decoded->compilerIdentity != compiler.identity())
    return CL_INVALID_BINARY;
  auto module = compiler.deserialize(decoded->module);
  if (!module) {
    std::string ignored;
    mux::Status status = takeStatusAndMessage(module.takeError(), ignored);
    return errorCodeFor(status, CL_INVALID_BINARY);
  }
  if (binaryTypeOf((*module)->kind()) != decoded->type)
    return CL_INVALID_BINARY;
  build.module = std::move(*module);
  build.binaryType = decoded->type;
  build.flags = decoded->flags;
  build.options = std::move(decoded->options);
  return CL_SUCCESS;
}

} // namespace

extern "C" {

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                                              const size_t *lengths, cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return setError(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (count == 0 || !strings)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i])
      return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
    if (lengths && lengths[i])
      source.append(strings[i], lengths[i]);
    else
      source.append(strings[i]);
  }
  std::vector<Device *> devices(ctx->devices().begin(), ctx->devices().end());
  try {
    Program *program = createProgram(*ctx, ProgramOrigin::Source, std::move(devices), std::move(source));
    setError(errcode_ret, CL_SUCCESS);
    return program->handle();
  } catch (const std::bad_alloc &) {
    return setError(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id *device_list, const size_t *lengths,
                                                              const unsigned char **binaries, cl_int *binary_status,
                                                              cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return setError(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (num_devices == 0 || !device_list)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  std::vector<Device *> devices;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device *device = Device::fromHandle(device_list[i]);
    if (!device || !ctx->hasDevice(device) || std::find(devices.begin(), devices.end(), device) != devices.end())
      return setError(errcode_ret, CL_INVALID_DEVICE), nullptr;
    devices.push_back(device);
  }
  if (!lengths || !binaries)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;

  Ref<Program> program = adopt(createProgram(*ctx, ProgramOrigin::Binary, devices, {}));
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; ++i) {
    cl_int status;
    if (!binaries[i] || lengths[i] == 0)
      status = CL_INVALID_VALUE;
    else
      status = loadBinary(*devices[i], std::span(reinterpret_cast<const std::byte *>(binaries[i]), lengths[i]),
                          program->impl().builds[i]);
    if (binary_status)
      binary_status[i] = status;
    // CL_INVALID_VALUE (a missing entry) wins over CL_INVALID_BINARY.
    if (status != CL_SUCCESS && (result == CL_SUCCESS || status == CL_INVALID_VALUE))
      result = status;
  }
  if (result != CL_SUCCESS)
    return setError(errcode_ret, result), nullptr;
  setError(errcode_ret, CL_SUCCESS);
  program->retain(); // the application's reference
  return program->handle();
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                      const cl_device_id *device_list,
                                                                      const char *kernel_names, cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return setError(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (num_devices == 0 || !device_list || !kernel_names)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device *device = Device::fromHandle(device_list[i]);
    if (!device || !ctx->hasDevice(device))
      return setError(errcode_ret, CL_INVALID_DEVICE), nullptr;
  }
  // No device has built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty), so
  // every name in kernel_names is unsupported.
  return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                                          cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return setError(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (!il || length == 0)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  if (std::none_of(ctx->devices().begin(), ctx->devices().end(), [](Device *device) { return device->readsIL(); }))
    return setError(errcode_ret, CL_INVALID_OPERATION), nullptr;
  std::span<const std::byte> bytes(static_cast<const std::byte *>(il), length);
  std::optional<std::map<uint32_t, size_t>> specSizes = compiler::il::specConstantSizes(bytes);
  if (!compiler::il::looksLikeSpirv(bytes) || !specSizes)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  std::vector<Device *> devices(ctx->devices().begin(), ctx->devices().end());
  try {
    Program *program = createProgram(*ctx, ProgramOrigin::IL, std::move(devices), {});
    program->impl().il.assign(bytes.begin(), bytes.end());
    program->impl().specSizes = std::move(*specSizes);
    setError(errcode_ret, CL_SUCCESS);
    return program->handle();
  } catch (const std::bad_alloc &) {
    return setError(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                             cl_int *errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  p->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  p->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                                            void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                            void *user_data) {
  if (!Program::fromHandle(program))
    return CL_INVALID_PROGRAM;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  // Deprecated in OpenCL 3.0; allowed to fail when no device supports
  // program-scope global constructors/destructors (none does).
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void *spec_value) {
  Program *p = Program::fromHandle(program);
  if (!p || p->impl().origin != ProgramOrigin::IL)
    return CL_INVALID_PROGRAM;
  Program::Impl &impl = p->impl();
  auto size = impl.specSizes.find(spec_id);
  if (size == impl.specSizes.end())
    return CL_INVALID_SPEC_ID;
  if (spec_size != size->second || !spec_value)
    return CL_INVALID_VALUE;
  auto bytes = static_cast<const std::byte *>(spec_value);
  std::lock_guard lock(impl.mutex);
  impl.specValues[spec_id].assign(bytes, bytes + spec_size);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  if (!Platform::fromHandle(platform))
    return CL_INVALID_PLATFORM;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  Program::Impl &impl = p->impl();
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return write(static_cast<cl_uint>(p->refCount()));
  case CL_PROGRAM_CONTEXT:
    return write(impl.context->handle());
  case CL_PROGRAM_NUM_DEVICES:
    return write(static_cast<cl_uint>(impl.devices.size()));
  case CL_PROGRAM_DEVICES: {
    std::vector<cl_device_id> handles;
    for (Device *device : impl.devices)
      handles.push_back(device->handle());
    return writeInfoArray<cl_device_id>(param_value_size, param_value, param_value_size_ret, handles);
  }
  case CL_PROGRAM_SOURCE:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, impl.source);
  case CL_PROGRAM_IL:
    // Empty unless the program was made from IL.
    return writeInfoBytes(param_value_size, param_value, param_value_size_ret, impl.il.data(), impl.il.size());
  case CL_PROGRAM_BINARY_SIZES: {
    std::lock_guard lock(impl.mutex);
    std::vector<size_t> sizes;
    for (DeviceBuild &build : impl.builds) {
      auto binary = encodedBinary(build);
      if (!binary) {
        std::string ignored;
        return errorCodeFor(takeStatusAndMessage(binary.takeError(), ignored), CL_OUT_OF_RESOURCES);
      }
      sizes.push_back((*binary)->size());
    }
    return writeInfoArray<size_t>(param_value_size, param_value, param_value_size_ret, sizes);
  }
  case CL_PROGRAM_BINARIES: {
    size_t size = impl.devices.size() * sizeof(unsigned char *);
    if (param_value) {
      if (param_value_size < size)
        return CL_INVALID_VALUE;
      std::lock_guard lock(impl.mutex);
      auto **destinations = static_cast<unsigned char **>(param_value);
      for (size_t i = 0; i < impl.builds.size(); ++i) {
        if (!destinations[i])
          continue; // the application skips this device
        auto binary = encodedBinary(impl.builds[i]);
        if (!binary) {
          std::string ignored;
          return errorCodeFor(takeStatusAndMessage(binary.takeError(), ignored), CL_OUT_OF_RESOURCES);
        }
        if (!(*binary)->empty())
          std::memcpy(destinations[i], (*binary)->data(), (*binary)->size());
      }
    }
    if (param_value_size_ret)
      *param_value_size_ret = size;
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS: {
    auto names = p->kernelNames();
    if (!names)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    return write(names->size());
  }
  case CL_PROGRAM_KERNEL_NAMES: {
    auto names = p->kernelNames();
    if (!names)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    return writeInfoString(param_value_size, param_value, param_value_size_ret, llvm::join(*names, ";"));
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    // OpenCL C has no program-scope constructors; only C++ for OpenCL does.
    return write(static_cast<cl_bool>(CL_FALSE));
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void *param_value, size_t *param_value_size_ret) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  Device *d = Device::fromHandle(device);
  if (!d)
    return CL_INVALID_DEVICE;
  Program::Impl &impl = p->impl();
  std::lock_guard lock(impl.mutex);
  const DeviceBuild *build = impl.find(*d);
  if (!build)
    return CL_INVALID_DEVICE;
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS:
    return write(build->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, build->options);
  case CL_PROGRAM_BUILD_LOG:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, build->log);
  case CL_PROGRAM_BINARY_TYPE:
    return write(build->binaryType);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    // Only an executable holds storage for program-scope variables.
    return write(static_cast<size_t>(build->module ? build->module->globalVariableTotalSize() : 0));
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
