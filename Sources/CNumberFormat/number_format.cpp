// Shortest round-trip digits laid out the way Swift's `Double.description` lays them out:
//   - exponential form `d.ddde+XX` (at least two exponent digits) when |v| < 1e-4 or
//     |v| > 2^53, else positional form;
//   - `-0` for negative zero, integral values without `.0` (as NumberFormat.shortest).
// Swift prints the shortest digits that read back to the same bits, choosing the
// closest when several are shortest; so does this file. The tests compare it with
// Swift's description over hundreds of thousands of values, and the `numbers` fuzz
// target over as many as it is given.
//
// The trace writer spends most of its time here (a 1 000-crate record is 6 000 doubles),
// so the path is cut to the bone. Three parts, each measured under callgrind:
//   1. `shortest_digits`: the digits. A fast path settles almost every double with one
//      128-bit product (see its comment for the argument); whatever it cannot settle
//      with certainty goes to fmt's Dragonbox (Debian's libfmt-dev, header-only), which
//      is exact everywhere.
//   2. `write_16_digits`: the decimal digits of the significand but its last, all at once in
//      the lanes of a vector register on x86-64 (SSE2, part of the base architecture),
//      8 at a time in the lanes of a 64-bit word elsewhere. No division loop, no table.
//   3. `format_one`: the layout copies fixed-size blocks and moves only the point.
// Fmt is included by this file only: the full-table setting below must not meet the
// compressed one in another translation unit of the same binary.
#define FMT_USE_FULL_CACHE_DRAGONBOX 1
// fmt's internal consistency checks (as with NDEBUG): the tests check the output.
#define FMT_ASSERT(condition, message) ((void)0)
#ifndef FMT_HEADER_ONLY
#define FMT_HEADER_ONLY
#endif
#include <fmt/format.h>

#include "number_format.h"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {

using uint128 = unsigned __int128;

/// The digits of a positive decimal: `head` (below 10^16) and, when `tail` is not 0, one
/// more digit, the ASCII character `tail`; `exponent` is the power of ten of the last
/// digit. No trailing zeros.
struct Digits {
    uint64_t head;
    char tail;
    int exponent;
};

/// The exact answer for every positive finite double: fmt's Dragonbox, with the
/// trailing zeros it can leave in its last step removed. Out of line: the fast path
/// below settles all but a few doubles (none of the 352 783 nonzero values of the
/// benchmark pile's 600 steps; 29 000 of 80 million in a test set rich in short
/// decimals and powers of two).
__attribute__((noinline)) Digits shortest_digits_exact(uint64_t magnitude_bits) {
    double magnitude;
    std::memcpy(&magnitude, &magnitude_bits, sizeof magnitude);
    const auto decimal = fmt::detail::dragonbox::to_decimal(magnitude);
    uint64_t significand = decimal.significand;
    int exponent = decimal.exponent;
    while (significand % 10 == 0) {
        significand /= 10;
        exponent += 1;
    }
    if (significand < 10000000000000000) return Digits{significand, 0, exponent};
    return Digits{significand / 10, char('0' + significand % 10), exponent};
}

/// The first power of ten in fmt's table (10^-292 for doubles).
constexpr int min_power = fmt::detail::dragonbox::float_info<double>::min_k;

/// What the fast path below needs of a biased binary exponent `e` (`q = e - 1075`):
/// `k = ⌊q log10 2⌋ + 1`, where `10^-k` sits in fmt's table (`power`, counted from
/// `min_power`), and `shift = q + ⌊-k log2 10⌋ + 4`, in 0...4. A shift of 255 marks the
/// exponents the fast path leaves to the exact algorithm: subnormals, infinities and
/// NaNs, and the top binade, whose `10^-293` is past fmt's table.
struct ExponentScale {
    int16_t k;
    uint16_t power;
    uint8_t shift;
};

