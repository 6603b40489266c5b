// Sampler objects (clCreateSampler*): plain state, passed to kernels as the
// CLK_* bits of OpenCL C (compiler/abi/image_abi.h).
#pragma once

#include "context.h"
#include "object.h"

#include <vector>

namespace polymux::cl {

class SamplerObject final : public Object<_cl_sampler, ObjectKind::Sampler> {
public:
  SamplerObject(Context &context, bool normalized, cl_addressing_mode addressing, cl_filter_mode filter,
                std::vector<cl_sampler_properties> properties)
      : context_(&context), normalized_(normalized), addressing_(addressing), filter_(filter),
        properties_(std::move(properties)) {}

  static SamplerObject *fromHandle(cl_sampler handle) { return Object::fromHandle<SamplerObject>(handle); }

  Context &context() const { return *context_; }
  bool normalized() const { return normalized_; }
  cl_addressing_mode addressing() const { return addressing_; }
  cl_filter_mode filter() const { return filter_; }
  const std::vector<cl_sampler_properties> &properties() const { return properties_; }
  /// The sampler as OpenCL C's sampler_t bits (CLK_NORMALIZED_COORDS_*,
  /// CLK_ADDRESS_*, CLK_FILTER_*).
  uint32_t kernelBits() const;

private:
  Ref<Context> context_;
  bool normalized_;
  cl_addressing_mode addressing_;
  cl_filter_mode filter_;
  std::vector<cl_sampler_properties> properties_;
};

} // namespace polymux::cl
