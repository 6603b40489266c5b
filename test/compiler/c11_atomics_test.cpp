// The OpenCL C 2.0/3.0 atomics after LowerAtomicBuiltinsPass: the LLVM
// instruction, ordering, syncscope and weak flag of each builtin form.
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"
#include "test_support.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

namespace compiler::test {
namespace {

/// Compiles with the atomic order and scope features the host reports.
std::unique_ptr<llvm::Module> compileC11(llvm::LLVMContext &context, std::string_view source,
                                         std::string_view options = "-cl-std=CL3.0") {
  return compileForHostWith(context, source, options,
                            {"cl_khr_int64_extended_atomics", "__opencl_c_generic_address_space",
                             "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                             "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices"});
}

/// Lowers the atomics and inlines them into the kernels; `simplify` folds
/// the run-time order/scope selection for constant arguments.
void lowerAtomics(llvm::Module &module, bool simplify = true) {
  llvm::ModulePassManager passes;
  passes.addPass(LowerAtomicBuiltinsPass());
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  if (simplify)
    passes.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::SimplifyCFGPass()));
  runModulePasses(module, passes);
}

std::string verify(const llvm::Module &module) {
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  llvm::verifyModule(module, &stream);
  return problems;
}

TEST(C11Atomics, OrdersAndScopesMapToLLVM) {
  for (const char *std : {"-cl-std=CL3.0", "-cl-std=CL2.0"}) {
    SCOPED_TRACE(std);
    llvm::LLVMContext context;
    auto module = compileC11(context, R"(
__kernel void k(__global atomic_int *i, __global atomic_uint *u, __global atomic_long *l, __global atomic_ulong *ul,
                __global int *out) {
  out[0] = atomic_load_explicit(i, memory_order_relaxed, memory_scope_work_item);
  out[1] = atomic_load_explicit(i, memory_order_acquire);
  out[2] = atomic_load(i);
  atomic_store_explicit(i + 1, 5, memory_order_release, memory_scope_work_group);
  atomic_store(i + 2, 6);
  out[3] = atomic_fetch_add_explicit(i + 3, 7, memory_order_acq_rel, memory_scope_device);
  out[4] = atomic_fetch_sub_explicit(u, 8u, memory_order_relaxed, memory_scope_all_svm_devices);
  out[5] = atomic_fetch_min(i + 4, -9);
  out[6] = atomic_fetch_min(u + 1, 10u);
  out[7] = atomic_fetch_max_explicit(l, 11L, memory_order_release);
  out[8] = atomic_fetch_max_explicit(ul, 12UL, memory_order_acquire);
  out[9] = atomic_fetch_or(u + 2, 13u) ^ atomic_fetch_xor(u + 3, 14u) ^ atomic_fetch_and(u + 4, 15u);
  out[10] = atomic_exchange_explicit(i + 5, 16, memory_order_seq_cst, memory_scope_work_group);
}
)",
                             std);
    ASSERT_TRUE(module);
    lowerAtomics(*module);
    EXPECT_EQ(verify(*module), "");
    std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: load atomic i32, ptr {{.*}} syncscope("singlethread") monotonic, align 4
CHECK-DAG: load atomic i32, ptr {{.*}} acquire, align 4
CHECK-DAG: load atomic i32, ptr {{.*}} seq_cst, align 4
CHECK-DAG: store atomic i32 5, ptr {{.*}} release, align 4
CHECK-DAG: store atomic i32 6, ptr {{.*}} seq_cst, align 4
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 7 acq_rel, align 4
CHECK-DAG: atomicrmw sub ptr {{.*}}, i32 8 monotonic, align 4
CHECK-DAG: atomicrmw min ptr {{.*}}, i32 -9 seq_cst, align 4
CHECK-DAG: atomicrmw umin ptr {{.*}}, i32 10 seq_cst, align 4
CHECK-DAG: atomicrmw max ptr {{.*}}, i64 11 release, align 8
CHECK-DAG: atomicrmw umax ptr {{.*}}, i64 12 acquire, align 8
CHECK-DAG: atomicrmw or ptr {{.*}}, i32 13 seq_cst
CHECK-DAG: atomicrmw xor ptr {{.*}}, i32 14 seq_cst
CHECK-DAG: atomicrmw and ptr {{.*}}, i32 15 seq_cst
CHECK-DAG: atomicrmw xchg ptr {{.*}}, i32 16 seq_cst
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
    EXPECT_TRUE(result.empty()) << result;
  }
}

TEST(C11Atomics, CompareExchangeFlagsAndFences) {
  llvm::LLVMContext context;
  auto module = compileC11(context, R"(
__kernel void k(__global atomic_int *i, __global atomic_double *d, __global atomic_flag *flag, __global int *out) {
  int expected = 1;
  out[0] = atomic_compare_exchange_strong(i, &expected, 2);
  out[1] = atomic_compare_exchange_weak_explicit(i, &expected, 3, memory_order_acq_rel, memory_order_acquire);
  out[2] = atomic_compare_exchange_weak_explicit(i, &expected, 4, memory_order_release, memory_order_relaxed,
                                                 memory_scope_work_group);
  double e = 1.0;
  out[3] = atomic_compare_exchange_strong(d, &e, 2.0);
  out[4] = expected;
  out[5] = atomic_flag_test_and_set_explicit(flag, memory_order_acquire);
  atomic_flag_clear_explicit(flag, memory_order_release, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_item);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
}
)");
  ASSERT_TRUE(module);
  lowerAtomics(*module);
  EXPECT_EQ(verify(*module), "");
  std::string text = printModule(*module);
  std::string result = runFileCheck(text, R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: cmpxchg ptr {{.*}}, i32 {{.*}}, i32 2 seq_cst seq_cst, align 4
CHECK-DAG: cmpxchg weak ptr {{.*}}, i32 {{.*}}, i32 3 acq_rel acquire, align 4
CHECK-DAG: cmpxchg weak ptr {{.*}}, i32 {{.*}}, i32 4 release monotonic, align 4
CHECK-DAG: cmpxchg ptr {{.*}}, i64 {{.*}}, i64 4611686018427387904 seq_cst seq_cst, align 8
CHECK-DAG: atomicrmw xchg ptr {{.*}}, i32 1 acquire, align 4
CHECK-DAG: store atomic i32 0, ptr {{.*}} release, align 4
CHECK-DAG: fence acquire
CHECK-DAG: fence syncscope("singlethread") seq_cst
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
  EXPECT_TRUE(result.empty()) << result;
  // A relaxed fence orders nothing: exactly the two fences above remain.
  size_t fences = 0;
  for (size_t at = text.find(" fence "); at != std::string::npos; at = text.find(" fence ", at + 1))
    ++fences;
  EXPECT_EQ(fences, 2u) << text;
}

TEST(C11Atomics, FloatLoadStoreExchange) {
  llvm::LLVMContext context;
  auto module = compileC11(context, R"(
__kernel void k(__global atomic_float *f, __global atomic_double *d, __global float *out) {
  atomic_init(f + 1, 0.5f);
  atomic_store_explicit(f, 1.5f, memory_order_release);
  out[0] = atomic_load_explicit(f, memory_order_acquire) + atomic_exchange(f, 2.5f);
  out[1] = (float)atomic_exchange_explicit(d, 3.5, memory_order_relaxed);
}
)");
  ASSERT_TRUE(module);
  lowerAtomics(*module);
  EXPECT_EQ(verify(*module), "");
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: store atomic float 5.000000e-01, ptr {{.*}} monotonic, align 4
CHECK-DAG: store atomic float 1.500000e+00, ptr {{.*}} release, align 4
CHECK-DAG: load atomic float, ptr {{.*}} acquire, align 4
CHECK-DAG: atomicrmw xchg ptr {{.*}}, float 2.500000e+00 seq_cst, align 4
CHECK-DAG: atomicrmw xchg ptr {{.*}}, double 3.500000e+00 monotonic, align 8
CHECK: ret void
)");
  EXPECT_TRUE(result.empty()) << result;
}

TEST(C11Atomics, PointerSizedAtomics) {
  llvm::LLVMContext context;
  auto module = compileC11(context, R"(
__kernel void k(__global atomic_intptr_t *ip, __global atomic_uintptr_t *up, __global atomic_size_t *sz,
                __global atomic_ptrdiff_t *pd, __global ulong *out) {
  out[0] = atomic_fetch_add(ip, (ptrdiff_t)1);
  out[1] = atomic_fetch_add_explicit(up, (ptrdiff_t)2, memory_order_relaxed);
  out[2] = atomic_fetch_sub(sz, (size_t)3);
  out[3] = atomic_fetch_max(pd, (ptrdiff_t)-4);
  out[4] = atomic_fetch_min(up, (uintptr_t)5);
}
)");
  ASSERT_TRUE(module);
  lowerAtomics(*module);
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: atomicrmw add ptr {{.*}}, i64 1 seq_cst, align 8
CHECK-DAG: atomicrmw add ptr {{.*}}, i64 2 monotonic, align 8
CHECK-DAG: atomicrmw sub ptr {{.*}}, i64 3 seq_cst, align 8
CHECK-DAG: atomicrmw max ptr {{.*}}, i64 -4 seq_cst, align 8
CHECK-DAG: atomicrmw umin ptr {{.*}}, i64 5 seq_cst, align 8
CHECK: ret void
CHECK-NOT: declare {{.*}}@_Z
)");
  EXPECT_TRUE(result.empty()) << result;
}

