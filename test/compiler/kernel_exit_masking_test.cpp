// LowerKernelExitPass for targets without WorkGroupInfo (vulkan), on
// hand-written SPIR IR: an exit that a barrier may follow sends the
// work-item on to the exit's join with its side effects masked; an exit no
// barrier follows returns; a loop that only exits leave gets a way out once
// all have left; exits whose other ways never meet again before a barrier
// are build errors.
#include "compiler/passes.h"

#include "parse_ir.h"
#include "test_support.h"

#include "llvm/IR/Verifier.h"

namespace compiler::test {
namespace {

constexpr const char *kDeclarations = R"(
declare void @__polymux_kernel_exit(i32) noreturn nounwind
declare void @_Z7barrierj(i32) convergent nounwind
declare i64 @_Z12get_local_idj(i32) nounwind memory(none)
)";

struct Lowered {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::string text;
  std::string errors;
};

/// Runs LowerKernelExitPass (RecordFunction) on `kernel` after kDeclarations.
Lowered lower(const std::string &kernel) {
  Lowered result;
  result.module = polymux::test::parseIrOrFail(kDeclarations + kernel, *result.context);
  if (!result.module)
    return result;
  llvm::ModulePassManager passes;
  passes.addPass(LowerKernelExitPass(LowerKernelExitPass::RecordSource::RecordFunction));
  runModulePasses(*result.module, passes);
  result.errors = errorText(takeBuildErrors(*result.module));
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  EXPECT_FALSE(llvm::verifyModule(*result.module, &problemStream)) << problems;
  result.text = printModule(*result.module);
  return result;
}

/// Lowers `kernel` and runs FileCheck with `checks` on the result, which
/// must have built.
void expectLowering(const std::string &kernel, const std::string &checks) {
  Lowered lowered = lower(kernel);
  ASSERT_TRUE(lowered.module);
  EXPECT_EQ(lowered.errors, "");
  std::string result = runFileCheck(lowered.text, checks);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, KernelExitBeforeABarrierGoesOnWithItsSideEffectsMasked) {
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %scratch, ptr addrspace(1) %counter) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %slot = getelementptr i32, ptr addrspace(3) %scratch, i64 %id
  store i32 1, ptr addrspace(3) %slot
  %leaves = icmp eq i64 %id, 3
  br i1 %leaves, label %leave, label %stay
leave:
  call void @__polymux_kernel_exit(i32 8)
  unreachable
stay:
  call void @_Z7barrierj(i32 1)
  store i32 2, ptr addrspace(1) %out
  store i32 3, ptr addrspace(3) %slot
  %ticket = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst
  %at = getelementptr i32, ptr addrspace(1) %out, i32 %ticket
  store i32 %ticket, ptr addrspace(1) %at
  ret void
}
)",
                 R"(
CHECK-LABEL: define spir_kernel void @k(
; Before the exit, nothing is masked.
CHECK: store i32 1, ptr addrspace(3) %slot
CHECK-NEXT: %leaves = icmp eq i64 %id, 3
CHECK-NEXT: br i1 %leaves, label %leave, label %stay
; The exit records its status, marks the place and goes on at the join.
CHECK: leave:
CHECK-NEXT: br label %kernel.exit
CHECK: kernel.exit:
CHECK: cmpxchg ptr addrspace(1) [[RECORD:%.*]], i32 -2147483648, i32 8 monotonic monotonic
CHECK-NEXT: cmpxchg ptr addrspace(1) [[RECORD]], i32 0, i32 8 monotonic monotonic
CHECK-NEXT: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %stay
CHECK: stay:
CHECK-NEXT: [[LEFT:%.*]] = phi i1 [ true, %kernel.exit ], [ false, %work.group.body ]
; The barrier is not masked; the two stores after it share one branch.
CHECK-NEXT: call void @_Z7barrierj(i32 1)
CHECK-NEXT: [[RUNNING:%.*]] = xor i1 [[LEFT]], true
CHECK-NEXT: br i1 [[RUNNING]], label %not.left, label %[[AFTER:.*]]
CHECK: not.left:
CHECK-NEXT: store i32 2, ptr addrspace(1) %out
CHECK-NEXT: store i32 3, ptr addrspace(3) %slot
CHECK-NEXT: br label %[[AFTER]]
; The atomic whose result is used: a work-item that left loads instead.
CHECK: [[AFTER]]:
CHECK-NEXT: br i1 [[LEFT]], label %left.read, label %[[ADD:.*]]
CHECK: left.read:
CHECK-NEXT: [[SEEN:%.*]] = load atomic i32, ptr addrspace(1) %counter monotonic, align 4
CHECK: [[ADD]]:
CHECK-NEXT: [[ADDED:%.*]] = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst
CHECK: %ticket = phi i32 [ [[ADDED]], %[[ADD]] ], [ [[SEEN]], %left.read ]
CHECK-NEXT: %at = getelementptr i32, ptr addrspace(1) %out, i32 %ticket
CHECK: br i1 {{%.*}}, label %not.left{{[0-9]+}}, label
CHECK: not.left{{[0-9]+}}:
CHECK-NEXT: store i32 %ticket, ptr addrspace(1) %at
CHECK-NOT: @__polymux_kernel_exit(
)");
}

