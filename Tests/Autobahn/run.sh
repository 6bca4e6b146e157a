#!/usr/bin/env bash
# The Autobahn|Testsuite fuzzing client against imwire-echo, a WebSocket echo server built on
# IMWireNIO. Installs autobahntestsuite 25.10.1 (Python 2.7) in Tests/Autobahn/.venv when
# missing, builds imwire-echo, runs `wstest -m fuzzingclient`, then checks every case with
# check.py (OK, NON-STRICT or INFORMATIONAL; close OK or INFORMATIONAL).
#
#   Tests/Autobahn/run.sh            the cases in fuzzingclient.json (1-7, 9, 10, 12, 13)
#   Tests/Autobahn/run.sh --quick    the CI subset in fuzzingclient-quick.json
#   Tests/Autobahn/run.sh --record   also writes results/index.json (the committed summary)
#
# PY2 (default: pyenv's 2.7.18) and PY3 (default: python3) name the interpreters;
# CONFIGURATION=debug|release (default debug, as the tests) the build; PORT (default 9001) the port.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spec="$here/fuzzingclient.json"
record=0
for arg in "$@"; do
  case "$arg" in
    --quick) spec="$here/fuzzingclient-quick.json" ;;
    --record) record=1 ;;
    *) echo "usage: $0 [--quick] [--record]" >&2; exit 2 ;;
  esac
done
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
"$bin/imwire-echo" "$PORT" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  sleep 0.1
done
sed "s/127.0.0.1:9001/127.0.0.1:$PORT/" "$spec" >"$work/spec.json"
start=$SECONDS
(cd "$work" && "$venv/bin/wstest" -m fuzzingclient -s spec.json >"$work/wstest.log" 2>&1) || {
  tail -20 "$work/wstest.log"
  exit 1
}
echo "wstest: $((SECONDS - start)) s"
kill -0 "$server" || { echo "imwire-echo died" >&2; exit 1; }
rm -rf "$here/reports" && cp -r "$work/reports" "$here/reports"
summary=()
[ "$record" = 1 ] && mkdir -p "$here/results" && summary=(--summary "$here/results/index.json")
"$PY3" "$here/check.py" "$here/reports/servers/index.json" "${summary[@]}"
