// cl_polymux_kernel_exit: kernel_exit and is_kernel_exiting in OpenCL C, the
// exit status and message of a kernel command, registered messages, and
// the implementation's codes for faults, on every device that reports the
// extension (doc/extensions/cl_polymux_kernel_exit.md).
#include "cl_test.h"
#include "group_reference.h"

#include <CL/cl_ext_polymux.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <string>
#include <vector>

using namespace cltest;

namespace {

constexpr const char *kSource = R"(
// Each work-item marks its slot after `spin` steps of work; the one holding
// `target` ends the kernel.
kernel void search(global const int *data, global int *ran, int target, int spin) {
  size_t i = get_global_id(0);
  int work = data[i];
  for (int k = 0; k < spin; ++k)
    work = work * 3 + k;
  ran[i] = work == 12345 ? 2 : 1;
  if (data[i] == target)
    kernel_exit(EXIT_SEARCH_COMPLETE);
}

// Work-items choose their status; those that do not exit finish normally.
kernel void statuses(global const int *status, global int *out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (status[i] != 0 || i == 0)
    kernel_exit(status[i]);
  out[i] = 2;
}

static void leave_if_odd(size_t i, int status) {
  if (i % 2)
    kernel_exit(status);
}

// kernel_exit deep in a helper: the work-item still stops right there.
kernel void nested(global int *out, int status) {
  size_t i = get_global_id(0);
  out[i] = 1;
  leave_if_odd(i, status);
  out[i] = 2;
}

kernel void reserved(global int *out) {
  out[0] = 1;
  kernel_exit(INT_MIN);
}

kernel void plain(global int *out) { out[get_global_id(0)] = (int)get_global_id(0); }

kernel void wild(global int *out, ulong address) {
  out[get_global_id(0)] = 1;
  if (get_global_id(0) == 5)
    *(global volatile int *)address = 42;
}
)";

// Kernels that call kernel_exit and barrier(). CPU-like targets run the
// other work-items of a group without the one that left; the vulkan target
// sends it on to the barriers with its side effects masked.
constexpr const char *kBarrierSource = R"(
// A work-item that leaves before a barrier counts as having reached it.
kernel void barrier_sum(global const int *in, global int *out, local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  if (l == 3)
    kernel_exit(8);
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (size_t k = 0; k < get_local_size(0); ++k)
    sum += k == 3 ? 0 : scratch[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = sum;
}

// The rest of the exiting work-group sees the exit.
kernel void observe(global int *seen) {
  size_t l = get_local_id(0);
  if (get_group_id(0) == 0 && l == 0)
    kernel_exit(2);
  barrier(CLK_GLOBAL_MEM_FENCE);
  seen[get_global_id(0)] = is_kernel_exiting();
}

// A work-item leaves inside a loop with barriers; the rest of its group goes
// round. What it stored in __local memory before it left stays there, and
// it stores nothing after.
kernel void loop_exit(global const int *in, global int *out, local int *scratch, int rounds, int leaver,
                      int round) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    scratch[l] = in[get_global_id(0)] * (r + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == leaver && r == round)
      kernel_exit(6);
    acc += scratch[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) * rounds + r] = acc;
  }
}

// Work-items past the end of the data leave; those that stay swap values
// through __local memory. Where a work-item that left goes on, its accesses
// past the end are no faults.
kernel void ragged_end(global const int *in, global int *out, int n, local int *scratch) {
  size_t i = get_global_id(0), l = get_local_id(0);
  if (i >= n)
    kernel_exit(3);
  int mine = in[i];
  scratch[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = scratch[l ^ 1] - mine;
}

// A loop that only kernel_exit leaves: each work-item leaves in its own
// round, and its work-group ends once all have left.
kernel void until_all_left(global int *out, int rounds) {
  size_t l = get_local_id(0);
  for (int r = 0;; ++r) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (r == (int)(l % rounds))
      kernel_exit(5);
    out[get_global_id(0) * rounds + r] = r + 1;
  }
}

