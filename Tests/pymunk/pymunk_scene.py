"""Builds a Tiltbox scene in pymunk, step for step as Tiltbox's World does, and prints
body states as exact hex floats.

Input (JSON file, every number a hex float string as Swift's "%a" writes it):
  {"spatialIndex": null | [cellSize, count], "space": {name: value, ...} (only the settings
   the scenario sets), "gravity": [gx, gy], "dt": dt, "every": K,
   "segments": [[ax, ay, bx, by, radius, friction, elasticity], ...],
   "crates": [[x, y, w, h, angle, mass, friction, elasticity, vx, vy, w], ...],
   "gravityAtStep": [[gx, gy], ...] (one per step),
   "bodies" (optional): [{"type": "dynamic"|"kinematic"|"static", "pose": [x, y, angle, vx, vy, w],
     "shapes": [{"kind": "circle"|"box"|"polygon"|"segment", "params": [...], "mass": m (optional),
                 "density": d (optional), "friction": u, "elasticity": e}, ...]}, ...],
  Shape params: circle [r, ox, oy]; box [w, h, r]; polygon [r, x0, y0, x1, y1, ...];
  segment [ax, ay, bx, by, r]. Bodies are built as Tiltbox's Body builds them: the body
  (Body() is cpBodyNew(0, 0)), its pose and velocities, added; then each shape in order:
  created on the body, friction, elasticity, mass or density, added.
  A dynamic body may carry "given": [mass, moment, cogx, cogy] (hex floats, moment may be
  "inf"): then Body(mass, moment), center_of_gravity, its pose, and its position once more (after the angle).
  "joints" (optional): after every body; see pymunk_joints.py.
  Shape keys (docs/formats.md §8): a body shape's "keys", and "segmentKeys" / "crateKeys"
  (optional, one per segment / crate, null for none): {"filter": [group, categories, mask]
  (decimal strings), "sensor": true, "collisionType": n (decimal string), "surfaceVelocity":
  [vx, vy]}, each optional, set in that order after friction, elasticity and mass, before the
  shape is added, as Tiltbox's ChipmunkShape.apply does.
  "ids" and "timeline" (optional, docs/formats.md §8): the start bodies' ids in trace order, and the actions
  in the order Tiltbox's TimelinePlayer applies them, each {"step": n, ...} applied at the start of step n
  (before gravity): {"spawn": body (as in "bodies"), "id": ID}, {"remove": [ID, ...]} (its constraints in the
  order added, then its shapes in listed order, then the body), {"impulse": [jx, jy], "body": ID, "at": [x, y]
  or null (then at the centre of gravity, in body coordinates)}, {"set": {"body": ID, "angle", "position",
  "velocity", "angularVelocity", "type"}} (each optional, in that order, then activate). Records list the
  bodies present, in trace order (start bodies, then spawned ones in order of appearance).
  Joints: "jointIDs" (the start joints' ids, null for none), {"joint": joint as in pymunk_joints.py but with
  "a"/"b" ids or "static", "id": ID}, {"removeJoint": ID}, {"setJoint": ID, "values": [[name, value], ...]}
  (pymunk's max_force, error_bias, max_bias, rate, rest_length, rest_angle, stiffness, damping, min, max, phase,
  ratio).
  "traceOrder" (optional, true): as a Tiltbox run records its trace (docs/formats.md §8 step order): at
  each step n the actions due at n, then record n (step 0 included, so record 0 shows the actions due at
  0), then gravity and the step; the actions due at the last step are applied before the last record.
  Each record is then preceded by "ids n ID ..." (the bodies present) and each action by
  "event n KIND ID" (spawn/remove: the body, joint/removeJoint: the joint).
  "rules" (optional, with traceOrder; docs/formats.md §8): [{"on": "begin"|"separate", "a": n, "b": n or null
  (the wildcard), "actions": [{"remove": "a"|"b"}, {"impulse": side, "j": [x, y], "at": [x, y] or null},
  {"set": side, ...as the timeline's set}, {"count": index}]}] in file order; the handlers record (rule, a, b)
  in a queue, a begin handler always returns true; one pymunk handler per pair of types (or wildcard type) calls
  its rules in file order, a pair rule's bodies taken in the rule's order by collision type. After space.step
  the queue is drained (actions in order; a remove of a body this drain removed does nothing; an action on a
  body gone, an impulse on a body that is not dynamic, a set of a static body are skipped), then "cull"
  ([w, h, margin]: dynamic bodies farther than margin outside [0, w] x [0, h], in trace order, are removed),
  then the queue is drained again. Events "event n begin|separate A B rule", "event n remove ID rule|cull",
  "event n skipped rules[i] ID", and "event n skipped timeline[i] ID" for a timeline action ("entry": i) whose
  body a rule removed. The end line "counters N ..." gives the counters in order.
Output: one line per recorded step (0, every K-th, the last): the step number, then
each body's x y angle vx vy w as float.hex (crates, then bodies; x y is the body's
origin, cpBodyGetPosition), space separated.
"""
import json
import sys

