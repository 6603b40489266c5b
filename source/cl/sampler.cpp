// Samplers: clCreateSampler[WithProperties], retain/release, clGetSamplerInfo.
#include "sampler.h"

#include "device.h"
#include "info.h"

namespace polymux::cl {

uint32_t SamplerObject::kernelBits() const {
  // OpenCL C's values (opencl-c-base.h): CLK_NORMALIZED_COORDS_TRUE 1,
  // CLK_ADDRESS_* 0/2/4/6/8 in order, CLK_FILTER_NEAREST 0x10, _LINEAR 0x20.
  uint32_t address = 0;
  switch (addressing_) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    address = 2;
    break;
  case CL_ADDRESS_CLAMP:
    address = 4;
    break;
  case CL_ADDRESS_REPEAT:
    address = 6;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    address = 8;
    break;
  default:
    break;
  }
  return (normalized_ ? 1u : 0u) | address | (filter_ == CL_FILTER_LINEAR ? 0x20u : 0x10u);
}

namespace {

cl_sampler failSampler(cl_int *errcodeRet, cl_int code) {
  if (errcodeRet)
    *errcodeRet = code;
  return nullptr;
}

bool validAddressingMode(cl_addressing_mode mode) {
  switch (mode) {
  case CL_ADDRESS_NONE:
  case CL_ADDRESS_CLAMP_TO_EDGE:
  case CL_ADDRESS_CLAMP:
  case CL_ADDRESS_REPEAT:
  case CL_ADDRESS_MIRRORED_REPEAT:
    return true;
  default:
    return false;
  }
}

bool validFilterMode(cl_filter_mode mode) { return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR; }

bool validBool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

cl_sampler createSampler(Context &context, bool normalized, cl_addressing_mode addressing, cl_filter_mode filter,
                         std::vector<cl_sampler_properties> properties, cl_int *errcodeRet) {
  bool images = false;
  for (Device *device : context.devices())
    images |= device->info().images;
  if (!images)
    return failSampler(errcodeRet, CL_INVALID_OPERATION);
  auto *sampler = new SamplerObject(context, normalized, addressing, filter, std::move(properties));
  if (errcodeRet)
    *errcodeRet = CL_SUCCESS;
  return sampler->handle();
}

} // namespace
} // namespace polymux::cl

using namespace polymux::cl;

extern "C" {

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return failSampler(errcode_ret, CL_INVALID_CONTEXT);
  if (!validBool(normalized_coords) || !validAddressingMode(addressing_mode) || !validFilterMode(filter_mode))
    return failSampler(errcode_ret, CL_INVALID_VALUE);
  return createSampler(*ctx, normalized_coords, addressing_mode, filter_mode, {}, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties *properties,
                                                                  cl_int *errcode_ret) {
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return failSampler(errcode_ret, CL_INVALID_CONTEXT);
  bool seenNormalized = false, seenAddressing = false, seenFilter = false;
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> list;
  for (const cl_sampler_properties *p = properties; p && *p != 0; p += 2) {
    bool *seen;
    bool valid;
    switch (p[0]) {
    case CL_SAMPLER_NORMALIZED_COORDS:
      seen = &seenNormalized;
      valid = validBool(p[1]);
      normalized = static_cast<cl_bool>(p[1]);
      break;
    case CL_SAMPLER_ADDRESSING_MODE:
      seen = &seenAddressing;
      valid = validAddressingMode(cl_addressing_mode(p[1]));
      addressing = cl_addressing_mode(p[1]);
      break;
    case CL_SAMPLER_FILTER_MODE:
      seen = &seenFilter;
      valid = validFilterMode(cl_filter_mode(p[1]));
      filter = cl_filter_mode(p[1]);
      break;
    default:
      return failSampler(errcode_ret, CL_INVALID_VALUE);
    }
    if (*seen || !valid)
      return failSampler(errcode_ret, CL_INVALID_VALUE);
    *seen = true;
    list.insert(list.end(), {p[0], p[1]});
  }
  if (properties)
    list.push_back(0);
  return createSampler(*ctx, normalized, addressing, filter, std::move(list), errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler handle) {
  SamplerObject *sampler = SamplerObject::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  sampler->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler handle) {
  SamplerObject *sampler = SamplerObject::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  sampler->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler handle, cl_sampler_info param_name, size_t param_value_size,
                                                 void *param_value, size_t *param_value_size_ret) {
  SamplerObject *sampler = SamplerObject::fromHandle(handle);
  if (!sampler)
    return CL_INVALID_SAMPLER;
  auto answer = [&](const auto &value) {
    return writeInfo(param_value_size, param_value, param_value_size_ret, value);
  };
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return answer(static_cast<cl_uint>(sampler->refCount()));
  case CL_SAMPLER_CONTEXT:
    return answer(sampler->context().handle());
  case CL_SAMPLER_NORMALIZED_COORDS:
    return answer(cl_bool{sampler->normalized()});
  case CL_SAMPLER_ADDRESSING_MODE:
    return answer(sampler->addressing());
  case CL_SAMPLER_FILTER_MODE:
    return answer(sampler->filter());
  case CL_SAMPLER_PROPERTIES:
    return writeInfoArray(param_value_size, param_value, param_value_size_ret,
                          std::span<const cl_sampler_properties>(sampler->properties()));
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
