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
//
// Work still running on the device when the process starts to exit is the
// other hazard: the driver may tear itself down under it (lavapipe's queue
// thread was compiling a shader with LLVM while LLVM's own exit handlers
// ran: SIGSEGV, in one of about ten exits under load). Queues register
// their submitted work here; a second handler, registered once the driver
// is loaded so that it runs before the driver's teardown, waits for that
// work a bounded time. It destroys nothing.
#pragma once

#include <chrono>
#include <functional>

namespace vulkan_target {

/// How long the exit handler waits for submitted work, all queues together.
inline constexpr std::chrono::seconds kExitDrainLimit{2};

/// Has `drain` called at exit (with the deadline to give up at) until
/// forgetWorkAtExit(owner). Call it only once the driver is loaded.
void watchWorkAtExit(const void *owner, std::function<void(std::chrono::steady_clock::time_point)> drain);
void forgetWorkAtExit(const void *owner);

/// Registers the exit handler, once per process. Call it before the Vulkan
/// loader is loaded (volkInitialize).
void watchProcessExit();

/// Whether the process is exiting past the driver's teardown.
bool vulkanGoneAtExit();

} // namespace vulkan_target
