// Events: command events (created by CommandQueue) and user events.
#pragma once

#include "object.h"

namespace polymux::cl {

class Context;
class CommandQueue;

class Event final : public Object<_cl_event, ObjectKind::Event> {
public:
  static Event *fromHandle(cl_event handle) { return Object::fromHandle<Event>(handle); }

  Context &context() const;
  /// Null for user events.
  CommandQueue *queue() const;
  cl_command_type commandType() const;
  /// CL_QUEUED ... CL_COMPLETE, or a negative error.
  cl_int status() const;

  struct Impl;
  explicit Event(std::unique_ptr<Impl> impl);
  ~Event() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace polymux::cl