constexpr std::array<ExponentScale, 2048> make_exponent_scales() {
    std::array<ExponentScale, 2048> scales{};
    for (int e = 0; e < 2048; e++) {
        const int q = e - 1075;
        const int k = ((q * 315653) >> 20) + 1;            // ⌊q log10 2⌋ + 1 for |q| ≤ 2620
        const int shift = q + ((-k * 1741647) >> 19) + 4; // ⌊-k log2 10⌋ for |k| ≤ 1233
        const bool usable = e >= 1 && e <= 2045;
        scales[e] = ExponentScale{int16_t(k), uint16_t(usable ? -k - min_power : 0), uint8_t(usable ? shift : 255)};
    }
    return scales;
}

constexpr std::array<ExponentScale, 2048> exponent_scales = make_exponent_scales();

/// The shortest decimal that reads back as the positive finite double with these bits,
/// the closest to it when several are shortest, without trailing zeros.
///
/// A normal double that is not a power of two is `v = c × 2^q` with `2^52 ≤ c < 2^53`,
/// and it is what a reader makes of every number within half a unit (`2^(q-1)`) of it,
/// so the interval `[v - 2^(q-1), v + 2^(q-1)]` holds the candidates. Scale by `10^-k`,
/// `k = ⌊q log10 2⌋ + 1`: `W = v × 10^-k` has 15 or 16 digits before the point, and the
/// half unit becomes `h` in `[1/20, 1/2)`. In units of `10^(k-1)` the interval is `10W ± 10h`,
/// narrower than 10: it holds at most one multiple of 10, and at least one integer.
///   - If it holds a multiple of 10 (an integer within `h` of `W`: `⌊W⌋` or `⌊W⌋ + 1`),
///     that one is the only shortest candidate: every other has one digit more (or is
///     `10^n - 1` against `10^n`).
///   - Otherwise the shortest candidates are the integers near `10W`, all as long, and the
///     closest is `10W` rounded: `10⌊W⌋` plus the first digit of `W`'s fraction, rounded.
/// The arithmetic is fixed point. `10^-k` comes from fmt's table as a 128-bit `g`,
/// rounded up (or exact), scaled to `2^127 ≤ g < 2^128`; `c << shift` (`shift` in 0...4)
/// lines it up so that the top 128 bits of the 181-bit product are `W × 2^67`, and the
/// top 64 bits of `g` shifted right by `4 - shift` are `h × 2^64`. Rounding `g` up and
/// dropping low bits make the computed fraction of `W` (64 bits) exceed the exact one by
/// less than 1/1000 of its last bit or fall short by less than 9/8 of it, and `h` fall
/// short by less than one last bit. Every decision below is therefore taken only when
/// it holds by a margin of 3 last bits (11 for the rounding, which scales the fraction
/// by ten); a closer call (a tie, an end of the interval on a candidate, a power of two,
/// a subnormal, the top binade past fmt's table) goes to the exact algorithm.
__attribute__((always_inline)) inline Digits shortest_digits(uint64_t magnitude_bits) {
    const uint64_t fraction = magnitude_bits & ((uint64_t(1) << 52) - 1);
    const ExponentScale &scale = exponent_scales[magnitude_bits >> 52];
    if (__builtin_expect(fraction == 0 || scale.shift > 4, 0)) return shortest_digits_exact(magnitude_bits);
    const int k = scale.k;
    const unsigned shift = scale.shift;
    const auto power = fmt::detail::dragonbox::cache_accessor<double>::get_cached_power(scale.power + min_power);
    const uint64_t c = fraction | (uint64_t(1) << 52);
    const uint64_t m = c << shift;
    const uint128 product = uint128(m) * power.high() + ((uint128(m) * power.low()) >> 64); // W × 2^67
    const uint64_t integer = uint64_t(product >> 67);
    const uint64_t below_point = uint64_t(product >> 3);
    const uint64_t half_unit = power.high() >> (4 - shift); // h × 2^64
    // `near` is W's fraction plus h plus 3 (in last bits), modulo 1: an integer lies within
    // h of W exactly when the exact `near` is in [3, 2h + 3], and it is then ⌊W⌋ + carry.
    // Inside by a margin of 3 is [6, 2h]; outside by 3 is [2h + 6, 2^64).
    uint64_t near;
    const uint64_t reach = half_unit + 3;
    const bool carry = __builtin_add_overflow(below_point, reach, &near);
    if (near - 6 <= 2 * reach - 12) { // certainly inside: one digit shorter
        Digits result{integer + carry, 0, k};
        while (result.head % 10 == 0) {
            result.head /= 10;
            result.exponent += 1;
        }
        return result;
    }
    if (__builtin_expect(near < 2 * reach, 0)) return shortest_digits_exact(magnitude_bits); // not certainly outside
    // Certainly outside: `10W` rounded to the nearest integer, unless within 11 of a tie.
    const uint128 tenfold = uint128(below_point) * 10 + (uint64_t(1) << 63);
    if (__builtin_expect(uint64_t(tenfold) + 11 <= 11, 0)) return shortest_digits_exact(magnitude_bits);
    return Digits{integer, char('0' + uint64_t(tenfold >> 64)), k - 1};
}

