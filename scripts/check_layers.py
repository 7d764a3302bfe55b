#!/usr/bin/env python3
"""Fails when a DuetDB source file includes a header of a layer it may not depend on.

The layers, bottom up, and what each may include besides itself (docs/architecture.md):
every folder's README says the same in words. An include is a `#include "folder/..."`
line; system and library headers (<...>) are not checked. tests/ and bench/ may include
anything: they test and measure the layers from outside.

  python3 scripts/check_layers.py           check the tree, print each upward include
  python3 scripts/check_layers.py --self-test
                                            also prove the check can fail: copy the tree,
                                            add one upward include, expect a failure
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Folder (or sub-folder) -> the include prefixes it may use besides its own folder. The
# longest matching folder decides. An entry ending in ".h" is one header (a facade).
ALLOWED = {
    "engine/limits": ["engine/error.h", "engine/invariant.h"],
    "engine/types": ["engine/error.h", "engine/invariant.h", "engine/limits/"],
    "engine/storage": ["engine/error.h", "engine/invariant.h", "engine/limits/", "engine/types/"],
    "engine/catalog": ["engine/error.h", "engine/invariant.h", "engine/limits/", "engine/types/", "engine/storage/"],
    "engine": ["engine/"],
    "compiler/parser": ["engine/"],
    "compiler/plan": ["engine/"],
    "compiler/runtime": ["engine/"],
    "compiler/functions": ["compiler/runtime/", "compiler/plan/", "engine/"],
    "compiler/binder": ["compiler/parser/", "compiler/plan/", "compiler/functions/", "engine/"],
    "compiler/planner": ["compiler/binder/", "compiler/parser/", "compiler/plan/", "compiler/functions/", "engine/"],
    "compiler/codegen": ["compiler/plan/", "compiler/runtime/", "compiler/functions/", "engine/"],
    "compiler/plpgsql": ["compiler/", "engine/"],
    "compiler": ["compiler/", "engine/"],
    # session/ sees the compiler through its facade only.
    "session": ["compiler/compiler.h", "engine/"],
    "wire": ["session/session_api.h", "engine/"],
    "logging": ["session/session_api.h", "engine/"],
    "snapshot": ["wire/", "logging/", "session/session_api.h", "session/executor.h", "engine/"],
    "server": ["snapshot/", "logging/", "wire/", "session/", "engine/"],
}
# Headers only their own folder may include: the code generator's internals, which the
# PL/pgSQL compiler reaches through sql_value.h and statement_generator.h instead.
PRIVATE = ["compiler/codegen/codegen_internal.h", "compiler/planner/statement_planner.h"]
LAYER_FOLDERS = ["engine", "compiler", "session", "wire", "logging", "snapshot", "server"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(path):
    """The longest ALLOWED key that is a folder of path (relative to the root)."""
    best = None
    for key in ALLOWED:
        if path.startswith(key + "/") and (best is None or len(key) > len(best)):
            best = key
    return best


def allowed(folder, header):
    if header in PRIVATE:
        return os.path.dirname(header) == folder
    if header.startswith(folder + "/"):
        return True
    for prefix in ALLOWED[folder]:
        if header == prefix or (prefix.endswith("/") and header.startswith(prefix)):
            return True
    return False


def violations(root):
    found = []
    for top in LAYER_FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root)
                folder = folder_of(rel)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or "/" not in m.group(1):
                            continue  # a sibling include without a folder, or <...>
                        if not allowed(folder, m.group(1)):
                            found.append(f"{rel}:{number}: {folder}/ may not include \"{m.group(1)}\"")
    return found


def self_test():
    """The check must fail on an upward include (engine/ including the session) and on a
    private header included from another folder (PL/pgSQL including codegen_internal.h)."""
    cases = [
        (os.path.join("engine", "types", "value.h"), "session/executor.h", "an upward include"),
        (os.path.join("compiler", "plpgsql", "plpgsql.h"), PRIVATE[0], "a private header from outside"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "tree")
        for top in LAYER_FOLDERS:
            shutil.copytree(os.path.join(ROOT, top), os.path.join(copy, top))
        for victim, header, what in cases:
            with open(os.path.join(copy, victim), "a") as f:
                f.write(f'\n#include "{header}"\n')
        found = violations(copy)
        for victim, header, what in cases:
            if not any(victim in v and header in v for v in found):
                print(f"check_layers self-test: {what} went unnoticed")
                return False
    print("check_layers self-test: an upward include and a private header are reported")
    return True


def main():
    found = violations(ROOT)
    for v in found:
        print(v)
    ok = not found
    print(f"check_layers: {len(found)} include(s) against the layers")
    if "--self-test" in sys.argv[1:]:
        ok = self_test() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
