// struct_layout: asks the device how it lays out a kernel's struct argument
// (cl_polymux_kernel_arg_entities), prints the layout, fills a host buffer of
// those structs byte for byte from it and checks what the kernel reads.
//
//   OCL_ICD_VENDORS=<build>/icd ./struct_layout
//
// The host never declares the struct: every offset comes from the device.
#include "cl_example.h"

#include <CL/cl_ext_polymux.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
typedef struct {
  char id;
  float4 position;
  int hits;
} Body;

__kernel void score(__global const Body *bodies, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = bodies[i].id + bodies[i].position.w * bodies[i].hits;
}
)CLC";

clGetEntityInfoPOLYMUX_fn getEntityInfo;
clNumMemberEntitiesPOLYMUX_fn numMembers;
clGetEntityMemberInfoPOLYMUX_fn getMemberInfo;

std::string text(cl_program program, cl_entity_POLYMUX entity, cl_entity_info_POLYMUX what) {
  size_t size = 0;
  example::check(getEntityInfo(program, entity, what, 0, nullptr, &size), "clGetEntityInfoPOLYMUX");
  std::string value(size, '\0');
  example::check(getEntityInfo(program, entity, what, size, value.data(), nullptr), "clGetEntityInfoPOLYMUX");
  value.resize(size ? size - 1 : 0); // drop the NUL
  return value;
}

template <typename T> T value(cl_program program, cl_entity_POLYMUX entity, cl_entity_info_POLYMUX what) {
  T result{};
  example::check(getEntityInfo(program, entity, what, sizeof(result), &result, nullptr), "clGetEntityInfoPOLYMUX");
  return result;
}

} // namespace

int main() {
  using example::check;
  example::Selection selection = example::selectDevice();
  std::printf("device: %s\n", selection.deviceName.c_str());
  getEntityInfo = example::extensionFunction<clGetEntityInfoPOLYMUX_fn>(selection.platform, "clGetEntityInfoPOLYMUX");
  numMembers =
      example::extensionFunction<clNumMemberEntitiesPOLYMUX_fn>(selection.platform, "clNumMemberEntitiesPOLYMUX");
  getMemberInfo =
      example::extensionFunction<clGetEntityMemberInfoPOLYMUX_fn>(selection.platform, "clGetEntityMemberInfoPOLYMUX");

  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &selection.device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, selection.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");
  cl_program program = example::buildProgram(context, selection.device, kSource);
  cl_kernel kernel = clCreateKernel(program, "score", &status);
  check(status, "clCreateKernel");

  // Argument 0 is `global const Body *`: pointer -> typedef Body -> struct.
  cl_entity_POLYMUX argument = nullptr;
  check(clGetKernelArgInfo(kernel, 0, CL_KERNEL_ARG_ENTITY_POLYMUX, sizeof(argument), &argument, nullptr),
        "clGetKernelArgInfo");
  auto body = value<cl_entity_POLYMUX>(program, argument, CL_ENTITY_POINTEE_POLYMUX);
  std::printf("typedef %s:\n", text(program, body, CL_ENTITY_TYPE_NAME_POLYMUX).c_str());
  while (value<cl_entity_kind_POLYMUX>(program, body, CL_ENTITY_KIND_POLYMUX) == CL_ENTITY_KIND_TYPEDEF_POLYMUX)
    body = value<cl_entity_POLYMUX>(program, body, CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  const size_t stride = value<size_t>(program, body, CL_ENTITY_SIZE_POLYMUX);
  std::printf("  struct of %zu bytes, aligned to %zu\n", stride,
              value<size_t>(program, body, CL_ENTITY_ALIGNMENT_POLYMUX));

  size_t idAt = 0, positionAt = 0, hitsAt = 0;
  const size_t count = numMembers(program, body, &status);
  check(status, "clNumMemberEntitiesPOLYMUX");
  for (cl_uint i = 0; i < count; ++i) {
    cl_entity_POLYMUX member = nullptr;
    size_t offset = 0;
    check(getMemberInfo(program, body, i, CL_ENTITY_MEMBER_ENTITY_POLYMUX, sizeof(member), &member, nullptr),
          "clGetEntityMemberInfoPOLYMUX");
    check(getMemberInfo(program, body, i, CL_ENTITY_MEMBER_OFFSET_POLYMUX, sizeof(offset), &offset, nullptr),
          "clGetEntityMemberInfoPOLYMUX");
    std::string name = text(program, member, CL_ENTITY_NAME_POLYMUX);
    std::printf("  %-8s %-8s at offset %2zu, %zu bytes\n", text(program, member, CL_ENTITY_TYPE_NAME_POLYMUX).c_str(),
                name.c_str(), offset, value<size_t>(program, member, CL_ENTITY_SIZE_POLYMUX));
    (name == "id" ? idAt : name == "position" ? positionAt : hitsAt) = offset;
  }

  // Fill the buffer exactly as the device will read it.
  constexpr size_t kBodies = 4;
  std::vector<unsigned char> bytes(kBodies * stride, 0);
  std::vector<float> expected(kBodies);
  for (size_t i = 0; i < kBodies; ++i) {
    cl_char id = static_cast<cl_char>(10 * i);
    cl_float4 position = {{0.0f, 0.0f, 0.0f, 0.5f * i}};
    cl_int hits = static_cast<cl_int>(i + 1);
    std::memcpy(&bytes[i * stride + idAt], &id, sizeof(id));
    std::memcpy(&bytes[i * stride + positionAt], &position, sizeof(position));
    std::memcpy(&bytes[i * stride + hitsAt], &hits, sizeof(hits));
    expected[i] = id + position.s[3] * hits;
  }
  cl_mem bodies = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data(), &status);
  check(status, "clCreateBuffer(bodies)");
  cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, kBodies * sizeof(float), nullptr, &status);
  check(status, "clCreateBuffer(out)");
  check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &bodies), "clSetKernelArg(bodies)");
  check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out), "clSetKernelArg(out)");
  const size_t global = kBodies;
  check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  std::vector<float> result(kBodies);
  check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, kBodies * sizeof(float), result.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");

  clReleaseMemObject(out);
  clReleaseMemObject(bodies);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);

  if (result != expected) {
    std::printf("struct_layout: FAILED: the kernel read other values than the host wrote\n");
    return 1;
  }
  std::printf("struct_layout: ok\n");
  return 0;
}
