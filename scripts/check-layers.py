#!/usr/bin/env python3
"""Checks that the library's folders form layers: no folder uses a type declared in a folder above it.

The layers, bottom to top, are LAYERS below (docs/architecture.md draws them). A Swift module
has no imports between its folders, so the check reads the code: it collects the types each
folder declares (struct, class, enum, protocol, actor, typealias at the start of a line) and
reports every file that names a type declared only in a higher folder. Comments and string
literals are ignored. Chipmunk's C module may be imported in Engine/ only.

Usage: scripts/check-layers.py [SOURCES_DIR]   (default Sources/Tiltbox); exit 1 on a violation.
"""
import os
import re
import sys
from collections import defaultdict

# Bottom to top. A folder may use its own types and those of the folders before it.
LAYERS = [
    "System",       # files, signals, processes, hashes, located errors: the operating system's side
    "JSON",         # JSON text in and out, the one reading layer (FieldReader), number text
    "Compression",  # zstd streams
    "Engine",       # Chipmunk's owners: World, Body, Joint, Space (the only CChipmunk importers)
    "Curves",       # timing curves, easing and springs (pure maths)
    "Input",        # gravity inputs: tilt recordings, keyframe scripts, live tilt
    "Stepping",     # the fixed-step accumulator and frame clocks
    "Scenario",     # the scenario model, its loader and limits
    "Trace",        # trace header, records, writer, reader, digest, diff
    "Run",          # the run plan and session: scenario + gravity + stepping -> trace
    "Render",       # SVG film strips and the HTML player
    "View",         # the live terminal view
    "Batch",        # batch manifests, jobs and summaries
    "Fuzzing",      # fuzz entry points (drive everything below)
]

DECLARATION = re.compile(
    r"^(?:@[\w()]+\s+)*(?:(?:public|internal|package|fileprivate|private|final|indirect)\s+)*"
    r"(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)",
    re.M,
)


def strip_comments_and_strings(source: str) -> str:
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r'"""(?:.|\n)*?"""', '""', source)
    source = re.sub(r"//[^\n]*", " ", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "Sources/Tiltbox"
    rank = {name: i for i, name in enumerate(LAYERS)}
    declared = defaultdict(set)
    files = []
    problems = []
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            if os.sep not in relative:
                continue
            layer = relative.split(os.sep)[0]
            if layer not in rank:
                problems.append(f"{relative}: folder '{layer}' is not a layer of scripts/check-layers.py")
                continue
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
            files.append((relative, layer, source))
            for match in DECLARATION.finditer(source):
                declared[match.group(1)].add(layer)
    for relative, layer, source in files:
        code = strip_comments_and_strings(source)
        if re.search(r"^\s*(?:\w+\s+)?import\s+CChipmunk\b", code, re.M) and layer != "Engine":
            problems.append(f"{relative}: imports CChipmunk outside Engine/")
        for word in sorted(set(re.findall(r"\b[A-Z]\w*\b", code))):
            owners = declared.get(word)
            if not owners or layer in owners:
                continue
            lowest = min(owners, key=rank.__getitem__)
            if rank[lowest] > rank[layer]:
                problems.append(f"{relative}: {layer}/ uses {word}, declared in {lowest}/ above it")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} violation(s); the layers are, bottom to top: {', '.join(LAYERS)}")
        return 1
    print(f"check-layers: {len(files)} files in {len(LAYERS)} layers, no folder uses one above it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