TEST(Passes, KernelExitThatNoBarrierFollowsReturns) {
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out) {
entry:
  call void @_Z7barrierj(i32 1)
  %id = call i64 @_Z12get_local_idj(i32 0)
  %leaves = icmp eq i64 %id, 3
  br i1 %leaves, label %leave, label %stay
leave:
  call void @__polymux_kernel_exit(i32 8)
  unreachable
stay:
  store i32 2, ptr addrspace(1) %out
  ret void
}
)",
                 R"(
CHECK-LABEL: define spir_kernel void @k(
CHECK: cmpxchg ptr addrspace(1) [[RECORD:%.*]], i32 0, i32 8 monotonic monotonic
CHECK-NEXT: ret void
CHECK: stay:
CHECK-NEXT: store i32 2, ptr addrspace(1) %out
CHECK-NOT: left
)");
}

TEST(Passes, KernelExitInALoopWithABarrierMasksItsOwnRecordOnTheNextRound) {
  // The loop counter goes on; the record's updates and the store are masked.
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out, i32 %rounds) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  br label %loop
loop:
  %r = phi i32 [ 0, %entry ], [ %next, %latch ]
  call void @_Z7barrierj(i32 1)
  %odd = trunc i64 %id to i1
  br i1 %odd, label %leave, label %latch
leave:
  call void @__polymux_kernel_exit(i32 %r)
  unreachable
latch:
  %at = getelementptr i32, ptr addrspace(1) %out, i32 %r
  store i32 %r, ptr addrspace(1) %at
  %next = add i32 %r, 1
  %more = icmp slt i32 %next, %rounds
  br i1 %more, label %loop, label %done
done:
  ret void
}
)",
                 R"(
CHECK-LABEL: define spir_kernel void @k(
CHECK: loop:
CHECK-NEXT: [[LEFT:%.*]] = phi i1 [ false, %work.group.body ], [ [[AGAIN:%.*]], {{%.*}} ]
CHECK-NEXT: %r = phi i32
CHECK: kernel.exit:
CHECK: [[RUNNING:%.*]] = xor i1 [[LEFT]], true
CHECK-NEXT: br i1 [[RUNNING]], label %not.left, label %[[MARK:.*]]
CHECK: not.left:
CHECK-NEXT: cmpxchg
CHECK-NEXT: cmpxchg
CHECK: [[MARK]]:
CHECK-NEXT: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %latch
CHECK: latch:
CHECK-NEXT: [[AGAIN]] = phi i1 [ true, %[[MARK]] ], [ [[LEFT]], %loop ]
CHECK: [[STILL:%.*]] = xor i1 [[AGAIN]], true
CHECK-NEXT: br i1 [[STILL]], label %not.left{{[0-9]+}}
CHECK: not.left{{[0-9]+}}:
CHECK-NEXT: store i32 %r, ptr addrspace(1) %at
CHECK: %next = add i32 %r, 1
)");
}

TEST(Passes, KernelExitJoinsPastEveryBranchIntoTheExit) {
  // if (a || b) kernel_exit(1); barrier(); — the join is after both tests,
  // not the test of b, which would send the work-item back to the exit.
  expectLowering(R"(
define spir_kernel void @k(i32 %a, i32 %b) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %id32 = trunc i64 %id to i32
  %isA = icmp eq i32 %id32, %a
  br i1 %isA, label %leave, label %testB
testB:
  %isB = icmp eq i32 %id32, %b
  br i1 %isB, label %leave, label %stay
leave:
  call void @__polymux_kernel_exit(i32 1)
  unreachable
stay:
  call void @_Z7barrierj(i32 1)
  ret void
}
)",
                 R"(
