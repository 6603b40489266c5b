// An OpenCL context: a set of devices, its properties and callbacks.
#pragma once

#include "object.h"

#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace polymux::cl {

class CommandQueue;
class Device;
class SvmAllocations;

class Context final : public Object<_cl_context, ObjectKind::Context> {
public:
  using NotifyFn = void(CL_CALLBACK *)(const char *errinfo, const void *privateInfo, size_t cb, void *userData);

  Context(std::vector<Device *> devices, std::vector<cl_context_properties> properties, NotifyFn notify,
          void *userData);
  ~Context() override;
  static Context *fromHandle(cl_context handle) { return Object::fromHandle<Context>(handle); }

  std::span<Device *const> devices() const { return devices_; }
  bool hasDevice(const Device *device) const;
  /// The position of `device` (one of the context's) in devices().
  size_t deviceIndex(const Device &device) const;

  /// The OpenCL layer's own out-of-order queue on `device`: migrations
  /// between devices read the source device's copy on it. Created on first
  /// use; call with the scheduler lock held.
  CommandQueue &transferQueue(Device &device);
  /// Created with CL_CONTEXT_ERROR_MODEL_POLYMUX =
  /// CL_CONTEXT_ERROR_MODEL_POISON_POLYMUX (error_model.h).
  bool poisonErrorModel() const { return poisonErrorModel_; }
  /// The properties as given (zero-terminated), or empty.
  std::span<const cl_context_properties> properties() const { return properties_; }

  /// Reports an asynchronous error to the application's pfn_notify, if any.
  void notify(const std::string &message) const;

  void addDestructorCallback(void(CL_CALLBACK *fn)(cl_context, void *), void *userData);

  /// The context's clSVMAlloc allocations (svm_allocations.h).
  SvmAllocations &svmAllocations() const { return *svmAllocations_; }

protected:
  void destroy() override;

private:
  std::vector<Device *> devices_;
  std::vector<cl_context_properties> properties_;
  bool poisonErrorModel_ = false;
  NotifyFn notify_;
  void *notifyUserData_;
  std::mutex mutex_;
  std::vector<std::pair<void(CL_CALLBACK *)(cl_context, void *), void *>> destructorCallbacks_;
  /// By device index, under the scheduler lock. They do not hold the context
  /// (that would be a cycle); whatever they run holds a buffer of it.
  std::vector<Ref<CommandQueue>> transferQueues_;
  std::unique_ptr<SvmAllocations> svmAllocations_;
};

} // namespace polymux::cl