// Atomics after a barrier that follows an exit: only the work-items that
// stayed take a ticket.
kernel void tickets(global int *counters, global int *out, int leaver) {
  size_t l = get_local_id(0);
  if (l == leaver)
    kernel_exit(1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_inc(&counters[get_group_id(0)]);
}
)";

// A work-item leaves before a work-group function. Its contribution, and so
// the result, are unspecified; the others get past it and on through the
// barrier after it.
constexpr const char *kCollectiveSource = R"(
kernel void reduce_after_exit(global const int *in, global int *out, global int *sums, local int *scratch,
                              int leaver) {
  size_t l = get_local_id(0);
  if (l == leaver)
    kernel_exit(4);
  sums[get_global_id(0)] = work_group_reduce_add(in[get_global_id(0)]);
  scratch[l] = in[get_global_id(0)] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l ^ 1];
}
)";

/// Whether the `count` values from `first` all still hold the -1 a test
/// filled them with: their work-group never started.
bool untouched(std::vector<cl_int>::const_iterator first, size_t count) {
  return std::all_of(first, first + count, [](cl_int v) { return v == -1; });
}

class KernelExitTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (deviceString(device(), CL_DEVICE_EXTENSIONS).find(CL_POLYMUX_KERNEL_EXIT_EXTENSION_NAME) == std::string::npos)
      GTEST_SKIP() << "the device does not report " CL_POLYMUX_KERNEL_EXIT_EXTENSION_NAME;
    status_ = extensionFunction<clGetKernelExecutionStatusPOLYMUX_fn>("clGetKernelExecutionStatusPOLYMUX");
    registerProgram_ =
        extensionFunction<clRegisterProgramErrorMessagePOLYMUX_fn>("clRegisterProgramErrorMessagePOLYMUX");
    registerKernel_ = extensionFunction<clRegisterKernelErrorMessagePOLYMUX_fn>("clRegisterKernelErrorMessagePOLYMUX");
    ASSERT_TRUE(status_ && registerProgram_ && registerKernel_);
    program_ = build(kSource);
    ASSERT_TRUE(program_);
  }

  cl_int exitCode(cl_event event) {
    cl_int code = 12345;
    EXPECT_CL(status_(event, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr));
    return code;
  }
  std::string exitMessage(cl_event event) {
    size_t size = 0;
    EXPECT_CL(status_(event, CL_KERNEL_STATUS_EXIT_MSG_POLYMUX, 0, nullptr, &size));
    std::string text(size, '\0');
    EXPECT_CL(status_(event, CL_KERNEL_STATUS_EXIT_MSG_POLYMUX, size, text.data(), nullptr));
    EXPECT_TRUE(!text.empty() && text.back() == '\0');
    if (!text.empty())
      text.pop_back();
    return text;
  }
  cl_int executionStatus(cl_event event) {
    cl_int status = 1;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    return status;
  }
  /// Runs `kernel` over `global` work-items (groups of `local`, 0: any).
  Event run(cl_kernel kernel, size_t global, size_t local = 0) {
    Event event;
    EXPECT_CL(
        clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, event.out()));
    EXPECT_CL(clFinish(queue_));
    return event;
  }

  clGetKernelExecutionStatusPOLYMUX_fn status_ = nullptr;
  clRegisterProgramErrorMessagePOLYMUX_fn registerProgram_ = nullptr;
  clRegisterKernelErrorMessagePOLYMUX_fn registerKernel_ = nullptr;
  Program program_;
};

TEST_P(KernelExitTest, AKernelThatRunsToItsEndExitsWithZero) {
  Kernel kernel = this->kernel(program_, "plain");
  Mem out = buffer(CL_MEM_READ_WRITE, 256 * sizeof(cl_int));
  setArgs(kernel.get(), out.get());
  Event event = run(kernel, 256);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 0);
  EXPECT_EQ(exitMessage(event), "");
}

