#!/usr/bin/env python3
"""Runs `springkit convert` on every file of Assimp's own test corpus (Debian's
assimp-testmodels, /usr/share/assimp/models, installed by scripts/setup).

Each file must either convert (exit 0, a model file that is a springkit model,
stderr only warnings) or be refused (exit 1, stderr exactly one line starting
with "error: " and naming the file, no output file and no temp file left),
within the time limit, without crashing. Prints the counts; exits 1 on any
violation.

usage: corpus_convert.py SPRINGKIT CORPUS_DIR WORK_DIR [--jobs N] [--timeout S]
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time


def check_one(springkit, path, work, timeout, index):
    """Returns (outcome, seconds, problem or None, error line)."""
    out_dir = os.path.join(work, str(index))
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    out = os.path.join(out_dir, "model.json")
    start = time.monotonic()
    try:
        # The importer's own limit is `timeout`; the process gets 30 s more to notice.
        r = subprocess.run([springkit, "convert", path, "-o", out, "--timeout", str(timeout), "-j", "1"],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "violation", time.monotonic() - start, "springkit convert hung (no answer within the limit)", ""
    seconds = time.monotonic() - start
    err = r.stderr.decode("utf-8", "replace")
    lines = [l for l in err.splitlines() if l]
    left = sorted(os.listdir(out_dir))
    if r.returncode == 0:
        try:
            with open(out, encoding="utf-8") as f:
                model = json.load(f)
        except (OSError, ValueError) as e:
            return "violation", seconds, f"converted but the output is not JSON: {e}", ""
        # Beside the model only the texture extracted from the file, which it names.
        extracted = model.get("texture", "")
        if left != sorted(["model.json"] + ([extracted] if extracted.startswith("model.") else [])):
            return "violation", seconds, f"converted but the folder holds {left}", ""
        if model.get("format") != "springkit":
            return "violation", seconds, "converted but the output is not a springkit model", ""
        if any(not l.startswith("warning: ") for l in lines):
            return "violation", seconds, f"converted but stderr has more than warnings: {err!r}", ""
        return "converted", seconds, None, ""
    if r.returncode != 1:
        return "violation", seconds, f"exit code {r.returncode} (stderr {err[-300:]!r})", ""
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return "violation", seconds, f"refused without exactly one error line: {err[-300:]!r}", ""
    if not lines[0].startswith("error: " + path):
        return "violation", seconds, f"the error line does not name the file: {lines[0]!r}", ""
    if left:
        return "violation", seconds, f"refused but left files behind: {left}", ""
    return "refused", seconds, None, lines[0][len("error: " + path) + 2:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("springkit")
    parser.add_argument("corpus")
    parser.add_argument("work")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        print(f"error: {args.corpus} is missing: install Debian's assimp-testmodels (scripts/setup does)")
        return 1
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.corpus) for f in fs)
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()
    counts = collections.Counter()
    reasons = collections.Counter()
    slowest = []
    violations = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(check_one, args.springkit, f, args.work, args.timeout, i): f for i, f in enumerate(files)}
        for fut in concurrent.futures.as_completed(futures):
            path = futures[fut]
            outcome, seconds, problem, reason = fut.result()
            counts[outcome] += 1
            slowest.append((seconds, path))
            if problem:
                violations.append(f"{path}: {problem}")
            if reason:
                reasons[reason[:70]] += 1
    shutil.rmtree(args.work, ignore_errors=True)
    wall = time.monotonic() - start
    print(f"corpus: {len(files)} files in {wall:.1f} s: {counts['converted']} converted, "
          f"{counts['refused']} refused, {counts['violation']} violations")
    print("slowest: " + ", ".join(f"{os.path.relpath(p, args.corpus)} {s:.1f} s" for s, p in sorted(slowest)[-5:]))
    print("most common refusals: " + "; ".join(f"{n} x {r}" for r, n in reasons.most_common(6)))
    for v in violations:
        print("VIOLATION " + v)
    return 1 if violations or not files else 0


if __name__ == "__main__":
    sys.exit(main())
