// MPFR reference for the OpenCL C math built-ins; see math_reference.h.
#include "math_reference.h"

#include <mpfr.h>

#include <climits>
#include <cstring>
#include <functional>
#include <limits>

namespace cltest::math {
namespace {

constexpr mpfr_prec_t kExactPrecision = 128;

// The exact value is wanted; 128 bits is far more than the 24/53 bits of
// the formats plus the few bits of a measured error.
struct Mp {
  mpfr_t m;
  explicit Mp(mpfr_prec_t prec = kExactPrecision) { mpfr_init2(m, prec); }
  Mp(const Mp &) = delete;
  Mp &operator=(const Mp &) = delete;
  ~Mp() { mpfr_clear(m); }
  operator mpfr_ptr() { return m; }
};

// An argument: doubles hold float and double inputs exactly.
struct Arg : Mp {
  explicit Arg(double x) : Mp(53) { mpfr_set_d(m, x, MPFR_RNDN); }
};

mpfr_prec_t precisionOf(Format fmt) { return fmt == Format::F32 ? 24 : 53; }

// Sets MPFR's exponent range to the format's (MPFR exponents are those of
// a significand in [0.5, 1)): subnormals come from mpfr_subnormalize.
class FormatRange {
public:
  explicit FormatRange(Format fmt) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(fmt == Format::F32 ? -148 : -1073);
    mpfr_set_emax(fmt == Format::F32 ? 128 : 1024);
  }
  FormatRange(const FormatRange &) = delete;
  FormatRange &operator=(const FormatRange &) = delete;
  ~FormatRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }

private:
  mpfr_exp_t emin_, emax_;
};

// Computes rop = f(...) rounded to nearest with rop's precision; returns
// MPFR's ternary value (0 when exact).
using Eval = std::function<int(mpfr_ptr rop)>;

RefValue fromExact(mpfr_ptr e) {
  RefValue r;
  if (mpfr_nan_p(e)) {
    r.kind = RefValue::NaN;
    return r;
  }
  if (mpfr_inf_p(e)) {
    r.kind = RefValue::Inf;
    r.cr = mpfr_signbit(e) ? -INFINITY : INFINITY;
    return r;
  }
  if (mpfr_zero_p(e)) {
    r.kind = RefValue::Zero;
    r.cr = mpfr_signbit(e) ? -0.0 : 0.0;
    return r;
  }
  r.kind = RefValue::Finite;
  r.exp = static_cast<int>(mpfr_get_exp(e)) - 1;
  Mp scaled;
  mpfr_mul_2si(scaled, e, -r.exp, MPFR_RNDN);
  r.hi = mpfr_get_d(scaled, MPFR_RNDN);
  mpfr_sub_d(scaled, scaled, r.hi, MPFR_RNDN);
  r.lo = mpfr_get_d(scaled, MPFR_RNDN);
  return r;
}

// The exact value of `eval` and its correctly rounded value in `fmt`.
RefValue makeRef(Format fmt, const Eval &eval) {
  Mp exact;
  eval(exact);
  RefValue r = fromExact(exact);
  if (r.kind != RefValue::Finite)
    return r; // nan, inf and exact zeros are their own rounding
  Mp rounded(precisionOf(fmt));
  {
    FormatRange range(fmt);
    int t = eval(rounded);
    t = mpfr_check_range(rounded, t, MPFR_RNDN);
    mpfr_subnormalize(rounded, t, MPFR_RNDN);
    r.cr = mpfr_get_d(rounded, MPFR_RNDN);
  }
  return r;
}

// A value that is exact by construction (bit manipulation results).
RefValue exactValue(double x) {
  Arg a(x);
  RefValue r = fromExact(a);
  r.cr = x;
  return r;
}

bool isNegInteger(double x) { return x < 0 && std::isfinite(x) && std::floor(x) == x; }

using Unary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Binary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

struct UnaryEntry {
  std::string_view name;
  Unary fn;
};
struct BinaryEntry {
  std::string_view name;
  Binary fn;
};

int mpfrRoundEven(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) { return mpfr_roundeven(r, x); }
int mpfrCeil(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) { return mpfr_ceil(r, x); }
int mpfrFloor(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) { return mpfr_floor(r, x); }
int mpfrTrunc(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) { return mpfr_trunc(r, x); }
int mpfrRound(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) { return mpfr_round(r, x); }
int mpfrRecip(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) { return mpfr_ui_div(r, 1, x, rnd); }
// 1/sqrt(x): rsqrt(-0) is -inf like 1/sqrt(-0) (mpfr_rec_sqrt gives +inf).
int mpfrRsqrt(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(x)) {
    mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
    return 0;
  }
  return mpfr_rec_sqrt(r, x, rnd);
}

