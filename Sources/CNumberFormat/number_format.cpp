// Shortest round-trip digits from fmt's Dragonbox (Debian's libfmt-dev, header-only),
// laid out the way Swift's `Double.description` lays them out:
//   - exponential form `d.ddde+XX` (at least two exponent digits) when |v| < 1e-4 or
//     |v| > 2^53, else positional form;
//   - `-0` for negative zero, integral values without `.0` (as NumberFormat.shortest).
// Swift and Dragonbox both print the shortest digits that read back to the same bits,
// choosing the closest when several are shortest, so the digits agree; the tests
// compare this function against Swift's description over millions of values.
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

// Writes the decimal digits of `n` (> 0) to the start of `out` (32 bytes); returns
// how many (at most 20).
inline int write_digits(uint64_t n, char *out) {
    char tmp[40]; // digits end at index 20; the fixed 20-byte copy from tmp + i reads up to index 39
    int i = 20;
    while (n >= 100) {
        unsigned r = unsigned(n % 100);
        n /= 100;
        i -= 2;
        std::memcpy(tmp + i, two_digits + 2 * r, 2);
    }
    if (n >= 10) {
        i -= 2;
        std::memcpy(tmp + i, two_digits + 2 * n, 2);
    } else {
        tmp[--i] = char('0' + n);
    }
    std::memcpy(out, tmp + i, 20); // fixed size: two moves, no call; bytes past the digits are junk
    return 20 - i;
}

// The copies below move fixed 24-byte blocks (inlined vector moves, no call into libc)
// and advance by the real length: the caller's buffer keeps TILTBOX_FORMAT_SLACK bytes
// spare past the longest output for the overrun.
inline char *format_one(double value, char *out) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if (bits >> 63) *out++ = '-';
    double magnitude = value < 0 ? -value : value;
    if (magnitude == 0) {
        *out++ = '0';
        return out;
    }
    auto decimal = fmt::detail::dragonbox::to_decimal(magnitude);
    uint64_t significand = decimal.significand;
    int exponent = decimal.exponent;
    while (significand % 10 == 0) { // Dragonbox usually strips these already
        significand /= 10;
        exponent += 1;
    }
    char digits[48];
    int count = write_digits(significand, digits);
    int point = count + exponent; // value = 0.digits × 10^point
    if (point - 1 < -4 || magnitude > 0x1p53) {
        *out++ = digits[0];
        if (count > 1) {
            *out++ = '.';
            std::memcpy(out, digits + 1, 24);
            out += count - 1;
        }
        int e = point - 1;
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
    static const char zeros[24] = {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0',
                                   '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
    if (point <= 0) { // 0.000ddd (at most three zeros: the exponent is at least -4 here)
        *out++ = '0';
        *out++ = '.';
        std::memcpy(out, zeros, 24);
        out += -point;
        std::memcpy(out, digits, 24);
        return out + count;
    }
    if (point >= count) { // integral below 2^53: ddd000, no ".0"
        std::memcpy(out, digits, 24);
        out += count;
        std::memcpy(out, zeros, 24);
        return out + (point - count);
    }
    std::memcpy(out, digits, 24); // ddd.ddd
    out += point;
    *out++ = '.';
    std::memcpy(out, digits + point, 24);
    return out + (count - point);
}

} // namespace

extern "C" size_t tiltbox_format_double(double value, char *out) {
    return size_t(format_one(value, out) - out);
}

extern "C" size_t tiltbox_format_states(const double *values, size_t count, size_t per_body, char *out) {
    char *p = out;
    for (size_t i = 0; i < count; i += per_body) {
        if (i > 0) *p++ = ',';
        *p++ = '[';
        for (size_t k = 0; k < per_body; k++) {
            if (k > 0) *p++ = ',';
            p = format_one(values[i + k], p);
        }
        *p++ = ']';
    }
    return size_t(p - out);
}
