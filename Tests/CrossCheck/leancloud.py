#!/usr/bin/env python3
"""Cross-checks IMWire's LeanCloud codec against Google's Python protobuf (CI runs this).

1. The scanner tables are what protoc's descriptor of Spec/leancloud/messages2.proto says.
2. Every fixture under Fixtures/leancloud agrees with the oracle: bytes decode to `decoded`,
   clean fixtures re-encode byte for byte, malformed ones are accepted or rejected as listed.
3. `imwire decode` prints, for every binary fixture, what Google's decoder prints.
4. A randomized round: RANDOM_COMMANDS commands built from the descriptor in Python, decoded by
   `imwire decode --lines` and encoded back by `imwire encode --lines`, field by field and byte
   for byte.

Usage: Tests/CrossCheck/leancloud.py [path/to/imwire]   (needs protoc; installs `protobuf` with pip)
"""
import glob
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

try:
    import google.protobuf  # noqa: F401
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "protobuf"], check=True)

sys.path.insert(0, HERE)
import leancloud_oracle as oracle  # noqa: E402
from google.protobuf.descriptor import FieldDescriptor  # noqa: E402

IMWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "imwire")
RANDOM_COMMANDS = 1000
# IMWire rejects these where upb accepts (a decision, listed in Spec/leancloud.md):
# invalid UTF-8 in proto2 strings (Swift strings must be valid) and varints beyond 64 bits.
ALLOWED_REJECTIONS = {"PB.INVALID-UTF8", "PB.VARINT-TOO-LONG"}

failures = []


def fail(message):
    failures.append(message)
    print("FAIL", message)


def run(args, stdin):
    result = subprocess.run([IMWIRE] + args, input=stdin, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        fail(f"imwire {' '.join(args)} exited {result.returncode}: {result.stderr.strip()[:300]}")
    return result.stdout


def check_schema():
    result = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "generate-leancloud-schema.py"), "--check"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        fail(result.stderr.strip())


def expected_rules(fixture):
    expect = fixture["expect"]
    if expect == "ok":
        return set()
    return {e["rule"] for e in (expect if isinstance(expect, list) else [expect])}


def check_fixtures():
    counts = {}
    binary_inputs = []  # (path, hex, decoded-by-python)
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "leancloud", "**", "*.json"), recursive=True)):
        fixture = json.load(open(path))
        name = os.path.relpath(path, ROOT)
        layer, encoding = fixture["layer"], fixture.get("encoding")
        counts[layer] = counts.get(layer, 0) + 1
        if layer == "command" and encoding in ("protobuf", "base64"):
            if encoding == "protobuf":
                data = bytes.fromhex(fixture["bytes_hex"])
            else:
                try:
                    data = oracle.base64.b64decode(fixture["text"], validate=True)
                except Exception:
                    data = None
            if data is None:
                if fixture["expect"] == "ok":
                    fail(f"{name}: python cannot read the base64")
                continue
            python = oracle.decode(data)
            rules = expected_rules(fixture)
            if fixture["decoded"] is not None and python != fixture["decoded"]:
                fail(f"{name}: python decodes {python}, fixture says {fixture['decoded']}")
            if fixture["decoded"] is None and python is not None and not (rules & ALLOWED_REJECTIONS):
                fail(f"{name}: python accepts bytes the fixture says IMWire rejects")
            if fixture["expect"] == "ok" and oracle.encode(python).hex() != data.hex():
                fail(f"{name}: python re-encodes {oracle.encode(python).hex()}")
            if encoding == "protobuf" and python is not None and fixture["decoded"] is not None:
                binary_inputs.append((name, fixture["bytes_hex"], python))
        elif layer == "command" and encoding == "json":
            if fixture["expect"] != "ok":
                continue
            flat = json.loads(fixture["text"])
            if oracle.flat_decode(flat) != fixture["decoded"]:
                fail(f"{name}: flat JSON oracle decodes {oracle.flat_decode(flat)}")
            if fixture["decoded"] is not None and oracle.flat_encode(fixture["decoded"]) != flat:
                fail(f"{name}: flat JSON oracle encodes {oracle.flat_encode(fixture['decoded'])}")
        elif layer == "rich-message":
            if oracle.rich_typed(fixture["text"]) != fixture["decoded"]:
                fail(f"{name}: typed-message oracle gives {oracle.rich_typed(fixture['text'])}")
        elif layer == "signature":
            i = fixture["input"]
            message = oracle.signature_message(i["app_id"], i["action"], i["client_id"], i.get("conversation_id"),
                                               i.get("members", []), i["timestamp"], i["nonce"])
            if message != fixture["message"] or oracle.sign(message, i["master_key"]) != fixture["signature"].lower():
                fail(f"{name}: hmac oracle disagrees")
    # IMWire's own decoder on every binary fixture that both sides decode.
    output = run(["decode", "--dialect", "leancloud", "--lines", "--show-secrets"], "\n".join(h for _, h, _ in binary_inputs) + "\n")
    lines = output.splitlines()
    if len(lines) != len(binary_inputs):
        fail(f"imwire decode --lines printed {len(lines)} results for {len(binary_inputs)} fixtures")
    for (name, _, python), line in zip(binary_inputs, lines):
        decoded = json.loads(line).get("decoded")
        if decoded != python:
            fail(f"{name}: imwire decodes {decoded}, python {python}")
    return counts, len(binary_inputs)