TEST_P(KernelExitTest, WorkGroupsNotYetStartedNeverStart) {
  // Groups that take a while (tens of microseconds on a CPU), so that the
  // first one, which exits, ends long before the others could all run; on
  // a GPU, many more groups than its compute units hold at once (an H200
  // holds several thousand groups of 16 at a time).
  const size_t computeUnits = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_COMPUTE_UNITS);
  const size_t groups = std::max<size_t>(1024, computeUnits * 256), local = 16, items = groups * local;
  std::vector<cl_int> data(items, 0);
  data[3] = 77; // in the first work-group
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), data.data());
  std::vector<cl_int> zeros(items, 0);
  Mem ran = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), zeros.data());
  Kernel kernel = this->kernel(program_, "search");
  setArgs(kernel.get(), in.get(), ran.get(), cl_int(77), cl_int(20000));
  Event event = run(kernel, items, local);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), CL_KERNEL_EXIT_SEARCH_COMPLETE_POLYMUX);
  EXPECT_NE(exitMessage(event).find("EXIT_SEARCH_COMPLETE"), std::string::npos);
  std::vector<cl_int> marks = read<cl_int>(ran, items);
  // The exiting work-group completes: every one of its work-items ran.
  for (size_t i = 0; i < local; ++i)
    EXPECT_NE(marks[i], 0) << "work-item " << i;
  // Groups are all or nothing, and most never started.
  size_t started = 0;
  for (size_t g = 0; g < groups; ++g) {
    int count = int(std::count_if(marks.begin() + g * local, marks.begin() + (g + 1) * local,
                                  [](cl_int mark) { return mark != 0; }));
    EXPECT_TRUE(count == 0 || count == int(local)) << "group " << g << " ran " << count << " work-items";
    started += count != 0;
  }
  EXPECT_LT(started, groups / 2);
}

TEST_P(KernelExitTest, TheStatusIsTheOneGivenAndNonZeroWinsOverZero) {
  Kernel kernel = this->kernel(program_, "statuses");
  const size_t items = 64;
  Mem out = buffer(CL_MEM_READ_WRITE, items * sizeof(cl_int));
  auto runWith = [&](const std::vector<cl_int> &statuses) {
    Mem in =
        buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), const_cast<cl_int *>(statuses.data()));
    setArgs(kernel.get(), in.get(), out.get());
    // One work-group: it completes, so every work-item gives its status.
    Event event = run(kernel, items, items);
    EXPECT_EQ(executionStatus(event), CL_COMPLETE);
    return exitCode(event);
  };
  // Every exiting work-item gives 7: the status is 7.
  std::vector<cl_int> statuses(items, 0);
  for (size_t i = 0; i < items; i += 3)
    statuses[i] = 7;
  EXPECT_EQ(runWith(statuses), 7);
  // Work-item 0 gives 0 and others 5: any non-zero status given, i.e. 5.
  statuses.assign(items, 0);
  statuses[9] = 5;
  statuses[40] = 5;
  EXPECT_EQ(runWith(statuses), 5);
  // Different non-zero statuses: one of them.
  statuses.assign(items, 0);
  statuses[2] = 3;
  statuses[50] = 9;
  cl_int mixed = runWith(statuses);
  EXPECT_TRUE(mixed == 3 || mixed == 9) << mixed;
  // Only work-item 0 exits, with 0: a successful exit.
  statuses.assign(items, 0);
  EXPECT_EQ(runWith(statuses), 0);
}

TEST_P(KernelExitTest, TheCallingWorkItemStopsAtOnceEvenInAHelper) {
  Kernel kernel = this->kernel(program_, "nested");
  const size_t items = 32;
  Mem out = buffer(CL_MEM_READ_WRITE, items * sizeof(cl_int));
  setArgs(kernel.get(), out.get(), cl_int(4));
  Event event = run(kernel, items, items); // one group: every work-item runs
  EXPECT_EQ(exitCode(event), 4);
  std::vector<cl_int> values = read<cl_int>(out, items);
  for (size_t i = 0; i < items; ++i)
    EXPECT_EQ(values[i], i % 2 ? 1 : 2) << "work-item " << i;
}

