#!/usr/bin/python3
"""Validates model files against schema/springkit-model.schema.json.

Usage: validate_schema.py SCHEMA SPRINGKIT_CLI WORKDIR [MODEL...]
Checks every given model, plus one model of each `springkit new` template, and
checks that the schema rejects a few broken variants (so the check can fail).
"""
import json
import pathlib
import subprocess
import sys

from schema_checks import accepted_variants, invalid_files, load_validator


def main() -> int:
    schema_path, cli, workdir, *models = sys.argv[1:]
    validator = load_validator(schema_path)
    work = pathlib.Path(workdir)
    work.mkdir(parents=True, exist_ok=True)

    files = [pathlib.Path(m) for m in models]
    for kind in ["string", "cloth", "jelly", "balloon", "rope", "source-rope"]:
        out = work / f"{kind}.json"
        subprocess.run([cli, "new", kind, "-o", str(out)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        files.append(out)

    failures = invalid_files(validator, files)

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
    failures += accepted_variants(validator, base, broken, "model")

    print(f"{len(files)} models checked against the schema, {len(broken)} broken variants refused; "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
