#!/usr/bin/env bash
# The Autobahn|Testsuite against IMWireNIO. Installs autobahntestsuite 25.10.1 (Python 2.7) in
# Tests/Autobahn/.venv when missing, builds imwire-echo, then either
# - runs `wstest -m fuzzingclient` against `imwire-echo PORT`, a WebSocket echo server, or
# - with --client, runs `wstest -m fuzzingserver` and `imwire-echo --client ws://127.0.0.1:PORT`,
#   a WebSocket client that echoes every message of every case,
# then checks every case with check.py (OK, NON-STRICT or INFORMATIONAL; close OK or INFORMATIONAL).
#
#   Tests/Autobahn/run.sh                    the server, cases of fuzzingclient.json (1-7, 9, 10, 12, 13)
#   Tests/Autobahn/run.sh --quick            the server, the CI subset in fuzzingclient-quick.json
#   Tests/Autobahn/run.sh --client [--quick] the client, fuzzingserver.json (or fuzzingserver-quick.json, the same subset)
#   Tests/Autobahn/run.sh --client --ci      the client's CI subset in fuzzingserver-ci.json (1-7, 10, 9.*.1, 12/13.*.1-2)
#   Tests/Autobahn/run.sh --record           also writes results/index.json (results/client-index.json with --client)
#
# PY2 (default: pyenv's 2.7.18) and PY3 (default: python3) name the interpreters;
# CONFIGURATION=debug|release (default debug, as the tests) the build; PORT (default 9001) the port.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
quick=0
record=0
client=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --record) record=1 ;;
    --client) client=1 ;;
    --ci) quick=ci ;;
    *) echo "usage: $0 [--client] [--quick|--ci] [--record]" >&2; exit 2 ;;
  esac
done
mode=fuzzingclient
[ "$client" = 1 ] && mode=fuzzingserver
spec="$here/$mode.json"
[ "$quick" = 1 ] && spec="$here/$mode-quick.json"
[ "$quick" = ci ] && spec="$here/$mode-ci.json"
[ -f "$spec" ] || { echo "$spec: no such case set" >&2; exit 2; }
PY2="${PY2:-$HOME/.pyenv/versions/2.7.18/bin/python}"
PY3="${PY3:-python3}"
CONFIGURATION="${CONFIGURATION:-debug}"
PORT="${PORT:-9001}"
venv="$here/.venv"

if [ ! -x "$venv/bin/wstest" ]; then
  # autobahntestsuite is Python 2 code; virtualenv 20.22 dropped Python 2 targets.
  "$PY3" -c 'import virtualenv' 2>/dev/null || "$PY3" -m pip install -q 'virtualenv<20.22'
  "$PY3" -m virtualenv -q -p "$PY2" "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'Twisted==19.10.0' 'autobahn==0.10.9' 'txaio==2.1.0' \
    'pyOpenSSL==19.1.0' 'cryptography==3.3.2' 'service_identity==18.1.0' 'klein==17.10.0' 'Werkzeug==1.0.1' \
    'jinja2==2.11.3' 'markupsafe==1.1.1' 'zope.interface==4.6.0' six unittest2 'incremental==16.10.1' 2>&1 |
    grep -v DEPRECATION || true
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps 'autobahntestsuite==25.10.1' 2>&1 | grep -v DEPRECATION || true
fi

# IMWIRE_STRICT=1 as scripts/test.sh sets it: the same manifest, so the tests' build is reused.
export IMWIRE_STRICT="${IMWIRE_STRICT:-1}"
(cd "$root" && swift build -c "$CONFIGURATION" --explicit-target-dependency-import-check error --product imwire-echo)
bin="$(cd "$root" && swift build -c "$CONFIGURATION" --show-bin-path)"

work="$(mktemp -d)"
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
wait_for_port() {
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$PORT" >&2
  return 1
}
sed "s/127.0.0.1:9001/127.0.0.1:$PORT/" "$spec" >"$work/spec.json"
start=$SECONDS
if [ "$client" = 0 ]; then
  "$bin/imwire-echo" "$PORT" &
  server=$!
  pids+=("$server")
  wait_for_port
  (cd "$work" && "$venv/bin/wstest" -m fuzzingclient -s spec.json >"$work/wstest.log" 2>&1) || {
    tail -20 "$work/wstest.log"
    exit 1
  }
  echo "wstest: $((SECONDS - start)) s"
  kill -0 "$server" || { echo "imwire-echo died" >&2; exit 1; }
  reports=servers
  summary_file=index.json
else
  # No web server (--webport 0): only the WebSocket port is taken.
  (cd "$work" && exec "$venv/bin/wstest" -m fuzzingserver -s spec.json --webport 0 >"$work/wstest.log" 2>&1) &
  server=$!
  pids+=("$server")
  wait_for_port
  # The client returns once /updateReports has answered, after the reports are written.
  "$bin/imwire-echo" --client "ws://127.0.0.1:$PORT" --agent imwire >"$work/client.log" 2>&1 || {
    tail -n 20 "$work/client.log" "$work/wstest.log"
    exit 1
  }
  kill -0 "$server" || { tail -n 20 "$work/wstest.log"; echo "wstest fuzzingserver died" >&2; exit 1; }
  echo "wstest fuzzingserver and imwire-echo --client: $((SECONDS - start)) s"
  reports=clients
  summary_file=client-index.json
fi
mkdir -p "$here/reports"
rm -rf "$here/reports/$reports" && cp -r "$work/reports/$reports" "$here/reports/$reports"
summary=()
[ "$record" = 1 ] && mkdir -p "$here/results" && summary=(--summary "$here/results/$summary_file")
"$PY3" "$here/check.py" "$here/reports/$reports/index.json" "${summary[@]}"
