#!/usr/bin/env python3
"""The size of IMWire's public API (issue 35): the public symbols of each library module, read
from its symbol graph (`swift symbolgraph-extract` over the modules of a debug build; members the
compiler synthesizes, such as `!=` of an Equatable type, are not counted), and a budget the total
must not pass. CI runs it after the build; lower BUDGET as the API shrinks (the aim is 1,500).
A module with a DocC catalogue (Sources/MODULE/*.docc) lists every public top-level type as
``Name`` in one of the catalogue's articles (its Topics); the ones missing are printed.

Usage: scripts/public-api.py [BUILD_DIR]   (default .build/debug; prints a table per module)
"""
import collections
import glob
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUDGET = 4_794
# Executables, and the fuzz targets' entry points, are not API.
NOT_API = {"IMWireFuzzTargets"}


def module_maps(build):
    """-Xcc flags naming every C module's map: the package's own, SwiftPM's generated ones, and
    those the dependencies ship."""
    maps = glob.glob(str(build / "*.build" / "module.modulemap"))
    maps += glob.glob(str(ROOT / "Sources" / "*" / "module.modulemap"))
    maps += glob.glob(str(ROOT / ".build" / "checkouts" / "*" / "Sources" / "*" / "include" / "module.modulemap"))
    return [flag for path in maps for flag in ("-Xcc", f"-fmodule-map-file={path}")]


TOP_LEVEL_TYPES = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


def count(module, build, flags, out):
    """The kinds of the module's public symbols, and the names of its public top-level types."""
    run = subprocess.run(["swift", "symbolgraph-extract", "-module-name", module, "-I", str(build / "Modules"),
                          "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public",
                          "-skip-synthesized-members", "-output-dir", out, *flags], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"symbolgraph-extract {module} failed: {run.stderr.strip()[:500]}")
    kinds = collections.Counter()
    types = set()
    for path in glob.glob(f"{out}/{module}.symbols.json") + glob.glob(f"{out}/{module}@*.symbols.json"):
        with open(path) as f:
            symbols = json.load(f)["symbols"]
        kinds.update(symbol["kind"]["identifier"] for symbol in symbols)
        if path.endswith(f"/{module}.symbols.json"):  # not the extensions of other modules' types
            types.update(symbol["pathComponents"][0] for symbol in symbols
                         if len(symbol["pathComponents"]) == 1 and symbol["kind"]["identifier"] in TOP_LEVEL_TYPES)
    return kinds, types


def undocumented(module, types):
    """The public top-level types a module's DocC catalogue does not name as ``Name``; empty for a
    module without a catalogue."""
    articles = glob.glob(str(ROOT / "Sources" / module / "*.docc" / "**" / "*.md"), recursive=True)
    if not articles:
        return []
    text = "".join(pathlib.Path(path).read_text() for path in articles)
    named = set(re.findall(r"``([A-Za-z_][A-Za-z0-9_]*)(?:``|/)", text))
    return sorted(types - named)


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug"
    build = build.resolve()
    modules = sorted(d.name for d in (ROOT / "Sources").iterdir() if d.name.startswith("IMWire") and d.name not in NOT_API)
    flags = module_maps(build)
    total = 0
    missing = {}
    with tempfile.TemporaryDirectory() as out:
        print(f"{'module':20} {'public':>7}  most common kinds")
        for module in modules:
            kinds, types = count(module, build, flags, out)
            if gaps := undocumented(module, types):
                missing[module] = gaps
            n = sum(kinds.values())
            total += n
            common = ", ".join(f"{kind.removeprefix('swift.')} {k}" for kind, k in kinds.most_common(3))
            print(f"{module:20} {n:7}  {common}")
    print(f"{'total':20} {total:7}  (budget {BUDGET:,})")
    for module, gaps in missing.items():
        print(f"{module}: public types its DocC catalogue does not list (add them as ``Name`` to its Topics, or make "
              f"them package): {', '.join(gaps)}")
    if total > BUDGET:
        print(f"the public API grew past its budget by {total - BUDGET}: make what modules share `package`, or raise "
              f"BUDGET in scripts/public-api.py with the reason in the commit")
    return 1 if missing or total > BUDGET else 0


if __name__ == "__main__":
    sys.exit(main())
