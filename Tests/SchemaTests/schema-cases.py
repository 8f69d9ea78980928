#!/usr/bin/env python3
"""Cases for Tests/SchemaTests, checked against docs/schema/scenario.schema.json (or, with
`keyframes`, tilt keyframe files against docs/schema/keyframes.schema.json).

Writes one JSON object per line to standard output:
  {"name": NAME, "origin": "shipped"|"base"|"tests"|"corpus"|"mutation", "text": SCENARIO_TEXT, "schema": true|false, "why": MESSAGE}
where "schema" says whether the JSON Schema (Draft 2020-12, checked with check_schema first)
accepts the text. The Swift test feeds every text to the scenario loader and compares.

- shipped: every Scenarios/*.json as it is.
- base: Tests/SchemaTests/every-key.json, a scenario with every key of the format.
- tests: every scenario written literally in Tests/**/*.swift (a string literal holding
  "tiltbox-scenario/1" with no interpolation).
- corpus: the fuzz seeds and regressions (Fuzz/corpus, Fuzz/regressions) of the format's parsers.
- mutation: deterministic mutations of the shipped scenarios and every-key.json (no randomness: the same list
  on every run): each key dropped, an unknown key added to each object, each value replaced
  by every other JSON type, each number moved to and just past every bound the loader has,
  strings emptied and replaced by unknown enum values, arrays emptied, shortened and lengthened.

Usage: schema-cases.py ROOT [scenario|keyframes]   (ROOT: the package root)
For keyframes: shipped are the tiltbox-tilt/1 files of Scenarios/tilt/, base every-key-keyframes.json and
Tests/InputTests/Fixtures/keyframes*.json.
"""
import copy
import glob
import json
import math
import os
import re
import sys

import jsonschema

ROOT = sys.argv[1]
MODE = sys.argv[2] if len(sys.argv) > 2 else "scenario"
FORMAT = {"scenario": "tiltbox-scenario/1", "keyframes": "tiltbox-tilt/1"}[MODE]
SCHEMA = json.load(open(os.path.join(ROOT, "docs/schema/%s.schema.json" % MODE)))
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

# Every bound the loader checks a number against (ScenarioLimits, the joint and spring caps),
# and the small integers it uses; each is tried as is, just above and just below, and negated.
BOUNDS = [0.0, 1e-9, 1e-6, 1e-3, 1.0, 3.0, 4.0, 1000.0, 10000.0, 1e5, 1e6, 1e7, 1e9, 1e12, 1e15, 1e30]


# The integer caps (iterations, collisionPersistence, maxStepsPerFrame, columns, rows, hash count).
INTEGER_BOUNDS = [1.0, 3.0, 4.0, 1000.0, 10000.0, 1e5, 1e6, 4294967295.0, 9223372036854775808.0]