// Orders and scopes that are not constants select the instruction at run
// time; orders an instruction cannot take are strengthened so the IR stays
// valid.
TEST(C11Atomics, RunTimeOrdersAndScopes) {
  llvm::LLVMContext context;
  auto module = compileC11(context, R"(
__kernel void k(__global atomic_int *i, __global int *out, int order, int failure, int scope) {
  out[0] = atomic_fetch_add_explicit(i, 1, (memory_order)order, (memory_scope)scope);
  out[1] = atomic_load_explicit(i, (memory_order)order);
  atomic_store_explicit(i, 2, (memory_order)order);
  int expected = 0;
  out[2] = atomic_compare_exchange_strong_explicit(i, &expected, 3, (memory_order)order, (memory_order)failure);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, (memory_order)order, (memory_scope)scope);
}
)");
  ASSERT_TRUE(module);
  lowerAtomics(*module, /*simplify=*/false);
  EXPECT_EQ(verify(*module), "");
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-LABEL: define {{.*}}spir_kernel void @k(
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 syncscope("singlethread") monotonic
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 monotonic
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 acquire
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 release
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 acq_rel
CHECK-DAG: atomicrmw add ptr {{.*}}, i32 1 seq_cst
CHECK-DAG: load atomic i32, ptr {{.*}} monotonic
CHECK-DAG: load atomic i32, ptr {{.*}} acquire
CHECK-DAG: store atomic i32 2, ptr {{.*}} release
CHECK-DAG: cmpxchg ptr {{.*}}, i32 3 acq_rel acquire
CHECK-DAG: cmpxchg ptr {{.*}}, i32 3 release monotonic
CHECK-DAG: fence syncscope("singlethread") acquire
CHECK-DAG: fence release
CHECK: ret void
CHECK-NOT: store atomic {{.*}} acquire
CHECK-NOT: load atomic {{.*}} release
)");
  EXPECT_TRUE(result.empty()) << result;
}

