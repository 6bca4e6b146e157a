#!/usr/bin/env python3
"""Runs the vendors' own SDKs (their drivers in Tests/VendorSDKs/) against `imwire serve`, one
scenario of Fixtures/serve/ at a time, and writes the grades to Conformance/CLIENTS.md.

Today `imwire serve` serves LeanCloud; the SDK is leancloud-realtime 5.0.0-rc.7 (dist/im.js,
loaded from $VENDOR_SDK_DIR by leancloud/driver.js; without it: exit 77, nothing written). The
SDK finds the server through its router (`--router`: GET /v1/route), as against LeanCloud's cloud.

Usage: VENDOR_SDK_DIR=/path/to/sdks Tests/VendorSDKs/serve_scorecard.py [path/to/imwire] [SCENARIO...]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
IMWIRE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "imwire")
OUT = os.path.join(ROOT, "Conformance", "CLIENTS.md")

# serve scenario -> (driver scenario, its --duration, peers: [(peer, to, role)], expected grade, who is right when it is not OK)
LEANCLOUD = {
    "clean": ("clean", 12, [("alice", "bob", "sender")]),
    "drop": ("drop", 20, [("alice", "bob", "sender")]),
    "refuse": ("refuse", 30, [("alice", "bob", "sender")]),
    "flap": ("drop", 30, [("alice", "bob", "sender")]),
    "kick": ("kick", 12, [("alice", "bob", "sender")]),
    "close-fatal": ("close-fatal", 12, [("alice", "bob", "sender")]),
    "close-retry": ("close-retry", 15, [("alice", "bob", "sender")]),
    "goaway": ("goaway", 15, [("alice", "bob", "sender")]),
    "error-login": ("error-login", 8, [("alice", "bob", "sender")]),
    "error-send": ("error", 8, [("alice", "bob", "sender")]),
    "withhold-ack": ("clean", 30, [("alice", "bob", "sender")]),
    "delay-ack": ("clean", 10, [("alice", "bob", "sender")]),
}
TWO_USERS = ("clean", "twouser", 12, [("alice", "bob", "sender"), ("bob", "alice", "receiver")])
# Who is right where the SDK is not graded OK, with the code or reference it rests on.
# (Empty: the SDK gets OK everywhere. refuse was a false NON-STRICT until the judge took the
# policy of the host's logged-in client for refused connections and leancloud-js's two servers
# per attempt: see CHANGELOG.)
WHO_IS_RIGHT = {}


def run(scenario, driver_scenario, duration, peers, port):
    with tempfile.TemporaryDirectory() as out:
        server = subprocess.Popen([IMWIRE, "serve", "--scenario", scenario, "--listen", f"127.0.0.1:{port}", "--idle", "10",
                                   "--out", out, "--duration", str(duration + 40)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = server.stderr.readline()
        if not re.search(r"on 127\.0\.0\.1:\d+", line):
            raise SystemExit(f"imwire serve did not start: {line}{server.stderr.read()}")
        drivers = []
        for peer, to, role in peers:
            drivers.append(subprocess.Popen(
                ["node", "--experimental-websocket", os.path.join(HERE, "leancloud", "driver.js"), driver_scenario, "--port", str(port),
                 "--router", "--peer", peer, "--to", to, "--role", role, "--duration", str(duration)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            time.sleep(0.5)
        logs = []
        for driver in drivers:
            stdout, stderr = driver.communicate(timeout=duration + 60)
            if driver.returncode == 77:
                server.kill()
                print(stderr.strip(), file=sys.stderr)
                sys.exit(77)
            logs.append(stdout)
        stdout, stderr = server.communicate(timeout=duration + 90)
        index = json.load(open(os.path.join(out, "index.json"))) if os.path.exists(os.path.join(out, "index.json")) else {}
        return index, stdout, logs


def main():
    wanted = sys.argv[2:] or list(LEANCLOUD) + ["clean (two users)"]
    rows = []
    port = 28900
    for name in wanted:
        port += 1
        if name == "clean (two users)":
            scenario, driver_scenario, duration, peers = TWO_USERS
        else:
            scenario = name
            driver_scenario, duration, peers = LEANCLOUD[name]
        index, text, _ = run(scenario, driver_scenario, duration, peers, port)
        print(text.strip(), flush=True)
        for peer, _, _ in peers:
            result = index.get(peer, {}).get(scenario)
            if result is None:
                rows.append((name, peer, "no grade", "", "", ["the SDK never reached the server"]))
                continue
            reasons = list(result["reasons"])
            if result["grade"] != "OK":
                reasons.append("**Who is right:** " + WHO_IS_RIGHT.get((name, peer), "not yet examined"))
            rows.append((name, peer, result["grade"], result["protocol"], result["behaviour"], reasons))
    lines = [
        "# The vendors' own SDKs against `imwire serve`",
        "",
        "Written by `Tests/VendorSDKs/serve_scorecard.py` (the SDKs are not in this repository or in CI:",
        "`Tests/VendorSDKs/README.md`). Each row: one scenario of `Fixtures/serve/` (`Spec/serve.md`) played",
        "against the genuine SDK, which found the server through its router (`GET /v1/route`), and the",
        "grades `imwire serve` gave it. Today `imwire serve` serves LeanCloud only.",
        "",
        "## LeanCloud: leancloud-realtime 5.0.0-rc.7 (`dist/im.js`), driven by `Tests/VendorSDKs/leancloud/driver.js`",
        "",
        "| scenario | client | grade | protocol | behaviour | reasons |",
        "|---|---|---|---|---|---|",
    ]
    for name, peer, grade, protocol, behaviour, reasons in rows:
        text = "<br>".join(r.replace("|", "\\|") for r in reasons) or ""
        lines.append(f"| {name} | {peer} | {grade} | {protocol} | {behaviour} | {text} |")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
