// The shared passes on small OpenCL C inputs, checked with FileCheck.
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "test_support.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

namespace compiler::test {
namespace {

void run(llvm::Module &module, llvm::ModulePassManager &passes) { runModulePasses(module, passes); }

/// Inlines helpers into kernels and lowers the work-item builtins.
void lowerWorkItems(llvm::Module &module) {
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(LowerWorkItemBuiltinsPass());
  run(module, passes);
}

TEST(Passes, LowerWorkItemBuiltins) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
size_t helper(void) { return get_local_size(1) + get_work_dim(); }
__kernel void k(__global ulong *out, uint dim) {
  out[get_global_id(0)] = helper() + get_global_id(dim) + get_local_id(2) + get_num_groups(5);
}
)");
  ASSERT_TRUE(module);
  lowerWorkItems(*module);
  EXPECT_EQ(module->getFunction("k"), nullptr) << "the kernel is replaced by its work-item function";
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: define internal void @__polymux_work_item_k(ptr {{.*}}%out, i32 {{.*}}%dim, ptr %wg.info, i64 %local.x, i64 %local.y, i64 %local.z) [[ATTRS:#[0-9]+]]
; get_global_id(0) = groupId[0] * enqueuedLocalSize[0] + local.x + globalOffset[0]
CHECK-DAG: [[GROUP:%[0-9a-z.]+]] = load i64, ptr {{.*}}!invariant.load
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 7, i32 0
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 4, i32 0
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 2, i32 0
CHECK-DAG: add i64 {{.*}}, %local.x
; get_local_size(1) and get_work_dim() from the inlined helper
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 5, i32 1
CHECK-DAG: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 0{{$}}
; get_global_id(dim) selects among the dimensions
CHECK-DAG: icmp eq i32 {{%.*}}, 2
CHECK-DAG: select i1
; get_num_groups(5) is 1
CHECK-DAG: add i64 {{.*}}, 1{{$}}
CHECK-NOT: call {{.*}}@_Z
CHECK: ret void
CHECK: attributes [[ATTRS]] = {{.*}}"polymux-work-item-function"="k"
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, KernelWrapperUnpacksArgumentsAndLoops) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global float *a, int n, float3 v, char c, __global int *b, __local float *l) {
  a[get_global_id(0)] = n + v.y + c + b[0] + l[0];
}
)");
  ASSERT_TRUE(module);
  lowerWorkItems(*module);
  llvm::ModulePassManager passes;
  passes.addPass(KernelWrapperPass());
  run(*module, passes);
  // Offsets per cpu_kernel_abi.h: a 0, n 8, v 16 (16 bytes), c 32, b 40, l 48.
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(ptr noalias noundef readonly captures(none) %packed.args, ptr noalias noundef readonly captures(none) %wg.info)
CHECK: %a = load ptr, ptr {{%.*}}, align 1
CHECK: [[N:%.*]] = getelementptr inbounds i8, ptr %packed.args, i64 8
CHECK: %n = load i32, ptr [[N]], align 1
CHECK: [[V:%.*]] = getelementptr inbounds i8, ptr %packed.args, i64 16
CHECK: %v = load <3 x float>, ptr [[V]], align 1
CHECK: [[C:%.*]] = getelementptr inbounds i8, ptr %packed.args, i64 32
CHECK: %c = load i8, ptr [[C]], align 1
CHECK: [[B:%.*]] = getelementptr inbounds i8, ptr %packed.args, i64 40
CHECK: %b = load ptr, ptr [[B]], align 1
CHECK: [[L:%.*]] = getelementptr inbounds i8, ptr %packed.args, i64 48
CHECK: %l = load ptr, ptr [[L]], align 1
CHECK: getelementptr inbounds %polymux.WorkGroupInfo, ptr %wg.info, i32 0, i32 5, i32 0
CHECK: wi.z.header:
CHECK: icmp ult i64 %wi.z
CHECK: wi.y.header:
CHECK: wi.x.header:
CHECK: %wi.x = phi i64 [ 0, %wi.y.body ], [ %wi.x.next, %wi.x.latch ]
CHECK: wi.x.body:
CHECK-NEXT: call void @__polymux_work_item_k(ptr %a, i32 %n, <3 x float> %v, i8 %c, ptr %b, ptr %l, ptr %wg.info, i64 %wi.x, i64 %wi.y, i64 %wi.z)
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, KernelExitRecordsTheStatusAndReturns) {
  llvm::LLVMContext context;
  auto module = compileForHostWith(context, R"(
void check(global int *out, int v) {
  if (v < 0)
    kernel_exit(v);
}
__kernel void k(__global int *out) {
  if (is_kernel_exiting())
    return;
  check(out, out[get_global_id(0)]);
  out[get_global_id(0)] = 1;
}
)",
                                   "", {"cl_polymux_kernel_exit"});
  ASSERT_TRUE(module);
  lowerWorkItems(*module);
  llvm::ModulePassManager passes;
  passes.addPass(LowerKernelExitPass());
  run(*module, passes);
  ASSERT_FALSE(takeBuildErrors(*module));
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: define internal void @__polymux_work_item_k({{.*}}) [[ATTRS:#[0-9]+]]
; is_kernel_exiting(): the record, field 15, holds something else than INT_MIN
CHECK: [[RECORD:%.*]] = load ptr, ptr {{.*}}!invariant.load
CHECK: [[NOW:%.*]] = load atomic i32, ptr [[RECORD]] monotonic, align 4
CHECK: icmp ne i32 [[NOW]], -2147483648
; kernel_exit(v): INT_MIN is reserved, the first status wins, non-zero over zero
CHECK: [[STATUS:%exit.status.*]] = select i1 {{.*}}, i32 -5, i32
CHECK: cmpxchg ptr {{%.*}}, i32 -2147483648, i32 [[STATUS]] monotonic monotonic, align 4
CHECK: cmpxchg ptr {{%.*}}, i32 0, i32 [[STATUS]] monotonic monotonic, align 4
CHECK-NEXT: ret void
CHECK-NOT: __polymux_kernel_exit
CHECK-NOT: __polymux_is_kernel_exiting
CHECK: attributes [[ATTRS]] = {{.*}}"polymux-calls-kernel-exit"
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, VolatilePrivateVariablesBecomePlain) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global int *out, volatile __global int *flag) {
  volatile int tid = get_local_id(0);
  volatile int pair[2];
  pair[tid & 1] = tid;
  out[tid] = pair[0] + *flag;
  *flag = tid;
}
)");
  ASSERT_TRUE(module);
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(ClearPrivateVolatilePass());
  run(*module, passes);
  // The private variables' accesses are plain; the global flag's stay volatile.
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}void @k(
CHECK-NOT: store volatile i32 {{.*}}, ptr %tid
CHECK-NOT: load volatile i32, ptr %tid
CHECK-NOT: volatile {{.*}}%pair
CHECK: load volatile i32, ptr {{%.*}}
CHECK: store volatile i32 {{%.*}}, ptr {{%.*}}
CHECK-NOT: volatile
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
  unsigned volatileAccesses = 0;
  for (llvm::Instruction &instruction : llvm::instructions(*module->getFunction("k")))
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      volatileAccesses += load->isVolatile();
    else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      volatileAccesses += store->isVolatile();
  EXPECT_EQ(volatileAccesses, 2u) << "the global flag's load and store";
}

