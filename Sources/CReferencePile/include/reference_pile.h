// The benchmark's reference scene, the canonical "crate pile", built and stepped with
// raw Chipmunk calls and nothing else: the limit Tiltbox's stepping loop is measured
// against. Used only by `tiltbox-bench` and by the test that checks this scene and
// `BenchmarkPile.scenario(n:seed:)` give bit-identical states.
#ifndef TILTBOX_REFERENCE_PILE_H
#define TILTBOX_REFERENCE_PILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque running pile: one cpSpace, its four walls and its crates.
typedef struct reference_pile reference_pile;

/// The side of the square world for `n` crates: 40·√n + 200.
double reference_pile_world_size(int n);

/// The centre of crate `index` (0-based, crate order) of an `n`-crate pile whose x
/// jitter comes from SplitMix64 seeded with `seed`; writes x, y to `xy[0..1]`.
/// Computes all crates before `index` (the generator is sequential): for tests only.
void reference_pile_crate_position(int n, uint64_t seed, int index, double *xy);

/// Builds the pile: walls bottom, right, top, left, then each crate (body, pose,
/// box shape, friction, elasticity, add body, add shape), in the order Tiltbox's
/// `World` uses, so both step to bit-identical states. NULL when out of memory.
reference_pile *reference_pile_new(int n, uint64_t seed);

/// Takes `steps` fixed steps of 1/120 s (`cpSpaceStep`), nothing else.
void reference_pile_step(reference_pile *pile, int steps);

/// FNV-1a 64 over the little-endian bytes of every crate's x, y, angle, vx, vy, w,
/// in crate order (the fields and byte order of a trace digest, without gravity).
uint64_t reference_pile_state_hash(const reference_pile *pile);

/// Removes and frees every shape and body, then the space.
void reference_pile_free(reference_pile *pile);

#ifdef __cplusplus
}
#endif

#endif