// Results of integer-valued functions fit in any precision of the format,
// so their ternary value is 0 (mpfr_ceil & co. return other codes).
constexpr UnaryEntry kUnary[] = {
    {"acos", mpfr_acos},     {"acosh", mpfr_acosh},   {"acospi", mpfr_acospi}, {"asin", mpfr_asin},
    {"asinh", mpfr_asinh},   {"asinpi", mpfr_asinpi}, {"atan", mpfr_atan},     {"atanh", mpfr_atanh},
    {"atanpi", mpfr_atanpi}, {"cbrt", mpfr_cbrt},     {"cos", mpfr_cos},       {"cosh", mpfr_cosh},
    {"cospi", mpfr_cospi},   {"erfc", mpfr_erfc},     {"erf", mpfr_erf},       {"exp", mpfr_exp},
    {"exp2", mpfr_exp2},     {"exp10", mpfr_exp10},   {"expm1", mpfr_expm1},   {"log", mpfr_log},
    {"log2", mpfr_log2},     {"log10", mpfr_log10},   {"log1p", mpfr_log1p},   {"rsqrt", mpfrRsqrt},
    {"sin", mpfr_sin},       {"sinh", mpfr_sinh},     {"sinpi", mpfr_sinpi},   {"sqrt", mpfr_sqrt},
    {"tan", mpfr_tan},       {"tanh", mpfr_tanh},     {"tanpi", mpfr_tanpi},   {"tgamma", mpfr_gamma},
    {"recip", mpfrRecip},    {"fabs", mpfr_abs},
};
constexpr UnaryEntry kIntegral[] = {
    {"ceil", mpfrCeil}, {"floor", mpfrFloor}, {"trunc", mpfrTrunc}, {"round", mpfrRound}, {"rint", mpfrRoundEven},
};
constexpr BinaryEntry kBinary[] = {
    {"atan2", mpfr_atan2},
    {"atan2pi", mpfr_atan2pi},
    {"fdim", mpfr_dim},
    {"fmod", mpfr_fmod},
    {"hypot", mpfr_hypot},
    {"pow", mpfr_pow},
    {"remainder", mpfr_remainder},
    {"divide", mpfr_div},
    {"fmax", mpfr_max},
    {"fmin", mpfr_min},
};
constexpr std::string_view kOther[] = {"copysign",  "fma",      "mad",  "fract",  "frexp",  "ilogb", "ldexp",
                                       "lgamma",    "lgamma_r", "logb", "maxmag", "minmag", "modf",  "nan",
                                       "nextafter", "pown",     "powr", "remquo", "rootn",  "sincos"};

template <class T, size_t N> const T *find(const T (&table)[N], std::string_view name) {
  for (const T &e : table)
    if (e.name == name)
      return &e;
  return nullptr;
}

// powr(x, y) = exp(y * log(x)) for x >= 0, with the OpenCL special cases
// (which differ from pow's: powr(0, 0), powr(inf, 0), powr(1, inf) are nan).
int powr(mpfr_ptr r, double x, double y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) {
    mpfr_set_nan(r);
    return 0;
  }
  if (x == 0) {
    if (y == 0)
      mpfr_set_nan(r);
    else if (y < 0)
      mpfr_set_inf(r, 1);
    else
      mpfr_set_zero(r, 1);
    return 0;
  }
  if (std::isinf(x) && y == 0) {
    mpfr_set_nan(r);
    return 0;
  }
  if (x == 1 && std::isinf(y)) {
    mpfr_set_nan(r);
    return 0;
  }
  Arg ax(x), ay(y);
  return mpfr_pow(r, ax, ay, MPFR_RNDN);
}

// fract(x) = fmin(x - floor(x), 0x1.fffffep-1f / 0x1.fffffffffffffp-1).
RefValue fract(Format fmt, double x, RefValue *iptr) {
  if (std::isnan(x)) {
    *iptr = exactValue(NAN);
    return exactValue(NAN);
  }
  if (std::isinf(x)) {
    *iptr = exactValue(x);
    return exactValue(std::copysign(0.0, x));
  }
  double fl = std::floor(x); // exact
  *iptr = exactValue(fl);
  if (x == 0)
    return exactValue(x);
  RefValue f = makeRef(fmt, [&](mpfr_ptr r) {
    Arg ax(x), af(fl);
    return mpfr_sub(r, ax, af, MPFR_RNDN);
  });
  double below1 = fmt == Format::F32 ? static_cast<double>(0x1.fffffep-1f) : 0x1.fffffffffffffp-1;
  // x - floor(x) < 1 exactly, but it can round up to 1.
  return f.cr >= 1.0 ? exactValue(below1) : f;
}

} // namespace

