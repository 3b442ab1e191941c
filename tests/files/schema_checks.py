"""What the schema tests of tests/files share: loading a schema, checking files
against it, and checking that it refuses broken variants of a good document
(so that a schema which accepts everything fails its test)."""
import copy
import json
import pathlib

import jsonschema


def load_validator(schema_path: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(pathlib.Path(schema_path).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def invalid_files(validator, files) -> int:
    """Prints the first three errors of each file; returns how many files fail."""
    failures = 0
    for f in files:
        errors = sorted(validator.iter_errors(json.loads(f.read_text())), key=lambda e: e.path)
        for e in errors[:3]:
            print(f"{f}: /{'/'.join(map(str, e.path))}: {e.message}")
        failures += bool(errors)
    return failures


def accepted_variants(validator, base, broken, noun: str) -> int:
    """Applies each change of `broken` to a copy of `base`; returns how many the
    schema accepts (each printed as "schema accepted a NOUN with WHAT")."""
    failures = 0
    for what, change in broken.items():
        doc = copy.deepcopy(base)
        change(doc)
        if validator.is_valid(doc):
            print(f"schema accepted a {noun} with {what}")
            failures += 1
    return failures