const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const char zeros[16] = {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};

#if defined(__SSE2__)

// Writes `n` (0 < n < 10^16) as 16 digits with leading zeros to tmp[0..16) and returns
// how many digits `n` has: its digits are the last that many bytes.
//
// The digits are two numbers below 10^8 in the two 64-bit lanes of a vector, split in
// parallel 4+4 (32-bit lanes), 2+2 (16-bit lanes) and 1+1 (bytes). Every division is a
// multiplication and a shift, exact over its lane's range (checked for every value):
//   x / 10^4 = (x × 109951163) >> 40 for x < 10^8,
//   y / 100 = (y × 5243) >> 19 for y < 10^4,
//   z / 10 = (z × 6554) >> 16 for z < 100.
// The digit count comes from the leading zeros, found with one comparison.
__attribute__((always_inline)) inline int write_16_digits(uint64_t n, char *tmp) {
    const uint64_t high = n / 100000000;
    const uint64_t low = n - high * 100000000;
    const __m128i x = _mm_set_epi64x(int64_t(low), int64_t(high));
    const __m128i x4 = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi64x(109951163)), 40);
    const __m128i y = _mm_or_si128(x4, _mm_slli_epi64(_mm_sub_epi32(x, _mm_mul_epu32(x4, _mm_set1_epi64x(10000))), 32));
    const __m128i y2 = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi32(5243)), 3);
    const __m128i z = _mm_or_si128(y2, _mm_slli_epi32(_mm_sub_epi16(y, _mm_mullo_epi16(y2, _mm_set1_epi32(100))), 16));
    const __m128i z1 = _mm_mulhi_epu16(z, _mm_set1_epi16(6554));
    const __m128i digits = _mm_or_si128(z1, _mm_slli_epi16(_mm_sub_epi16(z, _mm_mullo_epi16(z1, _mm_set1_epi16(10))), 8));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(tmp), _mm_add_epi8(digits, _mm_set1_epi8('0')));
    const unsigned nonzero = ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(digits, _mm_setzero_si128())));
    return 16 - __builtin_ctz(nonzero); // n > 0: some digit is not zero
}

#else

const uint64_t powers_of_ten[17] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
    1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull};

// The eight decimal digits of `n` (< 10^8, leading zeros kept) in ASCII, the first digit
// in the lowest byte (so a little-endian store writes them in reading order). The
// number is split 4+4, each half 2+2, each quarter 1+1, in the lanes of one 64-bit word;
// every division is a multiplication and a shift, exact over the lane's range (checked
// for every n < 10^8).
inline uint64_t eight_digits(uint32_t n) {
    uint64_t x = n;
    uint64_t q = (x * 109951163) >> 40;                                   // n / 10^4
    uint64_t y = (x << 32) - q * ((10000ull << 32) - 1);                  // lanes: high 4, low 4
    uint64_t q2 = ((y * 10486) >> 20) & ((0x7Full << 32) | 0x7F);         // each 32-bit lane / 100
    uint64_t z = (y << 16) - q2 * ((100ull << 16) - 1);                   // four 2-digit lanes
    uint64_t q3 = ((z * 103) >> 10) & 0x000F000F000F000Full;              // each 16-bit lane / 10
    uint64_t w = (z << 8) - q3 * ((10ull << 8) - 1);                      // eight 1-digit lanes
    return w + 0x3030303030303030ull;
}

