// The C boundary of Tiltbox: Chipmunk's public header plus the few inline helpers
// the engine layer needs. Nothing else belongs here.
#ifndef TILTBOX_CCHIPMUNK_SHIM_H
#define TILTBOX_CCHIPMUNK_SHIM_H

#include <stdio.h>
#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>

/// Copies a body's pose and velocities into out[0..5] as x, y, angle, vx, vy, w
/// (the layout Tiltbox's `BodyStateLayout` defines; keep the two in step).
/// One inline read of the body struct instead of four calls into the shared library,
/// which matters in the per-step loop over every crate.
static inline void tiltbox_body_state(const cpBody *body, double *out) {
    out[0] = body->p.x;
    out[1] = body->p.y;
    out[2] = body->a;
    out[3] = body->v.x;
    out[4] = body->v.y;
    out[5] = body->w;
}

/// Like `tiltbox_body_state`, but x, y is the body's origin as `cpBodyGetPosition`
/// returns it, not `body->p` (the centre of gravity, which is the origin only while the
/// centre of gravity sits at the origin, as for a crate). For bodies of any shape.
static inline void tiltbox_body_origin_state(cpBody *body, double *out) {
    cpVect origin = cpBodyGetPosition(body);
    out[0] = origin.x;
    out[1] = origin.y;
    out[2] = body->a;
    out[3] = body->v.x;
    out[4] = body->v.y;
    out[5] = body->w;
}

/// Reads `count` bodies' states into out[0 ..< 6 * count], body after body, each as
/// `tiltbox_body_origin_state` gives it when `origin[i]` is nonzero, else as
/// `tiltbox_body_state`: the per-step read of a whole world in one call. Returns 1 when the sum
/// of the magnitudes of the values read is at most `limit`, which holds them all within
/// ±`limit` and finite (a sum of non-negative doubles, rounded, is never below any of its
/// terms; a NaN or an infinity makes it fail); 0 otherwise, when the caller checks each value.
static inline int tiltbox_read_states(cpBody *const *bodies, const unsigned char *origin, size_t count,
                                      double *out, double limit) {
    double sum = 0;
    for (size_t i = 0; i < count; i++, out += 6) {
        cpBody *body = bodies[i];
        cpVect p = origin[i] ? cpBodyGetPosition(body) : body->p;
        double a = body->a, vx = body->v.x, vy = body->v.y, w = body->w;
        out[0] = p.x;
        out[1] = p.y;
        out[2] = a;
        out[3] = vx;
        out[4] = vy;
        out[5] = w;
        sum += ((fabs(p.x) + fabs(p.y)) + (fabs(a) + fabs(vx))) + (fabs(vy) + fabs(w));
    }
    return sum <= limit;
}

/// Whether the capture stream `stream` holds bytes written since it was last rewound: glibc's
/// write pointer past its write base (what `ftell` computes, without its lock and seek).
static inline int tiltbox_stream_has_output(FILE *stream) {
#if defined(__GLIBC__)
    return stream->_IO_write_ptr > stream->_IO_write_base;
#else
    return ftell(stream) > 0;
#endif
}

/// How deep two shapes overlap as `cpShapesCollide` finds them (the narrow phase `cpSpaceStep`
/// uses, on shapes whose world positions `cpShapeUpdate` cached): the largest of minus its
/// contact points' distances (negative when overlapping), or 0 when it finds no contact.
/// A helper because the set's fixed array of anonymous structs does not come into Swift; and
/// for two quirks of Chipmunk 7.0.3, measured:
/// - `cpShapesCollide` flips the normal, but not the points, when its first shape's type comes
///   after its second's (a polygon before a circle), so every distance comes out with the wrong
///   sign: the shapes are passed in type order (circle, segment, polygon), as `cpCollide` wants.
/// - Two shapes that coincide exactly (the same box at the same pose) get contacts with a zero
///   normal and distance 0: then the depth is the overlap of their bounding boxes (cached by
///   `cpShapeUpdate`) along the shallower axis, which for identical shapes is their smaller extent.
static inline double tiltbox_shapes_overlap_depth(const cpShape *a, const cpShape *b) {
    if (a->klass->type > b->klass->type) {
        const cpShape *swap = a;
        a = b;
        b = swap;
    }
    cpContactPointSet set = cpShapesCollide(a, b);
    if (set.count > 0 && set.normal.x == 0 && set.normal.y == 0) {
        double x = fmin(a->bb.r, b->bb.r) - fmax(a->bb.l, b->bb.l);
        double y = fmin(a->bb.t, b->bb.t) - fmax(a->bb.b, b->bb.b);
        double depth = fmin(x, y);
        return depth > 0 ? depth : 0;
    }
    double depth = 0;
    for (int i = 0; i < set.count; i++) {
        if (-set.points[i].distance > depth) depth = -set.points[i].distance;
    }
    return depth;
}

