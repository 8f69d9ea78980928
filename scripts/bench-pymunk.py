#!/usr/bin/env python3
"""pymunk's own step loop on one of tiltbox-bench's scenes (`tiltbox-bench --only scenes`).

Reads the scene as JSON on standard input (BenchScene.pymunkJSON: gravity, iterations
(0 keeps Chipmunk's 10), dt, segments [ax, ay, bx, by, radius, friction, elasticity],
bodies [circle, x, y, width-or-radius, height, mass, friction, elasticity] and pivots
[a, b, x, y, collide] with -1 for the static body), builds it as Tiltbox's World does,
then times STEPS calls of space.step(dt) (the loop only, not the build) and prints
"SECONDS HASH": the loop's wall time and an FNV-1a 64 hash of every body's x, y, angle,
vx, vy, w (pymunk bundles its own Chipmunk build, so the hash may differ from Debian's).

usage: bench-pymunk.py STEPS < scene.json
"""
import json
import struct
import sys
import time

import pymunk


def build(scene):
    space = pymunk.Space()
    if scene["iterations"] > 0:
        space.iterations = scene["iterations"]
    space.gravity = tuple(scene["gravity"])
    for ax, ay, bx, by, radius, friction, elasticity in scene["segments"]:
        wall = pymunk.Segment(space.static_body, (ax, ay), (bx, by), radius)
        wall.friction = friction
        wall.elasticity = elasticity
        space.add(wall)
    bodies = []
    for circle, x, y, w, h, mass, friction, elasticity in scene["bodies"]:
        if circle:
            body = pymunk.Body()
            body.position = (x, y)
            space.add(body)
            shape = pymunk.Circle(body, w)
            shape.friction = friction
            shape.elasticity = elasticity
            shape.mass = mass
            space.add(shape)
        else:
            body = pymunk.Body(mass, pymunk.moment_for_box(mass, (w, h)))
            body.position = (x, y)
            shape = pymunk.Poly.create_box(body, (w, h), 0)
            shape.friction = friction
            shape.elasticity = elasticity
            space.add(body, shape)
        bodies.append(body)
    for a, b, x, y, collide in scene["pivots"]:
        joint = pymunk.PivotJoint(space.static_body if a < 0 else bodies[a], bodies[b], (x, y))
        if not collide:
            joint.collide_bodies = False
        space.add(joint)
    return space, bodies


def state_hash(bodies):
    h = 0xCBF29CE484222325
    for body in bodies:
        for value in (body.position.x, body.position.y, body.angle, body.velocity.x, body.velocity.y,
                      body.angular_velocity):
            for byte in struct.pack("<d", value):
                h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    steps = int(sys.argv[1])
    scene = json.load(sys.stdin)
    space, bodies = build(scene)
    dt = scene["dt"]
    step = space.step
    start = time.perf_counter()
    for _ in range(steps):
        step(dt)
    elapsed = time.perf_counter() - start
    print(f"{elapsed!r} {state_hash(bodies):016x}")


if __name__ == "__main__":
    main()
