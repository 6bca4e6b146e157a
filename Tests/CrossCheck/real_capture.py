#!/usr/bin/env python3
"""A real capture, checked end to end (CI runs this).

A LeanCloud session runs between a real WebSocket server and client on 127.0.0.1 (Python
`websockets`, permessage-deflate on, subprotocol lc.protobuf2.3; commands built with Google's
Python `protobuf` from Spec/leancloud/messages2.proto) while `dumpcap` records it as pcapng.
Then:
  1. `imwire check` on the pcapng reports nothing for the clean session, and exactly the
     injected findings for a variant with protocol errors;
  2. tshark agrees on the payloads: what `tshark -o websocket.decompress:TRUE -e data.data`
     extracts (unmasked, inflated) equals what `imwire convert --to jsonl` extracts, message for
     message, and the report's byte count equals tshark's TCP payload count;
  3. the same session as a JSONL transcript and as a Chrome-style HAR, both written from
     tshark's dissection (not from imwire), gives the same findings;
  4. `--annotate` puts one packet comment per finding on the finding's packet, as tshark reads it.

Usage: Tests/CrossCheck/real_capture.py [path/to/imwire] [--keep DIR]
  --keep DIR  also copy the recorded clean capture to DIR/leancloud-real.pcapng (how
              Fixtures/captures/leancloud-real.pcapng was made).
Installs what it needs (tshark/dumpcap with apt; websockets and protobuf in Tests/CrossCheck/.venv).
"""
import asyncio
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")


def ensure_environment():
    if shutil.which("dumpcap") is None or shutil.which("tshark") is None:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "tshark"], check=True, env=env, stdout=subprocess.DEVNULL)
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "websockets==17.4", "protobuf"], check=True)
    os.execv(python, [python, *sys.argv])


ensure_environment()

sys.path.insert(0, HERE)
import leancloud_oracle as oracle  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
IMWIRE = ARGS[0] if ARGS else os.path.join(ROOT, ".build", "debug", "imwire")
KEEP = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
PORT = 18766
PROBLEMS = []


def text(s):
    return json.dumps({"_lctype": -1, "_lctext": s}, separators=(",", ":"))


async def server(ws):
    """A small LeanCloud server: answers by cmd/op with the request's i; `bad` requests get the
    injected mistakes of the errors variant."""
    opened = False
    async for data in ws:
        c = oracle.decode(data)
        cmd, op, i = c.get("cmd"), c.get("op"), c.get("i")
        peer = c.get("peerId", "alice")
        if cmd == "session" and op == "open":
            opened = True
            await ws.send(oracle.encode({"cmd": "session", "op": "opened", "peerId": peer, "i": i, "serverTs": "1700000000000",
                                         "sessionMessage": {"st": "TOKEN", "stTtl": 172800}}))
            # a message from bob arrives right after login
            await ws.send(oracle.encode({"cmd": "direct", "peerId": peer, "directMessage": {
                "id": "msg-1", "cid": "C1", "fromPeerId": "bob", "timestamp": "1700000000100", "msg": text("hi alice")}}))
        elif not opened:
            await ws.send(oracle.encode({"cmd": "error", "i": i, "errorMessage": {"code": 4105, "reason": "SESSION_REQUIRED"}}))
        elif cmd == "conv" and op == "start":
            wrong = c["convMessage"].get("m", [None])[-1] == "mallory"
            await ws.send(oracle.encode({"cmd": "conv", "op": "started", "peerId": peer, "i": i + 30 if wrong else i,
                                         "convMessage": {"cid": "C1", "cdate": "2023-11-14T22:13:20.000Z"}}))
        elif cmd == "direct":
            size = len(data)
            ack = {"uid": "msg-2", "t": "1700000000200"} if size <= 5120 else {"code": 4109, "reason": "FRAME_TOO_LONG"}
            await ws.send(oracle.encode({"cmd": "ack", "peerId": peer, "i": i, "ackMessage": ack}))
        elif cmd == "logs":
            await ws.send(oracle.encode({"cmd": "logs", "peerId": peer, "i": i, "logsMessage": {"logs": [
                {"from": "bob", "data": text("hi alice"), "timestamp": "1700000000100", "msgId": "msg-1"}]}}))
        elif cmd == "session" and op == "close":
            await ws.send(oracle.encode({"cmd": "session", "op": "closed", "peerId": peer, "i": i}))


