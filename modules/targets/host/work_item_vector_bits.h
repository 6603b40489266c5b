// How wide the host compiler vectorises across work-items; the device
// information reports widths to match.
#pragma once

namespace host {

/// Bits of the vector registers kernels are vectorised across work-items
/// for: the CPU's widest for floating-point work (512 with AVX-512F, 256
/// with AVX2, else 128); 0 when POLYMUX_VECTORIZE=0 asks for the scalar
/// work-item loops.
unsigned workItemVectorBits();

} // namespace host
