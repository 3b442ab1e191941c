#!/usr/bin/python3
"""Validates scene files against schema/springkit-scene.schema.json.

Usage: validate_scene_schema.py SCHEMA SCENE...
Checks every given scene, and checks that the schema refuses broken variants
of the first one that the scene reader refuses too (so the check can fail).
"""
import json
import pathlib
import sys

from schema_checks import accepted_variants, invalid_files, load_validator


def named_mesh(collider: dict, file: str) -> None:
    """Makes a triangle mesh collider name a mesh file instead of holding its triangles."""
    del collider["vertices"], collider["triangles"]
    collider["file"] = file


def main() -> int:
    schema_path, *scenes = sys.argv[1:]
    validator = load_validator(schema_path)
    failures = invalid_files(validator, map(pathlib.Path, scenes))

    # The first scene must hold one collider of every kind (the sample playground).
    base = json.loads(pathlib.Path(scenes[0]).read_text())
    kinds = [c["kind"] for c in base["colliders"]]
    broken = {
        "future version": lambda s: s.update(version=2),
        "wrong format": lambda s: s.update(format="springkit"),
        "unknown kind": lambda s: s["colliders"][0].update(kind="cone"),
        "zero sphere radius": lambda s: s["colliders"][kinds.index("sphere")].update(radius=0),
        "sphere without a radius": lambda s: s["colliders"][kinds.index("sphere")].pop("radius"),
        "capsule without a half height": lambda s: s["colliders"][kinds.index("capsule")].pop("half_height"),
        "negative box extent": lambda s: s["colliders"][kinds.index("box")]["half_extents"].__setitem__(1, -1),
        "empty hull": lambda s: s["colliders"][kinds.index("convex_hull")].update(points=[]),
        "mesh without triangles": lambda s: s["colliders"][kinds.index("triangle_mesh")].pop("triangles"),
        "negative vertex index": lambda s: s["colliders"][kinds.index("triangle_mesh")]["triangles"].__setitem__(0, -1),
        "restitution above 1": lambda s: s["colliders"][0].update(restitution=1.5),
        "rotation of 3 numbers": lambda s: s["colliders"][0]["pose"].update(rotation=[1, 0, 0]),
        "missing pose": lambda s: s["colliders"][0].pop("pose"),
        "missing colliders": lambda s: s.pop("colliders"),
        "mesh with a file and its triangles": lambda s: s["colliders"][kinds.index("triangle_mesh")].update(
            file="stairs.obj"),
        "mesh with an empty file name": lambda s: named_mesh(s["colliders"][kinds.index("triangle_mesh")], ""),
    }
    failures += accepted_variants(validator, base, broken, "scene")

    # A mesh named by its file instead of inline triangles is a valid scene.
    named = json.loads(json.dumps(base))
    named_mesh(named["colliders"][kinds.index("triangle_mesh")], "meshes/stairs.obj")
    for error in validator.iter_errors(named):
        print(f"a mesh named by its file is refused: {error.message}")
        failures += 1

    print(f"{len(scenes)} scenes checked against the schema, {len(broken)} broken variants refused; "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