async def client(errors):
    uri = f"ws://127.0.0.1:{PORT}/"
    async with connect(uri, subprotocols=["lc.protobuf2.3"], compression="deflate") as ws:
        async def request(command):
            await ws.send(oracle.encode(command))
            return oracle.decode(await ws.recv())
        if errors:  # 1: a command before session/open (the server answers 4105)
            await request({"cmd": "direct", "peerId": "alice", "i": 1, "directMessage": {"cid": "C1", "msg": text("early")}})
        await request({"cmd": "session", "op": "open", "appId": "FreeChatDemo01", "peerId": "alice", "i": 2,
                       "sessionMessage": {"ua": "py/websockets", "configBitmap": "187"}})
        pushed = oracle.decode(await ws.recv())
        await ws.send(oracle.encode({"cmd": "ack", "peerId": "alice", "ackMessage": {"cid": "C1", "mid": pushed["directMessage"]["id"]}}))
        members = ["alice", "bob"] + (["mallory"] if errors else [])  # 2: the server answers with the wrong i
        await request({"cmd": "conv", "op": "start", "peerId": "alice", "i": 3, "convMessage": {"m": members}})
        await request({"cmd": "direct", "peerId": "alice", "i": 4, "directMessage": {"cid": "C1", "msg": text("hello " * 40)}})
        if errors:  # 3: a 6 KB command (the server answers 4109)
            await request({"cmd": "direct", "peerId": "alice", "i": 5, "directMessage": {"cid": "C1", "msg": text("x" * 6000)}})
        await request({"cmd": "logs", "peerId": "alice", "i": 6, "logsMessage": {"cid": "C1", "limit": 20}})
        await request({"cmd": "session", "op": "close", "peerId": "alice", "i": 7, "sessionMessage": {}})


EXPECTED = {
    False: [],
    True: ["LC.BEFORE-SESSION-OPEN", "LC.ERROR-REPLY", "LC.RESPONSE-WITHOUT-REQUEST", "LC.COMMAND-TOO-LARGE", "LC.ERROR-REPLY"],
}


