// clBuildProgram, clCompileProgram and clLinkProgram: run the device
// compilers and record status, log, options and the resulting module per
// device. Builds run synchronously; pfn_notify is called before returning,
// which the specification allows.
#include "program_binary.h"
#include "program_cache.h"
#include "program_impl.h"

#include "compiler/il/spirv_spec_constants.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <new>

using namespace polymux::cl;

namespace {

using NotifyFn = void(CL_CALLBACK *)(cl_program, void *);

/// The API codes of one kind of step.
struct StepCodes {
  cl_int failure;    ///< CL_BUILD/COMPILE/LINK_PROGRAM_FAILURE
  cl_int badOptions; ///< CL_INVALID_BUILD/COMPILER/LINKER_OPTIONS
};
constexpr StepCodes kBuildCodes{CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS};
constexpr StepCodes kCompileCodes{CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS};
constexpr StepCodes kLinkCodes{CL_LINK_PROGRAM_FAILURE, CL_INVALID_LINKER_OPTIONS};

/// What one device's compile/link/build produced.
struct DeviceResult {
  cl_int code = CL_SUCCESS;
  std::string log;
  std::unique_ptr<compiler::Module> module;
};

DeviceResult fromCompiler(llvm::Expected<std::unique_ptr<compiler::Module>> result, std::string log, StepCodes codes) {
  DeviceResult r;
  r.log = std::move(log);
  if (result) {
    r.module = std::move(*result);
    return r;
  }
  std::string message;
  mux::Status status = takeStatusAndMessage(result.takeError(), message);
  if (status == mux::Status::InvalidArgument && llvm::StringRef(message).contains("invalid build option"))
    r.code = codes.badOptions;
  else
    r.code = errorCodeFor(status, codes.failure);
  // The reason goes into the build log unless the compiler put it there.
  if (!message.empty() && r.log.find(message) == std::string::npos) {
    if (!r.log.empty() && r.log.back() != '\n')
      r.log += '\n';
    r.log += message;
    r.log += '\n';
  }
  return r;
}

/// Validates a (num_devices, device_list) pair against the devices allowed;
/// a null list selects all of them.
cl_int selectDevices(std::span<Device *const> allowed, cl_uint numDevices, const cl_device_id *deviceList,
                     std::vector<Device *> &selected) {
  if ((numDevices == 0) != (deviceList == nullptr))
    return CL_INVALID_VALUE;
  if (!deviceList) {
    selected.assign(allowed.begin(), allowed.end());
    return CL_SUCCESS;
  }
  for (cl_uint i = 0; i < numDevices; ++i) {
    Device *device = Device::fromHandle(deviceList[i]);
    if (!device || std::find(allowed.begin(), allowed.end(), device) == allowed.end())
      return CL_INVALID_DEVICE;
    if (std::find(selected.begin(), selected.end(), device) == selected.end())
      selected.push_back(device);
  }
  return CL_SUCCESS;
}

/// The first failure in `results`, preferring option errors (they explain
/// all the others).
cl_int combinedCode(const std::vector<DeviceResult> &results, StepCodes codes) {
  cl_int code = CL_SUCCESS;
  for (const DeviceResult &r : results) {
    if (r.code == codes.badOptions)
      return r.code;
    if (code == CL_SUCCESS)
      code = r.code;
  }
  return code;
}

/// Marks the selected devices as building. Fails with CL_INVALID_OPERATION
/// while kernels are attached or another build runs.
cl_int beginBuild(Program::Impl &impl, const std::vector<Device *> &devices, bool keepModules) {
  std::lock_guard lock(impl.mutex);
  if (impl.busy || impl.users)
    return CL_INVALID_OPERATION;
  for (Device *device : devices) {
    DeviceBuild &build = *impl.find(*device);
    if (keepModules) {
      // A binary program keeps the module it was created with as input.
      if (!build.module)
        return CL_INVALID_BINARY;
      build.executable.reset();
      build.encodedBinary.reset();
      build.log.clear();
    } else {
      build.reset();
    }
  }
  impl.entities.reset();
  impl.busy = true;
  for (Device *device : devices)
    impl.find(*device)->status = CL_BUILD_IN_PROGRESS;
  return CL_SUCCESS;
}

/// Stores one device's result (module replaced only on success when
/// `replaceOnFailure` is false).
void storeResult(DeviceBuild &build, DeviceResult &result, std::string_view options, uint32_t flags,
                 bool keepModuleOnFailure) {
  build.options = options;
  build.log = std::move(result.log);
  if (result.code == CL_SUCCESS) {
    build.module = std::move(result.module);
    build.binaryType = binaryTypeOf(build.module->kind());
    build.flags = flags;
    build.status = CL_BUILD_SUCCESS;
  } else {
    if (!keepModuleOnFailure) {
      build.module.reset();
      build.binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    }
    build.status = CL_BUILD_ERROR;
  }
}

/// clBuildProgram and clCompileProgram on `program` for `devices`.
/// `ran` tells whether compilers ran (and so pfn_notify is due).
cl_int buildOrCompile(Program &program, const std::vector<Device *> &devices, std::string_view options,
                      std::span<const compiler::Header> headers, bool compileOnly, bool &ran) {
  Program::Impl &impl = program.impl();
  const StepCodes codes = compileOnly ? kCompileCodes : kBuildCodes;
  const bool fromBinary = impl.origin == ProgramOrigin::Binary;
  if (impl.origin == ProgramOrigin::Linked || (compileOnly && fromBinary))
    return CL_INVALID_OPERATION;
  if (cl_int code = beginBuild(impl, devices, fromBinary); code != CL_SUCCESS)
    return code;
  ran = true;

  // The module with the values of clSetProgramSpecializationConstant.
  std::vector<std::byte> il;
  if (impl.origin == ProgramOrigin::IL) {
    std::lock_guard lock(impl.mutex);
    il = compiler::il::specialize(impl.il, impl.specValues);
  }
  std::vector<DeviceResult> results;
  std::vector<uint32_t> flags;
  for (Device *device : devices) {
    compiler::Target &compiler = device->mux().compiler();
    std::string log;
    try {
      if (impl.origin == ProgramOrigin::IL) {
        flags.push_back(ilBuildFlagsFromOptions(options));
        auto module =
            compileOnly ? compiler.compileIL(il, options, log) : buildILWithProgramCache(compiler, il, options, log);
        results.push_back(fromCompiler(std::move(module), std::move(log), codes));
        continue;
      }
      if (!fromBinary) {
        flags.push_back(buildFlagsFromOptions(options));
        // The log is complete only once the compiler returns.
        auto module = compileOnly ? compiler.compile(impl.source, options, headers, log)
                                  : buildWithProgramCache(compiler, impl.source, options, log);
        results.push_back(fromCompiler(std::move(module), std::move(log), codes));
        continue;
      }
      // Binary programs: executables are ready; objects and libraries are
      // linked into one. The module is only read here; nothing else touches
      // it while `busy` is set.
      compiler::Module *input;
      {
        std::lock_guard lock(impl.mutex);
        DeviceBuild &build = *impl.find(*device);
        input = build.module.get();
        flags.push_back(build.flags);
      }
      if (input->kind() == compiler::ModuleKind::Executable) {
        results.push_back(DeviceResult{});
        continue;
      }
      compiler::Module *inputs[] = {input};
      auto linked = compiler.link(inputs, options, log);
      results.push_back(fromCompiler(std::move(linked), std::move(log), codes));
    } catch (const std::bad_alloc &) {
      results.push_back(DeviceResult{CL_OUT_OF_HOST_MEMORY, std::move(log), nullptr});
    }
  }

  std::lock_guard lock(impl.mutex);
  for (size_t i = 0; i < devices.size(); ++i) {
    DeviceBuild &build = *impl.find(*devices[i]);
    if (fromBinary && results[i].code == CL_SUCCESS && !results[i].module)
      results[i].module = std::move(build.module); // already an executable
    storeResult(build, results[i], options, flags[i], fromBinary);
  }
  impl.busy = false;
  return combinedCode(results, codes);
}

/// The program and the devices clBuildProgram and clCompileProgram act on.
cl_int resolveProgramDevices(cl_program handle, cl_uint numDevices, const cl_device_id *deviceList, Program *&program,
                             std::vector<Device *> &devices) {
  program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  return selectDevices(program->devices(), numDevices, deviceList, devices);
}

/// Runs a build or compile step, which sets `ran` once the compilers ran,
/// then calls pfn_notify if they did (only then is there a result to read).
template <typename Step> cl_int runAndNotify(cl_program program, NotifyFn pfnNotify, void *userData, Step step) {
  cl_int result;
  bool ran = false;
  try {
    result = step(ran);
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (pfnNotify && ran)
    pfnNotify(program, userData);
  return result;
}

} // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                               const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data) {
  Program *p;
  std::vector<Device *> devices;
  if (cl_int code = resolveProgramDevices(program, num_devices, device_list, p, devices))
    return code;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  return runAndNotify(program, pfn_notify, user_data, [&](bool &ran) {
    return buildOrCompile(*p, devices, options ? options : "", {}, /*compileOnly=*/false, ran);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id *device_list, const char *options,
                                                 cl_uint num_input_headers, const cl_program *input_headers,
                                                 const char **header_include_names,
                                                 void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  Program *p;
  std::vector<Device *> devices;
  if (cl_int code = resolveProgramDevices(program, num_devices, device_list, p, devices))
    return code;
  if (num_input_headers == 0 ? (input_headers || header_include_names) : (!input_headers || !header_include_names))
    return CL_INVALID_VALUE;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  return runAndNotify(program, pfn_notify, user_data, [&](bool &ran) -> cl_int {
    std::vector<compiler::Header> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      Program *header = Program::fromHandle(input_headers[i]);
      if (!header || &header->context() != &p->context())
        return CL_INVALID_PROGRAM;
      if (!header_include_names[i])
        return CL_INVALID_VALUE;
      headers.push_back({header_include_names[i], header->impl().source});
    }
    return buildOrCompile(*p, devices, options ? options : "", headers, /*compileOnly=*/true, ran);
  });
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id *device_list, const char *options,
                                                  cl_uint num_input_programs, const cl_program *input_programs,
                                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data,
                                                  cl_int *errcode_ret) {
  auto fail = [&](cl_int code) -> cl_program {
    if (errcode_ret)
      *errcode_ret = code;
    return nullptr;
  };
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return fail(CL_INVALID_CONTEXT);
  std::vector<Device *> devices;
  if (cl_int code = selectDevices(ctx->devices(), num_devices, device_list, devices); code != CL_SUCCESS)
    return fail(code);
  if (num_input_programs == 0 || !input_programs)
    return fail(CL_INVALID_VALUE);
  if (!pfn_notify && user_data)
    return fail(CL_INVALID_VALUE);
  std::vector<Program *> inputs;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    Program *input = Program::fromHandle(input_programs[i]);
    if (!input || &input->context() != ctx)
      return fail(CL_INVALID_PROGRAM);
    inputs.push_back(input);
  }
  std::string_view linkOptions = options ? options : "";

