// Kernel objects: creation from a built program, argument state
// (clSetKernelArg), clGetKernelInfo and clGetKernelArgInfo. Work-group and
// sub-group queries are in kernel_query.cpp, launches in ndrange.cpp.
#include "kernel.h"

#include "buffer.h"
#include "command.h"
#include "context.h"
#include "device.h"
#include "entity.h"
#include "image.h"
#include "info.h"
#include "memory.h"
#include "program.h"
#include "program_binary.h"
#include "program_impl.h"
#include "sampler.h"
#include "svm_allocations.h"

#include "CL/cl_ext_polymux.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <new>

namespace polymux::cl {

/// One argument's value as set by clSetKernelArg.
struct ArgValue {
  bool set = false;
  /// Buffer arguments; null for a NULL pointer. Not a reference: setting an
  /// argument does not keep the memory object alive (the application may
  /// release it and set another before the next launch). Each launch
  /// retains it for the command's lifetime.
  cl_mem memory = nullptr;
  std::vector<std::byte> bytes; ///< by-value arguments
  uint64_t localSize = 0;       ///< __local pointer arguments
  /// Set by clSetKernelArgConstPOLYMUX, cleared by clSetKernelArg.
  bool passedAsConst = false;
  /// clSetKernelArgSVMPointer: `memory` is an SVM allocation's buffer and
  /// the pointer is this far into it (any offset: interior pointers).
  bool svm = false;
  uint64_t svmOffset = 0;
  /// Holds the SVM buffer: clSVMFree may come before the next launch, and
  /// the handle must stay readable until then.
  Ref<ObjectBase> svmBuffer;
};

/// A mux kernel with the executable it came from, which it must not outlive
/// (the program may be rebuilt, dropping its own reference, while a command
/// still runs this kernel).
struct MuxKernelEntry {
  const Device *device;
  std::shared_ptr<mux::Executable> executable; // declared first: outlives `kernel`
  std::unique_ptr<mux::Kernel> kernel;
};

struct Kernel::Impl {
  Ref<Program> program;
  compiler::KernelInfo info;
  mutable std::mutex mutex;
  std::vector<ArgValue> args;
  std::vector<MuxKernelEntry> muxKernels;
  std::vector<const void *> execInfoSvmPointers;
  std::atomic<uint32_t> applicationRefs{1};
  std::atomic<bool> attached{true};
};

Kernel::Kernel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Kernel::~Kernel() {
  impl_->muxKernels.clear();
  detachFromProgram();
}

void Kernel::detachFromProgram() {
  if (impl_->attached.exchange(false, std::memory_order_acq_rel))
    impl_->program->detachKernel();
}

void Kernel::retainByApplication() {
  impl_->applicationRefs.fetch_add(1, std::memory_order_relaxed);
  retain();
}

void Kernel::releaseByApplication() {
  if (impl_->applicationRefs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    detachFromProgram();
  release();
}

Program &Kernel::program() const { return *impl_->program; }
const compiler::KernelInfo &Kernel::info() const { return impl_->info; }

llvm::Expected<mux::Kernel *> Kernel::muxKernel(Device &device) {
  std::lock_guard lock(impl_->mutex);
  for (MuxKernelEntry &entry : impl_->muxKernels)
    if (entry.device == &device)
      return entry.kernel.get();
  auto executable = impl_->program->sharedExecutable(device);
  if (!executable)
    return executable.takeError();
  auto kernel = (*executable)->createKernel(impl_->info.name);
  if (!kernel)
    return kernel.takeError();
  impl_->muxKernels.push_back(MuxKernelEntry{&device, std::move(*executable), std::move(*kernel)});
  return impl_->muxKernels.back().kernel.get();
}

namespace {

/// What a kernel may do to the buffer behind a pointer argument: __constant,
/// CL_MEM_READ_ONLY and const-passed buffers are only read (writing them is
/// undefined).
ContentAccess kernelAccess(const compiler::KernelArgInfo &arg, const ArgValue &value, const MemObject &memory) {
  if (arg.kind == compiler::KernelArgInfo::Kind::ConstantPointer || value.passedAsConst ||
      (memory.flags() & CL_MEM_READ_ONLY))
    return ContentAccess::Read;
  return ContentAccess::Update;
}

} // namespace

cl_int Kernel::deviceArgs(Device &device, std::vector<mux::KernelArg> &args, Command &launch) {
  std::lock_guard lock(impl_->mutex);
  args.clear();
  args.reserve(impl_->args.size());
  for (size_t i = 0; i < impl_->args.size(); ++i) {
    const ArgValue &value = impl_->args[i];
    if (!value.set)
      return CL_INVALID_KERNEL_ARGS;
    mux::KernelArg arg;
    switch (impl_->info.args[i].kind) {
    case compiler::KernelArgInfo::Kind::GlobalPointer:
    case compiler::KernelArgInfo::Kind::ConstantPointer:
      arg.kind = mux::KernelArg::Kind::Buffer;
      if (value.memory) {
        // The application may have released the memory object since
        // clSetKernelArg: a poisoned handle is caught here (a freed one is
        // the application's error and cannot always be detected).
        MemObject *memory = MemObject::fromHandle(value.memory);
        if (!memory)
          return CL_INVALID_KERNEL_ARGS;
        auto binding = memory->binding(device);
        if (!binding) {
          std::string ignored;
          return errorCodeFor(takeStatusAndMessage(binding.takeError(), ignored), CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        if (value.svm && !supportsSvm(device))
          return CL_INVALID_OPERATION;
        // An SVM argument whose allocation was freed since.
        if (value.svm && !program().context().svmAllocations().findBase(memory->hostPtr()))
          return CL_INVALID_KERNEL_ARGS;
        if (!value.svm && binding->offset % device.info().memBaseAddrAlign != 0)
          return CL_MISALIGNED_SUB_BUFFER_OFFSET;
        arg.buffer = binding->buffer;
        arg.offset = binding->offset + value.svmOffset;
        launch.keepAlive.push_back(Ref<ObjectBase>(memory));
        memory->addUse(launch, 0, memory->size(), kernelAccess(impl_->info.args[i], value, *memory));
        launch.kernelBufferArgs.push_back(KernelBufferArg{memory, value.passedAsConst});
      }
      break;
    case compiler::KernelArgInfo::Kind::LocalPointer:
      arg.kind = mux::KernelArg::Kind::Local;
      arg.localSize = value.localSize;
      break;
    case compiler::KernelArgInfo::Kind::Value:
      arg.kind = mux::KernelArg::Kind::Value;
      arg.value = value.bytes;
      break;
    case compiler::KernelArgInfo::Kind::Image:
      if (cl_int code = imageKernelArg(device, value.memory, impl_->info.args[i].access, arg, launch))
        return code;
      break;
    case compiler::KernelArgInfo::Kind::Sampler:
      arg.kind = mux::KernelArg::Kind::Value; // its CLK_* bits (image_abi.h)
      arg.value = value.bytes;
      break;
    }
    args.push_back(std::move(arg));
  }
  // SVM the kernel reaches through stored pointers: kept alive like the
  // arguments (one memory on every device, so nothing to migrate).
  for (const void *pointer : impl_->execInfoSvmPointers)
    if (auto allocation = program().context().svmAllocations().find(pointer)) {
      launch.keepAlive.push_back(Ref<ObjectBase>(allocation->buffer.get()));
      allocation->buffer->addUse(launch, 0, allocation->size, ContentAccess::Update);
    }
  return CL_SUCCESS;
}

void Kernel::setSvmArg(cl_uint index, cl_mem buffer, uint64_t offset) {
  ArgValue value;
  value.set = true;
  value.memory = buffer;
  value.svm = buffer != nullptr;
  value.svmOffset = offset;
  if (buffer)
    value.svmBuffer = MemObject::fromHandle(buffer);
  std::lock_guard lock(impl_->mutex);
  impl_->args[index] = std::move(value);
}

void Kernel::setExecInfoSvmPointers(std::vector<const void *> pointers) {
  std::lock_guard lock(impl_->mutex);
  impl_->execInfoSvmPointers = std::move(pointers);
}

cl_kernel_arg_type_qualifier typeQualifier(uint32_t bits) {
  cl_kernel_arg_type_qualifier result = CL_KERNEL_ARG_TYPE_NONE;
  if (bits & compiler::QualConst)
    result |= CL_KERNEL_ARG_TYPE_CONST;
  if (bits & compiler::QualRestrict)
    result |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (bits & compiler::QualVolatile)
    result |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (bits & compiler::QualPipe)
    result |= CL_KERNEL_ARG_TYPE_PIPE;
  return result;
}

uint64_t Kernel::localArgBytes() const {
  std::lock_guard lock(impl_->mutex);
  uint64_t total = 0;
  for (size_t i = 0; i < impl_->args.size(); ++i)
    if (impl_->info.args[i].kind == compiler::KernelArgInfo::Kind::LocalPointer && impl_->args[i].set)
      total += impl_->args[i].localSize;
  return total;
}

} // namespace polymux::cl

using namespace polymux::cl;

namespace {

void setError(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
}

/// A new kernel for `name`; the program must have an executable.
cl_int createKernel(Program &program, std::string_view name, Kernel *&kernel) {
  auto impl = std::make_unique<Kernel::Impl>();
  if (cl_int code = program.attachKernel(name, impl->info); code != CL_SUCCESS)
    return code;
  impl->program = &program;
  impl->args.resize(impl->info.args.size());
  kernel = new Kernel(std::move(impl));
  return CL_SUCCESS;
}

/// Whether every device with an executable was built with -cl-kernel-arg-info.
bool argInfoAvailable(const Program &program) {
  bool any = false;
  for (Device *device : program.devices()) {
    if (!program.hasExecutable(*device))
      continue;
    if (!(program.buildFlags(*device) & BinaryFlagKernelArgInfo))
      return false;
    any = true;
  }
  return any;
}

cl_kernel_arg_address_qualifier addressQualifier(const compiler::KernelArgInfo &arg) {
  switch (arg.kind) {
  case compiler::KernelArgInfo::Kind::GlobalPointer:
  case compiler::KernelArgInfo::Kind::Image:
    return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case compiler::KernelArgInfo::Kind::ConstantPointer:
    return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case compiler::KernelArgInfo::Kind::LocalPointer:
    return CL_KERNEL_ARG_ADDRESS_LOCAL;
  case compiler::KernelArgInfo::Kind::Value:
  case compiler::KernelArgInfo::Kind::Sampler:
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
  return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

cl_kernel_arg_access_qualifier accessQualifier(compiler::AccessQualifier access) {
  switch (access) {
  case compiler::AccessQualifier::ReadOnly:
    return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  case compiler::AccessQualifier::WriteOnly:
    return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  case compiler::AccessQualifier::ReadWrite:
    return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  case compiler::AccessQualifier::None:
    return CL_KERNEL_ARG_ACCESS_NONE;
  }
  return CL_KERNEL_ARG_ACCESS_NONE;
}

/// The kernel and the argument clSetKernelArg and clGetKernelArgInfo name.
cl_int resolveKernelArg(cl_kernel handle, cl_uint index, Kernel *&kernel, const compiler::KernelArgInfo *&arg) {
  kernel = Kernel::fromHandle(handle);
  if (!kernel)
    return CL_INVALID_KERNEL;
  const compiler::KernelInfo &info = kernel->info();
  if (index >= info.args.size())
    return CL_INVALID_ARG_INDEX;
  arg = &info.args[index];
  return CL_SUCCESS;
}

/// Validates one clSetKernelArg call and produces the new argument state.
cl_int makeArgValue(const Kernel &kernel, const compiler::KernelArgInfo &arg, size_t size, const void *value,
                    ArgValue &out) {
  using Kind = compiler::KernelArgInfo::Kind;
  switch (arg.kind) {
  case Kind::GlobalPointer:
  case Kind::ConstantPointer: {
    if (size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    cl_mem handle = value ? *static_cast<const cl_mem *>(value) : nullptr;
    if (!handle)
      break; // a NULL pointer argument
    MemObject *memory = MemObject::fromHandle(handle);
    if (!memory || memory->type() != CL_MEM_OBJECT_BUFFER || &memory->context() != &kernel.program().context())
      return CL_INVALID_MEM_OBJECT;
    out.memory = handle;
    break;
  }
  case Kind::LocalPointer:
    if (value)
      return CL_INVALID_ARG_VALUE;
    if (size == 0)
      return CL_INVALID_ARG_SIZE;
    out.localSize = size;
    break;
  case Kind::Value:
    if (!value)
      return CL_INVALID_ARG_VALUE;
    if (size != arg.size)
      return CL_INVALID_ARG_SIZE;
    out.bytes.assign(static_cast<const std::byte *>(value), static_cast<const std::byte *>(value) + size);
    break;
  case Kind::Image:
    if (size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    if (!value)
      return CL_INVALID_ARG_VALUE;
    if (cl_int code = validateImageArg(kernel.program().context(), *static_cast<const cl_mem *>(value), arg.access))
      return code;
    out.memory = *static_cast<const cl_mem *>(value);
    break;
  case Kind::Sampler: {
    if (size != sizeof(cl_sampler))
      return CL_INVALID_ARG_SIZE;
    // No sampler object to read (the CTS's negative_invalid_arg_sampler
    // wants this code, not CL_INVALID_ARG_VALUE).
    if (!value)
      return CL_INVALID_SAMPLER;
    SamplerObject *sampler = SamplerObject::fromHandle(*static_cast<const cl_sampler *>(value));
    if (!sampler || &sampler->context() != &kernel.program().context())
      return CL_INVALID_SAMPLER;
    // Passed by value as a pointer-sized integer (little-endian devices).
    const uint64_t bits = sampler->kernelBits();
    out.bytes.assign(arg.size, std::byte{0});
    std::memcpy(out.bytes.data(), &bits, std::min<size_t>(arg.size, sizeof(bits)));
    break;
  }
  }
  out.set = true;
  return CL_SUCCESS;
}

/// Whether the parameter promises not to write what it points to: a pointer
/// to const __global data, or to __constant data (const by nature). The
/// qualifiers are kept whether or not the program was built with
/// -cl-kernel-arg-info.
bool pointsToConst(const compiler::KernelArgInfo &arg) {
  using Kind = compiler::KernelArgInfo::Kind;
  return arg.kind == Kind::ConstantPointer ||
         (arg.kind == Kind::GlobalPointer && (arg.typeQualifiers & compiler::QualConst));
}

/// clSetKernelArg, and clSetKernelArgConstPOLYMUX when `asConst`.
cl_int setKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void *value, bool asConst) {
  Kernel *k;
  const compiler::KernelArgInfo *arg;
  if (cl_int code = resolveKernelArg(kernel, index, k, arg))
    return code;
  if (asConst && !pointsToConst(*arg))
    return CL_INVALID_ARG_VALUE;
  try {
    ArgValue argValue;
    if (cl_int code = makeArgValue(*k, *arg, size, value, argValue); code != CL_SUCCESS)
      return code;
    argValue.passedAsConst = asConst;
    std::lock_guard lock(k->impl().mutex);
    k->impl().args[index] = std::move(argValue);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

cl_bool argPassedAsConst(Kernel &kernel, cl_uint index) {
  std::lock_guard lock(kernel.impl().mutex);
  return kernel.impl().args[index].passedAsConst ? CL_TRUE : CL_FALSE;
}

} // namespace

extern "C" {

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return setError(errcode_ret, CL_INVALID_PROGRAM), nullptr;
  if (!kernel_name)
    return setError(errcode_ret, CL_INVALID_VALUE), nullptr;
  try {
    Kernel *kernel = nullptr;
    cl_int code = createKernel(*p, kernel_name, kernel);
    setError(errcode_ret, code);
    return code == CL_SUCCESS ? kernel->handle() : nullptr;
  } catch (const std::bad_alloc &) {
    return setError(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                                         cl_uint *num_kernels_ret) {
  Program *p = Program::fromHandle(program);
  if (!p)
    return CL_INVALID_PROGRAM;
  auto names = p->kernelNames();
  if (!names)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  if (kernels && num_kernels < names->size())
    return CL_INVALID_VALUE;
  if (kernels) {
    std::vector<Kernel *> created;
    for (const std::string &name : *names) {
      Kernel *kernel = nullptr;
      cl_int code;
      try {
        code = createKernel(*p, name, kernel);
      } catch (const std::bad_alloc &) {
        code = CL_OUT_OF_HOST_MEMORY;
      }
      if (code != CL_SUCCESS) {
        for (Kernel *k : created)
          k->releaseByApplication();
        return code;
      }
      created.push_back(kernel);
    }
    for (size_t i = 0; i < created.size(); ++i)
      kernels[i] = created[i]->handle();
  }
  if (num_kernels_ret)
    *num_kernels_ret = static_cast<cl_uint>(names->size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  Kernel *source = Kernel::fromHandle(source_kernel);
  if (!source)
    return setError(errcode_ret, CL_INVALID_KERNEL), nullptr;
  try {
    Kernel *clone = nullptr;
    if (cl_int code = createKernel(source->program(), source->info().name, clone); code != CL_SUCCESS)
      return setError(errcode_ret, code), nullptr;
    {
      std::scoped_lock lock(source->impl().mutex, clone->impl().mutex);
      clone->impl().args = source->impl().args;
      clone->impl().execInfoSvmPointers = source->impl().execInfoSvmPointers;
    }
    setError(errcode_ret, CL_SUCCESS);
    return clone->handle();
  } catch (const std::bad_alloc &) {
    return setError(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  Kernel *k = Kernel::fromHandle(kernel);
  if (!k)
    return CL_INVALID_KERNEL;
  k->retainByApplication();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  Kernel *k = Kernel::fromHandle(kernel);
  if (!k)
    return CL_INVALID_KERNEL;
  k->releaseByApplication();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void *arg_value) {
  return setKernelArg(kernel, arg_index, arg_size, arg_value, false);
}

// cl_polymux_const_kernel_args (doc/extensions/cl_polymux_const_kernel_args.md).
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgConstPOLYMUX(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                                           const void *arg_value) {
  return setKernelArg(kernel, arg_index, arg_size, arg_value, true);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void *param_value, size_t *param_value_size_ret) {
  Kernel *k = Kernel::fromHandle(kernel);
  if (!k)
    return CL_INVALID_KERNEL;
  const compiler::KernelInfo &info = k->info();
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, info.name);
  case CL_KERNEL_NUM_ARGS:
    return write(static_cast<cl_uint>(info.args.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return write(static_cast<cl_uint>(k->refCount()));
  case CL_KERNEL_CONTEXT:
    return write(k->program().context().handle());
  case CL_KERNEL_PROGRAM:
    return write(k->program().handle());
  case CL_KERNEL_ATTRIBUTES:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, info.attributes);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  Kernel *k;
  const compiler::KernelArgInfo *argInfo;
  if (cl_int code = resolveKernelArg(kernel, arg_index, k, argInfo))
    return code;
  // Argument state, not declaration: answered without -cl-kernel-arg-info.
  if (param_name == CL_KERNEL_ARG_PASSED_AS_CONST_POLYMUX)
    return writeInfo(param_value_size, param_value, param_value_size_ret, argPassedAsConst(*k, arg_index));
  // Types are always described; parameter names only with -cl-kernel-arg-info.
  if (param_name == CL_KERNEL_ARG_ENTITY_POLYMUX)
    return kernelArgEntityInfo(*k, *argInfo, argInfoAvailable(k->program()), param_value_size, param_value,
                               param_value_size_ret);
  if (!argInfoAvailable(k->program()))
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  const compiler::KernelArgInfo &arg = *argInfo;
  auto write = [&](const auto &value) { return writeInfo(param_value_size, param_value, param_value_size_ret, value); };
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return write(addressQualifier(arg));
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return write(accessQualifier(arg.access));
  case CL_KERNEL_ARG_TYPE_NAME:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, arg.typeName);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return write(typeQualifier(arg.typeQualifiers));
  case CL_KERNEL_ARG_NAME:
    return writeInfoString(param_value_size, param_value, param_value_size_ret, arg.name);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
