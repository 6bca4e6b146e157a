#!/usr/bin/env bash
# Records the genuine JMessage web SDK 2.5.0 (driver.js) against the mock server (server.py):
#   Tests/VendorSDKs/jmessage/record.sh [SCENARIO ...]        (default: clean drop refuse kick error drop-pending drop-sync unanswered kick-password)
# writes Fixtures/captures/vendor-sdk/jmessage/jmessage-<scenario>.pcapng (dumpcap on lo, only the
# scenario's port), .jsonl (imwire convert --to jsonl) and .sdk.log (the driver's callback log).
# Needs: VENDOR_SDK_DIR with jmessage-sdk-web.2.5.0.min.js (else exit 77), node 20, dumpcap,
# python3 with python-socketio==4.6.1 python-engineio==3.14.2 eventlet (PYTHON, default the
# git-ignored venv Tests/VendorSDKs/.venv), IMWIRE (default: .build/debug/imwire of this checkout).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ -z "${VENDOR_SDK_DIR:-}" ]; then echo "skipped: VENDOR_SDK_DIR not set" >&2; exit 77; fi
if [ ! -f "$VENDOR_SDK_DIR/jmessage-sdk-web.2.5.0.min.js" ]; then
  echo "skipped: $VENDOR_SDK_DIR/jmessage-sdk-web.2.5.0.min.js missing" >&2; exit 77
fi
PYTHON=${PYTHON:-$root/Tests/VendorSDKs/.venv/bin/python}
IMWIRE=${IMWIRE:-$root/.build/debug/imwire}
out=$root/Fixtures/captures/vendor-sdk/jmessage
mkdir -p "$out"
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(clean drop refuse kick error drop-pending drop-sync unanswered kick-password)
base=${PORT_BASE:-18370}

for scenario in "${scenarios[@]}"; do
  case $scenario in
    clean) port=$base ;; drop) port=$((base + 2)) ;; refuse) port=$((base + 4)) ;;
    kick) port=$((base + 6)) ;; error) port=$((base + 8)) ;; drop-pending) port=$((base + 10)) ;; unanswered) port=$((base + 12)) ;; kick-password) port=$((base + 14)) ;; drop-sync) port=$((base + 16)) ;;
    *) echo "unknown scenario $scenario" >&2; exit 64 ;;
  esac
  name=jmessage-$scenario
  tmp=$(mktemp -d)
  echo "== $scenario (port $port)" >&2
  dumpcap -q -i lo -f "tcp port $port" -w "$tmp/$name.pcapng" 2>"$tmp/dumpcap.log" &
  dumpcap_pid=$!
  sleep 2
  "$PYTHON" -W ignore "$here/server.py" "$scenario" --port "$port" 2>"$tmp/server.log" &
  server_pid=$!
  sleep 1.5
  node --experimental-websocket "$here/driver.js" "$scenario" --port "$port" >"$out/$name.sdk.log" || true
  sleep 1
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  sleep 1
  kill -INT "$dumpcap_pid" 2>/dev/null || true
  wait "$dumpcap_pid" 2>/dev/null || true
  cp "$tmp/$name.pcapng" "$out/$name.pcapng" && chmod 644 "$out/$name.pcapng"
  cp "$tmp/server.log" "${LOG_DIR:-/tmp}/$name.server.log" 2>/dev/null || true
  "$IMWIRE" convert "$out/$name.pcapng" --to jsonl --show-secrets -o "$out/$name.jsonl" || echo "convert failed for $name" >&2
  rm -rf "$tmp"
done
