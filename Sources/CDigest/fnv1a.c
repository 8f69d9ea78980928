// See fnv1a.h.
#include "fnv1a.h"

#include <string.h>

#define FNV_PRIME 0x100000001b3ull

// On x86-64 one step is two instructions: XOR the byte from memory into the hash's low byte
// (`xorb`, which leaves the other 56 bits as they are, exactly `hash ^ byte`), then multiply.
// x86-64 stores doubles little-endian, so the bytes in memory are the digest's bytes.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// AT&T operand order: `xorb SRC, DST`; the hash's low byte is the destination.
#define STEP(h, p, i) __asm__("xorb %[byte], %b[hash]" : [hash] "+q"(h) : [byte] "m"((p)[i]) : "cc"); (h) *= FNV_PRIME

#define DOUBLE(h, p, o) \
    STEP(h, p, (o) + 0); STEP(h, p, (o) + 1); STEP(h, p, (o) + 2); STEP(h, p, (o) + 3); \
    STEP(h, p, (o) + 4); STEP(h, p, (o) + 5); STEP(h, p, (o) + 6); STEP(h, p, (o) + 7)

uint64_t tiltbox_fnv1a64_doubles(uint64_t hash, const double *values, size_t count) {
    const unsigned char *p = (const unsigned char *)values;
    size_t k = 0;
    // Three doubles a round (half a body's state), then what is left.
    for (; k + 3 <= count; k += 3, p += 24) {
        DOUBLE(hash, p, 0);
        DOUBLE(hash, p, 8);
        DOUBLE(hash, p, 16);
    }
    for (; k < count; k++, p += 8) {
        DOUBLE(hash, p, 0);
    }
    return hash;
}

void tiltbox_fnv1a64_doubles2(uint64_t *first, uint64_t *second, const double *values, size_t count) {
    uint64_t a = *first, b = *second;
    const unsigned char *p = (const unsigned char *)values;
    for (size_t k = 0; k < count; k++, p += 8) {
        for (int i = 0; i < 8; i++) {
            STEP(a, p, i);
            STEP(b, p, i);
        }
    }
    *first = a;
    *second = b;
}

#else

// Elsewhere: the bytes of each double's bit pattern from the lowest, whatever the byte order.
static inline uint64_t add_double(uint64_t hash, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; i++) {
        hash = (hash ^ (bits & 0xFF)) * FNV_PRIME;
        bits >>= 8;
    }
    return hash;
}

uint64_t tiltbox_fnv1a64_doubles(uint64_t hash, const double *values, size_t count) {
    for (size_t k = 0; k < count; k++) hash = add_double(hash, values[k]);
    return hash;
}

void tiltbox_fnv1a64_doubles2(uint64_t *first, uint64_t *second, const double *values, size_t count) {
    uint64_t a = *first, b = *second;
    for (size_t k = 0; k < count; k++) {
        a = add_double(a, values[k]);
        b = add_double(b, values[k]);
    }
    *first = a;
    *second = b;
}

#endif
