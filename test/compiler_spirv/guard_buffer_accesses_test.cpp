// GuardBufferAccessesPass on hand-written kernels: which of the launch's
// ranges each access is checked against, that the
// checked pointer (or the scratch area) is what the access uses, and that
// kernels without __global/__constant accesses are left alone (their
// launches need no ranges, scratch area or report).
#include "passes/vulkan_passes.h"

#include "compiler/abi/vulkan_kernel_abi.h"
#include "ir_pass_support.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace compiler::spirv::test {
namespace {

namespace abi = compiler::abi::vulkan;

using Guarded = PassedIr;

Guarded guard(const char *ir) { return runPassOnIr(GuardBufferAccessesPass(), ir); }

bool calls(const llvm::Value *value, llvm::StringRef function) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == function;
}

/// The ranges whose base and size `kernel` reads.
std::set<uint64_t> rangesRead(llvm::Function &kernel) {
  std::set<uint64_t> bases, sizes;
  for (llvm::Instruction &instruction : llvm::instructions(kernel))
    for (auto [function, set] :
         {std::pair{kAccessRangeBaseFunction, &bases}, std::pair{kAccessRangeSizeFunction, &sizes}})
      if (calls(&instruction, function))
        set->insert(
            llvm::cast<llvm::ConstantInt>(llvm::cast<llvm::CallInst>(instruction).getArgOperand(0))->getZExtValue());
  EXPECT_EQ(bases, sizes);
  return bases;
}

/// Whether the module reads a range, the scratch area or the report.
bool checksAnything(const std::string &text) {
  for (llvm::StringRef function : {kAccessRangeBaseFunction, kAccessScratchFunction, kAccessReportFunction})
    if (text.find(function.str()) != std::string::npos)
      return true;
  return false;
}

/// Whether every __global access of `kernel` goes through a checked pointer.
bool everyAccessChecked(llvm::Function &kernel) {
  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    llvm::Value *pointer = nullptr;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      pointer = load->getPointerOperand();
    else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      pointer = store->getPointerOperand();
    else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
      pointer = rmw->getPointerOperand();
    if (!pointer || pointer->getType()->getPointerAddressSpace() != 1)
      continue;
    if (calls(llvm::getUnderlyingObject(pointer), kAccessReportFunction))
      continue; // the pass's own report
    if (!llvm::isa<llvm::SelectInst>(pointer))
      return false;
  }
  return true;
}

TEST(GuardBufferAccesses, ArgumentAccessesUseTheirArgumentsRanges) {
  Guarded guarded = guard(R"(
    define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %unused, i64 %i) {
      %p = getelementptr float, ptr addrspace(1) %in, i64 %i
      %v = load float, ptr addrspace(1) %p, align 4
      %q = getelementptr <4 x float>, ptr addrspace(1) %out, i64 %i
      %w = insertelement <4 x float> zeroinitializer, float %v, i64 0
      store <4 x float> %w, ptr addrspace(1) %q, align 16
      %r = atomicrmw add ptr addrspace(1) %out, i32 1 seq_cst
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{0, 1})) << guarded.text;
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  // Each access checks its own length: 4, 16 and 4 bytes, a bound per
  // range and length, computed once.
  std::regex bound(R"(%access\.starts\d* = select i1 %\d+, i64 %\d+, i64 0)");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(guarded.text.begin(), guarded.text.end(), bound), std::sregex_iterator()), 3)
      << guarded.text;
  EXPECT_NE(guarded.text.find("sub i64 %access.size2, 16"), std::string::npos) << guarded.text;
  // The two values a failed check sets are registers, not memory.
  EXPECT_EQ(guarded.text.find("alloca"), std::string::npos) << guarded.text;
  // One conditional report before the return: the address, then the flag.
  EXPECT_NE(guarded.text.find("store i32 1, ptr addrspace(1)"), std::string::npos) << guarded.text;
}

/// How many checks (each sets the report's values once) the kernel makes.
size_t checkCount(const std::string &text) {
  std::regex outside(R"(%access\.outside\d* = )");
  return std::distance(std::sregex_iterator(text.begin(), text.end(), outside), std::sregex_iterator());
}