bool hasReference(std::string_view name) {
  if (find(kUnary, name) || find(kIntegral, name) || find(kBinary, name))
    return true;
  for (std::string_view other : kOther)
    if (other == name)
      return true;
  return false;
}

double formatMax(Format fmt) {
  return fmt == Format::F32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
}
double formatMinNormal(Format fmt) {
  return fmt == Format::F32 ? std::numeric_limits<float>::min() : std::numeric_limits<double>::min();
}
double formatDenormMin(Format fmt) {
  return fmt == Format::F32 ? std::numeric_limits<float>::denorm_min() : std::numeric_limits<double>::denorm_min();
}
double toFormat(Format fmt, double x) { return fmt == Format::F32 ? static_cast<double>(static_cast<float>(x)) : x; }

bool sameResult(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

Reference evaluate(std::string_view name, Format fmt, double a, double b, double c, long long n) {
  Reference ref;
  if (const UnaryEntry *e = find(kUnary, name)) {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return e->fn(r, x, MPFR_RNDN);
    });
    return ref;
  }
  if (const UnaryEntry *e = find(kIntegral, name)) {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      e->fn(r, x, MPFR_RNDN);
      return 0;
    });
    return ref;
  }
  if (const BinaryEntry *e = find(kBinary, name)) {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a), y(b);
      return e->fn(r, x, y, MPFR_RNDN);
    });
    // IEEE 754 leaves the sign of fmin/fmax(+0, -0) open.
    ref.zeroSignFree = (name == "fmin" || name == "fmax") && a == 0 && b == 0;
    return ref;
  }
  if (name == "copysign") {
    ref.value = exactValue(std::copysign(a, b));
  } else if (name == "fma" || name == "mad") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a), y(b), z(c);
      return mpfr_fma(r, x, y, z, MPFR_RNDN);
    });
    if (name == "mad") {
      // Or a correctly rounded multiply followed by a correctly rounded add.
      RefValue product = makeRef(fmt, [&](mpfr_ptr r) {
        Arg x(a), y(b);
        return mpfr_mul(r, x, y, MPFR_RNDN);
      });
      ref.value2 = makeRef(fmt, [&](mpfr_ptr r) {
        Arg p(product.cr), z(c);
        return mpfr_add(r, p, z, MPFR_RNDN);
      });
      ref.hasValue2 = true;
      ref.alternative = true;
    }
  } else if (name == "fract") {
    ref.value = fract(fmt, a, &ref.value2);
    ref.hasValue2 = true;
    // x - floor(x) is +0 for integers, but the spec does not fix the sign
    // (the CTS accepts -0, as modf gives for negative integers).
    ref.zeroSignFree = ref.value.kind == RefValue::Zero;
  } else if (name == "modf") {
    if (std::isinf(a)) {
      ref.value = exactValue(std::copysign(0.0, a));
      ref.value2 = exactValue(a);
    } else {
      double ip = std::trunc(a);
      ref.value2 = exactValue(std::isnan(a) ? NAN : ip);
      ref.value = exactValue(std::isnan(a) ? NAN : std::copysign(a - ip, a)); // exact
    }
    ref.hasValue2 = true;
  } else if (name == "frexp") {
    int e = 0;
    double m = std::frexp(a, &e); // exact; the float case too (doubles hold floats)
    ref.value = exactValue(m);
    if (std::isfinite(a)) {
      ref.intValue = e;
      ref.intCheck = IntCheck::Exact;
    }
  } else if (name == "ilogb") {
    // FP_ILOGB0 is INT_MIN and FP_ILOGBNAN INT_MAX in OpenCL C; ilogb(±inf)
    // is INT_MAX.
    ref.intValue = a == 0 ? INT_MIN : std::isnan(a) || std::isinf(a) ? INT_MAX : std::ilogb(a);
    ref.intCheck = IntCheck::Exact;
  } else if (name == "logb") {
    ref.value = exactValue(std::logb(a)); // exact; -inf for 0, +inf for ±inf
  } else if (name == "ldexp") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_mul_2si(r, x, static_cast<long>(n), MPFR_RNDN);
    });
  } else if (name == "lgamma" || name == "lgamma_r") {
    int sign = 0;
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_lgamma(r, &sign, x, MPFR_RNDN);
    });
    if (name == "lgamma_r" && std::isfinite(a) && a != 0 && !isNegInteger(a)) {
      ref.intValue = sign;
      ref.intCheck = IntCheck::Sign;
    }
  } else if (name == "maxmag" || name == "minmag") {
    bool max = name == "maxmag";
    // A nan argument gives the other one (signaling nans included, unlike
    // glibc's fmax/fmin).
    double r;
    if (std::isnan(a) || std::isnan(b))
      r = std::isnan(a) ? b : a;
    else if (std::fabs(a) != std::fabs(b))
      r = (std::fabs(a) > std::fabs(b)) == max ? a : b;
    else
      r = max ? std::fmax(a, b) : std::fmin(a, b);
    ref.value = exactValue(r);
    ref.zeroSignFree = a == 0 && b == 0;
  } else if (name == "nan") {
    ref.value = exactValue(NAN);
  } else if (name == "nextafter") {
    ref.value = exactValue(fmt == Format::F32
                               ? static_cast<double>(std::nextafter(static_cast<float>(a), static_cast<float>(b)))
                               : std::nextafter(a, b));
  } else if (name == "pown") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_pow_si(r, x, static_cast<long>(n), MPFR_RNDN);
    });
  } else if (name == "powr") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) { return powr(r, a, b); });
  } else if (name == "rootn") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_rootn_si(r, x, static_cast<long>(n), MPFR_RNDN);
    });
  } else if (name == "remquo") {
    long quo = 0;
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a), y(b);
      return mpfr_remquo(r, &quo, x, y, MPFR_RNDN);
    });
    if (!std::isnan(a) && !std::isnan(b) && !std::isinf(a) && b != 0) {
      ref.intValue = quo;
      ref.intCheck = IntCheck::QuoLow7;
    }
  } else if (name == "sincos") {
    ref.value = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_sin(r, x, MPFR_RNDN);
    });
    ref.value2 = makeRef(fmt, [&](mpfr_ptr r) {
      Arg x(a);
      return mpfr_cos(r, x, MPFR_RNDN);
    });
    ref.hasValue2 = true;
  }
  return ref;
}

