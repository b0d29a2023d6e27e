#!/usr/bin/env python3
"""json_check.py FILE: FILE must be one JSON document in strict UTF-8 (an array of host objects or
one object) whose strings hold no control characters; prints 'valid JSON, N hosts, no control
characters'. json_check.py --text FILE: FILE (any text) must be UTF-8 without control characters
other than newlines; prints 'no control characters'."""
import json
import sys


def controls(text):
    return [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]


if sys.argv[1] == "--text":
    text = open(sys.argv[2], "rb").read().decode("utf-8")  # strict: raises on invalid UTF-8
    bad = controls(text)
    print("no control characters" if not bad else f"control characters: {bad!r}")
    sys.exit(0)

doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
hosts = doc if isinstance(doc, list) else [doc]
bad = []


def walk(v):
    if isinstance(v, str):
        bad.extend(controls(v))
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, dict):
        for x in v.values():
            walk(x)


walk(doc)
print(f"valid JSON, {len(hosts)} hosts, " +
      ("no control characters" if not bad else f"control characters: {bad!r}"))