TEST(GuardBufferAccesses, AccessesOfOneBlockAtConstantOffsetsFromOnePointerShareACheck) {
  Guarded guarded = guard(R"(
    define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %i) {
      %row = getelementptr i32, ptr addrspace(1) %out, i64 %i
      %in1 = getelementptr i8, ptr addrspace(1) %in, i64 1
      %a = load i8, ptr addrspace(1) %in1, align 1
      %in3 = getelementptr i8, ptr addrspace(1) %in, i64 3
      %b = load i8, ptr addrspace(1) %in3, align 1
      %row1 = getelementptr i32, ptr addrspace(1) %row, i64 1
      %row3 = getelementptr i32, ptr addrspace(1) %row, i64 3
      %wide = zext i8 %a to i32
      store i32 %wide, ptr addrspace(1) %row3, align 4
      store i32 %wide, ptr addrspace(1) %row, align 4
      store i32 %wide, ptr addrspace(1) %row1, align 4
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  // One check of in's bytes [1, 4), one of the row's [0, 16).
  EXPECT_EQ(checkCount(guarded.text), 2u) << guarded.text;
  EXPECT_NE(guarded.text.find("sub i64 %access.size, 3"), std::string::npos) << guarded.text;
  EXPECT_NE(guarded.text.find("sub i64 %access.size2, 16"), std::string::npos) << guarded.text;
}

TEST(GuardBufferAccesses, ChecksAreNotSharedAcrossBlocksOrCallsThatMayNotReturn) {
  Guarded guarded = guard(R"(
    declare void @maybe_stops()
    define spir_kernel void @k(ptr addrspace(1) %out, i1 %far) {
    entry:
      store i32 0, ptr addrspace(1) %out, align 4
      call void @maybe_stops()
      %second = getelementptr i32, ptr addrspace(1) %out, i64 1
      store i32 1, ptr addrspace(1) %second, align 4
      br i1 %far, label %then, label %exit
    then:
      %distant = getelementptr i32, ptr addrspace(1) %out, i64 1000
      store i32 2, ptr addrspace(1) %distant, align 4
      br label %exit
    exit:
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  // The store after the call and the one that runs only when %far is set
  // are checked on their own: the span of all three would fail a correct
  // launch whose buffer ends before element 1000.
  EXPECT_EQ(checkCount(guarded.text), 3u) << guarded.text;
}

TEST(GuardBufferAccesses, AWorkItemThatLeftAtAKernelExitReportsNoFaults) {
  // Two loads of one block at constant offsets, either side of the place
  // where the work-item left (lower_kernel_exit.cpp marks it).
  Guarded guarded = guard(R"(
    declare void @__polymux_kernel_exit_left() nounwind willreturn
    define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
      %before = load i32, ptr addrspace(1) %in, align 4
      call void @__polymux_kernel_exit_left()
      %next = getelementptr i32, ptr addrspace(1) %in, i64 1
      %after = load i32, ptr addrspace(1) %next, align 4
      %sum = add i32 %before, %after
      store i32 %sum, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  // The mark is gone; the loads have a check each, not one shared across it.
  EXPECT_EQ(guarded.text.find("__polymux_kernel_exit_left"), std::string::npos) << guarded.text;
  EXPECT_EQ(checkCount(guarded.text), 3u) << guarded.text;
  // Each check's fault is `outside and not left`: the first one's counts,
  // the two after the mark are no faults.
  auto count = [&](const char *pattern) {
    std::regex regex(pattern);
    return std::distance(std::sregex_iterator(guarded.text.begin(), guarded.text.end(), regex), std::sregex_iterator());
  };
  EXPECT_EQ(count(R"(%access\.fault\d* = and i1 %access\.outside\d*, %\d+)"), 3) << guarded.text;
  EXPECT_EQ(count(R"(= xor i1 false, true)"), 1) << guarded.text;
  EXPECT_EQ(count(R"(= xor i1 true, true)"), 2) << guarded.text;
}

TEST(GuardBufferAccesses, PointersOfUnknownOriginAreCheckedAgainstEveryRange) {
  Guarded guarded = guard(R"(
    @table = addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
    define spir_kernel void @k(ptr addrspace(1) %a, i64 %address, ptr addrspace(2) %c, i32 %n) {
      %wild = inttoptr i64 %address to ptr addrspace(1)
      store i32 42, ptr addrspace(1) %wild, align 4
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  // Buffer arguments 0 and 2, and the program-scope block (range 4 of a
  // kernel with four arguments); not the value arguments.
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{0, 2, 4})) << guarded.text;
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
}

TEST(GuardBufferAccesses, TexelAddressesUseTheirImagesTexels) {
  // Arguments: an image (its descriptor's address), a buffer, an address.
  // The texel address is read from the image's descriptor; a wild pointer
  // may lie in any buffer, the texels of each image among them.
  Guarded guarded = guard(R"(
    define spir_kernel void @k(ptr addrspace(1) %image, ptr addrspace(1) %out, i64 %address)
        !kernel_arg_base_type !0 {
      %data = load i64, ptr addrspace(1) %image, align 8
      %texels = inttoptr i64 %data to ptr addrspace(1)
      %texel = getelementptr i8, ptr addrspace(1) %texels, i64 12
      %v = load i32, ptr addrspace(1) %texel, align 4
      store i32 %v, ptr addrspace(1) %out, align 4
      %wild = inttoptr i64 %address to ptr addrspace(1)
      store i32 %v, ptr addrspace(1) %wild, align 4
      ret void
    }
    !0 = !{!"image2d_t", !"int*", !"ulong"})");
  ASSERT_TRUE(guarded.module);
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  // The image's texels are range 4 (three arguments, the block, then one
  // per argument); the texel load is checked against it alone.
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{0, 1, 3, 4})) << guarded.text;
  llvm::LoadInst *texelLoad = nullptr;
  for (llvm::Instruction &instruction : llvm::instructions(guarded.kernel()))
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load && load->getType()->isIntegerTy(32))
      texelLoad = load;
  ASSERT_NE(texelLoad, nullptr) << guarded.text;
  auto *checked = llvm::dyn_cast<llvm::SelectInst>(texelLoad->getPointerOperand());
  ASSERT_NE(checked, nullptr) << guarded.text;
  auto *inside = llvm::dyn_cast<llvm::ICmpInst>(checked->getCondition());
  ASSERT_NE(inside, nullptr) << guarded.text;
  auto *offset = llvm::dyn_cast<llvm::BinaryOperator>(inside->getOperand(0));
  ASSERT_NE(offset, nullptr) << guarded.text;
  EXPECT_TRUE(calls(offset->getOperand(1), kAccessRangeBaseFunction)) << guarded.text;
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(llvm::cast<llvm::CallInst>(offset->getOperand(1))->getArgOperand(0))
                ->getZExtValue(),
            4u)
      << guarded.text;
}