// atomic_fetch_add on atomic_float needs cl_ext_float_atomics, which the
// host does not report: such a kernel does not build.
TEST(C11Atomics, FloatFetchAddIsNotDeclared) {
  auto parsed = parseBuildOptions("-cl-std=CL3.0", OptionsUse::Build);
  ASSERT_TRUE(static_cast<bool>(parsed));
  FrontendConfig config = hostFrontendConfig();
  config.extensions.push_back("__opencl_c_generic_address_space");
  config.extensions.push_back("__opencl_c_atomic_order_seq_cst");
  config.extensions.push_back("__opencl_c_atomic_scope_device");
  llvm::LLVMContext context;
  std::string log;
  auto module = compileOpenCLC(context, "__kernel void k(__global atomic_float *f) { atomic_fetch_add(f, 1.0f); }",
                               *parsed, {}, config, log);
  EXPECT_FALSE(static_cast<bool>(module));
  if (!module)
    llvm::consumeError(module.takeError());
  EXPECT_NE(log.find("atomic_fetch_add"), std::string::npos) << log;
}

// The full CPU pipeline accepts kernels using every form.
TEST(C11Atomics, LowersThroughTheCpuPipeline) {
  llvm::LLVMContext context;
  auto module = compileC11(context, R"(
__kernel void k(__global atomic_int *i, __local atomic_uint *lu, __global int *out) {
  __local atomic_int counter;
  if (get_local_id(0) == 0)
    atomic_init(&counter, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_max_explicit(lu, 3u, memory_order_acq_rel, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_load(&counter) + atomic_fetch_or(i, 1);
}
)");
  ASSERT_TRUE(module);
  CpuBinary binary;
  EXPECT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
}

} // namespace
} // namespace compiler::test