CHECK: kernel.exit:
CHECK: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %stay
)");
}

TEST(Passes, KernelExitReachesBarriersBeyondAnotherExit) {
  // The inner exit's join leads on only into the outer exit, which goes on
  // to a barrier: the work-item that leaves first must get there too.
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out, i1 %uniform) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  br i1 %uniform, label %outer, label %rest
outer:
  %first = icmp eq i64 %id, 0
  br i1 %first, label %inner.leave, label %inner.join
inner.leave:
  call void @__polymux_kernel_exit(i32 1)
  unreachable
inner.join:
  store i32 1, ptr addrspace(1) %out
  call void @__polymux_kernel_exit(i32 2)
  unreachable
rest:
  call void @_Z7barrierj(i32 1)
  ret void
}
)",
                 R"(
CHECK: kernel.exit:
CHECK: i32 -2147483648, i32 1
CHECK: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %inner.join
CHECK: inner.join:
CHECK: br i1 {{%.*}}, label %not.left, label
CHECK: not.left:
CHECK-NEXT: store i32 1, ptr addrspace(1) %out
CHECK: i32 -2147483648, i32 2
CHECK: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %rest
)");
}

TEST(Passes, KernelExitGivesTheJoinsPhisAValueForTheNewWayIn) {
  // The exit comes from %a, where %id32 is known: the phi takes it.
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out, i1 %c) {
entry:
  %id = call i64 @_Z12get_local_idj(i32 0)
  %id32 = trunc i64 %id to i32
  br i1 %c, label %a, label %b
a:
  %leaves = icmp eq i64 %id, 3
  br i1 %leaves, label %leave, label %stay
b:
  br label %stay
leave:
  call void @__polymux_kernel_exit(i32 1)
  unreachable
stay:
  %v = phi i32 [ %id32, %a ], [ 2, %b ]
  call void @_Z7barrierj(i32 1)
  store i32 %v, ptr addrspace(1) %out
  ret void
}
)",
                 R"(
CHECK: stay:
CHECK: %v = phi i32 [ %id32, %a ], [ 2, %b ], [ %id32, %kernel.exit ]
)");
}

TEST(Passes, KernelExitKeepsPrivateStoresThroughGenericPointers) {
  // A helper's store through a generic pointer, inlined: to a private
  // variable it stays (the work-item's loop state), to __global memory it
  // is masked.
  // The pointers' own variables are promoted; only the __global store is
  // masked.
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %out) {
entry:
  %count = alloca i32
  %count.addr = alloca ptr addrspace(4)
  %out.addr = alloca ptr addrspace(4)
  %generic = addrspacecast ptr %count to ptr addrspace(4)
  store ptr addrspace(4) %generic, ptr %count.addr
  %outGeneric = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  store ptr addrspace(4) %outGeneric, ptr %out.addr
  store i32 0, ptr %count
  %id = call i64 @_Z12get_local_idj(i32 0)
  %leaves = icmp eq i64 %id, 3
  br i1 %leaves, label %leave, label %stay
leave:
  call void @__polymux_kernel_exit(i32 8)
  unreachable
stay:
  call void @_Z7barrierj(i32 1)
  %p = load ptr addrspace(4), ptr %count.addr
  store i32 5, ptr addrspace(4) %p
  %q = load ptr addrspace(4), ptr %out.addr
  store i32 6, ptr addrspace(4) %q
  %c = load i32, ptr %count
  %more = icmp slt i32 %c, 4
  br i1 %more, label %stay, label %done
done:
  ret void
}
)",
                 R"(
CHECK: stay:
CHECK: call void @_Z7barrierj(i32 1)
CHECK-NEXT: store i32 5, ptr addrspace(4) %generic
CHECK-NEXT: [[RUNNING:%.*]] = xor i1 {{%.*}}, true
CHECK-NEXT: br i1 [[RUNNING]], label %not.left
CHECK: not.left:
CHECK-NEXT: store i32 6, ptr addrspace(4) %outGeneric
CHECK-NOT: store
CHECK: ret void
)");
}

