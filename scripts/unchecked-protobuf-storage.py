#!/usr/bin/env python3
"""Marks the stored properties of swift-protobuf's generated `_StorageClass`es
`@exclusivity(unchecked)`; run by scripts/generate-protobuf.sh after protoc.

Why: a message with heap storage (LeanCloud's GenericCommand, DirectCommand, SessionCommand,
ConvCommand) keeps its fields as `var`s of a fileprivate class, and every read or write of one
pays a dynamic exclusivity check (swift_beginAccess). Decoding a command copies the default
storage field by field, so these checks were about a tenth of `imwire check` on LeanCloud
traffic. The storage is fileprivate and only the generated accessors touch it, through
`_uniqueStorage()`, so no two accesses to one instance overlap; the checks cannot fire.
SwiftPM's `unsafeFlags(["-enforce-exclusivity=unchecked"])` would do the same for the whole
module but would stop packages that depend on IMWire by URL from building.

Usage: unchecked-protobuf-storage.py FILE        rewrite FILE in place (idempotent)
       unchecked-protobuf-storage.py --check FILE exit 1 if a storage property is unmarked
"""
import re
import sys

ATTRIBUTE = "@exclusivity(unchecked) "
STORED = re.compile(r"^(    )(var _\w+:)")


def mark(text):
    """The text with every stored property of a `_StorageClass` marked, and how many there are."""
    out, inside, count = [], False, 0
    for line in text.split("\n"):
        if line.strip() == "fileprivate class _StorageClass {":
            inside = True
        elif inside and line == "  }":
            inside = False
        elif inside:
            match = STORED.match(line)
            if match:
                line = match.group(1) + ATTRIBUTE + line[len(match.group(1)):]
                count += 1
        out.append(line)
    return "\n".join(out), count


def main(argv):
    check = argv[1:2] == ["--check"]
    path = argv[-1]
    text = open(path, encoding="utf-8").read()
    marked, count = mark(text.replace(ATTRIBUTE, ""))
    if check:
        if marked != text:
            print(f"{path}: run scripts/unchecked-protobuf-storage.py {path} (storage properties not all marked)", file=sys.stderr)
            return 1
        print(f"{path}: {count} storage properties marked")
        return 0
    open(path, "w", encoding="utf-8").write(marked)
    print(f"{path}: marked {count} storage properties")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
