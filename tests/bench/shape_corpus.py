#!/usr/bin/env python3
"""Converts mesh files with `springkit convert` and measures how well each
converted model keeps its shape (`springkit info --shape-error`: every free node
moved by 10% of the bounding-box diagonal, 5 s without gravity, RMS distance
from the rest shape / diagonal).

usage: shape_corpus.py SPRINGKIT (CORPUS_DIR | --list FILE) WORK_DIR
           [--jobs N] [--timeout S] [--limit PERCENT] [--markdown] [-- CONVERT_ARGS...]

Without --list every file under CORPUS_DIR is tried; files `convert` refuses are
counted, not measured. Prints one line per converted file (its error, nodes,
springs, the structural springs the converter chose, and whether it settled as
its mirror image) and the totals; with
--limit, exits 1 when a converted file's shape error is above PERCENT or its
measure fails (a model that blows up). --list names one file a line, relative to
the list's folder; '#' starts a comment.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys


def measure(springkit, path, work, index, convert_args, timeout):
    """Returns a dict: outcome ('converted', 'refused', 'failed'), error, ..."""
    out_dir = os.path.join(work, str(index))
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    out = os.path.join(out_dir, "model.skb")
    row = {"file": path}
    try:
        r = subprocess.run([springkit, "convert", path, "-o", out, "-j", "1", "--timeout", str(timeout)]
                           + convert_args, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return {**row, "outcome": "failed", "problem": "convert hung"}
    if r.returncode != 0:
        return {**row, "outcome": "refused"}
    summary = r.stdout.decode("utf-8", "replace")
    chosen = re.search(r"; structural springs: (\w[\w +]*)", summary)
    row["chosen"] = chosen.group(1).strip() if chosen else "given"
    try:
        r = subprocess.run([springkit, "info", out, "--json", "--shape-error"], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=20 * timeout)
    except subprocess.TimeoutExpired:
        return {**row, "outcome": "failed", "problem": "shape error test hung"}
    shutil.rmtree(out_dir, ignore_errors=True)
    if r.returncode != 0:
        return {**row, "outcome": "failed", "problem": r.stderr.decode("utf-8", "replace").strip()[-300:]}
    info = json.loads(r.stdout)
    mirrored = info.get("shape_error_mirrored")
    return {**row, "outcome": "converted", "error": 100.0 * info["shape_error"], "nodes": info["nodes"],
            "springs": info["springs"]["total"], "mirrored": None if mirrored is None else 100.0 * mirrored}


def main():
    argv = sys.argv[1:]
    convert_args = []
    if "--" in argv:
        convert_args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser()
    parser.add_argument("springkit")
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("work")
    parser.add_argument("--list")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--limit", type=float)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    if args.list:
        base = os.path.dirname(os.path.abspath(args.list))
        with open(args.list, encoding="utf-8") as f:
            names = [l.split("#")[0].strip() for l in f]
        files = [os.path.join(args.corpus or base, n) for n in names if n]
    else:
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.corpus) for f in fs)
    os.makedirs(args.work, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda i: measure(args.springkit, files[i], args.work, i, convert_args, args.timeout),
                             range(len(files))))
    converted = [r for r in rows if r["outcome"] == "converted"]
    failed = [r for r in rows if r["outcome"] == "failed"]
    bad = [r for r in converted if args.limit is not None and r["error"] > args.limit]
    for r in rows:
        name = os.path.relpath(r["file"], args.corpus) if args.corpus else r["file"]
        if r["outcome"] == "converted":
            mirror = ""
            if r["mirrored"] is not None and r["mirrored"] < 0.5 * r["error"]:
                mirror = f" (settled mirrored: {r['mirrored']:.3g}% from its mirror image)"
            if args.markdown:
                print(f"| {name} | {r['nodes']} | {r['springs']} | {r['chosen']} | {r['error']:.3g}%{mirror} |")
            else:
                print(f"{r['error']:9.4f}%  {name}: {r['nodes']} nodes, {r['springs']} springs, {r['chosen']}{mirror}")
        elif r["outcome"] == "failed":
            print(f"   FAILED  {name}: {r['problem']}")
    errors = sorted(r["error"] for r in converted)
    if errors:
        median = errors[len(errors) // 2]
        # Lines and point clouds: the converter says there is no shape to keep.
        surfaces = [r for r in converted if not r["chosen"].startswith("none")]
        over = sum(r["error"] >= 2.0 for r in surfaces)
        mirrored = sum(r["error"] >= 2.0 and r["mirrored"] is not None and r["mirrored"] < 2.0 for r in surfaces)
        print(f"{len(converted)} converted of {len(rows)} files ({len(rows) - len(converted) - len(failed)} refused, "
              f"{len(failed)} failed): shape error median {median:.3g}%, largest {errors[-1]:.3g}%; "
              f"{len(converted) - len(surfaces)} without faces (lines, points: no shape to keep); of the "
              f"{len(surfaces)} with faces {over} at or above 2% ({mirrored} of them within 2% of their mirror image)")
    if failed or bad:
        for r in bad:
            print(f"above {args.limit}%: {r['file']} ({r['error']:.3g}%)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
