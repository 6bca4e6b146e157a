#!/usr/bin/env bash
# Records the genuine LeanCloud JS SDK (leancloud-realtime 5.0.0-rc.7, loaded by driver.js from
# $VENDOR_SDK_DIR) against server.py, one scenario at a time, with dumpcap on lo:
#   Fixtures/captures/vendor-sdk/leancloud/leancloud-<scenario>.pcapng     the capture
#   Fixtures/captures/vendor-sdk/leancloud/leancloud-<scenario>.jsonl      imwire convert --to jsonl
#   Fixtures/captures/vendor-sdk/leancloud/leancloud-<scenario>.sdk.log  the SDK's callbacks
#   Fixtures/captures/vendor-sdk/leancloud/leancloud-<scenario>.server.log  what the mock did
# Usage: Tests/VendorSDKs/leancloud/record.sh [SCENARIO...]   (default: all)
# Needs: node 20, python3 (a venv with websockets + protobuf is made under Tests/VendorSDKs/.venv-leancloud),
# protoc, dumpcap, and an imwire binary ($IMWIRE, else .build/debug/imwire).
# Exits 77 (skipped) without the SDK.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUT="$ROOT/Fixtures/captures/vendor-sdk/leancloud"
VENV="$ROOT/Tests/VendorSDKs/.venv-leancloud"

if [ -z "${VENDOR_SDK_DIR:-}" ] || [ ! -f "$VENDOR_SDK_DIR/im.js" ]; then
  echo "skipped: VENDOR_SDK_DIR not set or \$VENDOR_SDK_DIR/im.js missing (leancloud-realtime 5.0.0-rc.7 dist/im.js)" >&2
  exit 77
fi
IMWIRE="${IMWIRE:-}"
if [ -z "$IMWIRE" ]; then
  IMWIRE="$ROOT/.build/debug/imwire"
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q websockets protobuf
fi
mkdir -p "$VENV/lcproto" "$OUT"
protoc --python_out="$VENV/lcproto" -I "$ROOT/Spec/leancloud" "$ROOT/Spec/leancloud/messages2.proto"
export PYTHONPATH="$VENV/lcproto"

ALL=(clean drop refuse kick error error-login ackclose twouser goaway close-fatal close-retry freechat)
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=("${ALL[@]}")

port_of() {  # a fixed port per scenario (127.0.0.1 only)
  local i=0
  for s in "${ALL[@]}"; do
    [ "$s" = "$1" ] && { echo $((28710 + i)); return; }
    i=$((i + 1))
  done
  echo 28799
}

record() {
  local sc="$1" port; port="$(port_of "$sc")"
  local base="$OUT/leancloud-$sc" tmp; tmp="$(mktemp -d)"
  echo "== $sc (port $port)"
  rm -f "$base.pcapng" "$base.jsonl" "$base.sdk.log" "$base.server.log"
  dumpcap -q -i lo -f "tcp port $port" -w "$tmp/cap.pcapng" 2>"$tmp/dumpcap.err" &
  local dc=$!
  for _ in $(seq 50); do grep -q "Capturing on" "$tmp/dumpcap.err" 2>/dev/null && break; [ -s "$tmp/cap.pcapng" ] && break; sleep 0.1; done
  sleep 0.5
  local extra=()
  [ "$sc" = "refuse" ] && extra=(--refuse-seconds 20)
  "$VENV/bin/python" "$HERE/server.py" --port "$port" --scenario "$sc" --log "$base.server.log" "${extra[@]}" >/dev/null 2>"$tmp/server.err" &
  local srv=$!
  sleep 1
  local nb=()
  [ "$sc" = "kick" ] && nb=(--no-binary)   # one scenario over lc.proto2base64.3
  if [ "$sc" = "twouser" ] || [ "$sc" = "freechat" ]; then
    local long=12 short=8
    [ "$sc" = "freechat" ] && { long=18; short=14; }
    node --experimental-websocket "$HERE/driver.js" "$sc" --port "$port" --peer bob --to alice --role receiver --duration "$long" >"$tmp/bob.jsonl" &
    local bob=$!
    sleep 1.5
    node --experimental-websocket "$HERE/driver.js" "$sc" --port "$port" --peer alice --to bob --role sender --duration "$short" >"$tmp/alice.jsonl"
    wait "$bob"
    { sed 's/^{/{"process":"alice",/' "$tmp/alice.jsonl"; sed 's/^{/{"process":"bob",/' "$tmp/bob.jsonl"; } >"$base.sdk.log"
  else
    node --experimental-websocket "$HERE/driver.js" "$sc" --port "$port" "${nb[@]}" >"$base.sdk.log"
  fi
  sleep 1
  kill "$srv" 2>/dev/null || true
  wait "$srv" 2>/dev/null || true
  sleep 0.5
  kill -INT "$dc" 2>/dev/null || true
  wait "$dc" 2>/dev/null || true
  cp "$tmp/cap.pcapng" "$base.pcapng"
  chmod 644 "$base.pcapng"
  "$IMWIRE" convert "$base.pcapng" --to jsonl --show-secrets -o "$base.jsonl"
  [ -s "$tmp/server.err" ] && { echo "server stderr:"; tail -5 "$tmp/server.err"; }
  rm -rf "$tmp"
  echo "   $(wc -l <"$base.sdk.log") SDK callbacks, $(wc -l <"$base.jsonl") transcript lines"
}

for sc in "${SCENARIOS[@]}"; do record "$sc"; done
