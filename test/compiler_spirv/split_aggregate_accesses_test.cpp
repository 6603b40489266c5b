// SplitAggregateAccessesPass on hand-written IR: loads and stores of
// structs and arrays become accesses of their members at the DataLayout's
// offsets, with the alignment the whole access promised there, and no
// aggregate value is left for the emitter (which has none).
#include "passes/vulkan_passes.h"

#include "ir_pass_support.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace compiler::spirv::test {
namespace {

// The spirv64 DataLayout the vulkan pipeline compiles with.
constexpr const char *kLayout =
    "target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:"
    "16:32:64-G1\"\n";

using Split = PassedIr;

Split split(const std::string &ir) { return runPassOnIr(SplitAggregateAccessesPass(), kLayout + ir); }

std::string print(const llvm::Value *value) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  value->printAsOperand(stream, /*PrintType=*/true);
  return text;
}

/// Each load and store of `kernel` as "load i32 %in+4 align 4 (name)" or
/// "store i8 -128 %out+4 align 4": the type, the base pointer and
/// constant byte offset, the alignment, and a load's name or the stored
/// value.
std::vector<std::string> accesses(llvm::Function &kernel) {
  std::vector<std::string> result;
  const llvm::DataLayout &layout = kernel.getDataLayout();
  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
    if (!load && !store)
      continue;
    llvm::Value *pointer = load ? load->getPointerOperand() : store->getPointerOperand();
    llvm::APInt offset(64, 0);
    llvm::Value *base = pointer->stripAndAccumulateConstantOffsets(layout, offset, /*AllowNonInbounds=*/true);
    std::string text = load ? "load " : "store ";
    if (load)
      text += print(load) + " from ";
    else
      text += print(store->getValueOperand()) + " to ";
    text += base->getName().str() + "+" + std::to_string(offset.getZExtValue()) + " align " +
            std::to_string((load ? load->getAlign() : store->getAlign()).value());
    if (load ? load->isVolatile() : store->isVolatile())
      text += " volatile";
    result.push_back(text);
  }
  return result;
}

/// The instructions of `kernel` whose result is a struct or an array.
size_t aggregateValues(llvm::Function &kernel) {
  size_t count = 0;
  for (llvm::Instruction &instruction : llvm::instructions(kernel))
    count += instruction.getType()->isAggregateType();
  return count;
}

using Strings = std::vector<std::string>;

TEST(SplitAggregateAccesses, ConstantStructWithPaddingIsStoredMemberByMember) {
  // InstCombine keeps this store whole (the struct has tail padding).
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out) {
      store { i32, i8 } { i32 2100483600, i8 -128 }, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  EXPECT_EQ(accesses(result.kernel()),
            (Strings{"store i32 2100483600 to out+0 align 4", "store i8 -128 to out+4 align 4"}))
      << result.text;
}

TEST(SplitAggregateAccesses, NestedMembersAtTheirOffsetsWithTheAlignmentTheyHave) {
  // <2 x i32> at 0, { i32, i8 } at 8, [2 x i16] at 16; the whole store is
  // aligned to 8, so the i8 at 12 is aligned to 4 and the i16 at 18 to 2.
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out) {
      store { <2 x i32>, { i32, i8 }, [2 x i16] } { <2 x i32> <i32 1, i32 2>, { i32, i8 } { i32 3, i8 4 },
                                                  [2 x i16] [i16 5, i16 6] }, ptr addrspace(1) %out, align 8
      ret void
    })");
  ASSERT_TRUE(result.module);
  EXPECT_EQ(accesses(result.kernel()),
            (Strings{"store <2 x i32> <i32 1, i32 2> to out+0 align 8", "store i32 3 to out+8 align 8",
                     "store i8 4 to out+12 align 4", "store i16 5 to out+16 align 8", "store i16 6 to out+18 align 2"}))
      << result.text;
}

TEST(SplitAggregateAccesses, LoadedStructIsCopiedMemberByMember) {
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
      %v = load { i32, i8 }, ptr addrspace(1) %in, align 4
      store { i32, i8 } %v, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  Strings found = accesses(result.kernel());
  ASSERT_EQ(found.size(), 4u) << result.text;
  EXPECT_EQ(found[0].substr(0, 5), "load ");
  EXPECT_NE(found[0].find(" from in+0 align 4"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find(" from in+4 align 4"), std::string::npos) << found[1];
  // Each member stored is the one loaded.
  llvm::SmallVector<llvm::LoadInst *, 2> loads;
  llvm::SmallVector<llvm::StoreInst *, 2> stores;
  for (llvm::Instruction &instruction : llvm::instructions(result.kernel())) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      loads.push_back(load);
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      stores.push_back(store);
  }
  ASSERT_EQ(loads.size(), 2u);
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_EQ(stores[0]->getValueOperand(), loads[0]);
  EXPECT_EQ(stores[1]->getValueOperand(), loads[1]);
  EXPECT_TRUE(loads[0]->getType()->isIntegerTy(32));
  EXPECT_TRUE(loads[1]->getType()->isIntegerTy(8));
  EXPECT_EQ(aggregateValues(result.kernel()), 0u) << result.text;
}

