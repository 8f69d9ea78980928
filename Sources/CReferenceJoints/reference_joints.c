// Crates and joints in raw Chipmunk: see reference_joints.h.
#include "reference_joints.h"

#include <chipmunk/chipmunk.h>
#include <stdlib.h>

// Swift never fuses a*b+c into one rounding; neither may we.
#pragma STDC FP_CONTRACT OFF

static cpConstraint *make_joint(const reference_joint *j, cpBody *a, cpBody *b) {
    const double *p = j->p;
    switch (j->kind) {
    case REFERENCE_PIN: return cpPinJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]));
    case REFERENCE_PIVOT_WORLD: return cpPivotJointNew(a, b, cpv(p[0], p[1]));
    case REFERENCE_PIVOT_LOCAL: return cpPivotJointNew2(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]));
    case REFERENCE_SLIDE: return cpSlideJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), p[4], p[5]);
    case REFERENCE_GROOVE: return cpGrooveJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), cpv(p[4], p[5]));
    case REFERENCE_DAMPED_SPRING:
        return cpDampedSpringNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), p[4], p[5], p[6]);
    case REFERENCE_DAMPED_ROTARY_SPRING: return cpDampedRotarySpringNew(a, b, p[0], p[1], p[2]);
    case REFERENCE_ROTARY_LIMIT: return cpRotaryLimitJointNew(a, b, p[0], p[1]);
    case REFERENCE_RATCHET: return cpRatchetJointNew(a, b, p[0], p[1]);
    case REFERENCE_GEAR: return cpGearJointNew(a, b, p[0], p[1]);
    case REFERENCE_SIMPLE_MOTOR: return cpSimpleMotorNew(a, b, p[0]);
    }
    return NULL;
}

static void write_states(cpBody **bodies, int count, double *out) {
    for (int i = 0; i < count; i++) {
        cpVect p = cpBodyGetPosition(bodies[i]), v = cpBodyGetVelocity(bodies[i]);
        out[6 * i + 0] = p.x;
        out[6 * i + 1] = p.y;
        out[6 * i + 2] = cpBodyGetAngle(bodies[i]);
        out[6 * i + 3] = v.x;
        out[6 * i + 4] = v.y;
        out[6 * i + 5] = cpBodyGetAngularVelocity(bodies[i]);
    }
}

int reference_joints_run(double gravity_x, double gravity_y, double dt, int steps, int every,
                         const reference_segment *segments, int segment_count,
                         const reference_crate *crates, int crate_count,
                         const reference_joint *joints, int joint_count,
                         double *out, size_t out_count) {
    if (every < 1 || steps < 0) return -1;
    size_t records = 1 + (size_t)(steps / every) + (steps % every != 0 ? 1 : 0);
    if (records * 6 * (size_t)crate_count > out_count) return -1;

    cpShape **walls = calloc((size_t)segment_count + 1, sizeof *walls);
    cpBody **bodies = calloc((size_t)crate_count + 1, sizeof *bodies);
    cpShape **shapes = calloc((size_t)crate_count + 1, sizeof *shapes);
    cpConstraint **constraints = calloc((size_t)joint_count + 1, sizeof *constraints);
    if (!walls || !bodies || !shapes || !constraints) {
        free(walls); free(bodies); free(shapes); free(constraints);
        return -1;
    }

    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(gravity_x, gravity_y));
    cpBody *static_body = cpSpaceGetStaticBody(space);
    for (int i = 0; i < segment_count; i++) {
        const reference_segment *s = &segments[i];
        walls[i] = cpSegmentShapeNew(static_body, cpv(s->ax, s->ay), cpv(s->bx, s->by), s->radius);
        cpShapeSetFriction(walls[i], s->friction);
        cpShapeSetElasticity(walls[i], s->elasticity);
        cpSpaceAddShape(space, walls[i]);
    }
    for (int i = 0; i < crate_count; i++) {
        const reference_crate *c = &crates[i];
        bodies[i] = cpBodyNew(c->mass, cpMomentForBox(c->mass, c->width, c->height));
        cpBodySetPosition(bodies[i], cpv(c->x, c->y));
        cpBodySetAngle(bodies[i], c->angle);
        cpBodySetVelocity(bodies[i], cpv(c->vx, c->vy));
        cpBodySetAngularVelocity(bodies[i], c->spin);
        shapes[i] = cpBoxShapeNew(bodies[i], c->width, c->height, 0);
        cpShapeSetFriction(shapes[i], c->friction);
        cpShapeSetElasticity(shapes[i], c->elasticity);
        cpSpaceAddBody(space, bodies[i]);
        cpSpaceAddShape(space, shapes[i]);
    }
    for (int i = 0; i < joint_count; i++) {
        const reference_joint *j = &joints[i];
        cpBody *a = j->a < 0 ? static_body : bodies[j->a];
        cpBody *b = j->b < 0 ? static_body : bodies[j->b];
        constraints[i] = make_joint(j, a, b);
        if (j->has_max_force) cpConstraintSetMaxForce(constraints[i], j->max_force);
        if (j->has_error_bias) cpConstraintSetErrorBias(constraints[i], j->error_bias);
        if (j->has_max_bias) cpConstraintSetMaxBias(constraints[i], j->max_bias);
        if (j->collide_bodies >= 0) cpConstraintSetCollideBodies(constraints[i], j->collide_bodies ? cpTrue : cpFalse);
        cpSpaceAddConstraint(space, constraints[i]);
    }

    int written = 0;
    write_states(bodies, crate_count, out);
    written += 1;
    for (int n = 1; n <= steps; n++) {
        cpSpaceStep(space, dt);
        if (n % every == 0 || n == steps) {
            write_states(bodies, crate_count, out + (size_t)written * 6 * (size_t)crate_count);
            written += 1;
        }
    }

    // Constraints before the bodies they point at.
    for (int i = 0; i < joint_count; i++) {
        cpSpaceRemoveConstraint(space, constraints[i]);
        cpConstraintFree(constraints[i]);
    }
    for (int i = 0; i < crate_count; i++) {
        cpSpaceRemoveShape(space, shapes[i]);
        cpSpaceRemoveBody(space, bodies[i]);
        cpShapeFree(shapes[i]);
        cpBodyFree(bodies[i]);
    }
    for (int i = 0; i < segment_count; i++) {
        cpSpaceRemoveShape(space, walls[i]);
        cpShapeFree(walls[i]);
    }
    cpSpaceFree(space);
    free(walls); free(bodies); free(shapes); free(constraints);
    return written;
}
