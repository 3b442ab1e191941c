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

    # A model with spring groups: the schema and the loader both take it.
    base = json.loads((work / "cloth.json").read_text())
    grouped = copy.deepcopy(base)
    grouped["spring_groups"] = [
        {"name": "stiff", "stiffness_scale": 2, "damping": 0.5, "springs": [0, 1, 2]},
        {"name": "plain", "springs": [3]},
    ]
    grouped_file = work / "grouped.json"
    grouped_file.write_text(json.dumps(grouped))
    subprocess.run([cli, "info", str(grouped_file)], check=True, stdout=subprocess.DEVNULL)
    files.append(grouped_file)

    failures = invalid_files(validator, files)

    # The schema must also refuse what the loader refuses.
    broken = {
        "future version": lambda m: m.update(version=2),
        "wrong format": lambda m: m.update(format="gltf"),
        "negative index": lambda m: m["springs"]["pairs"].__setitem__(0, -1),
        "zero rest length": lambda m: m["springs"]["rest"].__setitem__(0, 0),
        "unknown integrator": lambda m: m["parameters"].update(integrator="rk4"),
        "missing positions": lambda m: m.pop("positions"),
    }
    failures += accepted_variants(validator, base, broken, "model")
    group = grouped["spring_groups"][0]
    broken_groups = {
        "group without a name": lambda m: m["spring_groups"][0].pop("name"),
        "group with an empty name": lambda m: m["spring_groups"][0].update(name=""),
        "group without springs": lambda m: m["spring_groups"][0].pop("springs"),
        "group with a negative spring index": lambda m: m["spring_groups"][0]["springs"].__setitem__(0, -1),
        "group with stiffness scale 0": lambda m: m["spring_groups"][0].update(stiffness_scale=0),
        "group with negative damping": lambda m: m["spring_groups"][0].update(damping=-0.1),
        "group with an unknown field": lambda m: m["spring_groups"][0].update(k=5),
        "groups as an object": lambda m: m.update(spring_groups=group),
    }
    failures += accepted_variants(validator, grouped, broken_groups, "model")
    broken.update(broken_groups)

    print(f"{len(files)} models checked against the schema, {len(broken)} broken variants refused; "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
