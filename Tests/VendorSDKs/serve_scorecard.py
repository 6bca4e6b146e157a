#!/usr/bin/env python3
"""Runs the vendors' own SDKs (their drivers in Tests/VendorSDKs/) against `imwire serve`, one
scenario of Fixtures/serve/<dialect>/ at a time, and writes the grades to Conformance/CLIENTS.md.

`imwire serve` serves all four dialects; the SDKs are leancloud-realtime 5.0.0-rc.7 (dist/im.js,
driven by leancloud/driver.js, which finds the server through its router, `--router`: GET
/v1/route, as against LeanCloud's cloud), the NIM Web SDK 8.5.0 (NIM_Web_SDK_v8.5.0.js, driven by
nim/driver.js, which asks the LBS `lbs_web` and links to `link_web`), the JMessage web SDK 2.5.0
(jmessage-sdk-web.2.5.0.min.js, driven by jmessage/driver.js with `address: ws://HOST:PORT`) and
the yun2win web SDK (y2wIMSDK.min.js, driven by yun2win/driver.js with `servers: [{host, port}]`),
loaded from $VENDOR_SDK_DIR (without them: exit 77, nothing written).

Usage: VENDOR_SDK_DIR=/path/to/sdks Tests/VendorSDKs/serve_scorecard.py [path/to/imwire] [DIALECT/SCENARIO...]
(with scenarios named, the grades are printed and Conformance/CLIENTS.md is left as it is)
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

# serve scenario -> (driver scenario, its --duration, peers in the order they start: [(peer, to, role)])
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
    # The JS SDK pings every 180 s and gives the link up 380 s after the last message or pong.
    "heartbeat-silence": ("clean", 430, [("alice", "bob", "sender")]),
    # imwire serve delivers to the members online (no offline messages): the receiver starts first.
    "clean (two users)": ("twouser", 12, [("bob", "alice", "receiver"), ("alice", "bob", "sender")]),
}
# The NIM driver logs in as alice and sends to bob once synced (`error`: four sends); it logs out after --seconds.
NIM = {
    "clean": ("clean", 12, [("alice", "bob", "sender")]),
    "drop": ("clean", 20, [("alice", "bob", "sender")]),
    "refuse": ("clean", 35, [("alice", "bob", "sender")]),
    "kick": ("clean", 10, [("alice", "bob", "sender")]),
    "kick-silent": ("clean", 15, [("alice", "bob", "sender")]),
    "error-login": ("clean", 8, [("alice", "bob", "sender")]),
    "error-send": ("error", 10, [("alice", "bob", "sender")]),
    "delay-ack": ("clean", 10, [("alice", "bob", "sender")]),
    "heartbeat-silence": ("clean", 100, [("alice", "bob", "sender")]),
    "clean (two users)": ("clean", 10, [("bob", "alice", "receiver"), ("alice", "bob", "sender")]),
}
# The JMessage SDK keeps no messages for a user not logged in: the receiver starts first.
JMESSAGE = {
    "clean": ("clean", 8, [("alice", "bob", "sender")]),
    "drop": ("drop", 12, [("alice", "bob", "sender")]),
    "refuse": ("refuse", 20, [("alice", "bob", "sender")]),
    "close": ("drop", 12, [("alice", "bob", "sender")]),
    "kick": ("kick", 8, [("alice", "bob", "sender")]),
    "kick-password": ("kick-password", 8, [("alice", "bob", "sender")]),
    "error-login": ("error", 6, [("alice", "bob", "sender")]),
    "error-send": ("error", 6, [("alice", "bob", "sender")]),
    "withhold-ack": ("clean", 12, [("alice", "bob", "sender")]),
    "delay-ack": ("clean", 8, [("alice", "bob", "sender")]),
    "heartbeat-silence": ("clean", 100, [("alice", "bob", "sender")]),
    "clean (two users)": ("clean", 8, [("bob", "alice", "receiver"), ("alice", "bob", "sender")]),
}
# The yun2win web SDK's own scenarios: `error` connects (again after a CONNACK 7), resends after a 26, logs out.
YUN2WIN = {
    "clean": ("clean", 10, [("u1001", "u2001", "sender")]),
    "drop": ("drop", 15, [("u1001", "u2001", "sender")]),
    "refuse": ("refuse", 20, [("u1001", "u2001", "sender")]),
    "close": ("drop", 15, [("u1001", "u2001", "sender")]),
    "kick": ("kick", 20, [("u1001", "u2001", "sender")]),
    "error-login": ("error-uid", 12, [("u1001", "u2001", "sender")]),
    "error-login-retry": ("error", 10, [("u1001", "u2001", "sender")]),
    "error-send": ("error", 10, [("u1001", "u2001", "sender")]),
    "delay-ack": ("clean", 10, [("u1001", "u2001", "sender")]),
    # A PINGREQ after 300 s idle; the PINGRESP still missing at the next tick, 300 s later, ends the link.
    "heartbeat-silence": ("clean", 680, [("u1001", "u2001", "sender")]),
    "clean (two users)": ("clean", 10, [("u2001", "u1001", "receiver"), ("u1001", "u2001", "sender")]),
}
DIALECTS = {
    "leancloud": ("LeanCloud: leancloud-realtime 5.0.0-rc.7 (`dist/im.js`)", LEANCLOUD,
                  lambda scenario, port, peer, to, role, duration: [scenario, "--port", str(port), "--router", "--peer", peer, "--to", to,
                                                                    "--role", role, "--duration", str(duration)]),
    "nim": ("NIM: NIM Web SDK 8.5.0 (`NIM_Web_SDK_v8.5.0.js`)", NIM,
            lambda scenario, port, peer, to, role, duration: [scenario, "--port", str(port), "--account", peer, "--to", to,
                                                              "--role", role, "--seconds", str(duration)]),
    "jmessage": ("JMessage: jmessage-sdk-web 2.5.0 (`jmessage-sdk-web.2.5.0.min.js`)", JMESSAGE,
                 lambda scenario, port, peer, to, role, duration: [scenario, "--port", str(port), "--user", peer, "--to", to,
                                                                   "--role", role, "--duration", str(duration)]),
    "yun2win": ("yun2win: the web SDK of 2016 (`y2wIMSDK.min.js`)", YUN2WIN,
                lambda scenario, port, peer, to, role, duration: [scenario, "--port", str(port), "--uid", peer, "--peer", to,
                                                                  "--role", role, "--seconds", str(duration)]),
}
# Who is right where an SDK is not graded OK, with the code or reference it rests on: (dialect, scenario, peer) -> text.
# (Empty: the SDKs get OK everywhere. LeanCloud's refuse was a false NON-STRICT until the judge took the
# policy of the host's logged-in client for refused connections and leancloud-js's two servers
# per attempt: see CHANGELOG.)
WHO_IS_RIGHT = {}


def received_from(dialect, log, peer):
    """Whether the SDK's callback log (driver.js's JSON lines) shows a message of `peer` delivered to it."""
    for line in log.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        args = entry.get("args") or [{}]
        first = args[0] if isinstance(args[0], dict) else {}
        if dialect == "leancloud" and entry.get("cb") == "client.message" and first.get("from") == peer:
            return True
        if dialect == "jmessage" and entry.get("cb") == "onMsgReceive" and any(
                (m.get("content") or {}).get("from_id") == peer for m in first.get("messages") or []):
            return True
        if dialect == "nim" and entry.get("cb") == "onmsg" and first.get("from") == peer:
            return True
        # yun2win's push carries no sender: any message of the session but the server's own (imwire-N).
        if dialect == "yun2win" and entry.get("cb") == "onMessage" and not str(first.get("y2wMessageId", "")).startswith("imwire-"):
            return True
    return False


def run(dialect, scenario, driver_scenario, duration, peers, port):
    arguments = DIALECTS[dialect][2]
    with tempfile.TemporaryDirectory() as out:
        served = scenario.split(" ")[0]  # "clean (two users)" plays clean
        server = subprocess.Popen([IMWIRE, "serve", "--scenario", f"{dialect}/{served}", "--listen", f"127.0.0.1:{port}", "--idle", "10",
                                   "--out", out, "--duration", str(duration + 40)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = server.stderr.readline()
        if not re.search(r"on 127\.0\.0\.1:\d+", line):
            raise SystemExit(f"imwire serve did not start: {line}{server.stderr.read()}")
        drivers = []
        for peer, to, role in peers:
            drivers.append(subprocess.Popen(
                ["node", "--experimental-websocket", os.path.join(HERE, dialect, "driver.js"),
                 *arguments(driver_scenario, port, peer, to, role, duration)],
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
        return index, served, stdout, logs


def main():
    everything = [f"{dialect}/{name}" for dialect, (_, table, _) in DIALECTS.items() for name in table]
    wanted = sys.argv[2:] or everything
    rows = {dialect: [] for dialect in DIALECTS}
    port = 28900
    for entry in wanted:
        port += 1
        dialect, name = entry.split("/", 1)
        driver_scenario, duration, peers = DIALECTS[dialect][1][name]
        index, served, text, logs = run(dialect, name, driver_scenario, duration, peers, port)
        print(text.strip(), flush=True)
        for (peer, to, _), log in zip(peers, logs):
            result = index.get(peer, {}).get(served)
            if result is None:
                rows[dialect].append((name, peer, "no grade", "", "", ["the SDK never reached the server"]))
                continue
            reasons = list(result["reasons"])
            if len(peers) > 1:
                # Two SDK instances: each must have been handed the other's message by its SDK.
                if received_from(dialect, log, to):
                    reasons.append(f"received {to}'s message")
                else:
                    result["grade"] = "FAILED"
                    reasons.append(f"its SDK reported no message from {to}")
            if result["grade"] != "OK":
                reasons.append("**Who is right:** " + WHO_IS_RIGHT.get((dialect, name, peer), "not yet examined"))
            rows[dialect].append((name, peer, result["grade"], result["protocol"], result["behaviour"], reasons))
    if sys.argv[2:]:
        for dialect, entries in rows.items():
            for name, peer, grade, _, _, reasons in entries:
                print(f"{dialect}/{name} {peer}: {grade} {'; '.join(reasons)}")
        return
    lines = [
        "# The vendors' own SDKs against `imwire serve`",
        "",
        "Written by `Tests/VendorSDKs/serve_scorecard.py` (the SDKs are not in this repository or in CI:",
        "`Tests/VendorSDKs/README.md`). Each row: one scenario of `Fixtures/serve/<dialect>/` (`Spec/serve.md`)",
        "played against the genuine SDK, and the grades `imwire serve` gave it. The LeanCloud SDK found the",
        "server through its router (`GET /v1/route`), the NIM SDK through its LBS (`privateConf.lbs_web`); the",
        "JMessage and yun2win SDKs were given its address (`new JMessage({ address })`,",
        "`connect({ servers: [{ host, port }] })`).",
    ]
    for dialect, (title, _, _) in DIALECTS.items():
        lines += ["", f"## {title}, driven by `Tests/VendorSDKs/{dialect}/driver.js`", "",
                  "| scenario | client | grade | protocol | behaviour | reasons |", "|---|---|---|---|---|---|"]
        for name, peer, grade, protocol, behaviour, reasons in rows[dialect]:
            text = "<br>".join(r.replace("|", "\\|") for r in reasons) or ""
            lines.append(f"| {name} | {peer} | {grade} | {protocol} | {behaviour} | {text} |")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