// Writes `n` (0 < n < 10^16) as 16 digits with leading zeros to tmp[0..16) and returns
// how many digits `n` has: its digits are the last that many bytes.
inline int write_16_digits(uint64_t n, char *tmp) {
    const uint64_t high = n / 100000000;
    const uint64_t a = eight_digits(uint32_t(high)), b = eight_digits(uint32_t(n - high * 100000000));
    std::memcpy(tmp, &a, 8);
    std::memcpy(tmp + 8, &b, 8);
    const int estimate = ((64 - __builtin_clzll(n)) * 1233) >> 12; // floor(bit length × log10 2)
    return estimate + (n >= powers_of_ten[estimate]);
}

#endif

// `d.ddde-XX`: the first digit, the rest after a point (none for one digit), then the
// exponent with a sign and at least two digits.
inline char *write_exponential(const char *digits, int count, int e, char *out) {
    *out++ = digits[0];
    if (count > 1) {
        *out++ = '.';
        std::memcpy(out, digits + 1, 16);
        out += count - 1;
    }
    *out++ = 'e';
    *out++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e >= 100) {
        *out++ = char('0' + e / 100);
        e %= 100;
    }
    std::memcpy(out, two_digits + 2 * e, 2);
    return out + 2;
}

// The copies below move fixed 16-byte blocks (inlined vector moves, no call into libc)
// and advance by the real length: the caller's buffer keeps TILTBOX_FORMAT_SLACK bytes
// spare past the longest output for the overrun. Always inlined, and the entry points
// below are `flatten`ed: no call, no register saves per number.
__attribute__((always_inline)) inline char *format_one(double value, char *out) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    *out = '-';
    out += bits >> 63;
    const uint64_t magnitude_bits = bits & ~(1ull << 63);
    if (magnitude_bits == 0) {
        *out = '0';
        return out + 1;
    }
    const Digits decimal = shortest_digits(magnitude_bits);
    char tmp[48]; // 17 digits, then room for the fixed-size reads past them
    const int head_count = write_16_digits(decimal.head, tmp);
    tmp[16] = decimal.tail;
    const int count = head_count + (decimal.tail != 0);
    const char *digits = tmp + 16 - head_count;
    const int point = count + decimal.exponent; // value = 0.digits × 10^point
    // Swift's switch to the exponential form: below 1e-4 (point < -3) and above 2^53 (point
    // > 16, or 16 and past 2^53); one comparison for the common case.
    const uint64_t two_to_the_53 = 0x4340000000000000ull;
    if (unsigned(point + 3) > 18 && (point != 16 || magnitude_bits > two_to_the_53))
        return write_exponential(digits, count, point - 1, out);
    if (point > 0) { // at most 16 digits before the point below 2^53, at most 16 after
        std::memcpy(out, digits, 16);
        if (point < count) { // ddd.ddd
            out[point] = '.';
            std::memcpy(out + point + 1, digits + point, 16);
            return out + count + 1;
        }
        std::memcpy(out + count, zeros, 16); // integral: ddd000, no ".0"
        return out + point;
    }
    std::memcpy(out, "0.000000", 8); // 0.000ddd: at most three zeros after the point
    out += 2 - point;
    std::memcpy(out, digits, 16);
    std::memcpy(out + 16, digits + 16, 1); // a 17th digit, or a byte of slack
    return out + count;
}

} // namespace

extern "C" __attribute__((flatten)) size_t tiltbox_format_double(double value, char *out) {
    return size_t(format_one(value, out) - out);
}

extern "C" __attribute__((flatten)) size_t tiltbox_format_states(const double *values, size_t count, size_t per_body,
                                                                char *out) {
    char *p = out;
    for (size_t i = 0; i < count; i += per_body) {
        *p++ = '[';
        p = format_one(values[i], p);
        for (size_t k = 1; k < per_body; k++) {
            *p++ = ',';
            p = format_one(values[i + k], p);
        }
        p[0] = ']';
        p[1] = ','; // the separator before the next body; the last one is dropped below
        p += 2;
    }
    return size_t(p - out) - (count > 0 ? 1 : 0);
}
