#!/usr/bin/env python3
"""Per-step cost of `tiltbox run` under valgrind's callgrind: instructions and allocations.

For each scene (written by `tiltbox-bench --write-scene NAME`), runs `tiltbox run SCENE
--view none --quiet` for 300 and 600 steps (2.5 s and 5 s at 120 Hz) with no output, with a
full trace and with a hash trace (`--hashes`), and the raw C loop on Debian's Chipmunk
(`tiltbox-bench --only scene-c`) for the same two lengths. The difference between the two
lengths, over the 300 extra steps, cancels start-up (argument parsing, loading, building the
world, the trace header). Every thread of the process is counted (callgrind's default).

Per extra step it prints:
- own instructions per body: everything outside libchipmunk and libm, over the bodies;
- own work as a share of Chipmunk's (libchipmunk and libm);
- all of `tiltbox run`'s instructions over the raw C loop's;
- calls of the malloc family (malloc, calloc, realloc, posix_memalign, aligned_alloc,
  memalign) and of swift_allocObject (Swift objects; each also calls malloc).

Both binaries must be copies without debug information (`objcopy --strip-debug`): valgrind
3.19 cannot read the Swift toolchain's DWARF 5.

usage: step-cost.py --tiltbox STRIPPED-TILTBOX --bench STRIPPED-TILTBOX-BENCH
                    [--scene NAME]... [--row]
  --row prints one line for one scene: own/body, ratio run, ratio run --trace,
        mallocs/step run, run --trace, run --trace --hashes
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

SHORT, LONG = 300, 600
HZ = 120
MALLOCS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
           "__libc_malloc", "__libc_calloc", "__libc_realloc", "__libc_memalign"}
DEFAULT_SCENES = ["stack-20", "chain-50", "cradle", "pyramid-30", "pile-100"]


def parse_callgrind(path):
    """Self instructions per object file, call counts per called function, and the total."""
    names = {"ob": {}, "fn": {}, "fl": {}}
    kind_of = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn", "fl": "fl", "fi": "fl", "fe": "fl",
               "cfi": "fl", "cfl": "fl"}
    compressed = re.compile(r"^\((\d+)\)(?: (.*))?$")

    def resolve(kind, text):
        m = compressed.match(text)
        if not m:
            return text
        table = names[kind]
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), "?")

    by_object = collections.Counter()
    calls = collections.Counter()
    current_ob = "?"
    call_fn = None
    skip_next_cost = False
    total = 0
    with open(path) as f:
        for line in f:
            c = line[0]
            if c.isdigit() or c in "+-*":
                if skip_next_cost:
                    skip_next_cost = False
                    continue
                parts = line.split()
                if len(parts) > 1:
                    cost = int(parts[1])
                    by_object[current_ob] += cost
                    total += cost
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key in kind_of:
                name = resolve(kind_of[key], value)
                if key == "ob":
                    current_ob = os.path.basename(name)
                elif key == "cfn":
                    call_fn = name
            elif key == "calls":
                calls[call_fn] += int(value.split()[0])
                skip_next_cost = True
    return by_object, calls, total


def measure(command):
    with tempfile.NamedTemporaryFile(prefix="step-cost-", suffix=".out", delete=False) as out:
        path = out.name
    try:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={path}"] + command,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        by_object, calls, total = parse_callgrind(path)
    finally:
        os.unlink(path)
    engine = sum(v for k, v in by_object.items() if k.startswith("libchipmunk") or re.match(r"libm[.-]", k))
    mallocs = sum(v for k, v in calls.items() if k in MALLOCS)
    return {"total": total, "engine": engine, "own": total - engine, "mallocs": mallocs,
            "objects": calls.get("swift_allocObject", 0)}


def per_step(short, long):
    return {k: (long[k] - short[k]) / (LONG - SHORT) for k in short}


def scene_cost(args, name, workdir):
    scene_path = os.path.join(workdir, name + ".json")
    with open(scene_path, "w") as f:
        subprocess.run([args.bench, "--write-scene", name], check=True, stdout=f)
    with open(scene_path) as f:
        scenario = json.load(f)
    bodies = len(scenario.get("crates", [])) + len(scenario.get("bodies", []))
    trace = os.path.join(workdir, "trace.jsonl")
    outputs = {"run": [], "run --trace": ["--trace", trace], "run --trace --hashes": ["--trace", trace, "--hashes"]}
    figures = {}
    for label, extra in outputs.items():
        runs = [measure([args.tiltbox, "run", scene_path, "--view", "none", "--quiet",
                         "--duration", str(steps / HZ)] + extra) for steps in (SHORT, LONG)]
        figures[label] = per_step(*runs)
    c_runs = [measure([args.bench, "--only", "scene-c", "--scene", name, "--steps", str(steps)])
              for steps in (SHORT, LONG)]
    figures["C"] = per_step(*c_runs)
    return bodies, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiltbox", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--scene", action="append")
    parser.add_argument("--row", action="store_true")
    args = parser.parse_args()
    scenes = args.scene or DEFAULT_SCENES
    with tempfile.TemporaryDirectory(prefix="step-cost-") as workdir:
        if args.row:
            bodies, f = scene_cost(args, scenes[0], workdir)
            run, full, hashes, c = f["run"], f["run --trace"], f["run --trace --hashes"], f["C"]
            print(f"{run['own'] / bodies:.1f} {run['total'] / c['total']:.4f} {full['total'] / c['total']:.4f} "
                  f"{run['mallocs']:.2f} {full['mallocs']:.2f} {hashes['mallocs']:.2f}")
            return
        print(f"Per extra step ({SHORT} vs {LONG} steps), callgrind, every thread of `tiltbox run`:")
        print()
        print("| scene | bodies | output | C instr/step | run instr/step | ratio to C | Chipmunk+libm | own | "
              "own/body | own/Chipmunk | mallocs/step | Swift objects/step |")
        print("|:---|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name in scenes:
            bodies, f = scene_cost(args, name, workdir)
            c = f["C"]
            for label in ("run", "run --trace", "run --trace --hashes"):
                r = f[label]
                print(f"| {name} | {bodies} | {label} | {c['total']:.0f} | {r['total']:.0f} | "
                      f"{r['total'] / c['total']:.3f}× | {r['engine']:.0f} | {r['own']:.0f} | "
                      f"{r['own'] / bodies:.0f} | {100 * r['own'] / r['engine']:.1f} % | "
                      f"{r['mallocs']:.2f} | {r['objects']:.2f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
