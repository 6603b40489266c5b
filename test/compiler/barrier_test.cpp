// Barriers on CPU targets: KernelWrapperPass cuts work-item functions into
// barrier regions (IR checked with FileCheck), and kernels with barriers run
// correctly when loaded with ORC and called one work-group at a time.
#include "compiler/abi/cpu_kernel_abi.h"
#include "compiler/kernel_metadata.h"
#include "compiler/passes.h"

#include "test_support.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace compiler::test {
namespace {

/// Runs the CPU pipeline's passes up to and including KernelWrapperPass.
void lowerToEntries(llvm::Module &module) {
  llvm::ModulePassManager passes;
  passes.addPass(PrepareInliningPass());
  passes.addPass(llvm::AlwaysInlinerPass(false));
  passes.addPass(LowerWorkItemBuiltinsPass());
  passes.addPass(LowerLocalVariablesPass());
  passes.addPass(KernelWrapperPass());
  runModulePasses(module, passes);
}

std::string verify(const llvm::Module &module) {
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  llvm::verifyModule(module, &stream);
  return problems;
}

constexpr const char *kLoopWithBarrier = R"(
__kernel void k(__global int *out, int rounds) {
  __local int shared[64];
  int lid = get_local_id(0);
  int acc = lid;
  for (int r = 0; r < rounds; ++r) {
    shared[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += shared[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
)";

TEST(Barriers, RegionsReplaceBarrierCalls) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, kLoopWithBarrier);
  ASSERT_TRUE(module);
  lowerToEntries(*module);
  EXPECT_EQ(verify(*module), "");
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-NOT: @_Z7barrierj
CHECK-DAG: define internal i32 @__polymux_region0_k(ptr {{.*}}%out, i32 {{.*}}%rounds, ptr %wg.info, i64 %local.x, i64 %local.y, i64 %local.z, ptr noalias noundef align {{[0-9]+}} %wi.state) [[REGION:#[0-9]+]]
CHECK-DAG: define internal i32 @__polymux_region1_k(
CHECK-DAG: define internal i32 @__polymux_region2_k(
CHECK-DAG: define {{.*}}void @__polymux_entry_k({{.*}}) [[ENTRY:#[0-9]+]]
CHECK-DAG: attributes [[REGION]] = { alwaysinline
CHECK-DAG: attributes [[ENTRY]] = {{.*}}"polymux-work-item-state-size"="{{[1-9][0-9]*}}"
)");
  EXPECT_TRUE(result.empty()) << result;
  // The work-item function itself is gone; the entry calls every region.
  EXPECT_EQ(module->getFunction(std::string(kWorkItemPrefix) + "k"), nullptr);
  llvm::Function *entry = module->getFunction(std::string(abi::kEntryPrefix) + "k");
  ASSERT_TRUE(entry);
  for (const char *region : {"__polymux_region0_k", "__polymux_region1_k", "__polymux_region2_k"}) {
    llvm::Function *function = module->getFunction(region);
    ASSERT_TRUE(function) << region;
    EXPECT_TRUE(llvm::any_of(function->users(), [&](llvm::User *user) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      return call && call->getFunction() == entry;
    })) << region;
  }
}

TEST(Barriers, KernelsWithoutBarriersKeepTheSimpleWrapper) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }");
  ASSERT_TRUE(module);
  lowerToEntries(*module);
  EXPECT_EQ(verify(*module), "");
  std::string result = runFileCheck(printModule(*module), R"(
CHECK-NOT: __polymux_region
CHECK: define {{.*}}void @__polymux_entry_k(
CHECK: call void @__polymux_work_item_k(
CHECK-NOT: polymux-work-item-state-size
)");
  EXPECT_TRUE(result.empty()) << result;
}

/// Values computed only from the arguments (ids, __local pointers) are
/// recomputed after a barrier rather than kept in the state; a value loaded
/// from global memory must be kept.
TEST(Barriers, StateHoldsOnlyWhatCannotBeRecomputed) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global const float *in, __global float *out) {
  __local float tile[32];
  size_t gid = get_global_id(0), lid = get_local_id(0);
  float x = in[gid];
  tile[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = tile[31 - lid] + x;
}
)");
  ASSERT_TRUE(module);
  CpuBinary binary;
  ASSERT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
  ASSERT_EQ(binary.kernels.size(), 1u);
  EXPECT_EQ(binary.kernels[0].workItemStateSize, 4u) << "only `x` needs saving\n" << printModule(*module);
}

/// A pointer into a private array kept in the state, saved across a barrier
/// and loaded again, reaches the state other than through the argument: the
/// argument must not be noalias then.
TEST(Barriers, StateIsNotNoAliasWhenPointersIntoItAreSaved) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global const int *index, __global int *out) {
  int values[8];
  for (int i = 0; i < 8; ++i)
    values[i] = i;
  int *p = &values[index[get_global_id(0)] & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  *p += 100;
  out[get_global_id(0)] = values[0] + values[7] + *p;
}
)");
  ASSERT_TRUE(module);
  lowerToEntries(*module);
  EXPECT_EQ(verify(*module), "");
  std::string result = runFileCheck(printModule(*module), R"(
CHECK: define internal i32 @__polymux_region0_k({{.*}}, ptr noundef align {{[0-9]+}} %wi.state)
CHECK: define internal i32 @__polymux_region1_k({{.*}}, ptr noundef align {{[0-9]+}} %wi.state)
)");
  EXPECT_TRUE(result.empty()) << result;
}

/// A private array indexed at run time stays memory: when it is live across
/// a barrier, it becomes part of the state (whatever the optimisation level;
/// scalars become SSA values first).
TEST(Barriers, PrivateArraysLiveAcrossBarriersAreKeptInTheState) {
  for (const char *options : {"", "-cl-opt-disable"}) {
    llvm::LLVMContext context;
    auto module = compileForHost(context, R"(
__kernel void k(__global int *out, int rounds) {
  int history[4] = {0, 0, 0, 0};
  for (int r = 0; r < rounds; ++r) {
    history[r & 3] += r;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = history[0] + history[1] + history[2] + history[3];
}
)",
                                 options);
    ASSERT_TRUE(module);
    CpuBinary binary;
    ASSERT_EQ(errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary)), "");
    // history (16 bytes) and r (4 bytes), aligned.
    EXPECT_GE(binary.kernels[0].workItemStateSize, 20u) << options;
    EXPECT_EQ(binary.kernels[0].workItemStateSize % 4, 0u) << options;
    EXPECT_EQ(verify(*module), "") << options;
  }
}

/// OpenCL C has no variable-length arrays, but IR may: one live across a
/// barrier cannot be given a fixed place in the state, and the build fails
/// saying why.
TEST(Barriers, RunTimeSizedPrivateMemoryAcrossABarrierFailsTheBuild) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(R"(
define internal void @__polymux_work_item_k(ptr %out, i32 %n, ptr %wg.info, i64 %x, i64 %y, i64 %z) #0 {
entry:
  %buffer = alloca i32, i32 %n, align 4
  store i32 1, ptr %buffer, align 4
  call void @_Z7barrierj(i32 1)
  %value = load i32, ptr %buffer, align 4
  store i32 %value, ptr %out, align 4
  ret void
}
declare void @_Z7barrierj(i32)
attributes #0 = { alwaysinline "polymux-work-item-function"="k" }
)",
                                                                   diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  llvm::ModulePassManager passes;
  passes.addPass(KernelWrapperPass());
  passes.addPass(llvm::AlwaysInlinerPass());
  runModulePasses(*module, passes);
  EXPECT_EQ(verify(*module), "");
  std::string message = errorText(takeBuildErrors(*module));
  EXPECT_NE(message.find("private array of run-time size is live across a barrier in kernel k"), std::string::npos)
      << message;
  EXPECT_EQ(errorText(checkUnresolvedSymbols(*module)), "") << "no barrier call is left";
}

