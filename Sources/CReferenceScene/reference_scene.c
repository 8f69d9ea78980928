// The bench's small scenes in raw Chipmunk: see reference_scene.h.
#include "reference_scene.h"

#include <chipmunk/chipmunk.h>
#include <stdlib.h>
#include <string.h>

// Swift never fuses a*b+c into one rounding; neither may we.
#pragma STDC FP_CONTRACT OFF

struct reference_scene {
    cpSpace *space;
    int segment_count, body_count, pivot_count;
    cpShape **walls;
    cpBody **bodies;
    cpShape **shapes;
    cpConstraint **pivots;
};

reference_scene *reference_scene_new(double gravity_x, double gravity_y, int iterations,
                                     const reference_scene_segment *segments, int segment_count,
                                     const reference_scene_body *bodies, int body_count,
                                     const reference_scene_pivot *pivots, int pivot_count) {
    reference_scene *scene = calloc(1, sizeof *scene);
    if (!scene) return NULL;
    scene->walls = calloc((size_t)segment_count + 1, sizeof *scene->walls);
    scene->bodies = calloc((size_t)body_count + 1, sizeof *scene->bodies);
    scene->shapes = calloc((size_t)body_count + 1, sizeof *scene->shapes);
    scene->pivots = calloc((size_t)pivot_count + 1, sizeof *scene->pivots);
    if (!scene->walls || !scene->bodies || !scene->shapes || !scene->pivots) {
        free(scene->walls); free(scene->bodies); free(scene->shapes); free(scene->pivots);
        free(scene);
        return NULL;
    }
    cpSpace *space = cpSpaceNew();
    scene->space = space;
    if (iterations > 0) cpSpaceSetIterations(space, iterations);
    cpSpaceSetGravity(space, cpv(gravity_x, gravity_y));
    cpBody *static_body = cpSpaceGetStaticBody(space);
    for (int i = 0; i < segment_count; i++) {
        const reference_scene_segment *s = &segments[i];
        cpShape *wall = cpSegmentShapeNew(static_body, cpv(s->ax, s->ay), cpv(s->bx, s->by), s->radius);
        cpShapeSetFriction(wall, s->friction);
        cpShapeSetElasticity(wall, s->elasticity);
        cpSpaceAddShape(space, wall);
        scene->walls[i] = wall;
        scene->segment_count = i + 1;
    }
    for (int i = 0; i < body_count; i++) {
        const reference_scene_body *d = &bodies[i];
        cpBody *body;
        cpShape *shape;
        if (d->circle) {
            body = cpBodyNew(0, 0);
            cpBodySetPosition(body, cpv(d->x, d->y));
            cpBodySetAngle(body, 0);
            cpBodySetVelocity(body, cpvzero);
            cpBodySetAngularVelocity(body, 0);
            cpSpaceAddBody(space, body);
            shape = cpCircleShapeNew(body, d->width, cpvzero);
            cpShapeSetFriction(shape, d->friction);
            cpShapeSetElasticity(shape, d->elasticity);
            cpShapeSetMass(shape, d->mass);
            cpSpaceAddShape(space, shape);
        } else {
            body = cpBodyNew(d->mass, cpMomentForBox(d->mass, d->width, d->height));
            cpBodySetPosition(body, cpv(d->x, d->y));
            cpBodySetAngle(body, 0);
            cpBodySetVelocity(body, cpvzero);
            cpBodySetAngularVelocity(body, 0);
            shape = cpBoxShapeNew(body, d->width, d->height, 0);
            cpShapeSetFriction(shape, d->friction);
            cpShapeSetElasticity(shape, d->elasticity);
            cpSpaceAddBody(space, body);
            cpSpaceAddShape(space, shape);
        }
        scene->bodies[i] = body;
        scene->shapes[i] = shape;
        scene->body_count = i + 1;
    }
    for (int i = 0; i < pivot_count; i++) {
        const reference_scene_pivot *p = &pivots[i];
        cpBody *a = p->a < 0 ? static_body : scene->bodies[p->a];
        cpBody *b = p->b < 0 ? static_body : scene->bodies[p->b];
        cpConstraint *joint = cpPivotJointNew(a, b, cpv(p->x, p->y));
        if (!p->collide_bodies) cpConstraintSetCollideBodies(joint, cpFalse);
        cpSpaceAddConstraint(space, joint);
        scene->pivots[i] = joint;
        scene->pivot_count = i + 1;
    }
    return scene;
}

void reference_scene_step(reference_scene *scene, double dt, int steps) {
    for (int n = 0; n < steps; n++) cpSpaceStep(scene->space, dt);
}

static uint64_t fnv1a(uint64_t h, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; i++) {
        h = (h ^ (bits & 0xFF)) * 0x100000001b3ull;
        bits >>= 8;
    }
    return h;
}

uint64_t reference_scene_state_hash(const reference_scene *scene) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < scene->body_count; i++) {
        cpBody *body = scene->bodies[i];
        cpVect p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body);
        h = fnv1a(h, p.x);
        h = fnv1a(h, p.y);
        h = fnv1a(h, cpBodyGetAngle(body));
        h = fnv1a(h, v.x);
        h = fnv1a(h, v.y);
        h = fnv1a(h, cpBodyGetAngularVelocity(body));
    }
    return h;
}

void reference_scene_free(reference_scene *scene) {
    if (!scene) return;
    // Constraints before the bodies they point at.
    for (int i = 0; i < scene->pivot_count; i++) {
        cpSpaceRemoveConstraint(scene->space, scene->pivots[i]);
        cpConstraintFree(scene->pivots[i]);
    }
    for (int i = 0; i < scene->body_count; i++) {
        cpSpaceRemoveShape(scene->space, scene->shapes[i]);
        cpSpaceRemoveBody(scene->space, scene->bodies[i]);
        cpShapeFree(scene->shapes[i]);
        cpBodyFree(scene->bodies[i]);
    }
    for (int i = 0; i < scene->segment_count; i++) {
        cpSpaceRemoveShape(scene->space, scene->walls[i]);
        cpShapeFree(scene->walls[i]);
    }
    cpSpaceFree(scene->space);
    free(scene->walls); free(scene->bodies); free(scene->shapes); free(scene->pivots);
    free(scene);
}
