// LowerGroupBuiltinsPass: work-group and sub-group collectives become
// scratch stores, two barriers and one sequential combine per call (by the
// first work-item of the work-group or of the sub-group); the sub-group
// queries become arithmetic on the local linear id and sizes; the scratch
// lands in the kernel's __local area with a size that follows the widest
// type used and the reductions' result slots.
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "test_support.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

namespace compiler::test {
namespace {

void lowerGroups(llvm::Module &module) {
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  LowerGroupBuiltinsPass::Options options;
  options.subGroupSize = 8;
  passes.addPass(LowerGroupBuiltinsPass(options));
  runModulePasses(module, passes);
}

unsigned countCalls(const llvm::Function &function, llvm::StringRef callee) {
  unsigned count = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (call->getCalledFunction() && call->getCalledFunction()->getName() == callee)
        ++count;
  return count;
}

TEST(GroupBuiltins, CollectivesBecomeScratchBarriersAndOneLoop) {
  llvm::LLVMContext context;
  auto module = compileWithGroupFunctions(context, R"(
long helper(long x) { return work_group_scan_exclusive_max(x); }
__kernel void k(__global long *out, __global int *flags) {
  size_t g = get_global_id(0);
  out[g] = work_group_reduce_add(out[g]) + helper(out[g]);
  flags[g] = work_group_any(flags[g]);
}
)");
  ASSERT_TRUE(module);
  lowerGroups(*module);
  llvm::Function *kernel = module->getFunction("k");
  ASSERT_NE(kernel, nullptr);
  // Two barriers per collective (three collectives), nothing left to call.
  EXPECT_EQ(countCalls(*kernel, "_Z7barrierj"), 6u);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: @__polymux_group_scratch.k = internal unnamed_addr global [1025 x i64] undef, align 8
CHECK-LABEL: define {{.*}}void @k(
CHECK-NOT: call {{.*}}@_Z{{[0-9]+}}work_group
; reduce_add: store the value at the local linear id, barrier, work-item 0 folds
CHECK: [[LID:%[0-9a-z.]+]] = call i64 @_Z19get_local_linear_idv()
CHECK: [[SLOT:%[0-9a-z.]+]] = getelementptr inbounds i64, ptr @__polymux_group_scratch.k, i64 [[LID]]
CHECK: store i64 {{.*}}, ptr [[SLOT]]
CHECK: call void @_Z7barrierj(i32 1)
CHECK: icmp eq i64 [[LID]], 0
CHECK: group.loop:
CHECK: add i64
CHECK: call void @_Z7barrierj(i32 1)
CHECK: load i64, ptr getelementptr inbounds {{.*}}@__polymux_group_scratch.k
; scan_exclusive_max starts from LONG_MIN
CHECK: phi i64 [ -9223372036854775808,
CHECK: call i64 @llvm.smax.i64
; any: predicates as 0/1 in 32-bit slots, combined with or
CHECK: zext i1 {{.*}} to i32
CHECK: or i32
CHECK-NOT: call {{.*}}@_Z{{[0-9]+}}work_group
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
  EXPECT_EQ(module->getFunction("_Z20work_group_reduce_addl"), nullptr) << "unused declarations are removed";
}

TEST(GroupBuiltins, SubGroupQueriesFollowTheLocalLinearId) {
  llvm::LLVMContext context;
  auto module = compileWithGroupFunctions(context, R"(
__kernel void q(__global uint *out) {
  out[0] = get_sub_group_size();
  out[1] = get_max_sub_group_size();
  out[2] = get_num_sub_groups();
  out[3] = get_enqueued_num_sub_groups();
  out[4] = get_sub_group_id();
  out[5] = get_sub_group_local_id();
  out[6] = sub_group_broadcast(out[7], 3u);
}
)");
  ASSERT_TRUE(module);
  lowerGroups(*module);
  llvm::Function *kernel = module->getFunction("q");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(countCalls(*kernel, "_Z14get_local_sizej"), 3u * 3u) << "sub-group size, count and the broadcast's group";
  EXPECT_EQ(countCalls(*kernel, "_Z23get_enqueued_local_sizej"), 3u * 2u);
  EXPECT_EQ(countCalls(*kernel, "_Z17sub_group_barrierj"), 2u);
  EXPECT_EQ(countCalls(*kernel, "_Z7barrierj"), 0u);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: @__polymux_group_scratch.q = internal unnamed_addr global [1025 x i32] undef
CHECK-LABEL: define {{.*}}void @q(
; get_sub_group_size: min(8, local size - first work-item of the sub-group)
CHECK: [[ID:%[0-9a-z.]+]] = udiv i64 {{%[0-9a-z.]+}}, 8
CHECK: [[FIRST:%[0-9a-z.]+]] = mul i64 [[ID]], 8
CHECK: [[REST:%[0-9a-z.]+]] = sub i64 {{%[0-9a-z.]+}}, [[FIRST]]
CHECK: call i64 @llvm.umin.i64(i64 8, i64 [[REST]])
; get_max_sub_group_size: min(8, enqueued local size)
CHECK: call i64 @llvm.umin.i64(i64 8,
; get_num_sub_groups and get_enqueued_num_sub_groups round up
CHECK: add i64 {{%[0-9a-z.]+}}, 7
CHECK: udiv i64 {{%[0-9a-z.]+}}, 8
CHECK: add i64 {{%[0-9a-z.]+}}, 7
CHECK: udiv i64 {{%[0-9a-z.]+}}, 8
; get_sub_group_id, get_sub_group_local_id
CHECK: udiv i64 {{%[0-9a-z.]+}}, 8
CHECK: urem i64 {{%[0-9a-z.]+}}, 8
; the broadcast reads the sub-group's first slot + min(id, size - 1)
CHECK: call void @_Z17sub_group_barrierj(i32 1)
CHECK: [[LAST:%[0-9a-z.]+]] = sub i64 {{%[0-9a-z.]+}}, 1
CHECK: [[CLAMPED:%[0-9a-z.]+]] = call i64 @llvm.umin.i64(i64 3, i64 [[LAST]])
CHECK: add i64 {{%[0-9a-z.]+}}, [[CLAMPED]]
CHECK-NOT: call {{.*}}@_Z{{[0-9]+}}{{(get_sub_group|get_max_sub|get_num_sub|get_enqueued_num_sub|sub_group_broadcast)}}
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(GroupBuiltins, SubGroupReductionsFoldTheirOwnSlotsIntoOwnResults) {
  llvm::LLVMContext context;
  auto module = compileWithGroupFunctions(context, R"(
__kernel void r(__global int *p) { p[get_global_id(0)] = sub_group_reduce_add(p[get_global_id(0)]); }
)");
  ASSERT_TRUE(module);
  lowerGroups(*module);
  // 1024 work-items' slots, then one result slot per sub-group of 8.
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: @__polymux_group_scratch.r = internal unnamed_addr global [1152 x i32] undef
CHECK-LABEL: define {{.*}}void @r(
CHECK: [[LID:%[0-9a-z.]+]] = call i64 @_Z19get_local_linear_idv()
CHECK: [[INDEX:%[0-9a-z.]+]] = udiv i64 [[LID]], 8
CHECK: [[FIRST:%[0-9a-z.]+]] = mul i64 [[INDEX]], 8
CHECK: [[RESULT:%[0-9a-z.]+]] = add i64 1024, [[INDEX]]
CHECK: call void @_Z17sub_group_barrierj(i32 1)
CHECK: icmp eq i64 [[LID]], [[FIRST]]
CHECK: group.loop:
CHECK: group.combined:
CHECK: getelementptr inbounds i32, ptr @__polymux_group_scratch.r, i64 [[RESULT]]
CHECK: call void @_Z17sub_group_barrierj(i32 1)
CHECK: getelementptr inbounds i32, ptr @__polymux_group_scratch.r, i64 [[RESULT]]
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(GroupBuiltins, NarrowerResultSlotsFollowTheWidestTypesItemSlots) {
  // Beside a long collective, the int any's result slots start at byte
  // 1024 * 8, past the work-items' long slots, not at int slot 1024.
  llvm::LLVMContext context;
  auto module = compileWithGroupFunctions(context, R"(
__kernel void m(__global long *p) {
  size_t g = get_global_id(0);
  p[g] = sub_group_reduce_max(p[g]) + sub_group_any(p[g] > 0);
}
)");
  ASSERT_TRUE(module);
  lowerGroups(*module);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: @__polymux_group_scratch.m = internal unnamed_addr global [1152 x i64] undef
CHECK-LABEL: define {{.*}}void @m(
CHECK: [[INDEX:%[0-9a-z.]+]] = udiv i64 {{.*}}, 8
CHECK: add i64 1024, [[INDEX]]
CHECK: call i64 @llvm.smax.i64
CHECK: [[ANY:%[0-9a-z.]+]] = add i64 2048, {{%[0-9a-z.]+}}
CHECK: or i32
CHECK: getelementptr inbounds i32, ptr @__polymux_group_scratch.m, i64 [[ANY]]
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(GroupBuiltins, DeferredSubGroupCollectivesAreMarkersUntilLowered) {
  const char *source = R"(
__kernel void d(__global float *p, __global int *q) {
  size_t i = get_global_id(0);
  p[i] = sub_group_reduce_max(p[i]) + sub_group_scan_exclusive_add(p[i]) + sub_group_broadcast(p[i], 2u);
  q[i] = sub_group_all(q[i]) + work_group_reduce_add(q[i]);
}
)";
  llvm::LLVMContext context;
  auto direct = compileWithGroupFunctions(context, source);
  auto deferred = compileWithGroupFunctions(context, source);
  ASSERT_TRUE(direct && deferred);
  lowerGroups(*direct);
  LowerGroupBuiltinsPass::Options options;
  options.subGroupSize = 8;
  options.deferSubGroupCollectives = true;
  {
    llvm::ModulePassManager passes;
    passes.addPass(PrepareInliningPass());
    passes.addPass(llvm::AlwaysInlinerPass(false));
    passes.addPass(LowerGroupBuiltinsPass(options));
    runModulePasses(*deferred, passes);
  }
  // The sub-group collectives wait as markers with the scratch, the local
  // linear id and the work-group size; the work-group one is lowered.
  std::string result = runFileCheck(printModule(*deferred), R"(
CHECK-LABEL: define {{.*}}void @d(
CHECK: call float @__polymux_sub_group_collective._Z20sub_group_reduce_maxf(float {{%.*}}, ptr @__polymux_group_scratch.d, i64 {{%.*}}, i64 {{%.*}}) #[[MARKER:[0-9]+]]
CHECK: call float @__polymux_sub_group_collective._Z28sub_group_scan_exclusive_addf(
CHECK: call float @__polymux_sub_group_collective._Z19sub_group_broadcastfj(float {{%.*}}, i32 2, ptr @__polymux_group_scratch.d,
CHECK: call i32 @__polymux_sub_group_collective._Z13sub_group_alli(
CHECK: call void @_Z7barrierj(i32 1)
CHECK-NOT: call void @_Z17sub_group_barrierj
CHECK: ret void
CHECK: attributes #[[MARKER]] = { convergent }
)");
  EXPECT_TRUE(result.empty()) << result;
  // Lowered afterwards, they are what the direct lowering gives.
  {
    llvm::ModulePassManager passes;
    passes.addPass(LowerSubGroupCollectiveMarkersPass(options));
    runModulePasses(*deferred, passes);
  }
  llvm::Function *kernel = deferred->getFunction("d");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(countCalls(*kernel, "_Z17sub_group_barrierj"),
            countCalls(*direct->getFunction("d"), "_Z17sub_group_barrierj"));
  EXPECT_EQ(countCalls(*kernel, "_Z17sub_group_barrierj"), 8u);
  EXPECT_EQ(countCalls(*kernel, "_Z7barrierj"), 2u);
  for (llvm::Function &function : *deferred)
    EXPECT_FALSE(function.getName().starts_with("__polymux_sub_group_collective")) << function.getName().str();
  EXPECT_EQ(printModule(*deferred).find("__polymux_sub_group_collective"), std::string::npos);
}

TEST(GroupBuiltins, ScratchIsLocalMemorySizedByTheWidestType) {
  llvm::LLVMContext context;
  auto module = compileWithGroupFunctions(context, R"(
__kernel void ints(__global int *p) { p[0] = work_group_reduce_min(p[0]) + sub_group_scan_inclusive_max(p[1]); }
__kernel void doubles(__global double *p) { p[0] = work_group_broadcast(p[0], 1, 0) + work_group_reduce_add((int)p[1]); }
__kernel void votes(__global int *p) { p[0] = work_group_all(p[0]); }
__kernel void none(__global int *p) { p[0] = 1; }
)");
  ASSERT_TRUE(module);
  CpuBinary binary;
  ASSERT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
  ASSERT_EQ(binary.kernels.size(), 4u);
  // 1024 work-items plus the result slot.
  EXPECT_EQ(binary.kernels[0].localMemSize, 1025u * 4);
  EXPECT_EQ(binary.kernels[1].localMemSize, 1025u * 8);
  EXPECT_EQ(binary.kernels[2].localMemSize, 1025u * 4);
  EXPECT_EQ(binary.kernels[3].localMemSize, 0u);
  EXPECT_GT(binary.kernels[0].workItemStateSize, 0u) << "the barriers split the kernel";
}

TEST(GroupBuiltins, OtherTypesAndFormsStayUnresolved) {
  llvm::LLVMContext context;
  // A user function that merely shares a prefix is left alone.
  auto module = compileWithGroupFunctions(context, R"(
int work_group_reduce_mul(int x) { return x * 2; }
__kernel void k(__global int *p) { p[0] = work_group_reduce_mul(p[0]); }
)");
  ASSERT_TRUE(module);
  lowerGroups(*module);
  llvm::Function *kernel = module->getFunction("k");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(countCalls(*kernel, "_Z7barrierj"), 0u);
}

} // namespace
} // namespace compiler::test