TEST(Passes, KernelExitInALoopThatOnlyExitsLeaveReturnsOnceAllHaveLeft) {
  // The loop's barrier orders __global memory only: the count is read
  // between two added barriers that order __local memory.
  expectLowering(R"(
define spir_kernel void @k(ptr addrspace(1) %flag) {
entry:
  br label %loop
loop:
  call void @_Z7barrierj(i32 2)
  %seen = load i32, ptr addrspace(1) %flag
  %done = icmp ne i32 %seen, 0
  br i1 %done, label %leave, label %loop
leave:
  call void @__polymux_kernel_exit(i32 0)
  unreachable
}
)",
                 R"(
CHECK: @k.exit.left = internal addrspace(3) global i32 undef
CHECK-LABEL: define spir_kernel void @k(
; Work-item 0 zeroes the count with the start check.
CHECK: exit.decide:
CHECK: store i32 0, ptr addrspace(3) @k.exit.left
CHECK: loop:
CHECK-NEXT: [[LEFT:%.*]] = phi i1
CHECK-NEXT: call void @_Z7barrierj(i32 2)
CHECK-NEXT: call void @_Z7barrierj(i32 1)
CHECK-NEXT: %left.count = load i32, ptr addrspace(3) @k.exit.left
CHECK-NEXT: call void @_Z7barrierj(i32 1)
CHECK-NEXT: [[X:%.*]] = call i64 @_Z14get_local_sizej(i32 0)
CHECK-NEXT: [[Y:%.*]] = call i64 @_Z14get_local_sizej(i32 1)
CHECK-NEXT: [[XY:%.*]] = mul i64 [[X]], [[Y]]
CHECK-NEXT: [[Z:%.*]] = call i64 @_Z14get_local_sizej(i32 2)
CHECK-NEXT: [[SIZE:%.*]] = mul i64 [[XY]], [[Z]]
CHECK-NEXT: [[COUNT:%.*]] = zext i32 %left.count to i64
CHECK-NEXT: %everyone.left = icmp eq i64 [[COUNT]], [[SIZE]]
CHECK-NEXT: br i1 %everyone.left, label %all.left, label %not.all.left
; Each work-item counts itself once, when it first leaves.
CHECK: kernel.exit:
CHECK: [[RUNNING:%.*]] = xor i1 [[LEFT]], true
CHECK-NEXT: br i1 [[RUNNING]], label %not.left, label
CHECK: not.left:
CHECK-NEXT: cmpxchg
CHECK-NEXT: cmpxchg
CHECK-NEXT: atomicrmw add ptr addrspace(3) @k.exit.left, i32 1 syncscope("workgroup") monotonic
CHECK-NOT: atomicrmw
CHECK: call void @__polymux_kernel_exit_left()
CHECK-NEXT: br label %loop
CHECK: all.left:
CHECK-NEXT: ret void
)");
}

TEST(Passes, KernelExitInALoopThatOnlyExitsLeaveWithSubGroupBarriersIsABuildError) {
  // Sub-groups may read the count at different times: no way out for them.
  Lowered lowered = lower(R"(
declare void @_Z17sub_group_barrierj(i32) convergent nounwind
define spir_kernel void @k(ptr addrspace(1) %flag) {
entry:
  br label %loop
loop:
  call void @_Z17sub_group_barrierj(i32 1)
  %seen = load i32, ptr addrspace(1) %flag
  %done = icmp ne i32 %seen, 0
  br i1 %done, label %leave, label %loop
leave:
  call void @__polymux_kernel_exit(i32 0)
  unreachable
}
)");
  ASSERT_TRUE(lowered.module);
  EXPECT_NE(lowered.errors.find("kernel 'k' calls kernel_exit where the other work-items go on in a loop that only "
                                "kernel_exit leaves"),
            std::string::npos)
      << lowered.errors;
}

TEST(Passes, KernelExitWhoseOtherWaysNeverMeetIsABuildErrorBeforeBarriers) {
  // The other ways on end at different places (a return, an unreachable)
  // with no block in common where the work-item that left could go on.
  Lowered lowered = lower(R"(
define spir_kernel void @k(i32 %way) {
entry:
  switch i32 %way, label %leave [ i32 1, label %returns
                                  i32 2, label %traps ]
leave:
  call void @__polymux_kernel_exit(i32 0)
  unreachable
returns:
  call void @_Z7barrierj(i32 1)
  ret void
traps:
  call void @_Z7barrierj(i32 1)
  unreachable
}
)");
  ASSERT_TRUE(lowered.module);
  EXPECT_NE(lowered.errors.find("kernel 'k' calls kernel_exit where the other work-items go on along ways that never "
                                "meet again, and barriers follow"),
            std::string::npos)
      << lowered.errors;
}

} // namespace
} // namespace compiler::test