TEST(GuardBufferAccesses, ProgramScopeVariablesUseTheBlocksRange) {
  Guarded guarded = guard(R"(
    @table = addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
    @counter = addrspace(1) global i32 0
    define spir_kernel void @k(ptr addrspace(1) %out, i64 %i) {
      %p = getelementptr [4 x i32], ptr addrspace(2) @table, i64 0, i64 %i
      %v = load i32, ptr addrspace(2) %p, align 4
      store i32 %v, ptr addrspace(1) @counter, align 4
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{2})) << guarded.text;
}

TEST(GuardBufferAccesses, PhisAndSelectsOfArgumentsUseThoseArgumentsRanges) {
  Guarded guarded = guard(R"(
    define spir_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i1 %which, i64 %n) {
    entry:
      %start = select i1 %which, ptr addrspace(1) %a, ptr addrspace(1) %b
      br label %loop
    loop:
      %p = phi ptr addrspace(1) [ %start, %entry ], [ %next, %loop ]
      %i = phi i64 [ 0, %entry ], [ %j, %loop ]
      store i32 0, ptr addrspace(1) %p, align 4
      %next = getelementptr i32, ptr addrspace(1) %p, i64 1
      %j = add i64 %i, 1
      %done = icmp eq i64 %j, %n
      br i1 %done, label %exit, label %loop
    exit:
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{0, 1})) << guarded.text;
  EXPECT_TRUE(everyAccessChecked(guarded.kernel())) << guarded.text;
  EXPECT_EQ(guarded.text.find("alloca"), std::string::npos) << guarded.text;
}

TEST(GuardBufferAccesses, MemoryCopiesCheckBothBufferOperands) {
  Guarded guarded = guard(R"(
    declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
    declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
    define spir_kernel void @k(ptr addrspace(1) %dst, ptr addrspace(1) %src, i64 %i) {
      %a = alloca [16 x i32], align 4
      %b = alloca [16 x i32], align 4
      call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %b, i64 64, i1 false)
      %d = getelementptr i32, ptr addrspace(1) %dst, i64 %i
      call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 %d, ptr addrspace(1) align 4 %src, i64 64, i1 false)
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_EQ(rangesRead(guarded.kernel()), (std::set<uint64_t>{0, 1})) << guarded.text;
  size_t checkedCopies = 0, plainCopies = 0;
  for (llvm::Instruction &instruction : llvm::instructions(guarded.kernel()))
    if (auto *copy = llvm::dyn_cast<llvm::MemCpyInst>(&instruction)) {
      bool checked =
          llvm::isa<llvm::SelectInst>(copy->getRawDest()) && llvm::isa<llvm::SelectInst>(copy->getRawSource());
      (checked ? checkedCopies : plainCopies) += 1;
    }
  EXPECT_EQ(checkedCopies, 1u) << guarded.text;
  EXPECT_EQ(plainCopies, 1u) << guarded.text; // the private one
}

TEST(GuardBufferAccesses, KernelsWithoutBufferAccessesAreLeftAlone) {
  Guarded guarded = guard(R"(
    @scratch = internal addrspace(3) global [16 x i32] poison
    define spir_kernel void @k(ptr addrspace(1) %unused, i64 %i) {
      %private = alloca i32, align 4
      store i32 1, ptr %private, align 4
      %p = getelementptr [16 x i32], ptr addrspace(3) @scratch, i64 0, i64 %i
      store i32 2, ptr addrspace(3) %p, align 4
      ret void
    }
    define spir_kernel void @empty() {
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_FALSE(checksAnything(guarded.text)) << guarded.text;
}

TEST(GuardBufferAccesses, ThePrintfBuffersAccessesAreNotChecked) {
  Guarded guarded = guard(R"(
    declare ptr addrspace(1) @__polymux_printf_buffer()
    define spir_kernel void @k() {
      %buffer = call ptr addrspace(1) @__polymux_printf_buffer()
      %used = getelementptr i8, ptr addrspace(1) %buffer, i64 8
      %old = atomicrmw add ptr addrspace(1) %used, i32 16 seq_cst
      ret void
    })");
  ASSERT_TRUE(guarded.module);
  EXPECT_FALSE(checksAnything(guarded.text)) << guarded.text;
}

} // namespace
} // namespace compiler::spirv::test
