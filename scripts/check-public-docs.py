#!/usr/bin/env python3
"""Every public type, protocol and typealias under Sources/ has a `///` doc comment (issue #22).

Prints the ones without, and exits 1 when there are any. Usage: scripts/check-public-docs.py
"""
import pathlib
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:indirect\s+)?"
    r"(struct|enum|class|protocol|actor|typealias)\s+(\w+)")

root = pathlib.Path(__file__).resolve().parent.parent
missing = []
for path in sorted((root / "Sources").rglob("*.swift")):
    if "Generated" in path.parts:  # protoc-gen-swift's output
        continue
    lines = path.read_text().split("\n")
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        above = number - 1
        while above >= 0 and lines[above].strip().startswith("@"):  # attributes between the doc and the type
            above -= 1
        text = lines[above].strip() if above >= 0 else ""
        if not (text.startswith("///") or text.endswith("*/")):
            missing.append(f"{path.relative_to(root)}:{number + 1}: public {match.group(1)} {match.group(2)} has no doc comment")
print("\n".join(missing) if missing else "every public type has a doc comment")
sys.exit(1 if missing else 0)
