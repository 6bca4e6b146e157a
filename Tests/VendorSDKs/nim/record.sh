#!/usr/bin/env bash
# Records the genuine NIM Web SDK 8.5.0 (driver.js) against the mock server (server.py), one
# scenario at a time, with dumpcap on lo, and writes into Fixtures/captures/vendor-sdk/nim/:
#   nim-<scenario>.pcapng     the capture (only the scenario's port)
#   nim-<scenario>.jsonl      its transcript (imwire convert --to jsonl)
#   nim-<scenario>.sdk.log  the SDK's callbacks as the driver logged them
#
#   VENDOR_SDK_DIR=/path/to/sdks Tests/VendorSDKs/nim/record.sh [clean drop refuse kick kick-silent error hb-unanswered]
#
# Needs node 20 (--experimental-websocket), python3, dumpcap (root or the wireshark group) and an
# imwire binary ($IMWIRE, else .build/debug/imwire, else imwire on PATH). Exits 77 when the SDK
# is not at hand.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out="$root/Fixtures/captures/vendor-sdk/nim"
sdk_file=NIM_Web_SDK_v8.5.0.js

if [ -z "${VENDOR_SDK_DIR:-}" ]; then
  echo "skipped: VENDOR_SDK_DIR not set (it must hold $sdk_file)" >&2
  exit 77
fi
if [ ! -f "$VENDOR_SDK_DIR/$sdk_file" ]; then
  echo "skipped: $VENDOR_SDK_DIR/$sdk_file missing" >&2
  exit 77
fi
imwire=${IMWIRE:-}
if [ -z "$imwire" ]; then
  if [ -x "$root/.build/debug/imwire" ]; then imwire="$root/.build/debug/imwire"; else imwire=$(command -v imwire || true); fi
fi
command -v dumpcap >/dev/null || { echo "dumpcap not found" >&2; exit 1; }

scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(clean drop refuse kick kick-silent error hb-unanswered)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base_port=${NIM_BASE_PORT:-18760}
i=0
for scenario in "${scenarios[@]}"; do
  port=$((base_port + i))
  i=$((i + 1))
  name="nim-$scenario"
  echo "== $scenario on 127.0.0.1:$port" >&2
  dumpcap -q -i lo -f "tcp port $port" -w "$work/$name.pcapng" 2>"$work/dumpcap.log" &
  dumpcap_pid=$!
  # wait until dumpcap captures
  for _ in $(seq 50); do grep -q "Capturing on" "$work/dumpcap.log" 2>/dev/null && break; sleep 0.1; done
  sleep 0.5
  python3 "$here/server.py" "$scenario" --port "$port" 2>"$work/$name.server.log" &
  server_pid=$!
  sleep 0.5
  set +e
  node --experimental-websocket "$here/driver.js" "$scenario" --port "$port" >"$out/$name.sdk.log" 2>"$work/$name.driver.log"
  rc=$?
  set -e
  sleep 1
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  sleep 1
  kill -INT "$dumpcap_pid" 2>/dev/null || true
  wait "$dumpcap_pid" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    echo "driver failed ($rc) for $scenario:" >&2
    tail -20 "$work/$name.driver.log" >&2
    exit 1
  fi
  cp "$work/$name.pcapng" "$out/$name.pcapng"
  chmod 644 "$out/$name.pcapng"
  if [ -n "$imwire" ]; then
    "$imwire" convert "$out/$name.pcapng" --to jsonl --show-secrets -o "$out/$name.jsonl"
  else
    echo "no imwire binary: $name.jsonl not written" >&2
  fi
  if [ -n "${NIM_KEEP_LOGS:-}" ]; then
    cp "$work/$name.server.log" "$work/$name.driver.log" "$NIM_KEEP_LOGS/" 2>/dev/null || true
  fi
  echo "   $(grep -c . "$out/$name.sdk.log") callbacks; $out/$name.pcapng" >&2
done
