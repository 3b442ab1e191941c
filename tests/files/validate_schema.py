#!/usr/bin/python3
"""Validates model files against schema/springkit-model.schema.json.

Usage: validate_schema.py SCHEMA SPRINGKIT_CLI WORKDIR [MODEL...]
Checks every given model, plus one model of each `springkit new` template, and
checks that the schema rejects a few broken variants (so the check can fail).
"""
import copy
import json
import pathlib
import subprocess
import sys

import jsonschema


def main() -> int:
    schema_path, cli, workdir, *models = sys.argv[1:]
    schema = json.loads(pathlib.Path(schema_path).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    work = pathlib.Path(workdir)
    work.mkdir(parents=True, exist_ok=True)

    files = [pathlib.Path(m) for m in models]
    for kind in ["string", "cloth", "jelly", "balloon", "rope", "source-rope"]:
        out = work / f"{kind}.json"
        subprocess.run([cli, "new", kind, "-o", str(out)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        files.append(out)

    failures = 0
    for f in files:
        errors = sorted(validator.iter_errors(json.loads(f.read_text())), key=lambda e: e.path)
        for e in errors[:3]:
            print(f"{f}: /{'/'.join(map(str, e.path))}: {e.message}")
        failures += bool(errors)

    # The schema must also refuse what the loader refuses.
    base = json.loads((work / "cloth.json").read_text())
    broken = {
        "future version": lambda m: m.update(version=2),
        "wrong format": lambda m: m.update(format="gltf"),
        "negative index": lambda m: m["springs"]["pairs"].__setitem__(0, -1),
        "zero rest length": lambda m: m["springs"]["rest"].__setitem__(0, 0),
        "unknown integrator": lambda m: m["parameters"].update(integrator="rk4"),
        "missing positions": lambda m: m.pop("positions"),
    }
    for what, change in broken.items():
        m = copy.deepcopy(base)
        change(m)
        if validator.is_valid(m):
            print(f"schema accepted a model with {what}")
            failures += 1

    print(f"{len(files)} models checked against the schema, {len(broken)} broken variants refused; "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