TEST_P(KernelExitTest, AnExitedWorkItemDoesNotHoldUpBarriers) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "barrier_sum");
  const size_t local = 8, items = 4 * local;
  std::vector<cl_int> values(items);
  std::iota(values.begin(), values.end(), 1);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), values.data());
  std::vector<cl_int> marks(items, -1);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), in.get(), out.get());
  ASSERT_CL(clSetKernelArg(kernel, 2, local * sizeof(cl_int), nullptr));
  Event event = run(kernel, items, local);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 8);
  std::vector<cl_int> sums = read<cl_int>(out, items);
  // In every group that started (at least the first to exit), all work-items
  // but the fourth passed both barriers.
  size_t started = 0;
  for (size_t g = 0; g < items / local; ++g) {
    const size_t first = g * local;
    if (untouched(sums.begin() + first, local))
      continue;
    ++started;
    int expected = 0;
    for (size_t k = 0; k < local; ++k)
      expected += k == 3 ? 0 : values[first + k];
    for (size_t l = 0; l < local; ++l)
      EXPECT_EQ(sums[first + l], l == 3 ? -1 : expected) << "group " << g << ", work-item " << l;
  }
  EXPECT_GE(started, 1u);
}

TEST_P(KernelExitTest, TheRestOfTheWorkGroupSeesTheExit) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "observe");
  const size_t local = 16;
  std::vector<cl_int> marks(local, -1);
  Mem seen = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, local * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), seen.get());
  Event event = run(kernel, local, local);
  EXPECT_EQ(exitCode(event), 2);
  std::vector<cl_int> values = read<cl_int>(seen, local);
  EXPECT_EQ(values[0], -1); // it left
  for (size_t l = 1; l < local; ++l)
    EXPECT_EQ(values[l], 1) << "work-item " << l;
}

TEST_P(KernelExitTest, AWorkItemThatLeavesInALoopWithBarriersKeepsItsLocalValuesAndStoresNothing) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "loop_exit");
  const size_t local = 16, groups = 4, items = groups * local;
  const cl_int rounds = 5, leaver = 6, round = 2;
  std::vector<cl_int> values(items);
  for (size_t i = 0; i < items; ++i)
    values[i] = cl_int(3 * i + 1);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), values.data());
  std::vector<cl_int> marks(items * rounds, -1);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, marks.size() * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), in.get(), out.get());
  ASSERT_CL(clSetKernelArg(kernel, 2, local * sizeof(cl_int), nullptr));
  ASSERT_CL(setArg(kernel.get(), 3, rounds));
  ASSERT_CL(setArg(kernel.get(), 4, leaver));
  ASSERT_CL(setArg(kernel.get(), 5, round));
  Event event = run(kernel, items, local);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 6);
  std::vector<cl_int> sums = read<cl_int>(out, marks.size());
  size_t started = 0;
  for (size_t g = 0; g < groups; ++g) {
    const size_t first = g * local;
    auto group = sums.cbegin() + first * rounds;
    if (untouched(group, local * rounds))
      continue;
    ++started;
    for (size_t l = 0; l < local; ++l) {
      const size_t next = (l + 1) % local;
      cl_int acc = 0;
      for (cl_int r = 0; r < rounds; ++r) {
        // The leaver's slot keeps what it stored in the round it left.
        acc += values[first + next] * (next == size_t(leaver) && r > round ? round + 1 : r + 1);
        cl_int expected = l == size_t(leaver) && r >= round ? -1 : acc;
        EXPECT_EQ(sums[(first + l) * rounds + r], expected) << "group " << g << ", work-item " << l << ", round " << r;
      }
    }
  }
  EXPECT_GE(started, 1u);
}

