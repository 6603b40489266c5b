// The definitions behind pmx_image.h's asm labels: on CPU triples Clang
// passes images and samplers as plain pointers, so each is a cast. On the
// SPIR-V triple they are opaque types of their own (spirv.Image,
// spirv.Sampler) that OpenCL C cannot cast: the vulkan compiler resolves
// these three functions itself (spirv/passes/lower_image_handles.cpp).
#include "pmx_image.h"

#ifndef __SPIRV__

__global void *__pmx_image_descriptor(__global void *image) { return image; }

// A sampler argument is passed as its CLK_* bits in a pointer-sized value.
uint __pmx_sampler_bits(__global void *sampler) { return (uint)(ulong)sampler; }

// Clang's lowering of a constant sampler (sampler_t s = CLK_...).
__global void *__translate_sampler_initializer(int bits) { return (__global void *)(ulong)(uint)bits; }

#endif
