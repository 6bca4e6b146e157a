#!/usr/bin/env python3
"""Writes Fixtures/leancloud/ from Tests/CrossCheck/leancloud_cases.py.

The bytes and decoded forms come from Google's Python protobuf and the oracle module, never from
IMWire, so the Swift verifier (`imwire fixtures verify`) and the CI cross-check
(Tests/CrossCheck/leancloud.py) test IMWire against an independent implementation.
Usage: scripts/make-leancloud-fixtures.py   (needs protoc and `pip install protobuf`)
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "CrossCheck"))
import leancloud_cases as cases  # noqa: E402
import leancloud_oracle as oracle  # noqa: E402
from google.protobuf import __version__ as protobuf_version  # noqa: E402

OUT = os.path.join(oracle.ROOT, "Fixtures", "leancloud")
ORACLE = f"python-protobuf {protobuf_version}"


def write(path, fixture):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(fixture, fh, ensure_ascii=False, indent=2)
        fh.write("\n")


def expect(findings):
    if not findings:
        return "ok"
    items = [{"rule": r, "offset": o} if o is not None else {"rule": r} for r, o in findings]
    return items[0] if len(items) == 1 else items


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    by_name = {}
    count = 0
    for name, description, source, command in cases.COMMANDS:
        data = oracle.encode(command)
        decoded = oracle.decode(data)
        assert decoded == command, f"{name}: canonical form is not what protobuf prints: {decoded}"
        by_name[name] = command
        write(f"{OUT}/command/protobuf/{name}.json", {
            "description": description, "dialect": "leancloud", "layer": "command", "encoding": "protobuf",
            "bytes_hex": data.hex(), "decoded": command, "expect": "ok", "verified_by": [ORACLE], "source": source})
        count += 1
    for name in cases.BASE64:
        command = by_name[name]
        write(f"{OUT}/command/base64/{name}.json", {
            "description": f"{name} as an lc.proto2base64.3 text frame", "dialect": "leancloud", "layer": "command",
            "encoding": "base64", "text": oracle.b64(oracle.encode(command)), "decoded": command, "expect": "ok",
            "verified_by": [ORACLE], "source": "leancloud.md §2.1"})
        count += 1
    for name in cases.JSON:
        command = by_name[name]
        flat = oracle.flat_encode(command)
        assert oracle.flat_decode(flat) == command, name
        write(f"{OUT}/command/json/{name}.json", {
            "description": f"{name} in the flat lc.json encoding", "dialect": "leancloud", "layer": "command",
            "encoding": "json", "text": json.dumps(flat, ensure_ascii=False, separators=(",", ":")), "decoded": command,
            "expect": "ok", "verified_by": [ORACLE + " + flat-JSON oracle"], "source": "leancloud.md §2.2"})
        count += 1
    captured = json.loads(cases.JSON_CAPTURED)
    write(f"{OUT}/command/json/captured-session-conflict.json", {
        "description": "a real lc.json frame: 4111 SESSION_CONFLICT (realtime-SDK-dotNET#149)", "dialect": "leancloud",
        "layer": "command", "encoding": "json", "text": cases.JSON_CAPTURED, "decoded": oracle.flat_decode(captured),
        "expect": "ok", "verified_by": [ORACLE + " + flat-JSON oracle"], "source": "leancloud/realtime-SDK-dotNET#149"})
    write(f"{OUT}/command/json/heartbeat.json", {
        "description": "the lc.json keep-alive: the literal {}", "dialect": "leancloud", "layer": "command",
        "encoding": "json", "kind": "heartbeat", "text": "{}", "decoded": None, "expect": "ok",
        "verified_by": ["leancloud.md §2.2 (csharp LCLiveQueryHeartBeat.cs)"], "source": "leancloud.md §2.2"})
    count += 2
    for name, description, hex_bytes, findings, python_accepts in cases.MALFORMED:
        decoded = oracle.decode(bytes.fromhex(hex_bytes))
        assert (decoded is not None) == python_accepts, f"{name}: python accepts={decoded is not None}"
        imwire_decodes = not any(rule in ("PB.TRUNCATED", "PB.VARINT-TOO-LONG", "PB.FIELD-NUMBER-INVALID",
                                          "PB.WIRE-TYPE-INVALID", "PB.INVALID-UTF8") for rule, _ in findings)
        write(f"{OUT}/command/malformed/{name}.json", {
            "description": description, "dialect": "leancloud", "layer": "command", "encoding": "protobuf",
            "bytes_hex": hex_bytes, "decoded": decoded if imwire_decodes else None, "expect": expect(findings),
            "verified_by": [ORACLE + (" accepts" if python_accepts else " rejects")], "source": "protobuf encoding guide; leancloud.md §1.2"})
        count += 1
    for name, encoding, description, text, findings in cases.MALFORMED_TEXT:
        write(f"{OUT}/command/malformed/{name}.json", {
            "description": description, "dialect": "leancloud", "layer": "command", "encoding": encoding,
            "text": text, "decoded": None, "expect": expect(findings), "verified_by": ["python json/base64 modules"],
            "source": "leancloud.md §2"})
        count += 1
    for name, description, text, findings in cases.RICH:
        write(f"{OUT}/rich-message/{name}.json", {
            "description": description, "dialect": "leancloud", "layer": "rich-message", "text": text,
            "decoded": oracle.rich_typed(text),
            "expect": expect(findings), "verified_by": ["python json + typed-message oracle"], "source": "leancloud.md §7"})
        count += 1
    for name, action, client, conv, members, ts, nonce, upper, findings in cases.SIGNATURES:
        message = oracle.signature_message(cases.APP, action, client, conv, members, ts, nonce)
        signature = oracle.sign(message, cases.KEY)
        fixture_input = {"app_id": cases.APP, "master_key": cases.KEY, "client_id": client, "action": action,
                         "timestamp": ts, "nonce": nonce}
        if conv:
            fixture_input["conversation_id"] = conv
        if members:
            fixture_input["members"] = members
        write(f"{OUT}/signature/{name}.json", {
            "description": f"{action} signature", "dialect": "leancloud", "layer": "signature", "input": fixture_input,
            "message": message, "signature": signature.upper() if upper else signature, "expect": expect(findings),
            "verified_by": ["python hmac/hashlib"], "source": "leancloud.md §6"})
        count += 1
    print(f"wrote {count} fixtures under Fixtures/leancloud")


if __name__ == "__main__":
    main()
