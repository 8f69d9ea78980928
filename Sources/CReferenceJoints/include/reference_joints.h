// Scenes of crates, static segments and joints built and stepped with raw Chipmunk calls
// and nothing else, against Debian's libchipmunk (7.0.3). The test suite compares them
// bit for bit with the same scenes run by Tiltbox's `World`: for every joint kind, and
// in particular for the damped springs, where pymunk's Chipmunk fork differs from 7.0.3
// (its springs obey `maxForce`, 7.0.3's ignore it). Used by tests only.
#ifndef TILTBOX_REFERENCE_JOINTS_H
#define TILTBOX_REFERENCE_JOINTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One static segment on the space's static body: from, to, radius, friction, elasticity.
typedef struct {
    double ax, ay, bx, by, radius, friction, elasticity;
} reference_segment;

/// One crate (a box-shaped dynamic body): centre, size, angle, mass, friction,
/// elasticity, velocity, angular velocity.
typedef struct {
    double x, y, width, height, angle, mass, friction, elasticity, vx, vy, spin;
} reference_crate;

/// The joint kinds, each with its Chipmunk constructor and the meaning of `p`.
typedef enum {
    REFERENCE_PIN = 0,              // cpPinJointNew: anchorA p[0..1], anchorB p[2..3]
    REFERENCE_PIVOT_WORLD,          // cpPivotJointNew: pivot p[0..1] in world coordinates
    REFERENCE_PIVOT_LOCAL,          // cpPivotJointNew2: anchorA p[0..1], anchorB p[2..3]
    REFERENCE_SLIDE,                // cpSlideJointNew: anchorA, anchorB, min p[4], max p[5]
    REFERENCE_GROOVE,               // cpGrooveJointNew: grooveA p[0..1], grooveB p[2..3], anchorB p[4..5]
    REFERENCE_DAMPED_SPRING,        // cpDampedSpringNew: anchorA, anchorB, restLength p[4], stiffness p[5], damping p[6]
    REFERENCE_DAMPED_ROTARY_SPRING, // cpDampedRotarySpringNew: restAngle p[0], stiffness p[1], damping p[2]
    REFERENCE_ROTARY_LIMIT,         // cpRotaryLimitJointNew: min p[0], max p[1]
    REFERENCE_RATCHET,              // cpRatchetJointNew: phase p[0], ratchet p[1]
    REFERENCE_GEAR,                 // cpGearJointNew: phase p[0], ratio p[1]
    REFERENCE_SIMPLE_MOTOR,         // cpSimpleMotorNew: rate p[0]
} reference_joint_kind;

/// One joint between crates `a` and `b` (indices; -1 is the space's static body), with
/// the optional settings: a `has_` flag of 0 leaves the setter uncalled; `collide_bodies`
/// -1 leaves it uncalled, 0 or 1 sets it.
typedef struct {
    reference_joint_kind kind;
    int a, b;
    double p[8];
    int has_max_force, has_error_bias, has_max_bias, collide_bodies;
    double max_force, error_bias, max_bias;
} reference_joint;

/// Builds the scene in the order Tiltbox's `World` does (space, gravity, segments, each
/// crate's body and shape, then each joint: constructor, setters in the order max force,
/// error bias, max bias, collide bodies, then cpSpaceAddConstraint), takes `steps` steps
/// of `dt` under constant gravity, and writes x, y, angle, vx, vy, w of every crate (in
/// crate order) at step 0, every `every`-th step and the last step into `out`, one record
/// after another. Returns the number of records written, or -1 when `out` (of
/// `out_count` doubles) is too small or memory runs out. Frees everything it made.
int reference_joints_run(double gravity_x, double gravity_y, double dt, int steps, int every,
                         const reference_segment *segments, int segment_count,
                         const reference_crate *crates, int crate_count,
                         const reference_joint *joints, int joint_count,
                         double *out, size_t out_count);

#ifdef __cplusplus
}
#endif

#endif
