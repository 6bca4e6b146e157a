#!/usr/bin/env python3
"""`imwire fixtures export --format vectors`: every file validates against
Spec/conformance-vectors.schema.json (python jsonschema), tcIds are unique, numberOfTests counts
the tests, every flag has a note, and the files together hold one test per conformance case.
Usage: vectors.py [path/to/imwire]"""
import glob
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "jsonschema"], check=True)
    import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "imwire")
schema = json.load(open(os.path.join(ROOT, "Spec", "conformance-vectors.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
problems, total, results = [], 0, {}
with tempfile.TemporaryDirectory() as out:
    subprocess.run([IMWIRE, "fixtures", "export", "--format", "vectors", "--out", out], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    files = sorted(glob.glob(os.path.join(out, "*.json")))
    for path in files:
        data = json.load(open(path))
        name = os.path.basename(path)
        problems += [f"{name}: {error.message[:200]} at {list(error.absolute_path)[:6]}" for error in validator.iter_errors(data)]
        tests = [t for group in data["testGroups"] for t in group["tests"]]
        if len(tests) != data["numberOfTests"]:
            problems.append(f"{name}: numberOfTests {data['numberOfTests']}, {len(tests)} tests")
        if len({t["tcId"] for t in tests}) != len(tests):
            problems.append(f"{name}: duplicate tcId")
        for t in tests:
            results[t["result"]] = results.get(t["result"], 0) + 1
            problems += [f"{name}: tcId {t['tcId']}: flag {f} has no note" for f in t["flags"] if f not in data["notes"]]
        if name != data["suite"] + ".json":
            problems.append(f"{name}: suite {data['suite']}")
        total += len(tests)
run = subprocess.run([IMWIRE, "conformance", "run", "--format", "json", "--", IMWIRE, "conformance", "testee"], cwd=ROOT,
                     capture_output=True, text=True)
cases = len({(t["case"], ".Encode." in t["name"]) for t in json.loads(run.stdout)["tests"]})
if cases != total:
    problems.append(f"{total} vectors, {cases} conformance cases")
for problem in problems[:30]:
    print("FAIL", problem)
print(f"vectors: {len(files)} files, {total} tests ({', '.join(f'{k} {v}' for k, v in sorted(results.items()))}), "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
