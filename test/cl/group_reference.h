// Host references for the work-group and sub-group collective tests
// (work_group_functions_test.cpp, sub_group_test.cpp): the ND-ranges they
// run, which work-items form each group, test inputs, and the expected
// results of reduce/scan/broadcast/any/all computed here from the inputs.
#pragma once

#include "cl_test.h"
#include "test_kernels.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace cltest::groups {

using Triple = std::array<size_t, 3>;

struct Range {
  cl_uint dims;
  Triple global;
  Triple local;
  size_t count() const { return global[0] * global[1] * global[2]; }
  size_t localCount() const { return local[0] * local[1] * local[2]; }
  std::string describe() const {
    std::ostringstream text;
    text << dims << "D global {" << global[0] << "," << global[1] << "," << global[2] << "} local {" << local[0] << ","
         << local[1] << "," << local[2] << "}";
    return text.str();
  }
};

/// Uniform and non-uniform work-groups in 1, 2 and 3 dimensions, from one
/// work-item per group up to the device maximum of 1024.
inline std::vector<Range> testRanges() {
  return {
      {1, {256, 1, 1}, {64, 1, 1}},  {1, {1000, 1, 1}, {128, 1, 1}}, {1, {77, 1, 1}, {32, 1, 1}},
      {1, {5, 1, 1}, {1, 1, 1}},     {1, {300, 1, 1}, {300, 1, 1}},  {1, {2048, 1, 1}, {1024, 1, 1}},
      {2, {16, 16, 1}, {16, 16, 1}}, {2, {20, 9, 1}, {8, 4, 1}},     {3, {6, 5, 7}, {4, 2, 3}},
      {3, {8, 8, 8}, {4, 4, 4}},     {3, {13, 3, 5}, {8, 2, 2}},
  };
}

/// Where one work-item of a range sits.
struct Place {
  size_t workGroup;   ///< linear index of its work-group
  Triple groupId;     ///< get_group_id
  size_t localLinear; ///< get_local_linear_id
};

/// Places of every work-item, indexed by global linear id (no offset).
inline std::vector<Place> places(const Range &range) {
  std::vector<Place> result(range.count());
  Triple groups;
  for (unsigned d = 0; d < 3; ++d)
    groups[d] = (range.global[d] + range.local[d] - 1) / range.local[d];
  for (size_t z = 0; z < range.global[2]; ++z)
    for (size_t y = 0; y < range.global[1]; ++y)
      for (size_t x = 0; x < range.global[0]; ++x) {
        Triple id{x, y, z};
        Place place;
        Triple localId, size;
        for (unsigned d = 0; d < 3; ++d) {
          place.groupId[d] = id[d] / range.local[d];
          localId[d] = id[d] % range.local[d];
          // The last group in a dimension may be smaller.
          size[d] = std::min(range.local[d], range.global[d] - place.groupId[d] * range.local[d]);
        }
        place.workGroup = (place.groupId[2] * groups[1] + place.groupId[1]) * groups[0] + place.groupId[0];
        place.localLinear = (localId[2] * size[1] + localId[1]) * size[0] + localId[0];
        result[(z * range.global[1] + y) * range.global[0] + x] = place;
      }
  return result;
}

/// Groups of work-items (global linear ids), each in scan order.
using Partition = std::vector<std::vector<size_t>>;

/// The work-groups of `range`, each ordered by local linear id.
inline Partition workGroups(const Range &range) {
  std::vector<Place> all = places(range);
  size_t count = 0;
  for (const Place &place : all)
    count = std::max(count, place.workGroup + 1);
  Partition partition(count);
  for (size_t g = 0; g < all.size(); ++g) {
    auto &members = partition[all[g].workGroup];
    if (members.size() <= all[g].localLinear)
      members.resize(all[g].localLinear + 1, SIZE_MAX);
    members[all[g].localLinear] = g;
  }
  return partition;
}

