#!/usr/bin/env python3
"""The size of IMWire's public API (issue 35): the public symbols of each library module, read
from its symbol graph (`swift symbolgraph-extract` over the modules of a debug build; members the
compiler synthesizes, such as `!=` of an Equatable type, are not counted), and a budget the total
must not pass. CI runs it after the build; lower BUDGET as the API shrinks (the aim is 1,500).

Usage: scripts/public-api.py [BUILD_DIR]   (default .build/debug; prints a table per module)
"""
import collections
import glob
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUDGET = 5_605
# Executables, and the fuzz targets' entry points, are not API.
NOT_API = {"IMWireFuzzTargets"}


def module_maps(build):
    """-Xcc flags naming every C module's map: the package's own, SwiftPM's generated ones, and
    those the dependencies ship."""
    maps = glob.glob(str(build / "*.build" / "module.modulemap"))
    maps += glob.glob(str(ROOT / "Sources" / "*" / "module.modulemap"))
    maps += glob.glob(str(ROOT / ".build" / "checkouts" / "*" / "Sources" / "*" / "include" / "module.modulemap"))
    return [flag for path in maps for flag in ("-Xcc", f"-fmodule-map-file={path}")]


def count(module, build, flags, out):
    run = subprocess.run(["swift", "symbolgraph-extract", "-module-name", module, "-I", str(build / "Modules"),
                          "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public",
                          "-skip-synthesized-members", "-output-dir", out, *flags], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"symbolgraph-extract {module} failed: {run.stderr.strip()[:500]}")
    kinds = collections.Counter()
    for path in glob.glob(f"{out}/{module}.symbols.json") + glob.glob(f"{out}/{module}@*.symbols.json"):
        with open(path) as f:
            kinds.update(symbol["kind"]["identifier"] for symbol in json.load(f)["symbols"])
    return kinds


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug"
    build = build.resolve()
    modules = sorted(d.name for d in (ROOT / "Sources").iterdir() if d.name.startswith("IMWire") and d.name not in NOT_API)
    flags = module_maps(build)
    total = 0
    with tempfile.TemporaryDirectory() as out:
        print(f"{'module':20} {'public':>7}  most common kinds")
        for module in modules:
            kinds = count(module, build, flags, out)
            n = sum(kinds.values())
            total += n
            common = ", ".join(f"{kind.removeprefix('swift.')} {k}" for kind, k in kinds.most_common(3))
            print(f"{module:20} {n:7}  {common}")
    print(f"{'total':20} {total:7}  (budget {BUDGET:,})")
    if total > BUDGET:
        print(f"the public API grew past its budget by {total - BUDGET}: make what modules share `package`, or raise "
              f"BUDGET in scripts/public-api.py with the reason in the commit")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