def record(path, errors):
    capture = subprocess.Popen(["dumpcap", "-q", "-i", "lo", "-f", f"tcp port {PORT}", "-w", path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    time.sleep(0.5)

    async def session():
        async with serve(server, "127.0.0.1", PORT, subprotocols=["lc.protobuf2.3"], compression="deflate"):
            await client(errors)

    asyncio.run(session())
    time.sleep(0.5)
    capture.terminate()
    capture.wait()


def imwire(*args):
    return subprocess.run([IMWIRE, *args], capture_output=True, text=True)


def rules(capture):
    result = imwire("check", capture, "--format", "json")
    if result.returncode not in (0, 1):
        PROBLEMS.append(f"imwire check {capture} exited {result.returncode}: {result.stderr.strip()}")
        return []
    report = json.loads(result.stdout)
    found = report["captureFindings"] + [f for c in report["connections"] for f in c["findings"]]
    return sorted(f["rule"] for f in found)


def tshark_payloads(capture):
    out = subprocess.run(["tshark", "-r", capture, "-o", "websocket.decompress:TRUE", "-T", "fields", "-e", "data.data"],
                         capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def annotations_agree(capture, work, name):
    """`imwire check --annotate`: one packet comment per finding, on the finding's packet, as tshark reads them."""
    annotated = os.path.join(work, f"{name}-annotated.pcapng")
    result = imwire("check", capture, "--format", "json", "--severity", "info", "--annotate", annotated)
    if result.returncode not in (0, 1):
        PROBLEMS.append(f"{name}: imwire check --annotate exited {result.returncode}: {result.stderr.strip()}")
        return 0
    report = json.loads(result.stdout)
    expected = sorted((f["frame"], f["rule"]) for c in report["connections"] for f in c["findings"] if f["frame"] is not None)
    out = subprocess.run(["tshark", "-r", annotated, "-Y", "frame.comment", "-T", "fields", "-E", "occurrence=a",
                          "-E", "aggregator=\x1f", "-e", "frame.number", "-e", "frame.comment"],
                         capture_output=True, text=True, check=True).stdout
    comments = []
    for line in out.splitlines():
        number, _, texts = line.partition("\t")
        for text in texts.split("\x1f"):
            match = re.match(r"imwire \[([A-Z0-9.-]+)\]", text)
            if match:
                comments.append((int(number), match.group(1)))
    if sorted(comments) != expected:
        PROBLEMS.append(f"{name}: --annotate comments {sorted(comments)}, findings {expected}")
    if tshark_payloads(annotated) != tshark_payloads(capture):
        PROBLEMS.append(f"{name}: the annotated pcapng carries other payloads than the capture")
    return len(comments)


def bytes_agree(capture, name):
    """The report's byte account adds up to the TCP payload bytes tshark counts."""
    report = json.loads(imwire("check", capture, "--format", "json").stdout)
    ours = sum(c["bytes"]["captured"] for c in report["connections"])
    out = subprocess.run(["tshark", "-r", capture, "-T", "fields", "-e", "tcp.len"], capture_output=True, text=True, check=True).stdout
    theirs = sum(int(v) for v in out.split() if v)
    if ours != theirs:
        PROBLEMS.append(f"{name}: the report accounts for {ours} bytes, tshark counts {theirs} TCP payload bytes")
    return theirs


def transcript(capture):
    out = imwire("convert", capture, "--to", "jsonl", "--show-secrets").stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def tshark_transcript(capture):
    """The capture's messages as a JSONL transcript built from tshark's dissection alone (times,
    directions, payloads, the subprotocol and the close code), so the JSONL and HAR checks do not
    rest on imwire's own `convert`."""
    subprotocol = subprocess.run(["tshark", "-r", capture, "-Y", "http.response.code == 101", "-T", "fields",
                                  "-e", "http.sec_websocket_protocol"], capture_output=True, text=True, check=True).stdout.split()
    rows = subprocess.run(["tshark", "-r", capture, "-o", "websocket.decompress:TRUE", "-Y", "websocket", "-T", "fields",
                           "-E", "separator=/t", "-e", "frame.time_epoch", "-e", "tcp.srcport", "-e", "websocket.opcode",
                           "-e", "websocket.payload.close.status_code", "-e", "data.data"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    lines = []
    for row in rows:
        time_epoch, source, opcode, code, data = row.split("\t")
        if "," in opcode:
            PROBLEMS.append(f"{capture}: several WebSocket frames in one packet; the tshark transcript expects one")
        if not lines:
            lines.append({"type": "open", "conn": "c1", "t": float(time_epoch), "subprotocol": subprotocol[0] if subprotocol else None})
        if opcode == "8":
            lines.append({"type": "close", "conn": "c1", "t": float(time_epoch), "code": int(code)})
            break
        if data:
            lines.append({"conn": "c1", "t": float(time_epoch), "dir": "receive" if int(source) == PORT else "send", "hex": data})
    return lines


def har_from(lines):
    """A Chrome-style HAR of the same messages (binary frames as base64)."""
    messages = [{"type": m["dir"], "time": m["t"], "opcode": 2, "data": base64.b64encode(bytes.fromhex(m["hex"])).decode()}
                for m in lines if "hex" in m]
    return {"log": {"version": "1.2", "creator": {"name": "real_capture.py", "version": "1"}, "entries": [{
        "request": {"method": "GET", "url": f"ws://127.0.0.1:{PORT}/", "headers": []},
        "response": {"status": 101, "headers": [{"name": "Sec-WebSocket-Protocol", "value": "lc.protobuf2.3"}]},
        "_webSocketMessages": messages}]}}


def main():
    if not os.path.exists(IMWIRE):
        print(f"imwire not found at {IMWIRE}; build it first (swift build)")
        return 2
    work = tempfile.mkdtemp(prefix="imwire-real-")
    summary = []
    for errors in (False, True):
        name = "errors" if errors else "clean"
        pcapng = os.path.join(work, f"{name}.pcapng")
        record(pcapng, errors)
        found = rules(pcapng)
        if found != sorted(EXPECTED[errors]):
            PROBLEMS.append(f"{name}: imwire check found {found}, expected {sorted(EXPECTED[errors])}")
        lines = transcript(pcapng)
        ours = [m["hex"] for m in lines if "hex" in m]
        theirs = tshark_payloads(pcapng)
        if ours != theirs:
            PROBLEMS.append(f"{name}: payloads differ: imwire {len(ours)}, tshark {len(theirs)}; "
                            f"first difference at {next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))}")
        independent = tshark_transcript(pcapng)
        jsonl = os.path.join(work, f"{name}.jsonl")
        with open(jsonl, "w") as fh:
            fh.write("".join(json.dumps(line) + "\n" for line in independent))
        har = os.path.join(work, f"{name}.har")
        with open(har, "w") as fh:
            json.dump(har_from(independent), fh)
        for other in (jsonl, har):
            if rules(other) != found:
                PROBLEMS.append(f"{name}: {os.path.basename(other)} gives {rules(other)}, the pcapng {found}")
        annotated = annotations_agree(pcapng, work, name)
        tcp_bytes = bytes_agree(pcapng, name)
        summary.append(f"{name}: {len(ours)} messages, tshark agrees on {sum(a == b for a, b in zip(ours, theirs))} "
                       f"and on {tcp_bytes} TCP payload bytes, findings {found or 'none'}, {annotated} packet comments")
        if KEEP and not errors:
            shutil.copy(pcapng, os.path.join(KEEP, "leancloud-real.pcapng"))
    shutil.rmtree(work, ignore_errors=True)
    for problem in PROBLEMS:
        print("FAIL", problem)
    print(f"real capture {'FAILED' if PROBLEMS else 'ok'}: " + "; ".join(summary) + "; pcapng, and JSONL and HAR made from tshark's dissection, give the same findings"
          if not PROBLEMS else f"real capture FAILED: {len(PROBLEMS)} problems")
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
