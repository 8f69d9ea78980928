// The bench's small scenes (a stack, a pivot chain, Newton's cradle, a pyramid) built and
// stepped with raw Chipmunk calls and nothing else, against Debian's libchipmunk (7.0.3),
// in the order Tiltbox's `World` makes the same scene, so both end in the same state.
// Used by tiltbox-bench only: the raw C loop that `make bench` times Tiltbox against.
#ifndef TILTBOX_REFERENCE_SCENE_H
#define TILTBOX_REFERENCE_SCENE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One static segment on the space's static body: from, to, radius, friction, elasticity.
typedef struct {
    double ax, ay, bx, by, radius, friction, elasticity;
} reference_scene_segment;

/// One dynamic body at (x, y): a crate (`circle` 0: `cpBodyNew(mass, cpMomentForBox)` and a
/// box of `width` × `height`) or a ball (`circle` 1: `cpBodyNew(0, 0)` and a circle of radius
/// `width` given `mass` with `cpShapeSetMass`, as pymunk and Tiltbox's `bodies` build one).
typedef struct {
    int circle;
    double x, y, width, height, mass, friction, elasticity;
} reference_scene_body;

/// A pivot joint at the world point (x, y) between bodies `a` and `b` (indices; -1 is the
/// space's static body): `cpPivotJointNew`; `collide_bodies` 0 calls `cpConstraintSetCollideBodies(…, cpFalse)`.
typedef struct {
    int a, b;
    double x, y;
    int collide_bodies;
} reference_scene_pivot;

typedef struct reference_scene reference_scene;

/// Builds the scene (space, iterations when > 0, gravity, segments, bodies in order, pivots);
/// NULL when memory runs out.
reference_scene *reference_scene_new(double gravity_x, double gravity_y, int iterations,
                                     const reference_scene_segment *segments, int segment_count,
                                     const reference_scene_body *bodies, int body_count,
                                     const reference_scene_pivot *pivots, int pivot_count);

/// `steps` calls of `cpSpaceStep(space, dt)`: the raw loop.
void reference_scene_step(reference_scene *scene, double dt, int steps);

/// FNV-1a 64 over every body's x, y, angle, vx, vy, w (little-endian IEEE-754 bytes), in
/// body order: the same hash as `reference_pile_state_hash`.
uint64_t reference_scene_state_hash(const reference_scene *scene);

/// Frees everything the scene made.
void reference_scene_free(reference_scene *scene);

#ifdef __cplusplus
}
#endif

#endif
