// The canonical crate pile in raw Chipmunk. Every number here must match
// Sources/Tiltbox/Scenario/BenchmarkPile.swift bit for bit; the BenchSceneTests
// check positions and the state hash after 120 steps.
#include "reference_pile.h"

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Swift never fuses a*b+c into one rounding; neither may we.
#pragma STDC FP_CONTRACT OFF

enum { WALLS = 4 };

static const double crate_side = 20, pitch = 22, floor_gap = 12; // centre of row 0: wall radius 1 + gap 1 + half side 10
static const double wall_radius = 1, friction = 0.7, elasticity = 0.2;

struct reference_pile {
    cpSpace *space;
    int count;
    cpShape *walls[WALLS];
    cpBody **bodies;
    cpShape **shapes;
};

// SplitMix64 (Steele, Lea and Flood): the twin of Tiltbox's `SplitMix64`.
typedef struct { uint64_t state; } splitmix64;

static uint64_t splitmix64_next(splitmix64 *g) {
    g->state += 0x9E3779B97F4A7C15ull;
    uint64_t z = g->state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double splitmix64_unit(splitmix64 *g) {
    return (double)(splitmix64_next(g) >> 11) * 0x1.0p-53;
}

double reference_pile_world_size(int n) {
    return 40 * sqrt((double)n) + 200;
}

static int columns(int n) {
    return (int)ceil(sqrt((double)n));
}

// The grid walk shared by the builder and the test hook.
typedef struct {
    int n, cols, index;
    double x0;
    splitmix64 generator;
} grid_walk;

static grid_walk grid_begin(int n, uint64_t seed) {
    grid_walk walk = { n, columns(n), 0, 0, { seed } };
    double w = reference_pile_world_size(n);
    walk.x0 = (w - (double)walk.cols * pitch) / 2 + pitch / 2;
    return walk;
}

static cpVect grid_next(grid_walk *walk) {
    int row = walk->index / walk->cols, col = walk->index % walk->cols;
    walk->index += 1;
    double jitter = 2 * splitmix64_unit(&walk->generator) - 1;
    return cpv(walk->x0 + (double)col * pitch + jitter, floor_gap + (double)row * pitch);
}

void reference_pile_crate_position(int n, uint64_t seed, int index, double *xy) {
    grid_walk walk = grid_begin(n, seed);
    cpVect p = cpvzero;
    for (int i = 0; i <= index; i++) p = grid_next(&walk);
    xy[0] = p.x;
    xy[1] = p.y;
}

reference_pile *reference_pile_new(int n, uint64_t seed) {
    reference_pile *pile = calloc(1, sizeof *pile);
    if (!pile) return NULL;
    pile->bodies = calloc((size_t)n + 1, sizeof *pile->bodies);
    pile->shapes = calloc((size_t)n + 1, sizeof *pile->shapes);
    if (!pile->bodies || !pile->shapes) {
        free(pile->bodies);
        free(pile->shapes);
        free(pile);
        return NULL;
    }
    pile->count = n;

    // The space, set up as World.init does it for a scenario that sets no space
    // setting: Chipmunk's own defaults (no setter called), then gravity.
    cpSpace *space = cpSpaceNew();
    pile->space = space;
    cpSpaceSetGravity(space, cpv(0, -500));

    // The box: bottom, right, top, left (Scenario.allSegments).
    double w = reference_pile_world_size(n);
    cpVect corners[WALLS] = { cpv(0, 0), cpv(w, 0), cpv(w, w), cpv(0, w) };
    cpBody *static_body = cpSpaceGetStaticBody(space);
    for (int i = 0; i < WALLS; i++) {
        cpShape *wall = cpSegmentShapeNew(static_body, corners[i], corners[(i + 1) % WALLS], wall_radius);
        cpShapeSetFriction(wall, friction);
        cpShapeSetElasticity(wall, elasticity);
        cpSpaceAddShape(space, wall);
        pile->walls[i] = wall;
    }

    // The crates, as Crate.init builds each.
    grid_walk walk = grid_begin(n, seed);
    for (int i = 0; i < n; i++) {
        cpVect p = grid_next(&walk);
        cpBody *body = cpBodyNew(1, cpMomentForBox(1, crate_side, crate_side));
        cpBodySetPosition(body, p);
        cpBodySetAngle(body, 0);
        cpBodySetVelocity(body, cpvzero);
        cpBodySetAngularVelocity(body, 0);
        cpShape *shape = cpBoxShapeNew(body, crate_side, crate_side, 0);
        cpShapeSetFriction(shape, friction);
        cpShapeSetElasticity(shape, elasticity);
        cpSpaceAddBody(space, body);
        cpSpaceAddShape(space, shape);
        pile->bodies[i] = body;
        pile->shapes[i] = shape;
    }
    return pile;
}

void reference_pile_step(reference_pile *pile, int steps) {
    const double dt = 1.0 / 120.0;
    for (int i = 0; i < steps; i++) cpSpaceStep(pile->space, dt);
}

static uint64_t fnv1a64_double(uint64_t h, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; i++) {
        h = (h ^ (bits & 0xFF)) * 0x100000001B3ull;
        bits >>= 8;
    }
    return h;
}

uint64_t reference_pile_state_hash(const reference_pile *pile) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (int i = 0; i < pile->count; i++) {
        const cpBody *body = pile->bodies[i];
        cpVect p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body);
        h = fnv1a64_double(h, p.x);
        h = fnv1a64_double(h, p.y);
        h = fnv1a64_double(h, cpBodyGetAngle(body));
        h = fnv1a64_double(h, v.x);
        h = fnv1a64_double(h, v.y);
        h = fnv1a64_double(h, cpBodyGetAngularVelocity(body));
    }
    return h;
}

void reference_pile_free(reference_pile *pile) {
    if (!pile) return;
    // Chipmunk: "Must remove these BEFORE freeing the body or you will access dangling pointers."
    for (int i = 0; i < pile->count; i++) {
        cpSpaceRemoveShape(pile->space, pile->shapes[i]);
        cpSpaceRemoveBody(pile->space, pile->bodies[i]);
        cpShapeFree(pile->shapes[i]);
        cpBodyFree(pile->bodies[i]);
    }
    for (int i = 0; i < WALLS; i++) {
        cpSpaceRemoveShape(pile->space, pile->walls[i]);
        cpShapeFree(pile->walls[i]);
    }
    cpSpaceFree(pile->space);
    free(pile->bodies);
    free(pile->shapes);
    free(pile);
}
