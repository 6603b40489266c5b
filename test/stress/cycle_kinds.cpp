#include "cycle_kinds.h"

#include "callbacks.h"
#include "cl_error_name.h"
#include "kernels.h"
#include "reference.h"

#include <cstdlib>
#include <filesystem>
#include <memory>

namespace stress {
namespace {

constexpr size_t kBufferElements = 1024;

Program buildWorkload(cl_context context, const DeviceFacts &device, Tally &tally, const std::string &options) {
  cl_int err = CL_SUCCESS;
  const char *source = kernels::kWorkload;
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  ok(err, "clCreateProgramWithSource");
  ok(clBuildProgram(program, 1, &device.id, options.c_str(), onProgramBuilt, expectBuildCallback(tally)),
     "clBuildProgram");
  return program;
}

/// Runs scale_add of `program` over a small buffer and checks it.
void launchAndCheck(CycleFixture &f, cl_program program, unsigned long i) {
  std::vector<uint32_t> in(kBufferElements);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = static_cast<uint32_t>(k * 7 + i);
  const size_t size = in.size() * sizeof(uint32_t);
  Mem input = createBuffer(f.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, in.data());
  Mem output = createBuffer(f.context, CL_MEM_WRITE_ONLY, size);
  Kernel kernel = createKernel(program, "scale_add");
  const cl_uint a = 3, b = static_cast<cl_uint>(i);
  setArgs(kernel, input.get(), output.get(), a, b);
  enqueueKernel(f.queue, kernel, in.size(), 0);
  ++f.tally.checks;
  if (readBack(f.queue, output, in.size()) != reference::scaleAdd(in, a, b))
    f.tally.wrongResult("kernel launch of cycle " + std::to_string(i));
}

/// POLYMUX_CACHE pointed at a directory of its own while a kind runs.
struct CacheDirectory {
  std::string path;
  std::string previous;
  bool hadPrevious = false;
  void enter() {
    char pattern[] = "/tmp/polymux-stress-cache-XXXXXX";
    if (!mkdtemp(pattern))
      throw ApiError("mkdtemp", CL_OUT_OF_HOST_MEMORY);
    path = pattern;
    if (const char *value = std::getenv("POLYMUX_CACHE")) {
      previous = value;
      hadPrevious = true;
    }
    setenv("POLYMUX_CACHE", path.c_str(), 1);
  }
  void leave() {
    if (hadPrevious)
      setenv("POLYMUX_CACHE", previous.c_str(), 1);
    else
      unsetenv("POLYMUX_CACHE");
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

} // namespace

CycleFixture::CycleFixture(const DeviceFacts &device) : device(device) {
  cl_int err = CL_SUCCESS;
  context.reset(clCreateContext(nullptr, 1, &device.id, onContextNotify, &tally, &err));
  ok(err, "clCreateContext");
  queue.reset(clCreateCommandQueueWithProperties(context, device.id, nullptr, &err));
  ok(err, "clCreateCommandQueueWithProperties");
  program = buildWorkload(context, device, tally, "");
  parent = createBuffer(context, CL_MEM_READ_WRITE, 64 * 1024);
}

std::vector<CycleKind> cycleKinds(CycleFixture &fixture, std::vector<std::string> &notes) {
  std::vector<CycleKind> kinds;
  kinds.push_back(CycleKind{"context", 1, [](CycleFixture &f, unsigned long) {
                              cl_int err = CL_SUCCESS;
                              Context context(
                                  clCreateContext(nullptr, 1, &f.device.id, onContextNotify, &f.tally, &err));
                              ok(err, "clCreateContext");
                            }});
  kinds.push_back(CycleKind{"command queue", 1, [](CycleFixture &f, unsigned long i) {
                              // In order, out of order, with profiling, in turn.
                              cl_command_queue_properties properties = 0;
                              if (i % 3 == 1 && f.device.outOfOrder)
                                properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
                              if (i % 3 == 2)
                                properties = CL_QUEUE_PROFILING_ENABLE;
                              const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
                              cl_int err = CL_SUCCESS;
                              Queue queue(clCreateCommandQueueWithProperties(f.context, f.device.id, list, &err));
                              ok(err, "clCreateCommandQueueWithProperties");
                            }});
  kinds.push_back(CycleKind{"buffer", 1, [](CycleFixture &f, unsigned long i) {
                              // Each way of allocating, with a destructor callback.
                              static const cl_mem_flags kFlags[] = {CL_MEM_READ_WRITE, CL_MEM_ALLOC_HOST_PTR,
                                                                    CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR};
                              static uint32_t host[kBufferElements];
                              const cl_mem_flags flags = kFlags[i % 4];
                              const bool hostPointer = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
                              Mem mem = createBuffer(f.context, flags, sizeof(host), hostPointer ? host : nullptr);
                              watchDestructor(f.tally, mem);
                            }});
  kinds.push_back(
      CycleKind{"sub-buffer", 1, [](CycleFixture &f, unsigned long i) {
                  const size_t align = std::max<cl_uint>(f.device.baseAddressAlignBytes, 4);
                  const cl_buffer_region region{align * (i % 16), 4096};
                  cl_int err = CL_SUCCESS;
                  Mem sub(clCreateSubBuffer(f.parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
                  ok(err, "clCreateSubBuffer");
                  watchDestructor(f.tally, sub);
                }});
  kinds.push_back(CycleKind{"program from source (not built)", 1, [](CycleFixture &f, unsigned long) {
                              cl_int err = CL_SUCCESS;
                              const char *source = kernels::kWorkload;
                              Program program(clCreateProgramWithSource(f.context, 1, &source, nullptr, &err));
                              ok(err, "clCreateProgramWithSource");
                            }});
  kinds.push_back(CycleKind{"kernel (and a clone)", 1, [](CycleFixture &f, unsigned long i) {
                              Kernel kernel = createKernel(f.program, "scale_add");
                              setArgs(kernel, f.parent.get(), f.parent.get(), cl_uint(1), cl_uint(i));
                              if (i % 2) {
                                cl_int err = CL_SUCCESS;
                                Kernel clone(clCloneKernel(kernel, &err));
                                ok(err, "clCloneKernel");
                              }
                            }});
  kinds.push_back(CycleKind{"user event", 1, [](CycleFixture &f, unsigned long i) {
                              cl_int err = CL_SUCCESS;
                              Event event(clCreateUserEvent(f.context, &err));
                              ok(err, "clCreateUserEvent");
                              const bool fails = i % 4 == 3;
                              watchEvent(f.tally, event, CL_COMPLETE, fails ? Expect::Failure : Expect::Complete);
                              ok(clSetUserEventStatus(event, fails ? -1 : CL_COMPLETE), "clSetUserEventStatus");
                            }});
  kinds.push_back(CycleKind{"command event (marker)", 1, [](CycleFixture &f, unsigned long i) {
                              Event event;
                              ok(clEnqueueMarkerWithWaitList(f.queue, 0, nullptr, event.out()),
                                 "clEnqueueMarkerWithWaitList");
                              watchEvent(f.tally, event, CL_COMPLETE, Expect::Complete);
                              if (i % 64 == 63)
                                ok(clFinish(f.queue), "clFinish");
                            }});
  kinds.push_back(CycleKind{"kernel launch (buffers, kernel, read)", 1,
                            [](CycleFixture &f, unsigned long i) { launchAndCheck(f, f.program, i); }});
  // A build of the workload that compiles takes 35 ms (vulkan) to 350 ms
  // (host) on a 2-core AMD EPYC: one per two hundred cycles.
  kinds.push_back(CycleKind{"program built, compiled (cache off)", 0.005, [](CycleFixture &f, unsigned long i) {
                              Program program =
                                  buildWorkload(f.context, f.device, f.tally, "-DSALT=" + std::to_string(i) + "u");
                              launchAndCheck(f, program, i);
                            }});
  auto cache = std::make_shared<CacheDirectory>();
  kinds.push_back(CycleKind{"program built, from the kernel cache", 0.1,
                            [](CycleFixture &f, unsigned long i) {
                              Program program = buildWorkload(f.context, f.device, f.tally, "-DSALT=1u");
                              launchAndCheck(f, program, i);
                            },
                            [cache] { cache->enter(); }, [cache] { cache->leave(); }});
  if (fixture.device.images) {
    kinds.push_back(CycleKind{"sampler", 1, [](CycleFixture &f, unsigned long) {
                                const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
                                cl_int err = CL_SUCCESS;
                                cl_sampler sampler = clCreateSamplerWithProperties(f.context, properties, &err);
                                ok(err, "clCreateSamplerWithProperties");
                                clReleaseSampler(sampler);
                              }});
  } else {
    cl_int err = CL_SUCCESS;
    cl_sampler sampler = clCreateSamplerWithProperties(fixture.context, nullptr, &err);
    if (sampler || err != CL_INVALID_OPERATION)
      fixture.tally.error(std::string("clCreateSamplerWithProperties without image support returned ") +
                          cltest::errorName(err) + ", not CL_INVALID_OPERATION");
    notes.push_back("samplers: not offered (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE); clCreateSamplerWithProperties "
                    "returns " +
                    std::string(cltest::errorName(err)));
  }
  return kinds;
}

} // namespace stress