TEST(SplitAggregateAccesses, ChangedMembersAreStoredAndExtractsFolded) {
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %data) {
      %old = load { i32, i8 }, ptr addrspace(1) %data, align 4
      %number = extractvalue { i32, i8 } %old, 0
      %doubled = mul i32 %number, 2
      %new = insertvalue { i32, i8 } %old, i32 %doubled, 0
      store { i32, i8 } %new, ptr addrspace(1) %data, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  Strings found = accesses(result.kernel());
  ASSERT_EQ(found.size(), 4u) << result.text;
  EXPECT_EQ(found[2], "store i32 %doubled to data+0 align 4");
  // The char is stored as it was loaded.
  EXPECT_NE(found[3].find(" to data+4 align 4"), std::string::npos) << found[3];
  EXPECT_EQ(aggregateValues(result.kernel()), 0u) << result.text;
  EXPECT_EQ(result.text.find("extractvalue"), std::string::npos) << result.text;
}

TEST(SplitAggregateAccesses, PhisAndSelectsOfStructsBecomeOnesOfTheirMembers) {
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in, i1 %take, i1 %other) {
    entry:
      br i1 %take, label %load, label %join
    load:
      %loaded = load { i32, i8 }, ptr addrspace(1) %in, align 4
      br label %join
    join:
      %chosen = phi { i32, i8 } [ %loaded, %load ], [ { i32 77, i8 -6 }, %entry ]
      %picked = select i1 %other, { i32, i8 } %chosen, { i32, i8 } { i32 5, i8 6 }
      store { i32, i8 } %picked, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  EXPECT_EQ(aggregateValues(result.kernel()), 0u) << result.text;
  // A phi of each member (its load, or the constant's member) and a select
  // of each (the phi, or the other constant's member).
  Strings phis, selects;
  for (llvm::Instruction &instruction : llvm::instructions(result.kernel())) {
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
      llvm::Value *fromLoad = phi->getIncomingValueForBlock(&*std::next(result.kernel().begin()));
      EXPECT_TRUE(llvm::isa<llvm::LoadInst>(fromLoad)) << result.text;
      phis.push_back(print(phi->getIncomingValueForBlock(&result.kernel().getEntryBlock())));
    }
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
      EXPECT_TRUE(llvm::isa<llvm::PHINode>(select->getTrueValue())) << result.text;
      selects.push_back(print(select->getFalseValue()));
    }
  }
  EXPECT_EQ(phis, (Strings{"i32 77", "i8 -6"})) << result.text;
  EXPECT_EQ(selects, (Strings{"i32 5", "i8 6"})) << result.text;
}

TEST(SplitAggregateAccesses, UndefinedMembersAreNotStored) {
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %other) {
      store { i32, i8, [3 x i8] } { i32 1, i8 undef, [3 x i8] poison }, ptr addrspace(1) %out, align 4
      store { i32, i8 } undef, ptr addrspace(1) %other, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  EXPECT_EQ(accesses(result.kernel()), (Strings{"store i32 1 to out+0 align 4"})) << result.text;
}

TEST(SplitAggregateAccesses, PrivateAndVolatileAccessesKeepTheirKind) {
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %out) {
      %copy = alloca [2 x i16], align 2
      store volatile [2 x i16] [i16 1, i16 2], ptr %copy, align 2
      %v = load [2 x i16], ptr %copy, align 2
      store volatile [2 x i16] %v, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  Strings found = accesses(result.kernel());
  ASSERT_EQ(found.size(), 6u) << result.text;
  EXPECT_EQ(found[0], "store i16 1 to copy+0 align 2 volatile");
  EXPECT_EQ(found[1], "store i16 2 to copy+2 align 2 volatile");
  EXPECT_NE(found[2].find(" from copy+0 align 2"), std::string::npos) << found[2];
  EXPECT_NE(found[3].find(" from copy+2 align 2"), std::string::npos) << found[3];
  EXPECT_NE(found[4].find(" to out+0 align 4 volatile"), std::string::npos) << found[4];
  EXPECT_NE(found[5].find(" to out+2 align 2 volatile"), std::string::npos) << found[5];
  EXPECT_EQ(aggregateValues(result.kernel()), 0u) << result.text;
}

TEST(SplitAggregateAccesses, CompareExchangePairsAreLeftAlone) {
  // The emitter reads a cmpxchg's pair itself; nothing here is memory.
  Split result = split(R"(
    define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %out) {
      %pair = cmpxchg ptr addrspace(1) %p, i32 0, i32 1 seq_cst seq_cst
      %old = extractvalue { i32, i1 } %pair, 0
      store i32 %old, ptr addrspace(1) %out, align 4
      ret void
    })");
  ASSERT_TRUE(result.module);
  EXPECT_NE(result.text.find("%old = extractvalue { i32, i1 } %pair, 0"), std::string::npos) << result.text;
  EXPECT_EQ(accesses(result.kernel()), (Strings{"store i32 %old to out+0 align 4"})) << result.text;
}

} // namespace
} // namespace compiler::spirv::test
