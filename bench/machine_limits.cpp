#include "machine_limits.h"

#include "workload_support.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

/// Runs work(t) for t in [0, threads) on as many threads, started together;
/// returns the seconds from the start to the last one's end.
template <typename Work> double timeOnThreads(unsigned threads, const Work &work) {
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<Clock::time_point> ends(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire))
        std::this_thread::yield();
      work(t);
      ends[t] = Clock::now();
    });
  while (ready.load() < threads)
    std::this_thread::yield();
  const Clock::time_point start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread &thread : pool)
    thread.join();
  return std::chrono::duration<double>(*std::max_element(ends.begin(), ends.end()) - start).count();
}

/// [begin, end) of thread t's share of n elements.
std::pair<size_t, size_t> slice(size_t n, unsigned threads, unsigned t) {
  return {n * t / threads, n * (t + 1) / threads};
}

// The triad loop in each vector width the CPU has. The widest is not always
// the fastest from memory (a Zen 4 streams 256-bit loads 15-25% faster than
// 512-bit ones), so the machine's limit is the best of them.
void triadBaseline(float *a, const float *b, const float *c, float s, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i)
    a[i] = b[i] + s * c[i];
}

#if defined(__x86_64__)
// One vector-width's triad over [begin, end), the remainder lane by lane.
#define PMX_TRIAD_LOOP(LANES, SET1, LOAD, FMADD, STORE)                                                                \
  const auto scale = SET1(s);                                                                                          \
  size_t i = begin;                                                                                                    \
  for (; i + LANES <= end; i += LANES)                                                                                 \
    STORE(a + i, FMADD(scale, LOAD(c + i), LOAD(b + i)));                                                              \
  triadBaseline(a, b, c, s, i, end)

__attribute__((target("avx512f"))) void triadAvx512(float *a, const float *b, const float *c, float s, size_t begin,
                                                    size_t end) {
  PMX_TRIAD_LOOP(16, _mm512_set1_ps, _mm512_loadu_ps, _mm512_fmadd_ps, _mm512_storeu_ps);
}

__attribute__((target("avx2,fma"))) void triadAvx2(float *a, const float *b, const float *c, float s, size_t begin,
                                                   size_t end) {
  PMX_TRIAD_LOOP(8, _mm256_set1_ps, _mm256_loadu_ps, _mm256_fmadd_ps, _mm256_storeu_ps);
}
#undef PMX_TRIAD_LOOP
#endif

struct TriadLoop {
  const char *name;
  void (*run)(float *a, const float *b, const float *c, float s, size_t begin, size_t end);
};

std::vector<TriadLoop> triadLoops() {
  std::vector<TriadLoop> loops = {{"baseline", triadBaseline}};
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    loops.push_back({"avx2", triadAvx2});
  if (__builtin_cpu_supports("avx512f"))
    loops.push_back({"avx512f", triadAvx512});
#endif
  return loops;
}

/// floats on memory that starts on a 2 MiB boundary and asks the system for
/// transparent huge pages (as Polymux's host buffers do): one TLB miss per
/// 2 MiB of a stream rather than per 4 KiB.
struct HugePageFloats {
  explicit HugePageFloats(size_t count) {
    bytes = (count * sizeof(float) + kHugePage - 1) / kHugePage * kHugePage;
    data = static_cast<float *>(std::aligned_alloc(kHugePage, bytes));
    if (!data)
      throw std::bad_alloc();
#if defined(__linux__)
    madvise(data, bytes, MADV_HUGEPAGE); // advice: refused, the pages are small
#endif
  }
  ~HugePageFloats() { std::free(data); }
  HugePageFloats(const HugePageFloats &) = delete;
  HugePageFloats &operator=(const HugePageFloats &) = delete;

  static constexpr size_t kHugePage = size_t{2} << 20;
  float *data;
  size_t bytes;
};

// Multiply-add chains: independent vectors, each a dependent chain
// x = x * a + b, enough of them to keep every FMA unit busy through its
// latency. Each loop returns the sum of its lanes, so no chain can be
// dropped.
constexpr float kMultiplierF = 0.999999f, kAddendF = 1e-6f;
constexpr double kMultiplierD = 0.999999999, kAddendD = 1e-9;

#if defined(__x86_64__)
/// Chains per loop: two FMA units of four cycles' latency need eight; the
/// 32 AVX-512 registers hold more, AVX2's 16 fewer.
constexpr int kChainsAvx512 = 12, kChainsAvx2 = 10, kChainsSse2 = 8;