/// Inputs: integers over their whole range (sums wrap); floating-point
/// values are small integers, so every summation order gives the same
/// exact result (the spec leaves the order undefined).
/// `small` gives every type values in [-1000, 1000] (wrapped for unsigned
/// types), for kernels whose own arithmetic must not overflow.
template <class T> std::vector<T> randomValues(size_t n, uint64_t seed, bool small = false) {
  std::mt19937_64 random(seed);
  std::vector<T> values(n);
  for (T &value : values) {
    if (std::is_floating_point_v<T> || small)
      value = static_cast<T>(static_cast<int64_t>(random() % 2001) - 1000);
    else
      value = static_cast<T>(random());
  }
  return values;
}

template <class T> T addWrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <class T> T subtractWrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

enum class Op { Add, Min, Max };

template <class T> T combine(Op op, T a, T b) {
  switch (op) {
  case Op::Add:
    return addWrapping(a, b);
  case Op::Min:
    return std::min(a, b);
  case Op::Max:
    return std::max(a, b);
  }
  return a;
}

/// The exclusive-scan identity: 0, the type's maximum (+INF) or minimum (-INF).
template <class T> T identity(Op op) {
  if (op == Op::Add)
    return T(0);
  if constexpr (std::is_floating_point_v<T>)
    return op == Op::Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  else
    return op == Op::Min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}

inline constexpr const char *kSlotNames[] = {
    "reduce_add",         "reduce_min",         "reduce_max",         "scan_inclusive_add", "scan_inclusive_min",
    "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max", "broadcast"};
inline constexpr size_t kSlots = 10;

/// Expected output of the `collectives` kernel (group_collectives.cl): 10
/// arrays of in.size(). `broadcastSource[i]` is the position, within group
/// i of `partition`, of the work-item whose value group i broadcasts.
template <class T>
std::vector<T> expectedCollectives(const Partition &partition, const std::vector<T> &in,
                                   const std::vector<size_t> &broadcastSource) {
  const size_t n = in.size();
  std::vector<T> out(kSlots * n);
  const Op ops[3] = {Op::Add, Op::Min, Op::Max};
  for (size_t group = 0; group < partition.size(); ++group) {
    const auto &members = partition[group];
    for (unsigned o = 0; o < 3; ++o) {
      T inclusive = in[members.front()];
      T exclusive = identity<T>(ops[o]);
      for (size_t i = 0; i < members.size(); ++i) {
        T x = in[members[i]];
        if (i > 0)
          inclusive = combine(ops[o], inclusive, x);
        out[(3 + o) * n + members[i]] = inclusive;
        out[(6 + o) * n + members[i]] = exclusive;
        exclusive = combine(ops[o], exclusive, x);
      }
      for (size_t member : members)
        out[o * n + member] = inclusive;
    }
    T broadcast = in[members.at(broadcastSource[group])];
    for (size_t member : members)
      out[9 * n + member] = broadcast;
  }
  return out;
}

/// Expected output of the `repeated` kernel (group_collectives.cl): the
/// collectives act on the groups of `partition`, the kernel's __local tile
/// on the work-groups of `workGroupPartition`.
template <class T>
std::vector<T> expectedRepeated(const Partition &partition, const Partition &workGroupPartition,
                                const std::vector<T> &in) {
  std::vector<T> tile(in.size());
  for (const auto &members : workGroupPartition)
    for (size_t i = 0; i < members.size(); ++i)
      tile[members[i]] = in[members[i % 64]];
  std::vector<T> out(in.size());
  for (const auto &members : partition) {
    T sum = 0;
    for (size_t g : members)
      sum = addWrapping(sum, in[g]);
    T prefix = 0;
    for (size_t g : members) {
      prefix = addWrapping(prefix, in[g]);
      T total = 0;
      for (int r = 0; r < 4; ++r) {
        T reduce = sum;
        for (size_t j = 0; j < members.size(); ++j)
          reduce = addWrapping(reduce, static_cast<T>(r));
        total = addWrapping(total, subtractWrapping(addWrapping(reduce, prefix), tile[g]));
      }
      out[g] = total;
    }
  }
  return out;
}

