#!/usr/bin/env python3
"""Checks that every SQL text of statements.py and routines.py is HammerDB's.

  verify_statements.py PATH/TO/pgoltp.tcl

pgoltp.tcl is src/postgresql/pgoltp.tcl of TPC-Council/HammerDB (the commit named in
statements.py). Each text must occur in it as written, or after Tcl's backslash escapes
inside double quotes (\\" \\$ \\\\) are resolved. Prints the texts that do not and exits 1;
the driver itself never needs HammerDB's source.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import routines  # noqa: E402
import statements  # noqa: E402


def texts_of(module):
    """(name, text) for every str constant of module, including those in lists and dicts."""
    for name, value in vars(module).items():
        if name.startswith("_") or name == "COPY_END_LINE":  # the end line is data, not SQL
            continue
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, list):
            yield from ((f"{name}[{i}]", text) for i, text in enumerate(value))
        elif isinstance(value, dict):
            yield from ((f"{name}[{key!r}]", text) for key, text in value.items())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tcl = open(sys.argv[1], encoding="utf-8").read()
    resolved = tcl.replace('\\"', '"').replace("\\$", "$").replace("\\\\", "\\")
    missing = [name for module in (statements, routines) for name, text in texts_of(module)
               if text not in tcl and text not in resolved]
    for name in missing:
        print(f"not in pgoltp.tcl: {name}")
    checked = sum(1 for module in (statements, routines) for _ in texts_of(module))
    print(f"{checked - len(missing)} of {checked} texts found in {sys.argv[1]}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