TEST(Passes, ExactBuiltinsBecomeIntrinsics) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global float4 *f, __global int *i, __global uint *u, __global double *d) {
  f[0] = fmin(f[1], 2.0f) + sqrt(f[2]) + fabs(f[3]) + floor(f[4]) + fma(f[5], f[6], f[7]) + clamp(f[8], 0.0f, 1.0f);
  i[0] = clamp(i[1], -3, 3) + abs(i[2]) + popcount(i[3]) + clz(i[4]) + rotate(i[5], 3) + max(i[6], i[7]);
  u[0] = mul_hi(u[1], u[2]) + min(u[3], u[4]) + ctz(u[5]);
  d[0] = copysign(d[1], d[2]) + rint(d[3]) + mad(d[4], d[5], d[6]);
}
)",
                               "-cl-std=CL2.0");
  ASSERT_TRUE(module);
  llvm::ModulePassManager passes;
  passes.addPass(LowerExactBuiltinsPass());
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  run(*module, passes);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: call <4 x float> @llvm.minnum.v4f32(<4 x float> {{.*}}, <4 x float> splat (float 2.000000e+00))
CHECK-DAG: call <4 x float> @llvm.sqrt.v4f32
CHECK-DAG: call <4 x float> @llvm.fabs.v4f32
CHECK-DAG: call <4 x float> @llvm.floor.v4f32
CHECK-DAG: call <4 x float> @llvm.fma.v4f32
CHECK-DAG: call <4 x float> @llvm.maxnum.v4f32
CHECK-DAG: call i32 @llvm.smax.i32
CHECK-DAG: call i32 @llvm.smin.i32
CHECK-DAG: call i32 @llvm.abs.i32
CHECK-DAG: call i32 @llvm.ctpop.i32
CHECK-DAG: call i32 @llvm.ctlz.i32
CHECK-DAG: call i32 @llvm.fshl.i32
CHECK-DAG: zext i32 {{.*}} to i64
CHECK-DAG: lshr i64 {{.*}}, 32
CHECK-DAG: call i32 @llvm.umin.i32
CHECK-DAG: call i32 @llvm.cttz.i32
CHECK-DAG: call double @llvm.copysign.f64
CHECK-DAG: call double @llvm.rint.f64
CHECK-DAG: call double @llvm.fmuladd.f64
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, AtomicsFencesAndConversions) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void k(__global int *i, __global uint *u, volatile __global long *l, __global float *f, __global int4 *v) {
  atomic_add(i, 2);
  atomic_min(i + 1, -3);
  atomic_max(u, 7u);
  atomic_inc(u + 1);
  atomic_cmpxchg(i + 2, 0, 1);
  atom_add(l, 5L);
  atomic_xchg(f, 1.5f);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  v[0] = convert_int4(v[1].xyzw == 0) + convert_int4(convert_float4(v[2]) * 0.5f);
  u[2] = convert_uint(f[1]);
}
)");
  ASSERT_TRUE(module);
  llvm::ModulePassManager passes;
  passes.addPass(LowerExactBuiltinsPass());
  passes.addPass(LowerAtomicBuiltinsPass());
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  run(*module, passes);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 2 seq_cst
CHECK-DAG: atomicrmw min ptr {{.*}}, i32 -3 seq_cst
CHECK-DAG: atomicrmw umax ptr {{.*}}, i32 7 seq_cst
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 seq_cst
CHECK-DAG: cmpxchg ptr {{.*}}, i32 0, i32 1 seq_cst seq_cst
CHECK-DAG: atomicrmw add ptr {{.*}}, i64 5 seq_cst
CHECK-DAG: atomicrmw xchg ptr {{.*}}, float 1.500000e+00 seq_cst
CHECK-DAG: fence seq_cst
CHECK-DAG: sitofp <4 x i32> {{.*}} to <4 x float>
CHECK-DAG: fptosi <4 x float> {{.*}} to <4 x i32>
CHECK-DAG: fptoui float {{.*}} to i32
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Passes, UnresolvedBuiltinsAreListed) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, "__kernel void k(__global float *p) { p[0] = sin(p[1]) + cos(p[2]); }");
  ASSERT_TRUE(module);
  CpuBinary binary;
  std::string message = errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary));
  EXPECT_NE(message.find("sin(float) [_Z3sinf]"), std::string::npos) << message;
  EXPECT_NE(message.find("cos(float) [_Z3cosf]"), std::string::npos) << message;
}

