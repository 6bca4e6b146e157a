#!/usr/bin/env python3
"""`imwire conformance run` against deliberately broken testees (Conformance/testees/broken.py):
a wrong value, a crash, a hang, garbage and a wrong id give the right verdicts on exactly those
cases, the runner restarts the testee and goes on, exits 1, and finishes within its timeouts;
a failure list naming the broken tests makes the run pass, and a stale entry fails it. Every request
of every suite and IMWire's testee's response to it validate against
Spec/conformance-testee.schema.json (python jsonschema).
Usage: conformance_runner.py [path/to/imwire]"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/imwire")
BROKEN = os.path.join(ROOT, "Conformance/testees/broken.py")
SUITE = "mqtt.3.1.1"
TIMEOUT_MS = 400
BREAKS = {
    "wrong": "mqtt/packet/v311-pingreq",
    "crash": "mqtt/packet/v311-pingresp",
    "hang": "mqtt/packet/bad-connack-return-code-9",
    "garbage": "mqtt/packet/bad-pingreq-flags",
    "wrong-id": "mqtt/packet/v311-disconnect",
}
EXPECTED = {
    "wrong": ("failed", ""),  # "value {…}, expected …" or "encoded 00, expected …"
    "crash": ("error", "testee exited (status 3)"),
    "hang": ("error", f"timed out after {TIMEOUT_MS} ms"),
    "garbage": ("error", "garbage response: not JSON"),
    "wrong-id": ("error", "answered id"),
}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(extra, breaks=BREAKS):
    args = [IMWIRE, "conformance", "run", "--suite", SUITE, "--timeout-ms", str(TIMEOUT_MS), "--format", "json"] + extra
    args += ["--", sys.executable, BROKEN, IMWIRE]
    for flag, case in breaks.items():
        args += ["--" + flag, case]
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=ROOT)
    return done, time.monotonic() - start


with tempfile.TemporaryDirectory() as scratch:
    report_path = os.path.join(scratch, "report.json")
    done, elapsed = run(["-o", report_path])
    check(done.returncode == 1, f"broken testee: exit {done.returncode}, expected 1; {done.stderr[-500:]}")
    report = json.load(open(report_path))
    tests = {t["name"]: t for t in report["tests"]}
    broken_names = set()
    for kind, case in BREAKS.items():
        names = [n for n, t in tests.items() if t["case"] == case]
        check(any(n.startswith("Required.") for n in names), f"no Required test for {case}")
        verdict, detail = EXPECTED[kind]
        for name in names:
            test = tests[name]
            check(test["verdict"] == verdict, f"{kind}: {name} got {test['verdict']} {test['detail']!r}")
            check(not name.startswith("Required.") or test["detail"].startswith(detail), f"{kind}: {name}: {test['detail']!r}")
            broken_names.add(name)
    others = [t for n, t in tests.items() if n not in broken_names and t["verdict"] != "passed"]
    check(not others, f"tests not broken did not pass: {[(t['name'], t['detail']) for t in others][:5]}")
    check(set(report["summary"]["unexpected_failures"]) == broken_names, "unexpected_failures lists exactly the broken tests")
    # One hang of TIMEOUT_MS and four restarts: far below one timeout per case.
    bound = TIMEOUT_MS / 1000 * 3 + len(tests) * 0.2
    check(elapsed < bound, f"the run took {elapsed:.1f} s, bound {bound:.1f} s")

    # The same run as JUnit XML: well-formed, the broken tests as errors and failures.
    import xml.etree.ElementTree as ElementTree
    junit_path = os.path.join(scratch, "report.xml")
    run(["-o", junit_path, "--format", "junit"])
    suite = ElementTree.parse(junit_path).getroot().find("testsuite")
    errors = int(suite.get("errors")) + int(suite.get("failures"))
    check(suite.get("name") == SUITE and errors == len(broken_names), f"JUnit: {suite.attrib}, {len(broken_names)} broken tests")

    failure_list = os.path.join(scratch, "failures.txt")
    with open(failure_list, "w") as out:
        out.write("# the broken testee's known failures\n" + "\n".join(sorted(broken_names)) + "\n")
    done, _ = run(["--failure-list", failure_list])
    check(done.returncode == 0, f"with the failure list: exit {done.returncode}, expected 0")

    # A listed test that passes is stale: fixing the crash makes the list stale.
    fixed = {k: v for k, v in BREAKS.items() if k != "crash"}
    done, _ = run(["--failure-list", failure_list], breaks=fixed)
    stale = json.loads(done.stdout)["summary"]["stale"]
    check(done.returncode == 1 and any(n.endswith("." + BREAKS["crash"]) for n in stale), f"stale entry: exit {done.returncode}, stale {stale}")

    # The protocol's schema: every request of every suite, and IMWire's answers.
    try:
        import jsonschema
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "jsonschema"], check=True)
        import jsonschema
    schema = json.load(open(os.path.join(ROOT, "Spec", "conformance-testee.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    record = os.path.join(scratch, "record.jsonl")
    args = [IMWIRE, "conformance", "run", "--", sys.executable, BROKEN, IMWIRE, "--record", record]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=ROOT)
    check(done.returncode == 0, f"IMWire's testee behind the recorder: exit {done.returncode}")
    exchanges = [json.loads(line) for line in open(record)]
    invalid = [(e["request"]["case"], error.message[:150]) for e in exchanges for message in (e["request"], e["response"])
               for error in validator.iter_errors(message)]
    check(len(exchanges) > 1200 and not invalid, f"{len(exchanges)} exchanges, against the schema: {invalid[:5]}")

if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print(f"conformance runner: {len(BREAKS)} kinds of breakage graded right, {len(tests)} tests, run {elapsed:.1f} s, "
      f"failure list and stale entry ok, {len(exchanges)} requests and responses valid against the schema")