// Without the way out that vulkan gives such a loop, a GPU would hang here;
// lavapipe's loop limiter (65,535 iterations) would end it all the same, so
// test/compiler's KernelExitInALoopThatOnlyExitsLeave... checks the way out.
TEST_P(KernelExitTest, ALoopThatOnlyKernelExitLeavesEndsOnceAllHaveLeft) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "until_all_left");
  const size_t local = 16, groups = 4, items = groups * local;
  const cl_int rounds = 5;
  std::vector<cl_int> marks(items * rounds, -1);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, marks.size() * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), out.get(), rounds);
  Event event = run(kernel, items, local);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 5);
  std::vector<cl_int> written = read<cl_int>(out, marks.size());
  size_t started = 0;
  for (size_t g = 0; g < groups; ++g) {
    auto group = written.cbegin() + g * local * rounds;
    if (untouched(group, local * rounds))
      continue;
    ++started;
    // Work-item l writes its rounds before round l % rounds, then nothing.
    for (size_t l = 0; l < local; ++l)
      for (cl_int r = 0; r < rounds; ++r)
        EXPECT_EQ(group[l * rounds + r], r < cl_int(l % rounds) ? r + 1 : -1)
            << "group " << g << ", work-item " << l << ", round " << r;
  }
  EXPECT_GE(started, 1u);
}

TEST_P(KernelExitTest, WorkItemsThatLeaveBeforeABarrierDoNotFaultOnTheirWay) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "ragged_end");
  // One work-group, whose last 12 work-items are past the end of `in`.
  const size_t items = 32;
  const cl_int n = 20;
  std::vector<cl_int> values(n);
  std::iota(values.begin(), values.end(), 100);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), values.data());
  std::vector<cl_int> marks(items, -1);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), in.get(), out.get(), n);
  ASSERT_CL(clSetKernelArg(kernel, 3, items * sizeof(cl_int), nullptr));
  Event event = run(kernel, items, items);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 3);
  EXPECT_EQ(exitMessage(event), "");
  std::vector<cl_int> swapped = read<cl_int>(out, items);
  for (size_t i = 0; i < items; ++i)
    EXPECT_EQ(swapped[i], i < size_t(n) ? values[i ^ 1] - values[i] : -1) << "work-item " << i;
}

TEST_P(KernelExitTest, OnlyTheWorkItemsThatStayDoAtomics) {
  Program barriers = build(kBarrierSource);
  ASSERT_TRUE(barriers);
  Kernel kernel = this->kernel(barriers, "tickets");
  const size_t local = 16, groups = 4, items = groups * local;
  std::vector<cl_int> zeros(groups, 0), marks(items, -1);
  Mem counters = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, groups * sizeof(cl_int), zeros.data());
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), counters.get(), out.get(), cl_int(0));
  Event event = run(kernel, items, local);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 1);
  std::vector<cl_int> counts = read<cl_int>(counters, groups), tickets = read<cl_int>(out, items);
  size_t started = 0;
  for (size_t g = 0; g < groups; ++g) {
    std::vector<cl_int> taken(tickets.begin() + g * local, tickets.begin() + (g + 1) * local);
    if (counts[g] == 0) {
      EXPECT_TRUE(untouched(taken.cbegin(), local)) << "group " << g;
      continue;
    }
    ++started;
    // Work-item 0 left: the others took the tickets 0 .. local - 2.
    EXPECT_EQ(counts[g], cl_int(local - 1)) << "group " << g;
    EXPECT_EQ(taken[0], -1) << "group " << g;
    std::sort(taken.begin() + 1, taken.end());
    for (size_t l = 1; l < local; ++l)
      EXPECT_EQ(taken[l], cl_int(l - 1)) << "group " << g;
  }
  EXPECT_GE(started, 1u);
}

