#!/usr/bin/env python3
"""Two edits to the heap storage (`_StorageClass`) of swift-protobuf's generated code; run by
scripts/generate-protobuf.sh after protoc.

A message with heap storage (LeanCloud's GenericCommand, DirectCommand, SessionCommand,
ConvCommand) keeps its fields as `var`s of a fileprivate class. Decoding one starts from the
shared default instance and, on the first write, `_uniqueStorage()` copies it field by field.

1. Its stored properties are marked `@exclusivity(unchecked)`: every read or write of one paid
   a dynamic exclusivity check (swift_beginAccess), about a tenth of `imwire check` on LeanCloud
   traffic. The storage is fileprivate and only the generated accessors touch it, through
   `_uniqueStorage()`, so no two accesses to one instance overlap; the checks cannot fire.
   SwiftPM's `unsafeFlags(["-enforce-exclusivity=unchecked"])` would do the same for the whole
   module but would stop packages that depend on IMWire by URL from building.
2. `_uniqueStorage()` makes a fresh instance (`init()`, made fileprivate for it) instead of
   copying the default one: nothing ever writes to the default instance, so the two are equal,
   and the copy went through every optional sub-message's value witness (about 6 % of
   `imwire check` on the benchmark capture).

Usage: tune-protobuf-storage.py FILE        rewrite FILE in place (idempotent)
       tune-protobuf-storage.py --check FILE exit 1 if FILE lacks either edit
"""
import re
import sys

ATTRIBUTE = "@exclusivity(unchecked) "
STORED = re.compile(r"^(    )(var _\w+:)")
COPY = "      _storage = _StorageClass(copying: _storage)\n"
FRESH = "      _storage = _storage === _StorageClass.defaultInstance ? _StorageClass() : _StorageClass(copying: _storage)\n"
PRIVATE_INIT = "\n    private init() {}\n"
FILEPRIVATE_INIT = "\n    fileprivate init() {}\n"


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


def tune(text):
    """The text with both edits, from protoc's output or from a tuned file; the counts."""
    text = text.replace(ATTRIBUTE, "").replace(FRESH, COPY).replace(FILEPRIVATE_INIT, PRIVATE_INIT)
    text, marked = mark(text)
    fresh = text.count(COPY)
    return text.replace(COPY, FRESH).replace(PRIVATE_INIT, FILEPRIVATE_INIT), marked, fresh


def main(argv):
    check = argv[1:2] == ["--check"]
    path = argv[-1]
    text = open(path, encoding="utf-8").read()
    tuned, marked, fresh = tune(text)
    summary = f"{marked} storage properties marked, {fresh} storages start fresh"
    if check:
        if tuned != text:
            print(f"{path}: run scripts/tune-protobuf-storage.py {path} (the storage edits are missing)", file=sys.stderr)
            return 1
        print(f"{path}: {summary}")
        return 0
    open(path, "w", encoding="utf-8").write(tuned)
    print(f"{path}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
