#!/usr/bin/env bash
# Renders imwire's HTML report in a real browser (headless Chromium from Debian) and checks the
# DOM it built: the summary table, one sequence diagram per connection with an arrow per message,
# the messages with findings marked, and every expected finding's rule in the findings tables.
# Usage: Tests/CrossCheck/html_report.sh [path/to/imwire]
set -euo pipefail
cd "$(dirname "$0")/../.."
imwire="${1:-.build/debug/imwire}"
scripts/ensure-packages.sh chromium
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$imwire" check Fixtures/captures/leancloud-broken.jsonl --format html -o "$work/report.html" || [ $? -eq 1 ]
chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$work/report.html" 2>/dev/null > "$work/dom.html"
chromium --headless --no-sandbox --disable-gpu --window-size=1100,1400 --screenshot="$work/report.png" "file://$work/report.html" >/dev/null 2>&1
python3 - "$work/dom.html" "$work/report.png" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
expected = json.load(open("Fixtures/captures/leancloud-broken.expected.json"))
problems = []
diagrams = re.findall(r'<svg class="sequence" id="diagram-(\d+)"', dom)
if diagrams != ["0", "1"]:
    problems.append(f"expected 2 sequence diagrams, the browser built {diagrams}")
arrows = len(re.findall(r'<g class="message', dom))
if arrows != 25:
    problems.append(f"expected 25 message arrows, found {arrows}")
marked = set(re.findall(r'<g class="message finding (?:error|warning)" data-frame="(\d+)"', dom))
frames = {str(f["frame"]) for f in expected["findings"] if f["connection"] == "k1"}
if not frames <= marked:
    problems.append(f"frames with findings {sorted(frames)}, marked in the diagram {sorted(marked)}")
for rule in {f["rule"] for f in expected["findings"]} | {f["rule"] for f in expected["captureFindings"]}:
    if f"<code>{rule}</code>" not in dom:
        problems.append(f"rule {rule} missing from the findings tables")
if '<table id="summary">' not in dom:
    problems.append("no summary table")
if re.search(r'<script|(?:src|href)="https?://', dom):
    problems.append("the page is not self-contained (script or network reference)")
png = open(sys.argv[2], "rb").read()
if not png.startswith(b"\x89PNG") or len(png) < 20000:
    problems.append("the screenshot is empty")
for problem in problems:
    print("FAIL", problem)
print(f"html report {'FAILED' if problems else 'ok'} in headless Chromium: {len(diagrams)} diagrams, {arrows} arrows, "
      f"{len(marked)} marked messages, screenshot {len(png)} bytes")
sys.exit(1 if problems else 0)
PY