// The loop body of every width, expanded inside each target("...")
// function: intrinsics of a wider instruction set cannot be called from a
// function (or lambda) compiled for the baseline.
#define PMX_MULTIPLY_ADD_CHAINS(V, CHAINS, SPLAT, STEP, SUM)                                                           \
  V acc[CHAINS];                                                                                                       \
  for (int c = 0; c < CHAINS; ++c)                                                                                     \
    acc[c] = SPLAT(0.001 * (c + 1));                                                                                   \
  for (uint64_t i = 0; i < iterations; ++i) {                                                                          \
    _Pragma("GCC unroll 16") for (int c = 0; c < CHAINS; ++c) acc[c] = STEP(acc[c]);                                   \
  }                                                                                                                    \
  double total = 0;                                                                                                    \
  for (int c = 0; c < CHAINS; ++c)                                                                                     \
    total += SUM(acc[c]);                                                                                              \
  return total

/// The sum of a vector's lanes, through memory: GCC 12's
/// _mm512_reduce_add_* warn of an uninitialised temporary of their own.
template <typename Lane, size_t N> double sumOf(const Lane (&lanes)[N]) {
  double total = 0;
  for (Lane lane : lanes)
    total += lane;
  return total;
}

__attribute__((target("avx512f"))) double sum512(__m512 v) {
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, v);
  return sumOf(lanes);
}

__attribute__((target("avx512f"))) double sum512d(__m512d v) {
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, v);
  return sumOf(lanes);
}

__attribute__((target("avx2,fma"))) double sum256(__m256 v) {
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, v);
  return sumOf(lanes);
}

__attribute__((target("avx2,fma"))) double sum256d(__m256d v) {
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, v);
  return sumOf(lanes);
}

double sum128(__m128 v) {
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, v);
  return sumOf(lanes);
}

double sum128d(__m128d v) {
  alignas(16) double lanes[2];
  _mm_store_pd(lanes, v);
  return sumOf(lanes);
}

__attribute__((target("avx512f"))) double peakAvx512(uint64_t iterations, bool isDouble) {
  if (isDouble) {
    const __m512d a = _mm512_set1_pd(kMultiplierD), b = _mm512_set1_pd(kAddendD);
#define STEP(x) _mm512_fmadd_pd(x, a, b)
    PMX_MULTIPLY_ADD_CHAINS(__m512d, kChainsAvx512, _mm512_set1_pd, STEP, sum512d);
#undef STEP
  }
  const __m512 a = _mm512_set1_ps(kMultiplierF), b = _mm512_set1_ps(kAddendF);
#define STEP(x) _mm512_fmadd_ps(x, a, b)
  PMX_MULTIPLY_ADD_CHAINS(__m512, kChainsAvx512, _mm512_set1_ps, STEP, sum512);
#undef STEP
}

__attribute__((target("avx2,fma"))) double peakAvx2(uint64_t iterations, bool isDouble) {
  if (isDouble) {
    const __m256d a = _mm256_set1_pd(kMultiplierD), b = _mm256_set1_pd(kAddendD);
#define STEP(x) _mm256_fmadd_pd(x, a, b)
    PMX_MULTIPLY_ADD_CHAINS(__m256d, kChainsAvx2, _mm256_set1_pd, STEP, sum256d);
#undef STEP
  }
  const __m256 a = _mm256_set1_ps(kMultiplierF), b = _mm256_set1_ps(kAddendF);
#define STEP(x) _mm256_fmadd_ps(x, a, b)
  PMX_MULTIPLY_ADD_CHAINS(__m256, kChainsAvx2, _mm256_set1_ps, STEP, sum256);
#undef STEP
}

/// SSE2 has no fused multiply-add: a multiply and an add, two flops as well.
double peakSse2(uint64_t iterations, bool isDouble) {
  if (isDouble) {
    const __m128d a = _mm_set1_pd(kMultiplierD), b = _mm_set1_pd(kAddendD);
#define STEP(x) _mm_add_pd(_mm_mul_pd(x, a), b)
    PMX_MULTIPLY_ADD_CHAINS(__m128d, kChainsSse2, _mm_set1_pd, STEP, sum128d);
#undef STEP
  }
  const __m128 a = _mm_set1_ps(kMultiplierF), b = _mm_set1_ps(kAddendF);
#define STEP(x) _mm_add_ps(_mm_mul_ps(x, a), b)
  PMX_MULTIPLY_ADD_CHAINS(__m128, kChainsSse2, _mm_set1_ps, STEP, sum128);
#undef STEP
}
#undef PMX_MULTIPLY_ADD_CHAINS
#endif

/// The peak loop this CPU runs fastest: its name, lanes per vector of
/// float (double has half) and chains, and the loop.
struct PeakLoop {
  const char *name;
  unsigned floatLanes;
  unsigned chains;
  double (*run)(uint64_t iterations, bool isDouble);
};

