#!/usr/bin/env bash
# The README's first command: install what is missing, build imwire, then check two captures
# shipped in Fixtures/captures/: a real LeanCloud session over WebSocket with permessage-deflate
# recorded with dumpcap (clean), and a transcript with protocol errors (findings), whose HTML
# report it writes to .build/quickstart-report.html. Pass a capture to check that instead.
# Exits 0 when both sample checks gave what they should (0, then 1), else the check's status.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || { echo "Swift 6.3 is required: https://www.swift.org/install/linux/" >&2; exit 2; }
scripts/ensure-packages.sh zlib1g-dev
# The same build settings as scripts/test.sh, so that running both builds once.
export IMWIRE_STRICT="${IMWIRE_STRICT:-1}"
swift build --explicit-target-dependency-import-check error --product imwire
imwire=.build/debug/imwire
report=.build/quickstart-report.html
if [ $# -gt 0 ]; then
  echo "\$ imwire check $1"
  status=0
  "$imwire" check "$1" || status=$?
  [ "$status" -le 1 ] && "$imwire" check "$1" --format html -o "$report" >/dev/null || true
  [ "$status" -gt 1 ] || echo "The HTML report: $report"
  exit "$status"
fi

echo "\$ imwire check Fixtures/captures/leancloud-real.pcapng        # a real session, recorded with dumpcap"
"$imwire" check Fixtures/captures/leancloud-real.pcapng
echo
echo "\$ imwire check Fixtures/captures/leancloud-broken.jsonl       # a session with protocol errors"
status=0
"$imwire" check Fixtures/captures/leancloud-broken.jsonl || status=$?
[ "$status" -eq 1 ] || { echo "expected exit 1 (findings), got $status" >&2; exit "$status"; }
"$imwire" check Fixtures/captures/leancloud-broken.jsonl --format html -o "$report" || [ $? -eq 1 ]
echo
echo "Exit 1 means findings. The same findings as one page, with sequence diagrams, the decoded"
echo "messages and filters: $report (open it in a browser)."
echo "Next: $imwire explain LC.MISSING-ACK, $imwire show Fixtures/captures/nim-real.pcapng, $imwire --help"
