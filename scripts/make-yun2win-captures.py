#!/usr/bin/env python3
"""Writes the yun2win sample transcripts in Fixtures/captures/ from the session fixtures in
Fixtures/yun2win/sessions/ (whose bytes scripts/generate-mqtt-yun2win-fixtures.py built and
Tests/CrossCheck/yun2win_mqtt.py checks against scapy). Each session fixture becomes a JSONL
transcript (Spec/capture-jsonl.md) plus `<name>.expected.json`, the rules `imwire check` must
report (warning and error), exactly.
Usage: scripts/make-yun2win-captures.py
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSIONS = {"clean": "yun2win-clean", "kicked-then-reconnect": "yun2win-kicked-reconnect"}


def main():
    for source, name in SESSIONS.items():
        fixture = json.load(open(f"{ROOT}/Fixtures/yun2win/sessions/{source}.json"))
        lines = []
        for index, connection in enumerate(fixture["input"]["connections"], start=1):
            conn = f"y{index}"
            first = connection["events"][0]["t"] if connection["events"] else 0
            lines.append({"type": "open", "conn": conn, "t": first, "dialect": "yun2win"})
            for event in connection["events"]:
                lines.append({"conn": conn, "t": event["t"], "dir": event["dir"], "hex": event["hex"]})
            lines.append({"type": "close", "conn": conn, "t": connection["end"]})
        with open(f"{ROOT}/Fixtures/captures/{name}.jsonl", "w") as fh:
            fh.write("".join(json.dumps(line) + "\n" for line in lines))
        expect = fixture["expect"]
        rules = [] if expect == "ok" else [e["rule"] for e in (expect if isinstance(expect, list) else [expect])]
        with open(f"{ROOT}/Fixtures/captures/{name}.expected.json", "w") as fh:
            json.dump({"description": f"{fixture['description']} (from Fixtures/yun2win/sessions/{source}.json): the rules "
                                      "`imwire check` reports at warning or error, exactly",
                       "rules": rules}, fh, indent=2)
            fh.write("\n")
        print(f"wrote Fixtures/captures/{name}.jsonl ({len(lines)} lines), expecting {rules or 'no findings'}")


if __name__ == "__main__":
    main()