// ---- Running kernels with barriers ----------------------------------------

class ArgPacker {
public:
  template <typename T> void add(const T &value) {
    offset_ = abi::alignTo(offset_, abi::packedArgAlignment(sizeof(T)));
    bytes_.resize(offset_ + sizeof(T));
    std::memcpy(bytes_.data() + offset_, &value, sizeof(T));
    offset_ += sizeof(T);
  }
  const void *data() const { return bytes_.data(); }

private:
  std::vector<std::byte> bytes_;
  size_t offset_ = 0;
};

struct AlignedFree {
  void operator()(void *p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<void, AlignedFree>;

AlignedBuffer allocate(size_t bytes) {
  return AlignedBuffer(std::aligned_alloc(128, abi::alignTo(std::max<size_t>(bytes, 1), 128)));
}

struct Launcher : LoadedKernel {
  /// Runs an ND-range like the host runtime: every group with its own
  /// __local area and per-work-item state (the edge groups smaller).
  void run(const void *args, std::array<size_t, 3> global, std::array<size_t, 3> local, unsigned dims) {
    auto &hostKernel = static_cast<host::HostKernel &>(*kernel);
    abi::WorkGroupInfo info{};
    info.workDim = dims;
    for (unsigned d = 0; d < 3; ++d) {
      info.globalSize[d] = global[d];
      info.enqueuedLocalSize[d] = local[d];
      info.numGroups[d] = (global[d] + local[d] - 1) / local[d];
    }
    size_t items = local[0] * local[1] * local[2];
    AlignedBuffer localMemory = allocate(kernel->localMemSize());
    AlignedBuffer state = allocate(hostKernel.workItemStateSize() * items);
    info.localMemory = reinterpret_cast<uint64_t>(localMemory.get());
    info.localMemorySize = kernel->localMemSize();
    info.workItemState = reinterpret_cast<uint64_t>(state.get());
    for (size_t gz = 0; gz < info.numGroups[2]; ++gz)
      for (size_t gy = 0; gy < info.numGroups[1]; ++gy)
        for (size_t gx = 0; gx < info.numGroups[0]; ++gx) {
          size_t group[3] = {gx, gy, gz};
          for (unsigned d = 0; d < 3; ++d) {
            info.groupId[d] = group[d];
            info.localSize[d] = std::min(local[d], global[d] - group[d] * local[d]);
          }
          hostKernel.entry()(args, &info);
        }
  }
  void run1d(const void *args, size_t global, size_t local) { run(args, {global, 1, 1}, {local, 1, 1}, 1); }
};

Launcher load(const char *source, const char *kernelName, const char *options = "") {
  Launcher launcher;
  static_cast<LoadedKernel &>(launcher) = loadHostKernel(source, kernelName, options);
  return launcher;
}

class BarrierJit : public testing::TestWithParam<const char *> {};

TEST_P(BarrierJit, ReverseWithinGroupThroughLocalMemory) {
  Launcher launcher = load(R"(
__kernel void reverse(__global const int *in, __global int *out) {
  __local int tile[64];
  size_t lid = get_local_id(0), n = get_local_size(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - lid] * 10 + (int)lid;
}
)",
                           "reverse", GetParam());
  ASSERT_TRUE(launcher.kernel);
  const size_t n = 200, local = 64; // the last group has 8 work-items
  std::vector<int32_t> in(n), out(n, -1);
  std::iota(in.begin(), in.end(), 1000);
  ArgPacker args;
  args.add(in.data());
  args.add(out.data());
  launcher.run1d(args.data(), n, local);
  for (size_t i = 0; i < n; ++i) {
    size_t base = i / local * local, size = std::min(local, n - base), lid = i - base;
    ASSERT_EQ(out[i], in[base + size - 1 - lid] * 10 + static_cast<int32_t>(lid)) << i;
  }
}

TEST_P(BarrierJit, LoopCarriedValuesAndPrivateArrays) {
  Launcher launcher = load(R"(
__kernel void rounds(__global long *out, int count) {
  __local int shared[16];
  int lid = get_local_id(0), n = get_local_size(0);
  int history[4] = {0, 0, 0, 0};
  long acc = lid;
  for (int r = 0; r < count; ++r) {
    shared[lid] = (int)acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    int neighbour = shared[(lid + 1) % n];
    history[r & 3] += neighbour;
    acc = acc * 3 + neighbour;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc + history[0] * 7 + history[1] * 5 + history[2] * 3 + history[3];
}
)",
                           "rounds", GetParam());
  ASSERT_TRUE(launcher.kernel);
  const size_t n = 48, local = 16;
  const int count = 6;
  std::vector<int64_t> out(n, -1);
  ArgPacker args;
  args.add(out.data());
  args.add(count);
  launcher.run1d(args.data(), n, local);
  for (size_t group = 0; group < n / local; ++group) {
    std::vector<int64_t> acc(local);
    std::vector<std::array<int32_t, 4>> history(local, std::array<int32_t, 4>{});
    std::iota(acc.begin(), acc.end(), 0);
    for (int r = 0; r < count; ++r) {
      std::vector<int32_t> shared(local);
      for (size_t l = 0; l < local; ++l)
        shared[l] = static_cast<int32_t>(acc[l]);
      for (size_t l = 0; l < local; ++l) {
        int32_t neighbour = shared[(l + 1) % local];
        history[l][r & 3] += neighbour;
        acc[l] = acc[l] * 3 + neighbour;
      }
    }
    for (size_t l = 0; l < local; ++l) {
      const auto &h = history[l];
      int64_t expected = acc[l] + h[0] * 7 + h[1] * 5 + h[2] * 3 + h[3];
      ASSERT_EQ(out[group * local + l], expected) << "group " << group << " item " << l;
    }
  }
}

TEST_P(BarrierJit, ThreeDimensionalGroupsWithEdges) {
  Launcher launcher = load(R"(
__kernel void sum3d(__global int *out) {
  __local int cells[4][3][5];
  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
  int mine = (int)(get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2));
  cells[z][y][x] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  int total = 0;
  for (size_t k = 0; k < get_local_size(2); ++k)
    for (size_t j = 0; j < get_local_size(1); ++j)
      for (size_t i = 0; i < get_local_size(0); ++i)
        total += cells[k][j][i];
  size_t g = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  out[g] = total - mine;
}
)",
                           "sum3d", GetParam());
  ASSERT_TRUE(launcher.kernel);
  const std::array<size_t, 3> global = {7, 5, 6}, local = {5, 3, 4};
  std::vector<int32_t> out(global[0] * global[1] * global[2], -1);
  ArgPacker args;
  args.add(out.data());
  launcher.run(args.data(), global, local, 3);
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        int32_t total = 0;
        size_t bx = x / local[0] * local[0], by = y / local[1] * local[1], bz = z / local[2] * local[2];
        for (size_t k = bz; k < std::min(bz + local[2], global[2]); ++k)
          for (size_t j = by; j < std::min(by + local[1], global[1]); ++j)
            for (size_t i = bx; i < std::min(bx + local[0], global[0]); ++i)
              total += static_cast<int32_t>(i + 10 * j + 100 * k);
        int32_t mine = static_cast<int32_t>(x + 10 * y + 100 * z);
        ASSERT_EQ(out[x + global[0] * (y + global[1] * z)], total - mine) << x << "," << y << "," << z;
      }
}

INSTANTIATE_TEST_SUITE_P(Options, BarrierJit, testing::Values("", "-cl-opt-disable", "-g"),
                         [](const testing::TestParamInfo<const char *> &info) {
                           return std::string(info.param[0] ? (info.param[1] == 'g' ? "Debug" : "OptDisable")
                                                            : "Default");
                         });

} // namespace
} // namespace compiler::test
