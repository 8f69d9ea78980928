// The trace digest's core: FNV-1a 64 over the little-endian IEEE-754 bytes of doubles
// (docs/formats.md §3), for `TraceDigest`, which feeds it every record a run makes.
#ifndef TILTBOX_FNV1A_H
#define TILTBOX_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Continues the FNV-1a 64 hash `hash` over the 8 little-endian bytes of each of `count`
/// doubles at `values`, in order: for each byte b, `hash = (hash XOR b) * 0x100000001b3`
/// modulo 2^64. Returns the new hash.
uint64_t tiltbox_fnv1a64_doubles(uint64_t hash, const double *values, size_t count);

/// The same over two chains at once (a hash trace keeps the run's digest and each record's
/// own hash over the same bytes): `*first` and `*second` are both continued.
void tiltbox_fnv1a64_doubles2(uint64_t *first, uint64_t *second, const double *values, size_t count);

#ifdef __cplusplus
}
#endif

#endif
