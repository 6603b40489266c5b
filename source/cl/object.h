// The base of every OpenCL object: the ICD handle (dispatch table first, as
// cl_khr_icd requires), reference counting, and checked handle conversion.
//
// Each API object class (Context, MemObject, ...) owns an embedded handle
// struct; the application only ever sees a pointer to that struct. Keeping
// the handle separate from the C++ object lets the classes be polymorphic
// without disturbing the dispatch-pointer-at-offset-0 rule.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include "llvm/ADT/IntrusiveRefCntPtr.h"

#include <atomic>
#include <cstdint>

namespace polymux::cl {

class ObjectBase;

enum class ObjectKind : uint32_t {
  Platform = 0x504c4154, // distinct magic values catch a handle of the wrong type
  Device = 0x44455649,
  Context = 0x43545854,
  CommandQueue = 0x51554555,
  Memory = 0x4d454d4f,
  Program = 0x50524f47,
  Kernel = 0x4b45524e,
  Event = 0x4556454e,
  Sampler = 0x53414d50,
  CommandBuffer = 0x434d4442,
  MutableCommand = 0x4d555443,
};

/// The dispatch table every handle points to (icd.cpp).
extern const cl_icd_dispatch dispatchTable;

} // namespace polymux::cl

// The opaque handle types of CL/cl.h, defined for the ICD.
#define POLYMUX_DEFINE_HANDLE(type)                                                                                   \
  struct type {                                                                                                       \
    const cl_icd_dispatch *dispatch;                                                                                  \
    polymux::cl::ObjectBase *object;                                                                                  \
    polymux::cl::ObjectKind kind;                                                                                     \
  };
POLYMUX_DEFINE_HANDLE(_cl_platform_id)
POLYMUX_DEFINE_HANDLE(_cl_device_id)
POLYMUX_DEFINE_HANDLE(_cl_context)
POLYMUX_DEFINE_HANDLE(_cl_command_queue)
POLYMUX_DEFINE_HANDLE(_cl_mem)
POLYMUX_DEFINE_HANDLE(_cl_program)
POLYMUX_DEFINE_HANDLE(_cl_kernel)
POLYMUX_DEFINE_HANDLE(_cl_event)
POLYMUX_DEFINE_HANDLE(_cl_sampler)
POLYMUX_DEFINE_HANDLE(_cl_command_buffer_khr)
POLYMUX_DEFINE_HANDLE(_cl_mutable_command_khr)
#undef POLYMUX_DEFINE_HANDLE

namespace polymux::cl {

/// Reference counting shared by all objects. The count includes the
/// references the implementation holds (e.g. commands in flight).
class ObjectBase {
public:
  virtual ~ObjectBase() = default;
  ObjectBase(const ObjectBase &) = delete;
  ObjectBase &operator=(const ObjectBase &) = delete;

  void retain() { refCount_.fetch_add(1, std::memory_order_relaxed); }
  /// Drops one reference; destroys the object at zero.
  void release() {
    if (refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy();
  }
  uint32_t refCount() const { return refCount_.load(std::memory_order_relaxed); }

  // Spelling llvm::IntrusiveRefCntPtr expects.
  void Retain() { retain(); }
  void Release() { release(); }

protected:
  ObjectBase() = default;
  /// Called when the count reaches zero. Objects with release callbacks
  /// (contexts, memory) override this to run them before deletion.
  virtual void destroy() { delete this; }

private:
  std::atomic<uint32_t> refCount_{1};
};

/// An implementation reference to an object (retains on copy).
template <class T> using Ref = llvm::IntrusiveRefCntPtr<T>;

/// Adopts the initial reference of a new object into a Ref without retaining.
template <class T> Ref<T> adopt(T *object) {
  Ref<T> ref(object);
  object->release();
  return ref;
}

/// Base of an API object with handle type `Handle` (e.g. _cl_mem).
template <class Handle, ObjectKind Kind> class Object : public ObjectBase {
public:
  static constexpr ObjectKind kind = Kind;
  Handle *handle() { return &handle_; }

  /// Converts an application handle, or returns null when it is null, not
  /// ours, or of another type.
  template <class Derived> static Derived *fromHandle(Handle *handle) {
    if (!handle || handle->dispatch != &dispatchTable || handle->kind != Kind || !handle->object)
      return nullptr;
    return static_cast<Derived *>(handle->object);
  }

protected:
  Object() : handle_{&dispatchTable, this, Kind} {}
  ~Object() override {
    // Poison the handle so a use after release is caught as invalid.
    handle_.dispatch = nullptr;
    handle_.object = nullptr;
  }

private:
  Handle handle_;
};

} // namespace polymux::cl
