// Fast shortest round-trip formatting of doubles, byte-identical to Tiltbox's
// `NumberFormat.shortest` (Swift's `Double.description` without the `.0` of integral
// values). The trace writer's hot path: a 1 000-crate record holds 6 000 doubles.
#ifndef TILTBOX_NUMBER_FORMAT_H
#define TILTBOX_NUMBER_FORMAT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most bytes one formatted double takes (`-2.2250738585072014e-308` is 24).
#define TILTBOX_FORMAT_DOUBLE_MAX 25

/// Spare bytes every output buffer must have past the longest possible output: the
/// formatter copies fixed-size blocks (no calls into libc) and may scribble up to this
/// many bytes beyond what it reports as written.
#define TILTBOX_FORMAT_SLACK 32

/// Writes `value` (finite) to `out` in Swift's shortest round-trip form without a
/// trailing `.0`; returns the byte count (at most `TILTBOX_FORMAT_DOUBLE_MAX`). `out`
/// must hold `TILTBOX_FORMAT_DOUBLE_MAX + TILTBOX_FORMAT_SLACK` bytes. No terminating NUL.
size_t tiltbox_format_double(double value, char *out);

/// Writes `count` doubles (finite) as JSON arrays of `per_body` values joined by
/// commas, `[a,b,...],[c,d,...]`, to `out`, which must hold
/// `count * (TILTBOX_FORMAT_DOUBLE_MAX + 1) + 2 * (count / per_body) + TILTBOX_FORMAT_SLACK`
/// bytes; returns
/// the byte count.
size_t tiltbox_format_states(const double *values, size_t count, size_t per_body, char *out);

#ifdef __cplusplus
}
#endif

#endif