/// Predicates for any/all: per group of `partition`, by group index mod 4:
/// all zero, all non-zero, exactly one non-zero, exactly one zero.
inline std::vector<cl_int> votePredicates(const Partition &partition, size_t n) {
  std::vector<cl_int> in(n, 0);
  for (size_t group = 0; group < partition.size(); ++group) {
    const auto &members = partition[group];
    size_t special = (group * 5 + 2) % members.size();
    for (size_t i = 0; i < members.size(); ++i) {
      cl_int nonZero = static_cast<cl_int>(i % 3 == 0 ? -7 - i : i + 1); // never 0
      switch (group % 4) {
      case 0:
        in[members[i]] = 0;
        break;
      case 1:
        in[members[i]] = nonZero;
        break;
      case 2:
        in[members[i]] = i == special ? nonZero : 0;
        break;
      default:
        in[members[i]] = i == special ? 0 : nonZero;
        break;
      }
    }
  }
  return in;
}

/// Checks the `votes` kernel output (any, then all; non-zero means true).
inline void expectVotes(const Partition &partition, const std::vector<cl_int> &in, const std::vector<cl_int> &out,
                        const std::string &context) {
  const size_t n = in.size();
  for (const auto &members : partition) {
    bool any = std::any_of(members.begin(), members.end(), [&](size_t g) { return in[g] != 0; });
    bool all = std::all_of(members.begin(), members.end(), [&](size_t g) { return in[g] != 0; });
    for (size_t g : members) {
      ASSERT_EQ(out[g] != 0, any) << context << ": any at global linear id " << g;
      ASSERT_EQ(out[n + g] != 0, all) << context << ": all at global linear id " << g;
    }
  }
}

/// Compares the `collectives` output with `expected`, naming the function
/// and work-item of the first mismatch.
template <class T>
void expectSameCollectives(const std::vector<T> &expected, const std::vector<T> &actual, size_t n,
                           const std::string &context) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t slot = 0; slot < kSlots; ++slot)
    for (size_t g = 0; g < n; ++g)
      ASSERT_EQ(expected[slot * n + g], actual[slot * n + g])
          << context << ": " << kSlotNames[slot] << " at global linear id " << g;
}

/// The OpenCL C version option for programs that use OpenCL C 2.0+ builtins.
inline const char *clStdOption(cl_device_id device) {
  return deviceSupportsOpenCLC(device, 3, 0) ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

/// What the work-group and sub-group suites share: building
/// group_collectives.cl for a type, and running a kernel over the ranges its
/// work-group size allows.
class GroupCollectiveTest : public DeviceTest {
protected:
  /// Builds group_collectives.cl with -DT=`type` and `defines`.
  Program buildCollectives(const char *type, const char *defines = "") {
    std::string options = std::string(clStdOption(device())) + " " + defines + " -DT=" + type;
    return build(kernels::group_collectives, options.c_str());
  }

  /// Enqueues `k` over `range` and waits; false (with a failure) on error.
  bool run(cl_kernel k, const Range &range) {
    cl_int err = clEnqueueNDRangeKernel(queue_, k, range.dims, nullptr, range.global.data(), range.local.data(), 0,
                                        nullptr, nullptr);
    EXPECT_CL(err) << range.describe();
    return err == CL_SUCCESS && clFinish(queue_) == CL_SUCCESS;
  }

  /// The ranges whose work-groups `k` can run.
  std::vector<Range> rangesFor(cl_kernel k) {
    size_t limit = 0;
    EXPECT_CL(clGetKernelWorkGroupInfo(k, device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(limit), &limit, nullptr));
    std::vector<Range> ranges;
    for (const Range &range : testRanges())
      if (range.localCount() <= limit)
        ranges.push_back(range);
    EXPECT_FALSE(ranges.empty());
    return ranges;
  }
};

} // namespace cltest::groups