TEST_P(KernelExitTest, TheOthersGetPastAWorkGroupFunctionAfterAWorkItemLeft) {
  if (!deviceInfo<cl_bool>(device(), CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT))
    GTEST_SKIP() << "the device has no work-group collective functions";
  Program program = build(kCollectiveSource, cltest::groups::clStdOption(device()));
  ASSERT_TRUE(program);
  Kernel kernel = this->kernel(program, "reduce_after_exit");
  const size_t items = 32;
  const cl_int leaver = 5;
  std::vector<cl_int> values(items);
  std::iota(values.begin(), values.end(), 7);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), values.data());
  std::vector<cl_int> marks(items, -1);
  Mem out = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), marks.data());
  Mem sums = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), marks.data());
  setArgs(kernel.get(), in.get(), out.get(), sums.get());
  ASSERT_CL(clSetKernelArg(kernel, 3, items * sizeof(cl_int), nullptr));
  ASSERT_CL(setArg(kernel.get(), 4, leaver));
  Event event = run(kernel, items, items);
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
  EXPECT_EQ(exitCode(event), 4);
  std::vector<cl_int> swapped = read<cl_int>(out, items), reduced = read<cl_int>(sums, items);
  // The sums are unspecified; the leaver stored none, its partner read its
  // slot, which it never wrote.
  EXPECT_EQ(reduced[leaver], -1);
  for (size_t i = 0; i < items; ++i)
    if (i != size_t(leaver ^ 1))
      EXPECT_EQ(swapped[i], i == size_t(leaver) ? -1 : values[i ^ 1] + 1) << "work-item " << i;
}

TEST_P(KernelExitTest, TheReservedStatusBecomesInvalidStatus) {
  Kernel kernel = this->kernel(program_, "reserved");
  Mem out = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  setArgs(kernel.get(), out.get());
  Event event = run(kernel, 1);
  EXPECT_EQ(exitCode(event), CL_KERNEL_EXIT_INVALID_STATUS_POLYMUX);
  EXPECT_NE(exitMessage(event).find("INT32_MIN"), std::string::npos);
}

TEST_P(KernelExitTest, AFaultIsOutOfBoundsWithAMessageNamingKernelAndAddress) {
  Kernel kernel = this->kernel(program_, "wild");
  Mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  setArgs(kernel.get(), out.get(), cl_ulong(0x10));
  size_t global = 64;
  Event event;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, event.out()));
  clFinish(queue_);
  EXPECT_LT(executionStatus(event), 0);
  EXPECT_EQ(exitCode(event), CL_KERNEL_EXIT_OUT_OF_BOUNDS_POLYMUX);
  std::string message = exitMessage(event);
  EXPECT_NE(message.find("wild"), std::string::npos) << message;
  EXPECT_NE(message.find("0x10"), std::string::npos) << message;
}

TEST_P(KernelExitTest, KernelMessagesTakePrecedenceOverProgramMessages) {
  // Registered in the opposite order to the precedence.
  ASSERT_CL(registerKernel_(program_, "statuses", 5, "kernel five"));
  ASSERT_CL(registerProgram_(program_, 5, "program five"));
  ASSERT_CL(registerProgram_(program_, 4, "program four"));
  Kernel statuses = this->kernel(program_, "statuses");
  Kernel nested = this->kernel(program_, "nested");
  const size_t items = 16;
  std::vector<cl_int> given(items, 0);
  given[7] = 5;
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), given.data());
  Mem out = buffer(CL_MEM_READ_WRITE, items * sizeof(cl_int));
  setArgs(statuses.get(), in.get(), out.get());
  Event first = run(statuses, items, items);
  EXPECT_EQ(exitCode(first), 5);
  EXPECT_EQ(exitMessage(first), "kernel five");
  setArgs(nested.get(), out.get(), cl_int(5));
  Event second = run(nested, items, items);
  EXPECT_EQ(exitMessage(second), "program five");
  setArgs(nested.get(), out.get(), cl_int(4));
  Event third = run(nested, items, items);
  EXPECT_EQ(exitMessage(third), "program four");
  setArgs(nested.get(), out.get(), cl_int(6));
  Event fourth = run(nested, items, items);
  EXPECT_EQ(exitCode(fourth), 6);
  EXPECT_EQ(exitMessage(fourth), "");
  // Registering again replaces the message, also for finished commands.
  ASSERT_CL(registerKernel_(program_, "statuses", 5, "kernel five, again"));
  EXPECT_EQ(exitMessage(first), "kernel five, again");
}