  try {
    // Pin the inputs' modules: rebuilding an input now fails with
    // CL_INVALID_OPERATION until the link is done.
    std::vector<Ref<Program>> pinned;
    auto unpin = [&] {
      for (Ref<Program> &input : pinned)
        input->detachKernel();
    };
    // Per device, the input modules; a device gets linked only when every
    // input has an object or library for it.
    std::vector<std::vector<compiler::Module *>> modules(devices.size());
    std::vector<uint32_t> flags(devices.size(), BinaryFlagKernelArgInfo);
    for (Program *input : inputs) {
      Program::Impl &impl = input->impl();
      std::lock_guard lock(impl.mutex);
      if (impl.busy) {
        unpin();
        return fail(CL_INVALID_OPERATION);
      }
      ++impl.users;
      pinned.push_back(input);
      for (size_t d = 0; d < devices.size(); ++d) {
        DeviceBuild *build = impl.find(*devices[d]);
        // A compiled object or library comes from a successful compile or
        // link, or from clCreateProgramWithBinary (no step ran on it yet, so
        // its status is still CL_BUILD_NONE).
        const bool usable = build && build->module &&
                            (build->status == CL_BUILD_SUCCESS ||
                             (build->status == CL_BUILD_NONE && impl.origin == ProgramOrigin::Binary));
        if (!usable || build->module->kind() == compiler::ModuleKind::Executable)
          continue;
        modules[d].push_back(build->module.get());
        flags[d] = (flags[d] & build->flags & BinaryFlagKernelArgInfo) |
                   ((flags[d] | build->flags) & BinaryFlagUniformWorkGroups);
      }
    }
    std::vector<Device *> linkDevices;
    for (size_t d = 0; d < devices.size(); ++d) {
      if (modules[d].size() == inputs.size())
        linkDevices.push_back(devices[d]);
      else if (!modules[d].empty()) {
        unpin();
        return fail(CL_INVALID_OPERATION); // some inputs lack this device
      }
    }
    if (linkDevices.empty()) {
      unpin();
      return fail(CL_INVALID_OPERATION);
    }

    std::vector<DeviceResult> results;
    for (size_t d = 0; d < devices.size(); ++d) {
      if (modules[d].empty())
        continue;
      std::string log;
      auto linked = devices[d]->mux().compiler().link(modules[d], linkOptions, log);
      results.push_back(fromCompiler(std::move(linked), std::move(log), kLinkCodes));
    }
    unpin();

    cl_int code = combinedCode(results, kLinkCodes);
    if (code == CL_INVALID_LINKER_OPTIONS || code == CL_OUT_OF_HOST_MEMORY || code == CL_OUT_OF_RESOURCES)
      return fail(code);
    // Link failures still return the program, so its build log can be read.
    Program *linked = createProgram(*ctx, ProgramOrigin::Linked, devices, {});
    {
      Program::Impl &impl = linked->impl();
      std::lock_guard lock(impl.mutex);
      size_t r = 0;
      for (size_t d = 0; d < devices.size(); ++d)
        if (!modules[d].empty())
          storeResult(impl.builds[d], results[r++], linkOptions, flags[d], false);
    }
    if (errcode_ret)
      *errcode_ret = code;
    if (pfn_notify)
      pfn_notify(linked->handle(), user_data);
    return linked->handle();
  } catch (const std::bad_alloc &) {
    return fail(CL_OUT_OF_HOST_MEMORY);
  }
}

} // extern "C"
