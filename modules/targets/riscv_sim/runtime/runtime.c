/* The freestanding runtime every riscv_sim program is linked with: the
 * functions LLVM's code generator may call on rv64gc although no kernel
 * names them (block copies, half-precision conversions without Zfh).
 * Compiled for riscv64 at build time (CMakeLists.txt) with -fno-builtin, so
 * these loops do not turn back into calls to themselves. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict destination, const void *restrict source, size_t size) {
  unsigned char *d = destination;
  const unsigned char *s = source;
  if ((((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
    for (; size >= 8; size -= 8, d += 8, s += 8)
      *(uint64_t *)d = *(const uint64_t *)s;
  }
  while (size--)
    *d++ = *s++;
  return destination;
}

void *memmove(void *destination, const void *source, size_t size) {
  unsigned char *d = destination;
  const unsigned char *s = source;
  if (d == s || size == 0)
    return destination;
  if (d < s || d >= s + size)
    return memcpy(destination, source, size);
  while (size--)
    d[size] = s[size];
  return destination;
}

void *memset(void *destination, int value, size_t size) {
  unsigned char *d = destination;
  if (((uintptr_t)d & 7) == 0 && size >= 8) {
    uint64_t pattern = (unsigned char)value * 0x0101010101010101ull;
    for (; size >= 8; size -= 8, d += 8)
      *(uint64_t *)d = pattern;
  }
  while (size--)
    *d++ = (unsigned char)value;
  return destination;
}

int memcmp(const void *left, const void *right, size_t size) {
  const unsigned char *l = left, *r = right;
  for (; size; --size, ++l, ++r)
    if (*l != *r)
      return *l - *r;
  return 0;
}

/* IEEE-754 binary16 <-> binary32/binary64, round to nearest even (what
 * fpext/fptrunc mean); exact for every input, NaN payloads kept where they
 * fit and made quiet. Half values travel as _Float16, which the lp64d ABI
 * passes NaN-boxed in a floating-point register, as LLVM's libcalls do. */
static _Float16 halfFromBits(uint16_t bits) {
  _Float16 value;
  __builtin_memcpy(&value, &bits, 2);
  return value;
}
static uint16_t roundToHalf(uint64_t sign, int exponent, uint64_t mantissa, int mantissaBits) {
  /* value = 1.mantissa * 2^exponent with `mantissaBits` fraction bits. */
  uint64_t significand = mantissa | (1ull << mantissaBits);
  int shift;
  uint16_t biased;
  if (exponent > 15)
    return (uint16_t)(sign | 0x7c00); /* overflow: infinity */
  if (exponent >= -14) {
    biased = (uint16_t)((exponent + 15) << 10);
    shift = mantissaBits - 10;
  } else {
    biased = 0; /* subnormal result */
    shift = mantissaBits - 10 + (-14 - exponent);
    if (shift > 63)
      return (uint16_t)sign;
  }
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  /* A normal result carries the implicit bit at 2^10; adding keeps the
   * encoding right even when rounding carries into the exponent. */
  if (biased)
    kept -= 1u << 10;
  return (uint16_t)(sign | (biased + kept));
}

static uint16_t doubleToHalfBits(double value) {
  uint64_t bits;
  __builtin_memcpy(&bits, &value, 8);
  uint64_t sign = (bits >> 48) & 0x8000;
  int exponent = (int)((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & ((1ull << 52) - 1);
  if (exponent == 0x7ff)
    return (uint16_t)(sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >> 42) : 0));
  if (exponent == 0)
    return (uint16_t)sign; /* double subnormals are far below half's range */
  return roundToHalf(sign, exponent - 1023, mantissa, 52);
}

static uint16_t floatToHalfBits(float value) {
  uint32_t bits;
  __builtin_memcpy(&bits, &value, 4);
  uint64_t sign = (bits >> 16) & 0x8000;
  int exponent = (int)((bits >> 23) & 0xff);
  uint64_t mantissa = bits & ((1u << 23) - 1);
  if (exponent == 0xff)
    return (uint16_t)(sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >> 13) : 0));
  if (exponent == 0)
    return (uint16_t)sign; /* float subnormals are below half's range */
  return roundToHalf(sign, exponent - 127, mantissa, 23);
}

static float halfBitsToFloat(uint16_t half) {
  uint32_t sign = (uint32_t)(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13) | (mantissa ? 0x400000 : 0);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      int shift = __builtin_clz(mantissa) - 21; /* bring the leading 1 to bit 10 */
      bits = sign | ((uint32_t)(127 - 15 + 1 - shift) << 23) | (((mantissa << shift) & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float result;
  __builtin_memcpy(&result, &bits, 4);
  return result;
}

_Float16 __truncdfhf2(double value) { return halfFromBits(doubleToHalfBits(value)); }

_Float16 __truncsfhf2(float value) { return halfFromBits(floatToHalfBits(value)); }

float __extendhfsf2(_Float16 half) {
  uint16_t bits;
  __builtin_memcpy(&bits, &half, 2);
  return halfBitsToFloat(bits);
}
