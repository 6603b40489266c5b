// Where Polymux keeps on-disk caches (programs, pipeline caches): the rules
// of POLYMUX_CACHE, shared by the OpenCL layer and the targets.
#pragma once

#include <optional>
#include <string>

namespace mux::support {

/// POLYMUX_CACHE=0: none (caching disabled); another non-empty value: that
/// directory; else $XDG_CACHE_HOME/polymux when XDG_CACHE_HOME is absolute,
/// else $HOME/.cache/polymux; none when neither is set. The directory may
/// not exist yet.
std::optional<std::string> cacheDirectory();

} // namespace mux::support