TEST_P(KernelExitTest, RegistrationRejectsBadArguments) {
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, registerProgram_(nullptr, 1, "x"));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, registerKernel_(nullptr, "plain", 1, "x"));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerProgram_(program_, 0, "zero is success"));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerProgram_(program_, -2, "negative codes are reserved"));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerProgram_(program_, 1, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerKernel_(program_, nullptr, 1, "x"));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerKernel_(program_, "plain", -1, "x"));
  EXPECT_CL_ERR(CL_INVALID_VALUE, registerKernel_(program_, "plain", 1, nullptr));
  EXPECT_CL_ERR(CL_INVALID_KERNEL_NAME, registerKernel_(program_, "no_such_kernel", 1, "x"));
  // A program not built yet has no kernels to name.
  const char *source = kSource;
  cl_int error = CL_SUCCESS;
  Program unbuilt(clCreateProgramWithSource(context_, 1, &source, nullptr, &error));
  ASSERT_CL(error);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, registerKernel_(unbuilt, "plain", 1, "x"));
  EXPECT_CL(registerProgram_(unbuilt, 1, "a program message needs no build"));
}

TEST_P(KernelExitTest, QueriesRejectBadEventsParametersAndSizes) {
  Kernel kernel = this->kernel(program_, "plain");
  Mem out = buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
  setArgs(kernel.get(), out.get());
  Event event = run(kernel, 16);
  cl_int code = 0;
  EXPECT_CL_ERR(CL_INVALID_EVENT, status_(nullptr, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(event, 0x1234, sizeof code, &code, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(event, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, 2, &code, nullptr));
  char small[1];
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(event, CL_KERNEL_STATUS_EXIT_MSG_POLYMUX, 0, small, nullptr));
  // A user event and a transfer are not kernel commands.
  cl_int error = CL_SUCCESS;
  Event user(clCreateUserEvent(context_, &error));
  ASSERT_CL(error);
  EXPECT_CL_ERR(CL_INVALID_EVENT, status_(user, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr));
  Event readEvent;
  cl_int host[16];
  ASSERT_CL(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, sizeof host, host, 0, nullptr, readEvent.out()));
  EXPECT_CL_ERR(CL_INVALID_EVENT, status_(readEvent, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr));
}

TEST_P(KernelExitTest, AnUnfinishedCommandHasNoStatusAndOneThatNeverRanSaysSo) {
  Kernel kernel = this->kernel(program_, "plain");
  Mem out = buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
  setArgs(kernel.get(), out.get());
  cl_int error = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &error));
  ASSERT_CL(error);
  size_t global = 16;
  Event event;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 1, gate.ptr(), event.out()));
  cl_int code = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, status_(event, CL_KERNEL_STATUS_EXIT_CODE_POLYMUX, sizeof code, &code, nullptr));
  // The gate fails: the kernel never runs.
  ASSERT_CL(clSetUserEventStatus(gate, -1));
  clFinish(queue_);
  EXPECT_LT(executionStatus(event), 0);
  EXPECT_EQ(exitCode(event), CL_KERNEL_EXIT_NOT_RUN_POLYMUX);
  EXPECT_FALSE(exitMessage(event).empty());
}

} // namespace

CLTEST_INSTANTIATE(KernelExitTest);
