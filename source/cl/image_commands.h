// The image commands a queue (clEnqueue*Image) and a command buffer
// (clCommand*ImageKHR) both take, as builders in the manner of
// command_builders.h: each checks its arguments against the queue, builds
// the Command and hands it to the sink.
#pragma once

#include "command_builders.h"

#include <CL/cl.h>

namespace polymux::cl {

cl_int buildFillImage(cl_command_queue queue, cl_mem image, const void *fillColor, const size_t *origin,
                      const size_t *region, CommandSink sink);
cl_int buildCopyImage(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *srcOrigin, const size_t *dstOrigin,
                      const size_t *region, CommandSink sink);
/// clEnqueueCopyImageToBuffer (`toBuffer`) and clEnqueueCopyBufferToImage.
cl_int buildCopyImageBuffer(cl_command_queue queue, cl_mem image, cl_mem buffer, const size_t *origin,
                            const size_t *region, size_t offset, bool toBuffer, CommandSink sink);

} // namespace polymux::cl
