// Shortest round-trip digits from fmt's Dragonbox (Debian's libfmt-dev, header-only),
// laid out the way Swift's `Double.description` lays them out:
//   - exponential form `d.ddde+XX` (at least two exponent digits) when |v| < 1e-4 or
//     |v| > 2^53, else positional form;
//   - `-0` for negative zero, integral values without `.0` (as NumberFormat.shortest).
// Swift and Dragonbox both print the shortest digits that read back to the same bits,
// choosing the closest when several are shortest, so the digits agree; the tests
// compare this function against Swift's description over millions of values.
//
// The trace writer spends most of its time here, so the path is cut to the bone:
//   - Dragonbox with its full table of powers of ten (10 kB) instead of the compressed
//     one, which rebuilds each power with extra 128-bit multiplications;
//   - the digits written 8 at a time in the lanes of a 64-bit word (no division loop,
//     no table), the digit count from the bit length;
//   - the layout copies fixed-size blocks and moves only the decimal point.
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

#include <cstdint>
#include <cstring>

namespace {

const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const char zeros[16] = {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};

const uint64_t powers_of_ten[18] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
    1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull};

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

// Writes `n` (0 < n < 10^17) as 17 digits with leading zeros to tmp[0..17) and returns
// how many digits `n` has: its digits are the last that many bytes.
inline int write_17_digits(uint64_t n, char *tmp) {
    uint64_t high = n / 100000000;
    uint32_t low = uint32_t(n - high * 100000000);
    uint32_t top = uint32_t(high / 100000000);
    uint32_t middle = uint32_t(high) - top * 100000000;
    tmp[0] = char('0' + top);
    uint64_t a = eight_digits(middle), b = eight_digits(low);
    std::memcpy(tmp + 1, &a, 8);
    std::memcpy(tmp + 9, &b, 8);
    int estimate = ((64 - __builtin_clzll(n)) * 1233) >> 12; // floor(bit length × log10 2)
    return estimate + (n >= powers_of_ten[estimate]);
}

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
// below are `flatten`ed (Dragonbox inlined too): no call, no register saves per number.
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
    double magnitude;
    std::memcpy(&magnitude, &magnitude_bits, sizeof magnitude);
    // Inlined at the call too: `flatten` alone leaves the call in position-independent
    // code (SwiftPM builds with -fPIC), 8 instructions a number.
    fmt::detail::dragonbox::decimal_fp<double> decimal;
    [[clang::always_inline]] decimal = fmt::detail::dragonbox::to_decimal(magnitude);
    uint64_t significand = decimal.significand;
    int exponent = decimal.exponent;
    while (significand % 10 == 0) { // Dragonbox usually strips these already
        significand /= 10;
        exponent += 1;
    }
    char tmp[48]; // 17 digits, then room for the fixed-size reads past them
    const int count = write_17_digits(significand, tmp);
    const char *digits = tmp + 17 - count;
    const int point = count + exponent; // value = 0.digits × 10^point
    const uint64_t two_to_the_53 = 0x4340000000000000ull;
    if (point < -3 || magnitude_bits > two_to_the_53) return write_exponential(digits, count, point - 1, out);
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
