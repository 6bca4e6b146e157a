#!/usr/bin/env bash
# Renders imwire's HTML report in a real browser (headless Chromium from Debian) and checks the
# DOM the page built, its script run: the summary table, one sequence diagram per connection with
# an arrow per message and the messages with findings marked, every expected finding's rule; a
# message opened from the link its arrow makes (its canonical JSON and hex), the filters set from
# the URL's fragment hiding the rows they exclude, identical findings grouped under one count,
# pages of 200 messages, one client's connections on one timeline, and the negotiated
# permessage-deflate in the connection's header.
# Usage: Tests/CrossCheck/html_report.sh [path/to/imwire] [--screenshot FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
imwire="$(realpath "${1:-.build/debug/imwire}")"
screenshot="${3:-}"
scripts/ensure-packages.sh chromium
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
report() { "$imwire" check "$1" --format html -o "$2" || [ $? -eq 1 ]; }
dom() { chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$1" 2>/dev/null; }

# A connection of 450 identical truncated commands (one grouped finding, three pages) and a second
# connection of the same client (the transcript has no addresses: one client per dialect).
python3 - "$work/many.jsonl" <<'PY'
import json, sys
lines = [{"type": "open", "conn": "a", "t": 0.0, "subprotocol": "lc.protobuf2.3", "url": "ws://x/"}]
lines += [{"conn": "a", "t": 0.01 * (i + 1), "dir": "send", "hex": "08"} for i in range(450)]
lines += [{"type": "open", "conn": "b", "t": 5.0, "subprotocol": "lc.protobuf2.3", "url": "ws://x/"},
          {"conn": "b", "t": 5.1, "dir": "send", "hex": "080e2801"}]
open(sys.argv[1], "w").write("".join(json.dumps(line) + "\n" for line in lines))
PY
report Fixtures/captures/leancloud-broken.jsonl "$work/broken.html"
report "$work/many.jsonl" "$work/many.html"
report Fixtures/captures/leancloud-real.pcapng "$work/real.html"
dom "$work/broken.html" > "$work/broken.dom"
dom "$work/broken.html#rule=LC.RESPONSE-WITHOUT-REQUEST" > "$work/broken-rule.dom"
dom "$work/many.html#c0-m250" > "$work/many-open.dom"
dom "$work/many.html#severity=warning,info" > "$work/many-severity.dom"
dom "$work/real.html#c0-m0" > "$work/real.dom"
chromium --headless --no-sandbox --disable-gpu --window-size=1100,1400 --screenshot="$work/report.png" \
  "file://$work/broken.html" >/dev/null 2>&1
[ -z "$screenshot" ] || cp "$work/report.png" "$screenshot"

python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
read = lambda name: open(f"{work}/{name}").read()
problems = []
def expect(ok, what):
    if not ok:
        problems.append(what)

# leancloud-broken: diagrams, arrows, marks, rules, summary; the page has no network reference.
dom = read("broken.dom")
expected = json.load(open("Fixtures/captures/leancloud-broken.expected.json"))
diagrams = re.findall(r'<svg class="sequence" id="diagram-(\d+)"', dom)
expect(diagrams == ["0", "1"], f"expected 2 sequence diagrams, the browser built {diagrams}")
arrows = len(re.findall(r'<g class="message', dom))
expect(arrows == 25, f"expected 25 message arrows, found {arrows}")
marked = set(re.findall(r'<g class="message finding (?:error|warning)" data-frame="(\d+)"', dom))
frames = {str(f["frame"]) for f in expected["findings"] if f["connection"] == "k1"}
expect(frames <= marked, f"frames with findings {sorted(frames)}, marked in the diagram {sorted(marked)}")
for rule in {f["rule"] for f in expected["findings"]} | {f["rule"] for f in expected["captureFindings"]}:
    expect(f"<code>{rule}</code>" in dom, f"rule {rule} missing from the findings tables")
expect('<table id="summary">' in dom, "no summary table")
expect(not re.search(r'<script[^>]+src=|(?:src|href)="https?://', dom), "the page loads something from elsewhere")
expect(re.search(r'<a href="[^"]*Spec/leancloud\.md#[a-z0-9-]+">', dom), "references are not links into Spec/")
total = len(re.findall(r'<tr class="finding ', dom))
expect(re.search(r'id="filter-count">\d+ findings? shown<', dom), "the filter count was not written by the script")

# The rule filter from the fragment: only that rule's rows stay visible, arrows of other rules dim.
dom = read("broken-rule.dom")
rows = re.findall(r'<tr class="finding [a-z]+" data-severity="[a-z]+" data-rule="([^"]+)" data-count="\d+"( hidden="")?', dom)
visible = {rule for rule, hidden in rows if not hidden}
expect(visible == {"LC.RESPONSE-WITHOUT-REQUEST"} and len(rows) == total,
       f"rule filter: visible rows {sorted(visible)} of {len(rows)}")
expect(re.search(r'<g class="message finding [a-z]+ dimmed"', dom), "rule filter: no arrow dimmed")

# 450 identical findings: one row with ×450; three pages, the second shown with message 250 open.
dom = read("many-open.dom")
expect(dom.count('<td class="count">×450</td>') == 1, "450 identical findings are not one row with ×450")
expect(len(re.findall(r'<tr class="finding ', dom)) == 1, "identical findings listed more than once")
pages = re.findall(r'<div class="page" data-page="(\d)"( hidden="")?>', dom)
expect([p for p, _ in pages][:3] == ["0", "1", "2"] and [bool(h) for _, h in pages][:3] == [True, False, True],
       f"pages of 200: {pages[:3]} (page 1 should be the one shown)")
opened = re.search(r'<details class="msg" id="c0-m250" open="">(.*?)</details>', dom, re.S)
expect(opened and '<pre class="hex">0000  08' in opened.group(1), "message 250 not opened from its link, or no hex")
expect(re.search(r'<details class="messages" open=""><summary>the messages 201–400', dom), "the list holding message 250 was not opened")
expect(len(re.findall(r'<details class="msg" id="c0-m\d+"', dom)) == 450, "not every message of connection a is on a page")
expect(re.search(r'<svg class="client-timeline" id="client-0"', dom)
       and len(re.findall(r'<g class="client-connection"', dom)) == 2, "the client's two connections are not on one timeline")

# The severity filter from the fragment: the error row hidden.
dom = read("many-severity.dom")
expect(re.search(r'<tr class="finding error"[^>]*hidden=""', dom), "severity filter did not hide the error row")
expect('id="filter-count">0 findings shown<' in dom, "severity filter count")

# A real LeanCloud capture with permessage-deflate: the header names it; a message opens to JSON and hex.
dom = read("real.dom")
expect(re.search(r'extensions <code class="extensions">permessage-deflate[^<]*</code>', dom), "negotiated extensions not shown")
opened = re.search(r'<details class="msg" id="c0-m0" open="">(.*?)</details>', dom, re.S)
expect(opened and '<pre class="json">' in opened.group(1) and '<pre class="hex">' in opened.group(1),
       "the first message does not open to its JSON and hex")

png = open(f"{work}/report.png", "rb").read()
expect(png.startswith(b"\x89PNG") and len(png) > 20000, "the screenshot is empty")
for problem in problems:
    print("FAIL", problem)
print(f"html report {'FAILED' if problems else 'ok'} in headless Chromium: {len(diagrams)} diagrams, {arrows} arrows, "
      f"{len(marked)} marked messages, filters, grouping, pages, client timeline, extensions; screenshot {len(png)} bytes")
sys.exit(1 if problems else 0)
PY