def probes(original):
    values = []
    for b in BOUNDS:
        for v in (b, math.nextafter(b, math.inf), math.nextafter(b, -math.inf)):
            values.append(v)
            values.append(-v)
    if isinstance(original, int):
        # Just past an integer cap is the next integer.
        for b in INTEGER_BOUNDS:
            for v in (int(b) + 1, int(b) - 1):
                values.append(v)
                values.append(-v)
    values.append(original + 0.5)
    out, seen = [], set()
    for v in values:
        key = (v, math.copysign(1, v), type(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def dumps(doc):
    # Python writes floats in shortest round-trip form, as the loader reads them back exactly.
    return json.dumps(doc, allow_nan=False)


def verdict(doc, element=None):
    """Whether the schema accepts doc, and its first complaint with the field path; `element`
    (key, index) is the top-level array element that `reduced` kept as element 0."""
    e = next(VALIDATOR.iter_errors(doc), None)
    if e is None:
        return True, ""
    path = list(e.absolute_path)
    if element and path[:2] == [element[0], 0]:
        path[1] = element[1]
    where = "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in path).lstrip(".")
    return False, "%s: %s" % (where or "(top)", e.message[:300])


def text_verdict(text):
    try:
        doc = json.loads(text)
    except ValueError as error:
        return False, "not JSON: %s" % error
    return verdict(doc)


def write(name, origin, text, ok, why):
    sys.stdout.write(json.dumps({"name": name, "origin": origin, "text": text, "schema": ok, "why": why}) + "\n")


def emit(name, origin, text):
    write(name, origin, text, *text_verdict(text))


def reduced(doc, path):
    """The part of a mutated scenario the schema's verdict depends on, for a mutation at path:
    the required keys and the one top-level key (or top-level array element) holding the change.
    Sound while the schema relates no two top-level keys and no two elements of a top-level
    array (true of scenario.schema.json: checked on a sample by `main`); about 20 times faster."""
    if MODE != "scenario" or not isinstance(doc, dict) or not path:
        return doc
    key = path[0]
    part = {k: doc[k] for k in ("format", "world") if k in doc}
    if key in doc:
        value = doc[key]
        if isinstance(value, list) and len(path) > 1:
            value = [value[path[1]]]
        part[key] = value
    return part


def show(path):
    return "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in path).lstrip(".") or "(top)"


def normalized(doc, path):
    """The path with indices as [*], and a body's type, so one mutation per kind of place is enough."""
    parts, node = [], doc
    for p in path:
        if isinstance(p, int):
            parts.append("[*]")
            node = node[p]
            if isinstance(node, dict) and "shapes" in node:
                parts.append("<%s>" % node.get("type", "dynamic"))
        else:
            parts.append("." + p)
            node = node[p]
    return "".join(parts)


def walk(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, path + (index,))


def replaced(doc, path, value):
    """doc with the value at path replaced; only the containers on the path are copied."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    copy_ = list(doc) if isinstance(doc, list) else dict(doc)
    copy_[head] = replaced(doc[head], rest, value)
    return copy_


def at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


SAMPLES = {"null": None, "bool": True, "number": 1, "string": "text", "array": [], "object": {}}


def mutations(doc):
    """(place, description, mutated document) for one scenario, in a fixed order."""
    for path, node in walk(doc):
        place = show(path)
        if isinstance(node, dict):
            for key in node:
                m = dict(node)
                del m[key]
                yield path, "drop %s" % key, replaced(doc, path, m)
            m = dict(node)
            m["unknownKey"] = 1
            yield path, "add unknownKey", replaced(doc, path, m)
        for other, sample in SAMPLES.items():
            if other != kind(node):
                yield path, "%s instead of %s" % (other, kind(node)), replaced(doc, path, sample)
        if kind(node) == "number":
            for v in probes(node):
                yield path, "number %r" % v, replaced(doc, path, v)
            yield path, "number 1e999", ("1e999", path)
            yield path, "number -1e999", ("-1e999", path)
        if isinstance(node, str):
            yield path, "empty string", replaced(doc, path, "")
            yield path, "unknown value", replaced(doc, path, "unknownValue")
            yield path, "static", replaced(doc, path, "static")
        if isinstance(node, list):
            yield path, "empty array", replaced(doc, path, [])
            if node:
                yield path, "drop last element", replaced(doc, path, node[:-1])
                yield path, "repeat last element", replaced(doc, path, node + [copy.deepcopy(node[-1])])
                yield path, "append 0", replaced(doc, path, node + [0])
    if "$schema" not in doc:
        yield (), "add $schema string", dict({"$schema": "scenario.schema.json"}, **doc)
        yield (), "add $schema number", dict({"$schema": 3}, **doc)


def main():
    if MODE == "scenario":
        shipped = sorted(glob.glob(os.path.join(ROOT, "Scenarios", "*.json")))
        extra = [os.path.join(ROOT, "Tests", "SchemaTests", "every-key.json")]
    else:
        shipped = [f for f in sorted(glob.glob(os.path.join(ROOT, "Scenarios", "tilt", "*.json")))
                   if FORMAT in open(f).read()]
        extra = [os.path.join(ROOT, "Tests", "SchemaTests", "every-key-keyframes.json")] \
            + sorted(glob.glob(os.path.join(ROOT, "Tests", "InputTests", "Fixtures", "keyframes*.json")))
    for file in shipped:
        emit("shipped " + os.path.basename(file), "shipped", open(file).read())
    for file in extra:
        emit("base " + os.path.basename(file), "base", open(file).read())
    bases = sorted(shipped + extra, key=lambda f: (os.path.getsize(f), f))

    literal = re.compile(r'#*"""(.*?)"""#*|#+"(.*?)"#+', re.S)
    for file in sorted(glob.glob(os.path.join(ROOT, "Tests", "**", "*.swift"), recursive=True)):
        source = open(file).read()
        for number, match in enumerate(literal.finditer(source)):
            text = match.group(1) if match.group(1) is not None else match.group(2)
            if FORMAT not in text or "\\(" in text or "\\#(" in text:
                continue
            if match.group(0).startswith('"""'):
                text = text.replace('\\"', '"').replace("\\\\", "\\")
            line = source.count("\n", 0, match.start()) + 1
            emit("tests %s:%d" % (os.path.relpath(file, ROOT), line), "tests", text)

    # The fuzz seeds and regressions of the parsers that read this format (valid and invalid).
    folders = {"scenario": ["scenario", "run-scenario", "generated-scenario"], "keyframes": ["keyframes", "run-tilt"]}[MODE]
    for kind in ("corpus", "regressions"):
        for folder in folders:
            for file in sorted(glob.glob(os.path.join(ROOT, "Fuzz", kind, folder, "*.json"))):
                text = open(file, encoding="utf-8", errors="replace").read()
                if FORMAT in text:
                    emit("fuzz %s" % os.path.relpath(file, ROOT), "corpus", text)

    # One mutation per (place kind, description), from the smallest scenario that has the place.
    done = set()
    count = 0
    for file in bases:
        doc = json.load(open(file))
        name = os.path.basename(file)
        for path, description, mutated in mutations(doc):
            # Keyframes in g and in world units are bounded differently: both are mutated.
            context = doc.get("units", "g") if MODE == "keyframes" and isinstance(doc, dict) else ""
            key = (context, normalized(doc, path), description)
            if key in done:
                continue
            done.add(key)
            if isinstance(mutated, tuple):
                # A number JSON cannot hold once parsed (1e999): written as text, read as infinity.
                literal_text, where = mutated
                marker = "__overflow__"
                text = dumps(replaced(doc, where, marker)).replace('"%s"' % marker, literal_text)
                mutated = replaced(doc, where, float(literal_text))
            else:
                text = dumps(mutated)
            element = (path[0], path[1]) if len(path) > 1 and isinstance(path[1], int) else None
            ok, why = verdict(reduced(mutated, path), element)
            count += 1
            if count % 25 == 0 and verdict(mutated)[0] != ok:
                raise SystemExit("schema-cases.py: the reduced document gives another verdict than the whole one "
                                 "for %s: %s (the schema now relates top-level keys or array elements: "
                                 "drop `reduced`)" % (name, description))
            write("%s: %s: %s" % (name, show(path), description), "mutation", text, ok, why)


main()
