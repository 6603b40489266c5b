// What becomes of the vulkan devices when the process exits with OpenCL
// objects still alive. A Vulkan driver may tear itself down at exit before
// the application's own static destructors run (NVIDIA's does), and those
// destructors may still release OpenCL objects (CLBlast's program cache
// does): a vkDestroy* call then lands in a driver that is gone (SIGSEGV).
// So at exit, before the driver's teardown, every live device is abandoned
// (device_handle.h): its objects are no longer destroyed, and the process
// ends without calling into the driver again.
#pragma once

#include "device_handle.h"

namespace vulkan_target {

/// Registers `device` to be abandoned at process exit. Call it after
/// vkCreateDevice: exit handlers run in reverse order of registration, so
/// ours must come after the driver's (made when the loader loaded it).
void abandonAtProcessExit(const SharedDevice &device);

} // namespace vulkan_target
