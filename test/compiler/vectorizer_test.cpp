// The work-item vectoriser (VectorizeWorkItemsPass) on small kernels,
// checked with FileCheck: which values stay scalar, which memory accesses
// become vector, masked, gather/scatter or per-lane ones, how divergent
// branches become masks, which kernels keep only the scalar form, and how
// the entry point runs the two forms, also for the regions between barriers.
#include "compiler/passes.h"

#include "test_support.h"

#include "llvm/Transforms/IPO/AlwaysInliner.h"

namespace compiler::test {
namespace {

/// Lowers `source` to work-item functions and vectorises them for
/// `vectorBits`-bit registers (8 float lanes by default); with `wrap`, also
/// emits the entry points.
std::string vectorize(llvm::LLVMContext &context, const std::string &source, bool wrap = false,
                      unsigned vectorBits = 256) {
  auto module = compileForHost(context, source);
  if (!module)
    return "";
  llvm::ModulePassManager passes;
  passes.addPass(LowerExactBuiltinsPass());
  passes.addPass(LowerAtomicBuiltinsPass());
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(LowerWorkItemBuiltinsPass(/*maxWorkGroupSize=*/1024));
  passes.addPass(LowerGenericAddressSpacePass());
  passes.addPass(VectorizeWorkItemsPass(vectorBits));
  if (wrap)
    passes.addPass(KernelWrapperPass(vectorBits));
  runModulePasses(*module, passes);
  return printModule(*module);
}

/// Like vectorize, with sub-groups of 8 whose collectives wait as markers
/// for the vectoriser, and the markers it leaves lowered afterwards.
std::string vectorizeWithSubGroups(llvm::LLVMContext &context, const std::string &source, bool wrap) {
  auto module = compileWithGroupFunctions(context, source);
  if (!module)
    return "";
  LowerGroupBuiltinsPass::Options groups;
  groups.subGroupSize = 8;
  groups.deferSubGroupCollectives = true;
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(LowerGroupBuiltinsPass(groups));
  passes.addPass(LowerWorkItemBuiltinsPass());
  passes.addPass(LowerLocalVariablesPass());
  passes.addPass(VectorizeWorkItemsPass(256, groups.subGroupSize));
  passes.addPass(LowerSubGroupCollectiveMarkersPass(groups));
  if (wrap)
    passes.addPass(KernelWrapperPass(256));
  runModulePasses(*module, passes);
  return printModule(*module);
}

/// FileCheck's verdict on `checks` for `source` vectorised (with the entry
/// points with `wrap`): "" when they match.
std::string checkVectorized(const std::string &source, const std::string &checks, bool wrap = false,
                            unsigned vectorBits = 256) {
  llvm::LLVMContext context;
  return runFileCheck(vectorize(context, source, wrap, vectorBits), checks);
}

TEST(Vectorizer, UniformValuesStayScalarAndConsecutiveAccessesAreVectors) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const float *in, __global const float *p, float s) {
  size_t i = get_global_id(0);
  out[i] = in[i] * s + p[0];
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
; lane i runs local id x + i
CHECK: add <8 x i64> {{.*}}, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
; p[0] is the same for every lane: one scalar load; in[i] and out[i] are
; consecutive: whole vectors
CHECK-DAG: load float, ptr %p
CHECK-DAG: load <8 x float>, ptr
CHECK: call <8 x float> @llvm.fmuladd.v8f32(
CHECK: store <8 x float>
CHECK-NOT: gather
CHECK: ret void
CHECK: attributes {{.*}}"polymux-vector-form"="__polymux_work_item_k.v8"{{.*}}"polymux-vector-width"="8"
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, DivergentBranchesBecomeMasks) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i] > 0.0f ? in[i] * 2.0f : -in[i];
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[MASK:%.*]] = icmp sgt <8 x i32>
CHECK: call <8 x float> @llvm.masked.load.v8f32.p0(ptr {{.*}}, <8 x i1> [[MASK]]
CHECK: call void @llvm.masked.store.v8f32.p0(<8 x float> {{.*}}, <8 x i1>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, ShortStridesAreSpansLongerOnesGathersAndScatters) {
  // Lanes 2 or 3 elements apart: one access of the span they cover (under
  // a mask that leaves the holes alone when storing) and a shuffle; 9
  // elements apart: a gather, 7: a scatter.
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global float *far, __global const float *in) {
  size_t i = get_global_id(0);
  out[3 * i] = in[2 * i + 1];
  far[7 * i] = in[9 * i] * in[9 * i] + 1.0f;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[SPAN:%.*]] = load <15 x float>, ptr
CHECK: shufflevector <15 x float> [[SPAN]], <15 x float> poison, <8 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14>
CHECK: call void @llvm.masked.store.v22f32.p0(<22 x float> {{.*}}, <22 x i1> <i1 true, i1 false, i1 false, i1 true,
CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>
CHECK: call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> {{.*}}, <8 x ptr>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, AtomicsRunPerLaneUnderTheLaneMask) {
  std::string result = checkVectorized(R"(
__kernel void k(__global int *counter, __global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
  if (in[i] > 3)
    atomic_inc(counter);
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[LANE0:%.*]] = extractelement <8 x i1> {{%.*}}, i64 0
CHECK: br i1 [[LANE0]], label %lane.run, label %lane.next
CHECK: lane.run:
CHECK-NEXT: atomicrmw add ptr %counter, i32 1
CHECK-COUNT-7: atomicrmw add ptr %counter, i32 1
CHECK-NOT: atomicrmw
CHECK: {{^}}}
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, ConsecutiveAccessesInLoopsAddressFromLaneZerosIndex) {
  // The index steps by one across lanes: its lane 0 copy is a scalar phi
  // and each load's address a scalar computation, no vector of addresses.
  // A loop that streams through memory gets one register per value.
  std::string result = checkVectorized(R"(
__kernel void k(__global const float *in, __global float *out) {
  size_t step = get_local_size(0);
  size_t i = get_group_id(0) * step * 16 + get_local_id(0);
  float s = 0.0f;
  for (int k = 0; k < 16; ++k, i += step)
    s += in[i];
  out[get_global_id(0)] = s;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[LANE0:%.*]] = phi i64 [ {{%[^,]+}}, %{{[^ ]+}} ], [ [[NEXT:%[^,]+]], %{{[^ ]+}} ]
CHECK: [[ADDRESS:%.*]] = getelementptr inbounds{{.*}} float, ptr %in, i64 [[LANE0]]
CHECK: load <8 x float>, ptr [[ADDRESS]]
CHECK: [[NEXT]] = add i64 [[LANE0]],
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, VectorTypesKeepEachWorkItemsElementsTogether) {
  // Two float4 work-items per 256-bit register, lane-major: a swizzle is one
  // shuffle of both, a constant vector is repeated, accesses stay whole.
  std::string result = checkVectorized(R"(
__kernel void k(__global float4 *out, __global const float4 *in, float s) {
  size_t i = get_global_id(0);
  float4 x = in[i];
  float4 y = x.wzyx * s + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  y.y = x.x;
  y.w = (float)i;
  y = (float4)(s) > (float4)(0.0f, 1.0f, 2.0f, 3.0f) ? y : x;
  out[i] = y;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v2(
CHECK: [[X:%.*]] = load <8 x float>, ptr
CHECK: shufflevector <8 x float> [[X]], <8 x float> poison, <8 x i32> <i32 3, i32 2, i32 1, i32 0, i32 7, i32 6, i32 5, i32 4>
CHECK: <8 x float> <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00, float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00>
; y.y = x.x: each lane's x.x, spread to element 1, then merged
CHECK: [[XX:%.*]] = shufflevector <8 x float> [[X]], <8 x float> poison, <2 x i32> <i32 0, i32 4>
CHECK: [[SPREADX:%.*]] = shufflevector <2 x float> [[XX]], <2 x float> poison, <8 x i32> <i32 poison, i32 0, i32 poison, i32 poison, i32 poison, i32 1, i32 poison, i32 poison>
CHECK: shufflevector <8 x float> {{%.*}}, <8 x float> [[SPREADX]], <8 x i32> <i32 0, i32 9, i32 2, i32 3, i32 4, i32 13, i32 6, i32 7>
; y.w = (float)i likewise
CHECK: [[I:%.*]] = uitofp <2 x i64> {{%.*}} to <2 x float>
CHECK: [[SPREAD:%.*]] = shufflevector <2 x float> [[I]], <2 x float> poison, <8 x i32> <i32 poison, i32 poison, i32 poison, i32 0, i32 poison, i32 poison, i32 poison, i32 1>
CHECK: shufflevector <8 x float> {{%.*}}, <8 x float> [[SPREAD]], <8 x i32> <i32 0, i32 1, i32 2, i32 11, i32 4, i32 5, i32 6, i32 15>
; a uniform vector condition, repeated for both lanes
CHECK: [[COND:%.*]] = shufflevector <4 x i1> {{%.*}}, <4 x i1> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 0, i32 1, i32 2, i32 3>
CHECK: select <8 x i1> [[COND]], <8 x float>
CHECK: store <8 x float>
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, VectorTypesWiderThanARegisterStillInterleave) {
  // A float16 chain is two 256-bit registers per work-item: two work-items
  // per call give four independent chains.
  std::string result = checkVectorized(R"(
__kernel void k(__global float16 *out, float a, float b, int n) {
  float16 x = out[get_global_id(0)];
  for (int i = 0; i < n; ++i)
    x = mad(x, (float16)(a), (float16)(b));
  out[get_global_id(0)] = x;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v2(
CHECK: call <32 x float> @llvm.fmuladd.v32f32(
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, LargeMaskedBlocksAreSkippedWhenNoLaneRunsThem) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const float *in) {
  size_t i = get_global_id(0);
  float x = in[i];
  if (x > 1000.0f) {
    x = sqrt(x * x + 1.0f) - 2.0f; x = sqrt(x * x + 3.0f) - 4.0f; x = sqrt(x * x + 5.0f) - 6.0f;
    x = sqrt(x * x + 7.0f) - 8.0f; x = sqrt(x * x + 9.0f) - 1.0f; x = sqrt(x * x + 2.0f) - 3.0f;
  }
  out[i] = x;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[ANY:%.*]] = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1>
CHECK: br i1 [[ANY]], label %{{.*}}.active, label %{{.*}}.join
; the blend every lane needs stays outside the skipped block
CHECK: select <8 x i1>
CHECK: store <8 x float>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, LoopsCarryingVaryingValuesFillSeveralRegisters) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, float a, float b, int n) {
  size_t i = get_global_id(0);
  float x = (float)i;
  for (int k = 0; k < n; ++k)
    x = mad(x, a, b);
  out[i] = x;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v32(
CHECK: phi <32 x float>
CHECK: store <32 x float>
CHECK: "polymux-vector-width"="32"
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, LoopsWithDivergentExitsRunWhileAnyLaneStays) {
  std::string result = checkVectorized(R"(
__kernel void k(__global int *p) {
  int i = get_global_id(0), s = 0;
  for (int k = 0; k < i; ++k)
    s += k;
  p[i] = s;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK: [[HEADER:[a-z0-9.]+]]:
; the lanes still looping, and each lane's sum as it was when it left
CHECK-DAG: %lanes.active = phi <8 x i1> [ splat (i1 true), {{.*}} ], [ {{.*}}, %{{.*}} ]
CHECK-DAG: .kept = phi <8 x i32>
CHECK: .exit.test:
CHECK: select <8 x i1> {{.*}}, <8 x i32>
CHECK: [[ANY:%.*]] = call i1 @llvm.vector.reduce.or.v8i1(
CHECK: br i1 [[ANY]]
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, LoopsInsideDivergentCodeRunForTheLanesThatReachThem) {
  std::string result = checkVectorized(R"(
__kernel void k(__global int *p, int n) {
  int i = get_global_id(0), s = 0;
  if (i < n)
    for (int k = 0; k < n; ++k)
      s += p[k];
  p[i] = s;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
; entered with the lanes for which i < n
CHECK: [[MASK:%.*]] = icmp sgt <8 x i32>
CHECK: %lanes.active = phi <8 x i1> [ [[MASK]], {{.*}} ]
CHECK: call i1 @llvm.vector.reduce.or.v8i1(
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, KernelsItCannotVectoriseKeepTheScalarForm) {
  llvm::LLVMContext context;
  std::string module = vectorize(context, R"(
__kernel void barrier_kernel(__global int *p, __local int *l) {
  l[get_local_id(0)] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = l[0];
}
__kernel void nested_divergent_loops(__global int *p) {
  int i = get_global_id(0), s = 0;
  for (int k = 0; k < i; ++k)
    for (int j = 0; j < k; ++j)
      s += j;
  p[i] = s;
}
__kernel void same_for_all(__global int *p) { p[0] = 1; }
)");
  EXPECT_EQ(module.find("polymux-vector-form"), std::string::npos) << module;
  EXPECT_NE(module.find("@__polymux_work_item_nested_divergent_loops("), std::string::npos);
}

TEST(Vectorizer, QuotientsOfTheLocalIdByTheWidthAreUniform) {
  // Lanes hold 8 consecutive ids from a multiple of 8: tid / 8 (and
  // ((tid >> 2) & 30) | 1, which InstCombine makes of (tid / 8) * 2 + 1) is
  // one value for all of them, tid % 8 steps by one; tid / 4 and
  // (tid + 3) / 16 take two values.
  std::string result = checkVectorized(R"(
__kernel __attribute__((reqd_work_group_size(8, 4, 1)))
void whole(__global float *out, __global const float *in, int n) {
  int tid = get_local_id(1) * 8 + get_local_id(0);
  int row = tid / 8, column = tid % 8;
  out[row * n + column] = in[((tid / 8) * 2 + 1) * n + column];
}
__kernel __attribute__((reqd_work_group_size(8, 4, 1)))
void split(__global float *out, __global const float *in) {
  int tid = get_local_id(1) * 8 + get_local_id(0);
  float x = in[tid / 4] + in[(tid + 3) / 16];
  out[tid] = ((((x * 0.5f + 1.0f) * x + 2.0f) * x + 3.0f) * x + 4.0f) * x / (x * x + 1.0f);
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_whole.v8(
CHECK-NOT: masked.gather
CHECK: load <8 x float>
CHECK-NOT: masked.scatter
CHECK: store <8 x float>
CHECK-LABEL: define internal void @__polymux_work_item_split.v8(
CHECK: masked.gather
CHECK: masked.gather
CHECK: store <8 x float>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, QuotientsOfTheLocalIdByTheChosenWidthAreUniform) {
  // No required size: the code suggests 8 lanes, which then lie in one
  // block of 8 ids, so lid / 8 is one value for all of them.
  std::string result = checkVectorized(R"(
__kernel void rows(__global float *out, __global const float *in) {
  int lid = get_local_id(0);
  out[get_global_id(0)] = in[get_group_id(0) * 64 + lid / 8] * 2.0f;
}
)",
                                       R"(
CHECK-LABEL: define internal void @__polymux_work_item_rows.v8(
CHECK-NOT: masked.gather
CHECK: store <8 x float>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, RequiredWorkGroupSizeBoundsTheWidth) {
  // A vector of 8 would never run for groups 4 wide.
  std::string result = checkVectorized(R"(
__kernel __attribute__((reqd_work_group_size(4, 2, 1)))
void k(__global float *out) { out[get_global_id(0)] = 1.0f; }
)",
                                       R"(
CHECK: define internal void @__polymux_work_item_k.v4(
CHECK: store <4 x float>
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, RowsEachWorkItemWalksKeepTheScalarForm) {
  // Each work-item reads its own row along the loop: the scalar form reads
  // it several elements at a time, a vector form would gather every
  // element. Columns read the same way vectorise.
  llvm::LLVMContext context;
  std::string module = vectorize(context, R"(
__kernel void rows(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 64; ++k)
    s += in[i * 67 + k];
  out[i] = s;
}
__kernel void columns(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int k = 0; k < 64; ++k)
    s += in[k * 67 + i];
  out[i] = s;
}
)");
  EXPECT_EQ(module.find("@__polymux_work_item_rows.v"), std::string::npos) << module;
  EXPECT_NE(module.find("@__polymux_work_item_columns.v8"), std::string::npos) << module;
}

TEST(Vectorizer, EntryRunsFullVectorsThenTheScalarRest) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out) { out[get_global_id(0)] = 1.0f; }
)",
                                       R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
; local size rounded down to a multiple of 8
CHECK: [[END:%.*]] = and i64 %local.size{{[0-9]*}}, -8
CHECK: wi.x.lanes.header:
CHECK: icmp ult i64 %wi.x.lanes, [[END]]
CHECK: call void @__polymux_work_item_k.v8(
CHECK: add nuw i64 %wi.x.lanes, 8
CHECK: wi.x.tail:
CHECK: wi.x.header:
CHECK: phi i64 [ [[END]], %wi.x.tail ]
CHECK: call void @__polymux_work_item_k(
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, ChosenWidthsArePowersOfTwo) {
  // A float3 is 96 bits: a 512-bit register holds five, but the entry rounds
  // the local size down to a multiple of the width with a mask (five lanes
  // ran past the end of the group and wrote past its buffers).
  std::string result = checkVectorized(R"(
__kernel void k(__global const float *in, __global float *out, float s) {
  size_t i = get_global_id(0);
  float3 x = (float3)(in[3 * i], in[3 * i + 1], in[3 * i + 2]) * s;
  out[3 * i] = x.x;
  out[3 * i + 1] = x.y;
  out[3 * i + 2] = x.z;
}
)",
                                       R"(
CHECK-NOT: @__polymux_work_item_k.v5
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK: [[END:%.*]] = and i64 %local.size{{[0-9]*}}, -4
CHECK: icmp ult i64 %wi.x.lanes, [[END]]
CHECK: call void @__polymux_work_item_k.v4(
CHECK: add nuw i64 %wi.x.lanes, 4
)",
                                       /*wrap=*/true, /*vectorBits=*/512);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, ShortStraightVectorFormsRunSeveralBlocksPerIteration) {
  std::string result = checkVectorized(R"(
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}
)",
                                       R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_triad(
CHECK: call void @__polymux_work_item_triad.v8(
CHECK: add nuw i64 %wi.x.lanes, 8
CHECK-NEXT: br label %wi.x.lanes.header, !llvm.loop [[LOOP:![0-9]+]]
CHECK: [[LOOP]] = distinct !{[[LOOP]], [[COUNT:![0-9]+]]}
CHECK: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

// On 512-bit registers, a streaming vector form (few operations per vector
// loaded or stored) is compiled for 256-bit registers with the entry it is
// inlined into; one that computes more per vector keeps the full width.
TEST(Vectorizer, StreamingVectorFormsUse256BitRegisters) {
  std::string streaming = checkVectorized(R"(
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}
)",
                                          R"(
CHECK: define internal void @__polymux_work_item_triad.v16({{.*}}) [[VECTOR:#[0-9]+]]
CHECK: define {{.*}}void @__polymux_entry_triad({{.*}}) [[ENTRY:#[0-9]+]]
CHECK-DAG: attributes [[ENTRY]] = {{{.*}}"min-legal-vector-width"="256"{{.*}}"prefer-vector-width"="256"
CHECK-DAG: attributes [[VECTOR]] = {{{.*}}"min-legal-vector-width"="256"
)",
                                          /*wrap=*/true, /*vectorBits=*/512);
  EXPECT_TRUE(streaming.empty()) << streaming;

  std::string computing = checkVectorized(R"(
__kernel void poly(__global float *a, __global const float *b) {
  size_t i = get_global_id(0);
  float x = b[i];
  a[i] = (((x * 0.5f + 1.0f) * x + 2.0f) * x + 3.0f) * x + 4.0f;
}
)",
                                          R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_poly(
CHECK-NOT: "prefer-vector-width"
CHECK: "min-legal-vector-width"="512"
CHECK-NOT: "prefer-vector-width"
)",
                                          /*wrap=*/true, /*vectorBits=*/512);
  EXPECT_TRUE(computing.empty()) << computing;
}

TEST(Vectorizer, VectorFormsWithLoopsRunOneBlockPerIteration) {
  std::string result = checkVectorized(R"(
__kernel void sums(__global float *a, __global const float *b, int n) {
  size_t i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += b[i + k];
  a[i] = sum;
}
)",
                                       R"(
CHECK-LABEL: define {{.*}}void @__polymux_entry_sums(
CHECK: call void @__polymux_work_item_sums.v8(
CHECK: add nuw i64 %wi.x.lanes, 8
CHECK-NEXT: br label %wi.x.lanes.header{{$}}
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SpinLocksKeepTheScalarForm) {
  // However much else the kernel does: packed into one vector, the lane
  // holding the lock would wait, masked, for the lanes spinning on it.
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const float *in, volatile __global int *lock, __global float *total) {
  size_t i = get_global_id(0);
#define STEP x = x * x * 0.5f + 1.0f;
  float x = in[i];
  STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP STEP
  out[i] = x;
  while (atomic_cmpxchg(lock, 0, 1) != 0)
    ;
  *total += x;
  atomic_xchg(lock, 0);
}
)",
                                       R"(
CHECK: define {{.*}}@__polymux_work_item_k(
CHECK-NOT: define {{.*}}@__polymux_work_item_k.v
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, BarrierRegionsKeepTheirStateFieldByFieldPerBlockOfLanes) {
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const float *in, __local float *tile, int rounds) {
  size_t l = get_local_id(0);
  float x = in[get_global_id(0)];
  for (int r = 0; r < rounds; ++r) {
    tile[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    x += tile[get_local_size(0) - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = x;
}
)",
                                       R"(
; x is kept per lane: the 8 lanes' copies of it are consecutive floats
CHECK-LABEL: define internal i32 @__polymux_region1_k.v8(
CHECK: getelementptr inbounds float, ptr {{%[0-9]+}}, <8 x i64> <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
CHECK: load <8 x float>, ptr
CHECK: store <8 x float>
CHECK: ret i32 2
; r, the same in every lane, is kept once: lane 0's copy
CHECK-LABEL: define internal i32 @__polymux_region2_k.v8(
CHECK: load i32, ptr %wi.state
CHECK: store i32 {{.*}}, ptr %wi.state
; the entry runs the vector forms for full blocks of 8 work-items
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK: lanes.end
CHECK: call i32 @__polymux_region0_k.v8(
CHECK: ret void
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, BarrierRegionsReturnLaneZerosBarrier) {
  // The condition looks varying (it is computed from the local id) but is
  // the same for every work-item, as it must be for barriers in branches:
  // which barrier region 0 reaches joins as a varying value, and the vector
  // form returns lane 0's.
  std::string result = checkVectorized(R"(
__kernel void k(__global float *out, __global const int *flags) {
  size_t i = get_global_id(0);
  float x = out[i];
  if (flags[get_local_id(0) / get_local_size(0)] > 0) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    x += 1.0f;
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE);
    x -= 1.0f;
  }
  out[i] = x;
}
)",
                                       R"(
CHECK-LABEL: define internal i32 @__polymux_region0_k.v8(
CHECK: [[NEXT:%.*]] = extractelement <8 x i32> {{%.*}}, i64 0
CHECK-NEXT: ret i32 [[NEXT]]
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK: call i32 @__polymux_region0_k.v8(
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, BarrierRegionsWithSpinLocksKeepTheScalarForm) {
  // Packed into one vector, the lane holding the lock would wait, masked,
  // for the lanes spinning on it.
  std::string result = checkVectorized(R"(
__kernel void k(__global int *counter, volatile __local int *lock) {
  if (get_local_id(0) == 0)
    *lock = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  while (atomic_cmpxchg(lock, 0, 1) != 0)
    ;
  *counter += 1;
  atomic_xchg(lock, 0);
}
)",
                                       R"(
CHECK-NOT: define {{.*}}.v8(
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK-NOT: lanes.end
CHECK: ret void
)",
                                       /*wrap=*/true);
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SubGroupCollectivesBecomeVectorOperations) {
  llvm::LLVMContext context;
  std::string module = vectorizeWithSubGroups(context, R"(
__kernel void k(__global float *out, __global const float *in, __global int *votes) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sub_group_reduce_add(x) + sub_group_broadcast(x, 3u) + sub_group_scan_exclusive_min(x);
  votes[i] = sub_group_any(x > 0.0f) + sub_group_scan_inclusive_add((int)i);
}
)",
                                              /*wrap=*/false);
  std::string result = runFileCheck(module, R"(
; the scalar form, for other work-group shapes, syncs each sub-group
CHECK-LABEL: define internal void @__polymux_work_item_k(
CHECK: call void @_Z17sub_group_barrierj(i32 1)
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK-NOT: sub_group
; reduce_add in lane order, as the scalar lowering adds: one scalar result
CHECK: [[SUM:%.*]] = call float @llvm.vector.reduce.fadd.v8f32(float -0.000000e+00, <8 x float> [[X:%[^)]*]])
; broadcast of lane 3
CHECK: [[B:%.*]] = extractelement <8 x float> [[X]], i32 3
CHECK: fadd float [[SUM]], [[B]]
; the exclusive min scan: three shifts by 1, 2 and 4 lanes with +inf coming in
CHECK: shufflevector <8 x float> splat (float 0x7FF0000000000000), <8 x float> [[X]], <8 x i32> <i32 0, i32 8,
CHECK: call <8 x float> @llvm.minnum.v8f32(
CHECK: shufflevector <8 x float> splat (float 0x7FF0000000000000), {{.*}}<i32 0, i32 1, i32 8,
CHECK: shufflevector <8 x float> splat (float 0x7FF0000000000000), {{.*}}<i32 0, i32 1, i32 2, i32 3, i32 8,
CHECK: store <8 x float>
; any: one reduction of the lanes' predicates
CHECK: call i1 @llvm.vector.reduce.or.v8i1(
CHECK: shufflevector <8 x i32> zeroinitializer
CHECK: store <8 x i32>
CHECK-NOT: sub_group
CHECK: ret void
CHECK: attributes {{.*}}"polymux-vector-form"="__polymux_work_item_k.v8"{{.*}}"polymux-vector-width"="8"
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SubGroupKernelsPackOneSubGroupPerVector) {
  // Doubles would give 4 lanes per register, the loop 4 registers per value:
  // a sub-group needs exactly 8 lanes.
  llvm::LLVMContext context;
  std::string module = vectorizeWithSubGroups(context, R"(
__kernel void k(__global double *out, int n) {
  size_t i = get_global_id(0);
  double x = out[i];
  for (int r = 0; r < n; ++r)
    x = x * 0.5 + 1.0;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = sub_group_reduce_max(x);
}
)",
                                              /*wrap=*/true);
  std::string result = runFileCheck(module, R"(
CHECK-LABEL: define internal void @__polymux_work_item_k.v8(
CHECK-NOT: sub_group_barrier
CHECK: call double @llvm.vector.reduce.fmax.v8f64(<8 x double>
CHECK-NOT: sub_group_barrier
CHECK: ret void
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
; every sub-group full and inside one row: the vector form, one per sub-group
CHECK: [[PARTIAL:%.*]] = urem i64 %local.size, 8
CHECK: [[FULL:%.*]] = icmp eq i64 [[PARTIAL]], 0
CHECK: br i1 [[FULL]], label %sub.group.vectors, label %sub.group.rounds
CHECK-DAG: call void @__polymux_work_item_k.v8(
CHECK-DAG: add nuw i64 %sg.x, 8
; otherwise the rounds of the scalar regions
CHECK-DAG: round:
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SubGroupCollectivesBetweenWorkGroupBarriersVectoriseRegionByRegion) {
  // sum is the same in every lane of a sub-group: kept once per block
  // across the barrier; the scalar form runs in rounds, its collectives
  // between sub-group barriers.
  llvm::LLVMContext context;
  std::string module = vectorizeWithSubGroups(context, R"(
__kernel void k(__global float *out, __global const float *in, __local float *tile) {
  size_t l = get_local_id(0);
  float x = in[get_global_id(0)];
  float sum = sub_group_reduce_add(x);
  tile[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  x = tile[get_local_size(0) - 1 - l] + sum;
  out[get_global_id(0)] = sub_group_scan_inclusive_max(x);
}
)",
                                              /*wrap=*/true);
  std::string result = runFileCheck(module, R"(
CHECK-LABEL: define internal i32 @__polymux_sub_group_region0_k.v8(
CHECK-NOT: sub_group
CHECK: [[SUM:%.*]] = call float @llvm.vector.reduce.fadd.v8f32(float -0.000000e+00, <8 x float>
CHECK: store <8 x float>
CHECK: store float [[SUM]], ptr %wi.state
CHECK: ret i32 1
CHECK-LABEL: define internal i32 @__polymux_sub_group_region1_k.v8(
CHECK-NOT: sub_group
CHECK: load float, ptr %wi.state
CHECK: shufflevector <8 x float> splat (float 0xFFF0000000000000)
CHECK: call <8 x float> @llvm.maxnum.v8f32(
CHECK: store <8 x float>
CHECK: ret i32 0
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
; every sub-group full and inside one row: the regions' vector forms in turn
CHECK: [[PARTIAL:%.*]] = urem i64 %local.size, 8
CHECK: [[FULL:%.*]] = icmp eq i64 [[PARTIAL]], 0
CHECK: br i1 [[FULL]], label %sub.group.regions, label %sub.group.rounds
CHECK-DAG: call i32 @__polymux_sub_group_region0_k.v8(
CHECK-DAG: call i32 @__polymux_sub_group_region1_k.v8(
CHECK-DAG: add nuw i64 %wi.x.lanes, 8
; otherwise the rounds of the scalar regions
CHECK-DAG: round:
CHECK-NOT: call {{.*}}sub_group_collective
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SubGroupBarriersBetweenWorkGroupBarriersVectoriseRegionByRegion) {
  // Without collectives too: in a vector that is one sub-group, a
  // sub-group barrier waits for nothing.
  llvm::LLVMContext context;
  std::string module = vectorizeWithSubGroups(context, R"(
__kernel void k(__global float *out, __local float *tile) {
  size_t l = get_local_id(0);
  tile[l] = out[get_global_id(0)];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  float x = tile[l ^ 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = x * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_size(0) - 1 - l];
}
)",
                                              /*wrap=*/true);
  std::string result = runFileCheck(module, R"(
CHECK-LABEL: define internal i32 @__polymux_sub_group_region0_k.v8(
CHECK-NOT: sub_group_barrier
CHECK: ret i32 1
CHECK-LABEL: define internal i32 @__polymux_sub_group_region2_k.v8(
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK: br i1 {{.*}}, label %sub.group.regions, label %sub.group.rounds
CHECK: call i32 @__polymux_sub_group_region0_k.v8(
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(Vectorizer, SubGroupRegionFormsNeedWholeSubGroupsAlongX) {
  // A required work-group size of 4 along x never holds a sub-group of 8.
  llvm::LLVMContext context;
  std::string module = vectorizeWithSubGroups(context, R"(
__kernel __attribute__((reqd_work_group_size(4, 2, 1)))
void k(__global float *out, __local float *tile) {
  size_t l = get_local_linear_id();
  tile[l] = sub_group_reduce_add(out[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[7 - l];
}
)",
                                              /*wrap=*/true);
  std::string result = runFileCheck(module, R"(
CHECK-NOT: sub_group_region
CHECK-LABEL: define {{.*}}void @__polymux_entry_k(
CHECK-NOT: sub.group.regions
CHECK: round:
)");
  EXPECT_TRUE(result.empty()) << result;
}

} // namespace
} // namespace compiler::test
