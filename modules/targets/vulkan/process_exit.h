// Vulkan calls made while the process exits, after the driver has torn
// itself down. A driver may clean up in exit handlers of its own (NVIDIA's
// does), and an application may release OpenCL objects from static
// destructors that run after those handlers (CLBlast's static program cache
// does): a vkDestroy* call then lands in a driver that is gone (SIGSEGV).
//
// Exit handlers run in reverse order of registration. One registered
// before the Vulkan loader and driver are loaded therefore runs after the
// driver's teardown, and before the destructors of static objects made
// earlier still (such as CLBlast's cache): from then on no Vulkan object is
// destroyed any more (device_handle.h). Objects an application destroys
// before the driver's teardown (static objects made after Polymux created
// its instance, for example) are destroyed as usual.
#pragma once

namespace vulkan_target {

/// Registers the exit handler, once per process. Call it before the Vulkan
/// loader is loaded (volkInitialize).
void watchProcessExit();

/// Whether the process is exiting past the driver's teardown.
bool vulkanGoneAtExit();

} // namespace vulkan_target