PeakLoop bestPeakLoop() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return {"avx512f", 16, kChainsAvx512, peakAvx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {"avx2+fma", 8, kChainsAvx2, peakAvx2};
  return {"sse2", 4, kChainsSse2, peakSse2};
#else
  return {"scalar", 1, 8, [](uint64_t iterations, bool isDouble) {
            double acc[8];
            for (int c = 0; c < 8; ++c)
              acc[c] = 0.001 * (c + 1);
            for (uint64_t i = 0; i < iterations; ++i)
              for (double &x : acc)
                x = isDouble ? std::fma(x, kMultiplierD, kAddendD)
                             : static_cast<double>(std::fma(static_cast<float>(x), kMultiplierF, kAddendF));
            double total = 0;
            for (double x : acc)
              total += x;
            return total;
          }};
#endif
}

/// GFLOPS of `loop` on every thread: calibrated on one thread to run about
/// `targetSeconds`, then the best of three runs on all of them.
Figure peakGflops(const PeakLoop &loop, bool isDouble, unsigned threads, double targetSeconds) {
  std::atomic<double> sink{0};
  uint64_t iterations = 1 << 16;
  for (;;) {
    const double seconds = timeOnThreads(1, [&](unsigned) { sink.store(loop.run(iterations, isDouble)); });
    if (seconds >= targetSeconds / 4 || iterations >= (uint64_t{1} << 40)) {
      iterations = static_cast<uint64_t>(static_cast<double>(iterations) * targetSeconds / std::max(seconds, 1e-9));
      break;
    }
    iterations *= 4;
  }
  iterations = std::max<uint64_t>(iterations, 1);
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    const double seconds = timeOnThreads(threads, [&](unsigned) { sink.store(loop.run(iterations, isDouble)); });
    best = std::max(best, 1.0 / seconds);
  }
  const double lanes = isDouble ? loop.floatLanes / 2.0 : loop.floatLanes;
  const double flops = 2.0 * lanes * loop.chains * static_cast<double>(iterations) * threads;
  return {flops * best / 1e9, {}, false};
}

Figure nativeTriad(const Sizes &sizes, unsigned threads, std::string &loopName) {
  const size_t n = sizes.triadElements;
  HugePageFloats a(n), b(n), c(n);
  constexpr float kScale = 3.0f;
  // Each thread first touches its own slice, as the timed runs read it.
  timeOnThreads(threads, [&](unsigned t) {
    auto [begin, end] = slice(n, threads, t);
    for (size_t i = begin; i < end; ++i) {
      a.data[i] = 0;
      b.data[i] = static_cast<float>(i % 1000);
      c.data[i] = static_cast<float>(i % 7);
    }
  });
  // Runs of every loop alternate, so a slow spell of a shared machine
  // does not fall on one loop alone.
  const std::vector<TriadLoop> loops = triadLoops();
  std::vector<double> best(loops.size(), 0.0);
  for (size_t run = 0; run < sizes.triadRuns; ++run)
    for (size_t l = 0; l < loops.size(); ++l) {
      for (size_t i = 0; i < n; i += 4099) // what this run must overwrite
        a.data[i] = -1.0f;
      const double seconds = timeOnThreads(threads, [&](unsigned t) {
        auto [begin, end] = slice(n, threads, t);
        loops[l].run(a.data, b.data, c.data, kScale, begin, end);
      });
      best[l] = std::max(best[l], 1.0 / seconds);
      for (size_t i = 0; i < n; i += 4099) // small integers: exact in any order
        if (a.data[i] != static_cast<float>(i % 1000) + kScale * static_cast<float>(i % 7))
          return wrongResult(std::string("native ") + loops[l].name + " triad element " + std::to_string(i) + " = " +
                             std::to_string(a.data[i]));
    }
  const size_t fastest = std::max_element(best.begin(), best.end()) - best.begin();
  loopName = loops[fastest].name;
  return {12.0 * static_cast<double>(n) * best[fastest] / 1e9, {}, false};
}

} // namespace

MachineLimits measureMachineLimits(const Sizes &sizes) {
  MachineLimits limits;
  limits.threads = std::max(1u, std::thread::hardware_concurrency());
  const PeakLoop loop = bestPeakLoop();
  limits.vectors = loop.name;
  const double seconds = sizes.quick ? 0.05 : 0.3;
  limits.fmaFloat = peakGflops(loop, false, limits.threads, seconds);
  limits.fmaDouble = peakGflops(loop, true, limits.threads, seconds);
  limits.triad = nativeTriad(sizes, limits.threads, limits.triadLoop);
  return limits;
}

} // namespace bench
