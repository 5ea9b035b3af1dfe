#!/usr/bin/env python3
"""Validate calport JSON output against a JSON Schema (draft 2020-12).

Usage: validate.py SCHEMA FILE... [--lines | --sequence] [--def NAME]
  --lines     each FILE is JSON Lines: every non-empty line is validated on its own.
  --sequence  each FILE holds one or more JSON values one after another (jCal with several
              calendars); each value is validated on its own.
  --def NAME  validate against SCHEMA's #/$defs/NAME instead of the root.
Prints one line per error (file:line: error: message at path) and exits 1 when any.
Needs: pip install jsonschema
"""
import json
import os
import sys

import jsonschema
from referencing import Registry, Resource


def main(argv):
    args = [a for a in argv[1:]]
    lines = "--lines" in args
    if lines:
        args.remove("--lines")
    sequence = "--sequence" in args
    if sequence:
        args.remove("--sequence")
        lines = "sequence"
    definition = None
    if "--def" in args:
        i = args.index("--def")
        definition = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema_path, data_paths = args[0], args[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    original = schema
    if definition:
        schema = {"$schema": schema.get("$schema"), "$defs": schema["$defs"], "$ref": "#/$defs/" + definition}
    # The schemas beside this one, by $id, so references between them (jscalendar → jcal)
    # resolve offline; nothing is fetched.
    registry = Registry()
    folder = os.path.dirname(os.path.abspath(schema_path))
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                other = json.load(f)
            if "$id" in other:
                registry = registry.with_resource(other["$id"], Resource.from_contents(other))
    if definition and "$id" in original:
        schema["$id"] = original["$id"]
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    failures = 0
    for data_path in data_paths:
        failures += validate_file(validator, data_path, lines)
    return 1 if failures else 0


def validate_file(validator, data_path, lines):
    with open(data_path, encoding="utf-8") as f:
        text = f.read()
    documents = []
    if lines == "sequence":
        decoder = json.JSONDecoder()
        i = 0
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                break
            number = text.count("\n", 0, i) + 1
            try:
                _, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError as e:
                print(f"{data_path}:{e.lineno}: error: not JSON: {e.msg}")
                return 1
            documents.append((number, text[i:end]))
            i = end
    elif lines:
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                documents.append((number, line))
    else:
        documents.append((1, text))
    failures = 0
    for number, doc in documents:
        try:
            value = json.loads(doc)
        except json.JSONDecodeError as e:
            print(f"{data_path}:{number + e.lineno - 1}: error: not JSON: {e.msg}")
            failures += 1
            continue
        for error in validator.iter_errors(value):
            path = "/" + "/".join(str(p) for p in error.absolute_path)
            print(f"{data_path}:{number}: error: {error.message[:300]} at {path}")
            failures += 1
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv))