import pymunk

import pymunk_joints


def f(text):
    return float.fromhex(text)


def apply_keys(shape, keys):
    if not keys:
        return
    if "filter" in keys:
        group, categories, mask = (int(v) for v in keys["filter"])
        shape.filter = pymunk.ShapeFilter(group=group, categories=categories, mask=mask)
    if keys.get("sensor"):
        shape.sensor = True
    if "collisionType" in keys:
        shape.collision_type = int(keys["collisionType"])
    if "surfaceVelocity" in keys:
        shape.surface_velocity = (f(keys["surfaceVelocity"][0]), f(keys["surfaceVelocity"][1]))


def main(path):
    with open(path) as handle:
        scene = json.load(handle)
    space = pymunk.Space()
    if scene["spatialIndex"] is not None:
        cell, count = scene["spatialIndex"]
        space.use_spatial_hash(f(cell), int(f(count)))
    names = {"iterations": "iterations", "damping": "damping", "collisionSlop": "collision_slop",
             "collisionBias": "collision_bias", "collisionPersistence": "collision_persistence",
             "sleepTimeThreshold": "sleep_time_threshold", "idleSpeedThreshold": "idle_speed_threshold"}
    for name, value in scene["space"].items():
        number = f(value)
        if name in ("iterations", "collisionPersistence"):
            number = int(number)
        setattr(space, names[name], number)
    gravity = (f(scene["gravity"][0]), f(scene["gravity"][1]))
    space.gravity = gravity
    segment_keys = scene.get("segmentKeys") or [None] * len(scene["segments"])
    for (ax, ay, bx, by, radius, friction, elasticity), keys in zip(scene["segments"], segment_keys):
        segment = pymunk.Segment(space.static_body, (f(ax), f(ay)), (f(bx), f(by)), f(radius))
        segment.friction = f(friction)
        segment.elasticity = f(elasticity)
        apply_keys(segment, keys)
        space.add(segment)
    bodies = []
    crate_keys = scene.get("crateKeys") or [None] * len(scene["crates"])
    for (x, y, w, h, angle, mass, friction, elasticity, vx, vy, spin), keys in zip(scene["crates"], crate_keys):
        size = (f(w), f(h))
        body = pymunk.Body(f(mass), pymunk.moment_for_box(f(mass), size))
        body.position = (f(x), f(y))
        body.angle = f(angle)
        body.velocity = (f(vx), f(vy))
        body.angular_velocity = f(spin)
        shape = pymunk.Poly.create_box(body, size, 0)
        shape.friction = f(friction)
        shape.elasticity = f(elasticity)
        apply_keys(shape, keys)
        space.add(body)
        space.add(shape)
        body.shapes_in_order = [shape]
        bodies.append(body)
    for spec in scene.get("bodies", []):
        bodies.append(add_body(space, spec))
    # Joints after every body, as Tiltbox's World makes them. The list is kept so the
    # constraints live as long as the space.
    joints = pymunk_joints.add(space, bodies, scene.get("joints", []))

    dt = f(scene["dt"])
    every = int(f(scene["every"]))
    steps = [(f(gx), f(gy)) for gx, gy in scene["gravityAtStep"]]
    out = sys.stdout

    def emit(step):
        values = [str(step)]
        for b in bodies:
            p, v = b.position, b.velocity
            values += [p.x.hex(), p.y.hex(), b.angle.hex(), v.x.hex(), v.y.hex(), b.angular_velocity.hex()]
        out.write(" ".join(values) + "\n")

    joint_ids = {name: made for name, made in zip(scene.get("jointIDs", []), joints) if name is not None}
    ids = scene.get("ids", [])
    by_id = dict(zip(ids, bodies))
    actions = scene.get("timeline", [])
    next_action = 0

    trace_order = scene.get("traceOrder", False)
    names = {id(body): name for name, body in by_id.items()}

    def event(n, kind, name):
        if trace_order:
            out.write("event %d %s %s\n" % (n, kind, name))

    rules = scene.get("rules", [])
    queue = []

    def name_of(body):
        return names.get(id(body), "static")

    def make_handler(entries, is_pair):
        def record(arb, phase):
            first, second = arb.shapes
            for index, type_a in entries[phase]:
                a, b = first, second
                if is_pair and first.collision_type != type_a:
                    a, b = b, a
                queue.append((index, phase, a.body, b.body))

        def begin(arb, space, data):
            record(arb, "begin")
            arb.process_collision = True

        def separate(arb, space, data):
            record(arb, "separate")
        return begin, separate

    groups = {}
    order = []
    for index, rule in enumerate(rules):
        key = ("pair", min(rule["a"], rule["b"]), max(rule["a"], rule["b"])) if rule["b"] is not None \
            else ("wild", rule["a"])
        if key not in groups:
            groups[key] = {"types": (rule["a"], rule["b"]), "begin": [], "separate": []}
            order.append(key)
        groups[key][rule["on"]].append((index, rule["a"]))
    for key in order:
        group = groups[key]
        begin, separate = make_handler(group, key[0] == "pair")
        type_a, type_b = group["types"]
        space.on_collision(type_a, type_b, begin=begin, separate=separate)
    counters = [0] * int(scene.get("counterCount", 0))
    cull = scene.get("cull")

    def remove_body(body):
        for joint in [j for j in joints if j.a is body or j.b is body]:
            space.remove(joint)
            joints.remove(joint)
        for shape in body.shapes_in_order:
            space.remove(shape)
        space.remove(body)
        bodies.remove(body)
        by_id.pop(names[id(body)])

    def set_body(body, change):
        if "angle" in change:
            body.angle = f(change["angle"])
        if "position" in change:
            body.position = (f(change["position"][0]), f(change["position"][1]))
        if "velocity" in change:
            body.velocity = (f(change["velocity"][0]), f(change["velocity"][1]))
        if "angularVelocity" in change:
            body.angular_velocity = f(change["angularVelocity"])
        if "type" in change:
            body.body_type = {"dynamic": pymunk.Body.DYNAMIC, "kinematic": pymunk.Body.KINEMATIC,
                              "static": pymunk.Body.STATIC}[change["type"]]
        body.activate()

    def drain(n):
        removed_here = set()
        i = 0
        while i < len(queue):
            index, phase, a, b = queue[i]
            i += 1
            out.write("event %d %s %s %s %d\n" % (n, phase, name_of(a), name_of(b), index))
            for action in rules[index]["actions"]:
                if "count" in action:
                    counters[action["count"]] += 1
                    continue
                side = action.get("remove") or action.get("impulse") or action["set"]
                body = a if side == "a" else b
                if "remove" in action and id(body) in removed_here:
                    continue
                present = body in bodies
                if not present or ("impulse" in action and body.body_type != pymunk.Body.DYNAMIC) or \
                        ("set" in action and body.body_type == pymunk.Body.STATIC):
                    out.write("event %d skipped rules[%d] %s\n" % (n, index, name_of(body)))
                    continue
                if "remove" in action:
                    out.write("event %d remove %s rule\n" % (n, name_of(body)))
                    removed_here.add(id(body))
                    remove_body(body)
                elif "impulse" in action:
                    j = (f(action["j"][0]), f(action["j"][1]))
                    if action["at"] is None:
                        body.apply_impulse_at_local_point(j, body.center_of_gravity)
                    else:
                        body.apply_impulse_at_world_point(j, (f(action["at"][0]), f(action["at"][1])))
                else:
                    set_body(body, action)
        del queue[:]

    def after_step(n):
        drain(n)
        if cull is not None:
            w, h, margin = (f(v) for v in cull)
            for body in [b for b in bodies if b.body_type == pymunk.Body.DYNAMIC]:
                p = body.position
                if p.x < -margin or p.x > w + margin or p.y < -margin or p.y > h + margin:
                    out.write("event %d remove %s cull\n" % (n, name_of(body)))
                    remove_body(body)
            drain(n)

    def skipped(action, name):
        """A timeline action naming a body a rule or culling removed: a skipped event."""
        if name in by_id:
            return False
        out.write("event %d skipped timeline[%d] %s\n" % (action["step"], action["entry"], name))
        return True

    def apply(action):
        n = action["step"]
        if "impulse" in action and skipped(action, action["body"]):
            return
        if "set" in action and skipped(action, action["set"]["body"]):
            return
        if "spawn" in action:
            body = add_body(space, action["spawn"])
            by_id[action["id"]] = body
            names[id(body)] = action["id"]
            bodies.append(body)
            event(n, "spawn", action["id"])
        elif "remove" in action:
            for name in action["remove"]:
                if skipped(action, name):
                    continue
                body = by_id.pop(name)
                for joint in [j for j in joints if j.a is body or j.b is body]:
                    space.remove(joint)
                    joints.remove(joint)
                for shape in body.shapes_in_order:
                    space.remove(shape)
                space.remove(body)
                bodies.remove(body)
                event(n, "remove", name)
        elif "joint" in action:
            joint = dict(action["joint"])
            for end in ("a", "b"):
                joint[end] = -1 if joint[end] == "static" else bodies.index(by_id[joint[end]])
            made = pymunk_joints.add(space, bodies, [joint])[0]
            joints.append(made)
            joint_ids[action["id"]] = made
            event(n, "joint", action["id"])
        elif "removeJoint" in action:
            made = joint_ids.pop(action["removeJoint"])
            space.remove(made)
            joints.remove(made)
            event(n, "removeJoint", action["removeJoint"])
        elif "setJoint" in action:
            made = joint_ids[action["setJoint"]]
            for name, value in action["values"]:
                setattr(made, SETTERS[name], f(value))
        elif "impulse" in action:
            body = by_id[action["body"]]
            j = (f(action["impulse"][0]), f(action["impulse"][1]))
            if action["at"] is None:
                body.apply_impulse_at_local_point(j, body.center_of_gravity)
            else:
                body.apply_impulse_at_world_point(j, (f(action["at"][0]), f(action["at"][1])))
        else:
            change = action["set"]
            body = by_id[change["body"]]
            if "angle" in change:
                body.angle = f(change["angle"])
            if "position" in change:
                body.position = (f(change["position"][0]), f(change["position"][1]))
            if "velocity" in change:
                body.velocity = (f(change["velocity"][0]), f(change["velocity"][1]))
            if "angularVelocity" in change:
                body.angular_velocity = f(change["angularVelocity"])
            if "type" in change:
                body.body_type = {"dynamic": pymunk.Body.DYNAMIC, "kinematic": pymunk.Body.KINEMATIC,
                                  "static": pymunk.Body.STATIC}[change["type"]]
            body.activate()

    if trace_order:
        total = len(steps)
        for n in range(total + 1):
            while next_action < len(actions) and actions[next_action]["step"] == n:
                apply(actions[next_action])
                next_action += 1
            if n % every == 0 or n == total:
                out.write("ids %d %s\n" % (n, " ".join(names[id(b)] for b in bodies)))
                emit(n)
            if n == total:
                break
            g = steps[n]
            if g[0].hex() != gravity[0].hex() or g[1].hex() != gravity[1].hex():
                gravity = g
                space.gravity = g
                for b in bodies:
                    if b.body_type == pymunk.Body.DYNAMIC and b.is_sleeping:
                        b.activate()
            space.step(dt)
            after_step(n + 1)
        if counters:
            out.write("counters %s\n" % " ".join(str(c) for c in counters))
        return

    emit(0)
    for n, g in enumerate(steps):
        while next_action < len(actions) and actions[next_action]["step"] == n:
            apply(actions[next_action])
            next_action += 1
        # As Tiltbox: gravity only when it changes, then wake every body still asleep, in order.
        if g[0].hex() != gravity[0].hex() or g[1].hex() != gravity[1].hex():
            gravity = g
            space.gravity = g
            for b in bodies:
                if b.body_type == pymunk.Body.DYNAMIC and b.is_sleeping:
                    b.activate()
        space.step(dt)
        reached = n + 1
        if reached % every == 0 or reached == len(steps):
            emit(reached)


