#include "work_item_vector_bits.h"

#include <cstdlib>
#include <string_view>

namespace host {

unsigned workItemVectorBits() {
  if (const char *setting = std::getenv("POLYMUX_VECTORIZE"); setting && std::string_view(setting) == "0")
    return 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return 512;
  if (__builtin_cpu_supports("avx2"))
    return 256;
#endif
  return 128;
}

} // namespace host
