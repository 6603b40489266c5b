// The OpenCL callbacks of the stress workload. Each one registered adds one
// to the `expected` count of its kind in the Tally and each one that runs
// adds one to `received`, so a lost callback shows as a difference; event
// callbacks also check the status they are given.
#pragma once

#include "tally.h"

#include <CL/cl.h>

namespace stress {

enum class Expect { Complete, Failure };

/// A clSetEventCallback for `type` (CL_SUBMITTED, CL_RUNNING or
/// CL_COMPLETE). Expect::Complete: it must get `type`; Expect::Failure: a
/// CL_COMPLETE callback must get a negative status, the others `type` or a
/// negative one.
void watchEvent(Tally &tally, cl_event event, cl_int type, Expect expect);

/// A clSetMemObjectDestructorCallback.
void watchDestructor(Tally &tally, cl_mem mem);

/// The pfn_notify of clBuildProgram, clCompileProgram and clLinkProgram,
/// with the Tally as user data; each call that passes it counts one
/// expected callback first (expectBuildCallback).
void CL_CALLBACK onProgramBuilt(cl_program, void *tally);
void *expectBuildCallback(Tally &tally);

/// The context's pfn_notify, with the Tally as user data: messages about a
/// faulting kernel count as fault notifications, others are counted apart.
void CL_CALLBACK onContextNotify(const char *message, const void *, size_t, void *tally);

} // namespace stress