SETTERS = {"maxForce": "max_force", "errorBias": "error_bias", "maxBias": "max_bias", "rate": "rate",
           "restLength": "rest_length", "restAngle": "rest_angle", "stiffness": "stiffness", "damping": "damping",
           "min": "min", "max": "max", "phase": "phase", "ratio": "ratio"}


def add_body(space, spec):
    kind = spec["type"]
    if kind == "dynamic" and "given" in spec:
        mass, moment, cx, cy = (f(v) for v in spec["given"])
        body = pymunk.Body(mass, moment)
        body.center_of_gravity = (cx, cy)
    elif kind == "dynamic":
        body = pymunk.Body()
    elif kind == "kinematic":
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    else:
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
    x, y, angle, vx, vy, spin = (f(v) for v in spec["pose"])
    body.position = (x, y)
    body.angle = angle
    body.velocity = (vx, vy)
    body.angular_velocity = spin
    if "given" in spec:
        body.position = (x, y)
    space.add(body)
    body.shapes_in_order = []
    for entry in spec["shapes"]:
        p = [f(v) for v in entry["params"]]
        if entry["kind"] == "circle":
            shape = pymunk.Circle(body, p[0], (p[1], p[2]))
        elif entry["kind"] == "box":
            shape = pymunk.Poly.create_box(body, (p[0], p[1]), p[2])
        elif entry["kind"] == "polygon":
            points = [(p[i], p[i + 1]) for i in range(1, len(p), 2)]
            shape = pymunk.Poly(body, points, None, p[0])
        else:
            shape = pymunk.Segment(body, (p[0], p[1]), (p[2], p[3]), p[4])
        shape.friction = f(entry["friction"])
        shape.elasticity = f(entry["elasticity"])
        if "mass" in entry:
            shape.mass = f(entry["mass"])
        elif "density" in entry:
            shape.density = f(entry["density"])
        apply_keys(shape, entry.get("keys"))
        space.add(shape)
        body.shapes_in_order.append(shape)
    return body


if __name__ == "__main__":
    main(sys.argv[1])