/// Bytes Chipmunk has allocated for its contact and arbiter pools (blocks of
/// CP_BUFFER_BYTES that a space keeps at their high-water mark until it is freed).
static inline size_t tiltbox_space_pool_bytes(const cpSpace *space) {
    return space->allocatedBuffers ? (size_t)space->allocatedBuffers->num * CP_BUFFER_BYTES : 0;
}

/// Makes a body that a diverged run left non-finite sane again by writing the struct, without
/// Chipmunk's setters (each runs `cpBodySanityCheck` and would abort on the value being
/// replaced): zero velocities, force and torque, and, when its pose is not finite, the origin
/// with angle 0. A world whose run diverged calls it before freeing its bodies: removing a shape
/// recomputes the body's mass and calls `cpBodySetPosition`, whose sanity check would otherwise
/// abort on the NaN velocity the run stopped at.
static inline void tiltbox_body_make_sane(cpBody *body) {
    body->v = cpvzero;
    body->w = 0.0;
    body->f = cpvzero;
    body->t = 0.0;
    body->v_bias = cpvzero;
    body->w_bias = 0.0;
    if (!(isfinite(body->p.x) && isfinite(body->p.y) && isfinite(body->a))) {
        body->p = cpvzero;
        body->a = 0.0;
        body->transform = cpTransformIdentity;
    }
}

/// Replaces the C library's `stderr` stream and returns the one it replaces. Chipmunk's
/// `cpMessage` writes its warnings with `fprintf(stderr, ...)`, reading the `stderr` pointer
/// at every call; the engine points it at a memory stream around `cpSpaceStep` to collect
/// them (Swift cannot assign a C global in Swift 6 mode).
static inline FILE *tiltbox_swap_stderr(FILE *replacement) {
    FILE *previous = stderr;
    stderr = replacement;
    return previous;
}

// Chipmunk's own hash set walk (declared in its chipmunk_private.h, exported by the library).
void cpHashSetEach(cpHashSet *set, void (*func)(void *elt, void *data), void *data);

/// What `tiltbox_space_touching_shapes` collects: shape pairs, two per pair, up to `capacity` pairs.
typedef struct {
    const cpShape **shapes;
    size_t capacity;
    size_t count;
    cpTimestamp stamp;
} tiltbox_touching;

static void tiltbox_touching_visit(void *element, void *data) {
    const cpArbiter *arbiter = (const cpArbiter *)element;
    tiltbox_touching *touching = (tiltbox_touching *)data;
    // An arbiter stamped with the space's current stamp found its shapes touching in the
    // last `cpSpaceStep` (sensors included: they are stamped, never solved). Older ones are
    // kept in the cache for `collisionPersistence` steps after the shapes part.
    if (arbiter->stamp != touching->stamp) return;
    if (touching->count < touching->capacity) {
        touching->shapes[2 * touching->count] = arbiter->a;
        touching->shapes[2 * touching->count + 1] = arbiter->b;
    }
    touching->count += 1;
}

/// Writes the pairs of shapes found touching in the space's last step into `out` (two
/// pointers per pair, at most `capacity` pairs) and returns how many there are (more than
/// `capacity` means call again with room for them). Only reads the space's arbiter cache:
/// no handler is registered and nothing the physics uses is changed. Sleeping bodies' pairs
/// are not in the cache and are not reported. The order is the hash set's (pointer-based):
/// callers sort what they need.
static inline size_t tiltbox_space_touching_shapes(cpSpace *space, const cpShape **out, size_t capacity) {
    tiltbox_touching touching = {out, capacity, 0, space->stamp};
    cpHashSetEach(space->cachedArbiters, tiltbox_touching_visit, &touching);
    return touching.count;
}

#endif