def random_value(field, rng, depth):
    t = field.type
    if t == FieldDescriptor.TYPE_INT32:
        return rng.choice([0, 1, -1, 127, 128, 2**31 - 1, -2**31, rng.randint(-2**31, 2**31 - 1)])
    if t == FieldDescriptor.TYPE_INT64:
        return str(rng.choice([0, -1, 2**63 - 1, -2**63, 1700000000000, rng.randint(-2**63, 2**63 - 1)]))
    if t == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FieldDescriptor.TYPE_STRING:
        return rng.choice(["", "a", "tom", "中文", "😀", "quote\"back\\slash", "x" * rng.randint(0, 300)])
    if t == FieldDescriptor.TYPE_BYTES:
        return oracle.b64(bytes(rng.randrange(256) for _ in range(rng.randint(0, 20))))
    if t == FieldDescriptor.TYPE_ENUM:
        return rng.choice(field.enum_type.values).name
    return random_message(field.message_type, rng, depth + 1)


def random_message(descriptor, rng, depth=0):
    """Random fields of every type; required ones always, nested messages at most 3 deep."""
    obj = {}
    for field in descriptor.fields:
        nested = field.type == FieldDescriptor.TYPE_MESSAGE
        if not field.is_required and (rng.random() > 0.3 or (nested and depth > 2)):
            continue
        if field.is_repeated:
            obj[field.name] = [random_value(field, rng, depth) for _ in range(rng.randint(1, 3))]
        else:
            obj[field.name] = random_value(field, rng, depth)
    return obj


def check_random():
    rng = random.Random(20261121)
    commands = []
    for _ in range(RANDOM_COMMANDS):
        obj = random_message(oracle.GenericCommand.DESCRIPTOR, rng)
        message = oracle.from_canonical(obj)
        commands.append((message.SerializeToString(), oracle.canonical(message)))
    decoded_lines = run(["decode", "--dialect", "leancloud", "--lines", "--show-secrets"], "\n".join(b.hex() for b, _ in commands) + "\n").splitlines()
    encoded_lines = run(["encode", "--dialect", "leancloud", "--lines"],
                        "\n".join(json.dumps(c, ensure_ascii=False) for _, c in commands) + "\n").splitlines()
    if len(decoded_lines) != len(commands) or len(encoded_lines) != len(commands):
        fail(f"random round: {len(decoded_lines)} decoded / {len(encoded_lines)} encoded for {len(commands)}")
        return 0
    fields = 0
    for index, ((data, python), decoded_line, encoded_line) in enumerate(zip(commands, decoded_lines, encoded_lines)):
        envelope = json.loads(decoded_line)
        encoding_findings = [f for f in envelope["findings"] if f["layer"] == "encoding"]
        if envelope["decoded"] != python or encoding_findings:
            fail(f"random #{index}: imwire {envelope['decoded']} {encoding_findings}, python {python}")
        if encoded_line != data.hex():
            fail(f"random #{index}: imwire encodes {encoded_line}, python {data.hex()}")
        fields += count_fields(python)
    return fields


def count_fields(obj):
    if isinstance(obj, dict):
        return sum(1 + count_fields(v) for v in obj.values())
    if isinstance(obj, list):
        return sum(count_fields(v) for v in obj)
    return 0


def main():
    if not os.path.exists(IMWIRE):
        print(f"imwire not found at {IMWIRE}; build it first (swift build)")
        return 2
    check_schema()
    counts, decoded_by_both = check_fixtures()
    fields = check_random()
    summary = ", ".join(f"{n} {layer}" for layer, n in sorted(counts.items()))
    status = "FAILED" if failures else "ok"
    print(f"leancloud cross-check {status}: fixtures {summary}; imwire decode agreed on {decoded_by_both} binary fixtures; "
          f"{RANDOM_COMMANDS} random commands ({fields} fields) decoded and re-encoded identically"
          + (f"; {len(failures)} disagreements" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
