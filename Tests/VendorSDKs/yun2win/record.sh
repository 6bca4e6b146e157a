#!/usr/bin/env bash
# Records the genuine yun2win web SDK against server.py, one scenario at a time:
#   Fixtures/captures/vendor-sdk/yun2win/yun2win-<scenario>.pcapng   (dumpcap on lo, this port only)
#   Fixtures/captures/vendor-sdk/yun2win/yun2win-<scenario>.jsonl    (imwire convert --to jsonl)
#   Fixtures/captures/vendor-sdk/yun2win/yun2win-<scenario>.sdk.log (the SDK's callbacks, driver.js)
#
#   VENDOR_SDK_DIR=/path/with/y2wIMSDK.min.js Tests/VendorSDKs/yun2win/record.sh [SCENARIO...]
#
# Default scenarios: clean drop refuse kick error error-token error-uid no-accept (keepalive, 320 s, only when named).
# Needs node 20, dumpcap, a python with `websockets` ($PYTHON, default Tests/VendorSDKs/.venv-yun2win),
# and imwire ($IMWIRE, default .build/debug/imwire). Exits 77 without the SDK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

if [ -z "${VENDOR_SDK_DIR:-}" ]; then
  echo "skipped: VENDOR_SDK_DIR not set (it must hold y2wIMSDK.min.js)" >&2; exit 77
fi
if [ ! -f "$VENDOR_SDK_DIR/y2wIMSDK.min.js" ]; then
  echo "skipped: $VENDOR_SDK_DIR/y2wIMSDK.min.js missing" >&2; exit 77
fi
PYTHON="${PYTHON:-$root/Tests/VendorSDKs/.venv-yun2win/bin/python}"
if [ -z "${IMWIRE:-}" ]; then
  IMWIRE="$root/.build/debug/imwire"
fi
out="$root/Fixtures/captures/vendor-sdk/yun2win"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(clean drop refuse kick error error-token error-uid no-accept)

port_of() {
  case "$1" in
    clean) echo 18741 ;; drop) echo 18742 ;; refuse) echo 18743 ;; kick) echo 18744 ;;
    error) echo 18745 ;; error-token) echo 18746 ;; keepalive) echo 18747 ;; error-uid) echo 18748 ;; no-accept) echo 18749 ;;
    *) echo "unknown scenario $1" >&2; exit 2 ;;
  esac
}

for s in "${scenarios[@]}"; do
  port="$(port_of "$s")"
  base="$out/yun2win-$s"
  echo "== $s (port $port)" >&2
  rm -f "$base.pcapng"
  dumpcap -q -i lo -f "tcp port $port" -w "$base.pcapng" 2>"$work/dumpcap-$s.log" &
  dpid=$!
  for _ in $(seq 50); do grep -q "Capturing on" "$work/dumpcap-$s.log" 2>/dev/null && break; sleep 0.1; done
  sleep 0.5
  "$PYTHON" "$here/server.py" "$s" --port "$port" --log "$work/server-$s.jsonl" &
  spid=$!
  for _ in $(seq 50); do grep -q listening "$work/server-$s.jsonl" 2>/dev/null && break; sleep 0.1; done
  rc=0
  node --experimental-websocket "$here/driver.js" "$s" --port "$port" >"$base.sdk.log" || rc=$?
  sleep 1
  kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true
  sleep 0.5
  kill -INT "$dpid" 2>/dev/null || true; wait "$dpid" 2>/dev/null || true
  [ -z "${SERVER_LOG_DIR:-}" ] || cp "$work/server-$s.jsonl" "$SERVER_LOG_DIR/yun2win-$s.server.log"
  chmod 644 "$base.pcapng" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then echo "driver exited $rc for $s" >&2; cat "$work/server-$s.jsonl" >&2; exit 1; fi
  if [ ! -x "$IMWIRE" ]; then echo "   no imwire at $IMWIRE: convert $base.pcapng later" >&2; continue; fi
  "$IMWIRE" convert "$base.pcapng" --to jsonl --show-secrets -o "$base.jsonl"
  echo "   $(wc -l <"$base.sdk.log") SDK log lines, $(grep -c '"dir"' "$base.jsonl") messages" >&2
done