TEST(Passes, LocalVariablesGetAlignedOffsetsPerKernel) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void a(__global int *p) { __local char c[3]; __local double d[2]; c[0] = 1; d[1] = c[0]; p[0] = d[1]; }
__kernel void b(__global int *p) { __local int t[5]; t[0] = 1; p[0] = t[0]; }
__kernel void none(__global int *p) { p[0] = 1; }
)");
  ASSERT_TRUE(module);
  CpuBinary binary;
  ASSERT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
  ASSERT_EQ(binary.kernels.size(), 3u);
  // a: c at 0 (3 bytes), then d at its alignment: x86-64 gives 16-byte
  // arrays 16-byte alignment -> 16 + 16.
  EXPECT_EQ(binary.kernels[0].localMemSize, 32u);
  EXPECT_EQ(binary.kernels[1].localMemSize, 20u);
  EXPECT_EQ(binary.kernels[2].localMemSize, 0u);
  // No __local variable survives as a global.
  for (const llvm::GlobalVariable &variable : module->globals())
    EXPECT_FALSE(variable.getName().contains(".c") || variable.getName().contains(".t")) << variable.getName().str();
}

/// The STREAM triad must vectorise across work-items on the host.
void expectVectorisedTriad(const char *indexType) {
  llvm::LLVMContext context;
  std::string source = std::string("__kernel void triad(__global float *a, __global const float *b, "
                                   "__global const float *c, float s) {\n  ") +
                       indexType + " i = get_global_id(0);\n  a[i] = b[i] + s * c[i];\n}\n";
  auto module = compileForHost(context, source);
  ASSERT_TRUE(module);
  CpuBinary binary;
  ASSERT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
  CodegenConfig config;
  config.triple = llvm::sys::getProcessTriple();
  config.cpu = llvm::sys::getHostCPUName().str();
  {
    llvm::SmallVector<std::string, 64> features;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features.push_back((feature.second ? "+" : "-") + feature.first().str());
    config.features = llvm::join(features, ",");
  }
  auto machine = createTargetMachine(config, false);
  ASSERT_TRUE(static_cast<bool>(machine));
  optimizeModule(*module, **machine, false);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_triad(
CHECK: load <{{[0-9]+}} x float>
CHECK: store <{{[0-9]+}} x float>
)");
  EXPECT_TRUE(result.empty()) << "index type " << indexType << "\n" << result;
}