namespace {
UlpResult ulpErrorOf(double test, const RefValue &ref, Format fmt, bool ignoreZeroSign, UlpResult res) {
  const int p = fmt == Format::F32 ? 24 : 53;
  const int eminNormal = fmt == Format::F32 ? -126 : -1022;
  const int emax = fmt == Format::F32 ? 127 : 1023;
  switch (ref.kind) {
  case RefValue::NaN:
    res.special = !std::isnan(test);
    res.ulps = res.special ? INFINITY : 0;
    return res;
  case RefValue::Inf:
    res.special = !res.correctlyRounded;
    res.ulps = res.special ? INFINITY : 0;
    return res;
  case RefValue::Zero:
    if (std::isnan(test) || std::isinf(test)) {
      res.special = true;
      res.ulps = INFINITY;
    } else if (test == 0) {
      res.special = !res.correctlyRounded && !ignoreZeroSign;
      res.ulps = 0;
      res.correctlyRounded = res.correctlyRounded || ignoreZeroSign;
    } else {
      res.ulps = std::fabs(std::ldexp(test, p - 1 - eminNormal));
    }
    return res;
  case RefValue::Finite:
    break;
  }
  if (std::isnan(test)) {
    res.special = true;
    res.ulps = INFINITY;
    return res;
  }
  if (ignoreZeroSign && test == 0 && ref.cr == 0)
    res.correctlyRounded = true;
  // The exponent of the ulp: that of the exact value's binade, clamped to
  // the format's normal range.
  int binade = std::min(std::max(ref.exp, eminNormal), emax);
  int u = binade - (p - 1);
  double t = std::isinf(test) ? std::copysign(std::ldexp(1.0, emax + 1 - u), test) : std::ldexp(test, -u);
  res.ulps = std::fabs((t - std::ldexp(ref.hi, ref.exp - u)) - std::ldexp(ref.lo, ref.exp - u));
  if (std::isnan(res.ulps)) // inf - inf: an exact value far beyond the format
    res.ulps = INFINITY;
  return res;
}
} // namespace

UlpResult ulpError(double test, const RefValue &ref, Format fmt, bool ignoreZeroSign) {
  UlpResult res;
  res.correctlyRounded = sameResult(test, ref.cr);
  UlpResult r = ulpErrorOf(test, ref, fmt, ignoreZeroSign, res);
  if (r.correctlyRounded) // at most half an ulp (an infinity for an overflow)
    r.ulps = std::min(r.ulps, 0.5);
  return r;
}

double absError(double test, const RefValue &ref) {
  switch (ref.kind) {
  case RefValue::NaN:
    return std::isnan(test) ? 0 : INFINITY;
  case RefValue::Inf:
    return test == ref.cr ? 0 : INFINITY;
  case RefValue::Zero:
    return std::fabs(test);
  case RefValue::Finite:
    break;
  }
  return std::fabs((test - std::ldexp(ref.hi, ref.exp)) - std::ldexp(ref.lo, ref.exp));
}

} // namespace cltest::math
