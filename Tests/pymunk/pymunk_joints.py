"""Adds a Tiltbox scene's joints to a pymunk space, as Tiltbox's World adds them.

Each joint (JSON, every number a hex float string as Swift's "%a" writes it):
  {"kind": "pin" | "pivot" | "slide" | "groove" | "dampedSpring" | "dampedRotarySpring"
           | "rotaryLimit" | "ratchet" | "gear" | "simpleMotor",
   "a": index, "b": index (into the scene's bodies, crates first; -1 is the static body),
   "params": [...] (the kind's parameters in Chipmunk's constructor order; a pivot with
             two numbers is one world point, cpPivotJointNew, with four two anchors),
   "settings": {"maxForce": x, "errorBias": x, "maxBias": x} (only those given),
   "collideBodies": true | false (only when given)}
The constraint is made, its settings set in the order maxForce, errorBias, maxBias,
collideBodies, then it is added to the space: Tiltbox's order.
"""
import pymunk


def f(text):
    return float.fromhex(text)


def make(kind, a, b, p):
    def point(i):
        return (p[i], p[i + 1])

    if kind == "pin":
        return pymunk.PinJoint(a, b, point(0), point(2))
    if kind == "pivot":
        if len(p) == 2:
            return pymunk.PivotJoint(a, b, point(0))
        return pymunk.PivotJoint(a, b, point(0), point(2))
    if kind == "slide":
        return pymunk.SlideJoint(a, b, point(0), point(2), p[4], p[5])
    if kind == "groove":
        return pymunk.GrooveJoint(a, b, point(0), point(2), point(4))
    if kind == "dampedSpring":
        return pymunk.DampedSpring(a, b, point(0), point(2), p[4], p[5], p[6])
    if kind == "dampedRotarySpring":
        return pymunk.DampedRotarySpring(a, b, p[0], p[1], p[2])
    if kind == "rotaryLimit":
        return pymunk.RotaryLimitJoint(a, b, p[0], p[1])
    if kind == "ratchet":
        return pymunk.RatchetJoint(a, b, p[0], p[1])
    if kind == "gear":
        return pymunk.GearJoint(a, b, p[0], p[1])
    if kind == "simpleMotor":
        return pymunk.SimpleMotor(a, b, p[0])
    raise ValueError("unknown joint kind " + kind)


def add(space, bodies, joints):
    made = []
    for joint in joints:
        a = space.static_body if joint["a"] < 0 else bodies[joint["a"]]
        b = space.static_body if joint["b"] < 0 else bodies[joint["b"]]
        constraint = make(joint["kind"], a, b, [f(x) for x in joint["params"]])
        settings = joint.get("settings", {})
        if "maxForce" in settings:
            constraint.max_force = f(settings["maxForce"])
        if "errorBias" in settings:
            constraint.error_bias = f(settings["errorBias"])
        if "maxBias" in settings:
            constraint.max_bias = f(settings["maxBias"])
        if "collideBodies" in joint:
            constraint.collide_bodies = bool(joint["collideBodies"])
        space.add(constraint)
        made.append(constraint)
    return made