TEST(Passes, TriadVectorisesAcrossWorkItemsWithSizeT) { expectVectorisedTriad("size_t"); }
TEST(Passes, TriadVectorisesAcrossWorkItemsWithInt) { expectVectorisedTriad("int"); }

/// With the baseline x86-64 CPU a uint2 argument is a double and a float8 a
/// byval pointer; lowered builtins must still compute on the OpenCL types.
/// Constant inputs fold, so the stored constants show what was computed.
TEST(Passes, ExactBuiltinsSeeThroughArgumentCoercion) {
  llvm::LLVMContext context;
  auto parsed = parseBuildOptions("", OptionsUse::Build);
  ASSERT_TRUE(static_cast<bool>(parsed));
  FrontendConfig config = hostFrontendConfig();
  config.triple = "x86_64-unknown-linux-gnu";
  std::string log;
  auto module = compileOpenCLC(context, R"(
__kernel void k(__global float2 *f2, __global float8 *f8, __global char3 *c3, __global uint4 *u4,
                __global short2 *s2, __global float *f, __global float16 *f16) {
  f2[0] = convert_float2((uint2)(20, 1));
  f8[0] = fmin((float8)(1, 2, 3, 4, 5, 6, 7, 8), (float8)(4.5f));
  c3[0] = convert_char3_sat((int3)(300, -300, 7));
  u4[0] = convert_uint4_sat_rte((float4)(-1.0f, 2.5f, 3.5f, 5e9f));
  s2[0] = max((short2)(1, -7), (short)-3);
  f[0] = dot((float4)(1, 2, 3, 4), (float4)(1, 1, 1, 1));
  f16[0] = convert_float16((int16)(-3));
}
)",
                               *parsed, {}, config, log);
  ASSERT_TRUE(static_cast<bool>(module)) << errorText(module.takeError()) << log;
  llvm::ModulePassManager passes;
  passes.addPass(LowerExactBuiltinsPass());
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  run(**module, passes);
  llvm::PassBuilder builder;
  llvm::ModulePassManager optimize = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  runModulePasses(**module, builder, optimize);
  std::string result = runFileCheck(printModule(**module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: store <2 x float> <float 2.000000e+01, float 1.000000e+00>
CHECK-DAG: store <8 x float> <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00, float 4.500000e+00, float 4.500000e+00, float 4.500000e+00, float 4.500000e+00>
CHECK-DAG: <i8 127, i8 -128, i8 7
CHECK-DAG: store <4 x i32> <i32 0, i32 2, i32 4, i32 -1>
CHECK-DAG: store <2 x i16> <i16 1, i16 -3>
CHECK-DAG: store float 1.000000e+01
CHECK-DAG: store <16 x float> splat (float -3.000000e+00)
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
  EXPECT_TRUE(result.empty()) << result;
}

} // namespace
} // namespace compiler::test
