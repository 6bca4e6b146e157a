#!/usr/bin/env python3
"""Runs every testee of Conformance/testees/ through `imwire conformance run` with its committed
failure list (Conformance/failures/<testee>.txt) and writes the scorecards, Conformance/RESULTS.md.

  scorecard.py [--imwire PATH]            run all; exit 1 when a run fails (an unexpected
                                          failure or a stale failure-list entry)
  scorecard.py --write [--imwire PATH]    rewrite the failure lists and RESULTS.md
  scorecard.py --check [--imwire PATH]    run all and fail when RESULTS.md differs (drift)

The independent testees run in the cross-checks' virtualenvs (Tests/CrossCheck/.venv,
.venv-socketio), created with the pinned versions when missing.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CROSS = os.path.join(ROOT, "Tests", "CrossCheck")
RESULTS = os.path.join(HERE, "RESULTS.md")
VENVS = {
    ".venv": ["wsproto==1.3.2", "websockets==17.4", "paho-mqtt==2.2.0", "scapy==2.8.0", "protobuf==7.36.2"],
    ".venv-socketio": ["python-engineio==3.14.2", "python-socketio==4.6.1", "six"],
}
LEGACY = ["gevent-socketio==0.3.6", "socketIO-client==0.5.7.4"]

TESTEES = [
    {"name": "imwire", "label": "IMWire (`imwire conformance testee`)", "pins": "this repository", "suites": None},
    {"name": "protobuf", "label": "Google protobuf, Python (upb)", "venv": ".venv", "script": "protobuf_leancloud.py", "args": [],
     "pins": "protobuf==7.36.2, GenericCommand from protoc", "suites": ["leancloud.binary", "leancloud.base64"]},
    {"name": "scapy", "label": "scapy.contrib.mqtt", "venv": ".venv", "script": "scapy_mqtt.py", "args": [], "pins": "scapy==2.8.0",
     "suites": ["mqtt.3.1", "mqtt.3.1.1"]},
    {"name": "paho-mqtt", "label": "paho-mqtt packet decoders (what a client receives)", "venv": ".venv", "script": "paho_mqtt.py",
     "args": [], "pins": "paho-mqtt==2.2.0", "suites": ["mqtt.3.1", "mqtt.3.1.1"]},
    {"name": "wsproto", "label": "wsproto (sans-IO, server)", "venv": ".venv", "script": "websocket_oracles.py", "args": ["wsproto"],
     "pins": "wsproto==1.3.2", "suites": ["websocket.frames", "websocket.permessage-deflate"]},
    {"name": "websockets", "label": "websockets (sans-IO Protocol, server)", "venv": ".venv", "script": "websocket_oracles.py",
     "args": ["websockets"], "pins": "websockets==17.4", "suites": ["websocket.frames", "websocket.permessage-deflate"]},
    {"name": "python-engineio", "label": "python-engineio + python-socketio Packet classes", "venv": ".venv-socketio",
     "script": "socketio_oracles.py", "args": ["engineio"], "pins": "python-engineio==3.14.2, python-socketio==4.6.1",
     "suites": ["engineio.3"]},
    {"name": "gevent-socketio", "label": "gevent-socketio packet module + socketIO-client framing", "venv": ".venv-socketio",
     "script": "socketio_oracles.py", "args": ["v09"], "pins": "gevent-socketio==0.3.6, socketIO-client==0.5.7.4",
     "suites": ["socketio.0.9"]},
]

# Who is right, where the rule catalogue alone does not say: (testee, case), (testee, rule) or
# (testee, operation) → line.
NOTES = {
    ("websockets", "websocket/frame/frame.close-after-fragment-then-text"):
        "IMWire is right: RFC 6455 §5.4 allows control frames, a close too, between a message's fragments; "
        "websockets 17.4 fails the connection with 1002",
    ("python-engineio", "jmessage/engineio/sio-connect-namespace"):
        "both defensible: python-socketio 4.6.1 writes a CONNECT to /chat without the `,` socket.io-parser writes "
        "(Spec/socketio.md#sio-packet (namespace)); parsers read both",
    ("protobuf", "PB.INVALID-UTF8"):
        "both defensible, by decision (Spec/leancloud.md#protobuf-vs-upb): proto2 leaves `string` UTF-8 unchecked and upb "
        "accepts; IMWire (like swift-protobuf) rejects, a Swift String cannot hold it",
    ("protobuf", "leancloud/command/malformed/varint-overflow"):
        "both defensible, by decision (Spec/leancloud.md#protobuf-vs-upb): upb drops the bits beyond the 64th of a 10-byte "
        "varint; IMWire rejects the varint",
    ("protobuf", "PB.ENUM-UNKNOWN-VALUE"):
        "IMWire is right for LeanCloud (Spec/leancloud.md#schema (closed enums)): a generic proto2 parser keeps an undefined "
        "closed-enum value as an unknown field, as protobuf specifies; the command then has no cmd/op the SDKs know",
    ("gevent-socketio", "Encode"):
        "IMWire is right about the bytes: gevent-socketio 0.3.6 writes JSON with Python's separators (`, `, `: `), "
        "socket.io-client 0.9.11 with JSON.stringify (none); the same JSON value",
}


def ensure_venvs():
    for name, pins in VENVS.items():
        path = os.path.join(CROSS, name)
        python = os.path.join(path, "bin", "python")
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", path], check=True)
        probe = "import wsproto, websockets, scapy, google.protobuf" if name == ".venv" else "import engineio, socketio"
        if subprocess.run([python, "-c", probe], capture_output=True).returncode != 0:
            subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *pins], check=True)
    legacy = os.path.join(CROSS, ".venv-socketio", "legacy")
    if not os.path.exists(os.path.join(legacy, "done")):
        os.makedirs(legacy, exist_ok=True)
        python = os.path.join(CROSS, ".venv-socketio", "bin", "python")
        subprocess.run([python, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d", legacy, *LEGACY], check=True)
        import tarfile
        for archive in os.listdir(legacy):
            if archive.endswith(".tar.gz"):
                with tarfile.open(os.path.join(legacy, archive)) as tar:
                    tar.extractall(legacy)
        open(os.path.join(legacy, "done"), "w").close()


def command(testee, imwire):
    if testee["name"] == "imwire":
        return [imwire, "conformance", "testee"]
    python = os.path.join(CROSS, testee["venv"], "bin", "python")
    return [python, os.path.join(HERE, "testees", testee["script"]), *testee["args"]]


def failure_list_path(testee):
    return os.path.join(HERE, "failures", testee["name"] + ".txt")


def run(testee, imwire, scratch, with_list=True):
    out = os.path.join(scratch, testee["name"] + ".json")
    args = [imwire, "conformance", "run", "--format", "json", "-o", out, "--timeout-ms", "10000"]
    for suite in testee["suites"] or []:
        args += ["--suite", suite]
    if with_list and os.path.exists(failure_list_path(testee)):
        args += ["--failure-list", failure_list_path(testee)]
    done = subprocess.run(args + ["--", *command(testee, imwire)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1) or not os.path.exists(out):
        raise SystemExit(f"{testee['name']}: imwire conformance run exited {done.returncode}: {done.stderr[-800:]}")
    return done.returncode, json.load(open(out))


def load_rules(imwire):
    out = subprocess.run([imwire, "rules", "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return {rule["id"]: rule for rule in json.loads(out)}


def fixture(case):
    return json.load(open(os.path.join(ROOT, "Fixtures", case + ".json"), encoding="utf-8"))


def expected_rules(body):
    expect = body["expect"]
    if expect == "ok":
        return []
    return [e["rule"] for e in (expect if isinstance(expect, list) else [expect])]


def who_is_right(testee, test, rules):
    """One line: who is right about this deviation, and why (the Spec section cites the RFC or SDK)."""
    name = testee["name"]
    case = test["case"]
    if (name, case) in NOTES:
        return NOTES[(name, case)]
    operation = "Encode" if ".Encode." in test["name"] or ".Both." in test["name"] else "Decode"
    if (name, operation) in NOTES and test["level"] == "Required":
        return NOTES[(name, operation)]
    body = fixture(case)
    ids = expected_rules(body)
    documented = body.get("known_disagreements", {}).get(name)
    if documented and test["level"] == "Required":
        return f"documented in the fixture (known_disagreements): {documented['reason']}"
    for rule in ids:
        if (name, rule) in NOTES:
            return NOTES[(name, rule)]
    if test["verdict"] == "error":
        return f"the testee failed ({test['detail'][:120]}); not a verdict on the input"
    if not ids:
        return f"to be analysed: IMWire's value is the cross-checked fixture; {test['detail'][:160]}"
    known = [rules[r] for r in ids if r in rules]
    if test["level"] == "Recommended":
        return "the library gives no byte offset" if "without an offset" in test["detail"] else test["detail"][:160]
    lenient_error = any(r["lenientSeverity"] == "error" for r in known)
    first = known[0] if known else {"summary": ids[0], "specRef": "?"}
    if lenient_error:
        return f"IMWire is right: {first['summary']} ({first['specRef']}); {name} does not check it"
    return (f"both defensible: {first['summary']} ({first['specRef']}) is only a warning outside strict mode; "
            f"{name} tolerates it")


def suite_counts(report, suite, level):
    entry = next((s for s in report["suites"] if s["suite"] == suite), None)
    if entry is None:
        return None
    return entry[level]


def render(reports, rules):
    lines = ["# Conformance scorecards", "",
             "<!-- Generated by Conformance/scorecard.py --write; CI runs scorecard.py --check (drift). Do not edit. -->", "",
             "Every testee answers the golden fixtures over the testee protocol (Spec/conformance.md) through",
             "`imwire conformance run` with its failure list (Conformance/failures/). **Required**: valid input decodes",
             "to the canonical value / encodes to the exact bytes (Both: one request does the round trip), invalid",
             "input is rejected. **Recommended**: the",
             "rejection names the byte offset (and IMWire rule) the fixture gives. Skipped: the testee does not",
             "implement the operation (most independent testees only decode).", "",
             "| testee | pinned | suite | Required passed | Recommended passed | skipped |", "|---|---|---|---|---|---|"]
    for testee, report in reports:
        for entry in report["suites"]:
            req, rec = entry["required"], entry["recommended"]
            lines.append(f"| {testee['label']} | {testee['pins']} | `{entry['suite']}` | {req['passed']}/{req['total']} | "
                         f"{rec['passed']}/{rec['total']} | {req['skipped'] + rec['skipped']} |")
    lines += ["", "## Deviations", "",
              "Every test an independent testee fails, with the case id (the fixture below `Fixtures/`) and who is right.",
              "\"IMWire is right\": the fixture's rule is an error even in lenient mode (its Spec section cites the RFC,",
              "the OASIS standard or the SDK). \"Both defensible\": IMWire's strict mode flags what the specification",
              "tolerates or only recommends against."]
    totals = []
    for testee, report in reports:
        if testee["name"] == "imwire":
            continue
        failing = [t for t in report["tests"] if t["verdict"] in ("failed", "error")]
        right = sum(1 for t in failing if t["level"] == "Required" and who_is_right(testee, t, rules).startswith("IMWire is right"))
        totals.append((testee, len([t for t in failing if t["level"] == "Required"]), right))
        lines += ["", f"### {testee['label']} ({testee['pins']})", ""]
        if not failing:
            lines.append("No deviation.")
            continue
        required = [t for t in failing if t["level"] == "Required"]
        for t in required:
            operation = next(op for op in ("Encode", "Both", "Decode") if f".{op}." in t["name"] or op == "Decode")
            lines.append(f"- `{t['case']}` ({operation}): {who_is_right(testee, t, rules)}")
        recommended = [t for t in failing if t["level"] == "Recommended" and not any(r["case"] == t["case"] for r in required)]
        if recommended:
            groups = {}
            for t in recommended:
                groups.setdefault(who_is_right(testee, t, rules), []).append(t["case"])
            for why, cases in groups.items():
                lines.append(f"- Recommended only ({len(cases)}): {why}: " + ", ".join(f"`{c}`" for c in cases))
    lines += ["", "## What the independent implementations got wrong", ""]
    for testee, failed, right in totals:
        lines.append(f"- {testee['label']}: {failed} Required deviations, {right} where IMWire is right (the specification "
                     f"forbids what the library accepts), {failed - right} defensible, documented in the fixture, or to be analysed.")
    lines += ["", "How sure: that a library accepts, rejects or reads an input differently is observed here, not inferred.",
              "An \"IMWire is right\" line rests on a rule that is an error even in lenient mode and whose Spec section",
              "quotes the requirement (RFC 6455/7692, MQTT 3.1/3.1.1, engine.io-parser/socket.io-parser, proto2 and the",
              "LeanCloud schema); \"both defensible\" lines are IMWire's strict-mode choices and its documented decisions;",
              "\"documented in the fixture\" repeats the fixture's `known_disagreements`, written when it was cross-checked.",
              "No independent library reports a byte offset: their Recommended passes are the wrappers' own",
              "remaining-length checks. Lines \"to be analysed\" would be open questions, not verdicts.", ""]
    return "\n".join(lines)


def failure_list(testee, report, rules):
    lines = [f"# Known failures of the {testee['label']} testee ({testee['pins']}); generated by Conformance/scorecard.py --write.",
             "# A listed test that passes fails the run (stale): regenerate."]
    for t in report["tests"]:
        if t["verdict"] in ("failed", "error"):
            lines.append(f"{t['name']}  # {who_is_right(testee, t, rules)[:150]}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imwire", default=os.path.join(ROOT, ".build", "debug", "imwire"))
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args()
    ensure_venvs()
    rules = load_rules(args.imwire)
    reports, failed = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for testee in TESTEES:
            if args.only and testee["name"] not in args.only:
                continue
            if args.write and testee["name"] != "imwire":
                _, report = run(testee, args.imwire, scratch, with_list=False)
                with open(failure_list_path(testee), "w") as out:
                    out.write(failure_list(testee, report, rules))
            status, report = run(testee, args.imwire, scratch)
            if status != 0:
                failed.append(f"{testee['name']}: {len(report['summary']['unexpected_failures'])} unexpected failures, "
                              f"{len(report['summary']['stale'])} stale entries, e.g. "
                              f"{(report['summary']['unexpected_failures'] + report['summary']['stale'])[:3]}")
            reports.append((testee, report))
            print(f"{testee['name']}: " + ", ".join(f"{s['suite']} Required {s['required']['passed']}/{s['required']['total']}"
                                                     for s in report["suites"]))
    text = render(reports, rules)
    if args.write and not args.only:
        with open(RESULTS, "w") as out:
            out.write(text)
    if args.check and (not os.path.exists(RESULTS) or open(RESULTS).read() != text):
        failed.append("Conformance/RESULTS.md is out of date: run Conformance/scorecard.py --write")
    for problem in failed:
        print("FAIL", problem)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
