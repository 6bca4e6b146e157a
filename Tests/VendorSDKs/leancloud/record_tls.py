#!/usr/bin/env python3
"""The genuine LeanCloud JS SDK over wss:// through `imwire proxy --tls` (issue 33): the SDK
(leancloud-realtime 5.0.0-rc.7 from $VENDOR_SDK_DIR, Node 20's WebSocket) trusts the IMWire CA
(NODE_EXTRA_CA_CERTS) and connects to wss://localhost:PROXY/; the proxy terminates its TLS with a
leaf minted for `localhost` and opens TLS to server.py (`websockets` with its own certificate, which
the proxy verifies with --upstream-ca). dumpcap records both legs on lo.

Checks, for scenario `clean` (log in, conversation, send, a push acknowledged, log out):
- the SDK logs in, its send resolves and the push arrives (its own callbacks);
- the proxy exits 0 (a clean session) and its live report reads one connection with its messages;
- `imwire check` of dumpcap's recording, with the proxy's --tls-keylog-out, decrypts both legs:
  exit 0, the same messages on each leg as the proxy saw, every connection decrypted;
- tshark with the same key log sees the same number of WebSocket messages.
Keeps Fixtures/captures/vendor-sdk/leancloud/leancloud-clean-tls.pcapng, the recording with the key
log inside (editcap --inject-secrets), which replay.py checks in CI with the other recordings, and
the SDK's callbacks beside it (.sdk.log).

Usage: python3 Tests/VendorSDKs/leancloud/record_tls.py IMWIRE     (exit 77 without the SDK)
Needs node 20, dumpcap, editcap, tshark, openssl, protoc and the venv record.sh makes.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
VENV = ROOT / "Tests" / "VendorSDKs" / ".venv-leancloud"
OUT = ROOT / "Fixtures" / "captures" / "vendor-sdk" / "leancloud" / "leancloud-clean-tls.pcapng"
PROXY_PORT, SERVER_PORT = 28790, 28791
PROBLEMS = []


def problem(text):
    PROBLEMS.append(text)
    print("FAIL " + text)


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def report(imwire, path, *extra):
    done = run(imwire, "check", path, "--format", "json", "--severity", "info", *extra)
    return done.returncode, json.loads(done.stdout) if done.stdout else {}


def main():
    imwire = pathlib.Path(sys.argv[1]).resolve()
    sdk = os.environ.get("VENDOR_SDK_DIR")
    if not sdk or not (pathlib.Path(sdk) / "im.js").exists():
        print("skipped: VENDOR_SDK_DIR not set or $VENDOR_SDK_DIR/im.js missing", file=sys.stderr)
        return 77
    if not (VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([VENV / "bin" / "pip", "install", "-q", "websockets", "protobuf"], check=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="imwire-sdk-tls-"))
    (VENV / "lcproto").mkdir(exist_ok=True)
    subprocess.run(["protoc", f"--python_out={VENV / 'lcproto'}", "-I", ROOT / "Spec" / "leancloud",
                    ROOT / "Spec" / "leancloud" / "messages2.proto"], check=True)
    # the server's own certificate for localhost, and the IMWire CA the SDK trusts
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout", tmp / "server.key", "-out", tmp / "server.pem").check_returncode()
    run(imwire, "ca", "create", "--out", tmp / "ca").check_returncode()
    ca_cert = tmp / "ca" / "imwire-ca.pem"

    wire, keys, live = tmp / "wire.pcapng", tmp / "keys.log", tmp / "live.json"
    dumpcap = subprocess.Popen(["dumpcap", "-q", "-i", "lo", "-f", f"tcp port {PROXY_PORT} or tcp port {SERVER_PORT}",
                                "-w", wire], stderr=subprocess.PIPE)
    time.sleep(1.5)
    env = dict(os.environ, PYTHONPATH=str(VENV / "lcproto"))
    server = subprocess.Popen([VENV / "bin" / "python", HERE / "server.py", "--port", str(SERVER_PORT), "--scenario",
                               "clean", "--log", tmp / "server.log", "--tls", tmp / "server.pem", tmp / "server.key"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    proxy = subprocess.Popen([imwire, "proxy", "--listen", f"127.0.0.1:{PROXY_PORT}",
                              "--upstream", f"127.0.0.1:{SERVER_PORT}", "--tls", "--ca", tmp / "ca",
                              "--upstream-ca", tmp / "server.pem", "--tls-keylog-out", keys, "--report", live,
                              "--max-connections", "1", "--duration", "90"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    driver = run("node", "--experimental-websocket", HERE / "driver.js", "clean", "--url",
                 f"wss://localhost:{PROXY_PORT}/", "--duration", "12",
                 env=dict(os.environ, NODE_EXTRA_CA_CERTS=str(ca_cert)), timeout=60)
    try:
        proxy_out, proxy_err = proxy.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proxy.terminate()
        proxy_out, proxy_err = proxy.communicate()
    server.terminate()
    server.wait()
    time.sleep(0.5)
    dumpcap.terminate()
    dumpcap.wait()

    callbacks = [json.loads(line)["cb"] for line in driver.stdout.splitlines() if line.startswith("{")]
    for wanted in ["api.createIMClient.resolved", "api.send.resolved", "client.message", "api.close.resolved"]:
        if wanted not in callbacks:
            problem(f"the SDK never logged {wanted}: {callbacks} {driver.stderr[-300:]}")
    if proxy.returncode != 0:
        problem(f"proxy exit {proxy.returncode}, expected 0 (a clean session): {proxy_out[-600:]} {proxy_err[-300:]}")
    live_report = json.loads(live.read_text()) if live.exists() else {"connections": []}
    live_messages = sum(c.get("messages", 0) for c in live_report["connections"])
    if len(live_report["connections"]) != 1 or live_messages < 6:
        problem(f"the proxy's report: {len(live_report['connections'])} connections, {live_messages} messages")

    status, wire_report = report(imwire, wire, "--tls-keylog", keys)
    legs = wire_report.get("connections", [])
    if status != 0:
        problem(f"imwire check of dumpcap's recording with the key log: exit {status}")
    if len(legs) != 2 or any((leg.get("tls") or {}).get("decrypted") is not True for leg in legs):
        problem(f"the recording's legs: {[(leg.get('dialect'), leg.get('tls')) for leg in legs]}")
    if any(leg.get("messages") != live_messages for leg in legs):
        problem(f"messages per leg {[leg.get('messages') for leg in legs]}, the proxy saw {live_messages}")
    shark = run("tshark", "-r", wire, "-o", f"tls.keylog_file:{keys}", "-Y", "websocket", "-T", "fields",
                "-e", "websocket.opcode")
    opcodes = [int(op) for line in shark.stdout.split() for op in line.split(",") if op]
    data = [op for op in opcodes if op in (1, 2)]  # text and binary; imwire counts no control frames
    if len(data) != 2 * live_messages:
        problem(f"tshark decrypts {len(data)} WebSocket data frames ({len(opcodes)} in all); "
                f"imwire {2 * live_messages} messages on two legs")

    if not PROBLEMS:
        run("editcap", "--inject-secrets", f"tls,{keys}", wire, OUT).check_returncode()
        OUT.chmod(0o644)
        OUT.with_suffix(".sdk.log").write_text(driver.stdout)
        status, kept = report(imwire, OUT)
        if status != 0 or len(kept.get("connections", [])) != 2:
            problem(f"{OUT.name} (key log inside): exit {status}")
    print(f"SDK callbacks {len(callbacks)}; proxy exit {proxy.returncode}, {live_messages} messages live; "
          f"recording: {len(legs)} legs, {[leg.get('messages') for leg in legs]} messages, exit {status}; "
          f"tshark {len(data)} WebSocket data frames of {len(opcodes)}")
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(PROBLEMS)} problems")
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
