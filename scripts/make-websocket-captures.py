#!/usr/bin/env python3
"""Writes LeanCloud sessions carried as raw WebSocket bytes (Fixtures/captures/leancloud-websocket*.jsonl).

Both ends are wsproto (the sans-IO WebSocket library from PyPI): the client offers lc.protobuf2.3
and permessage-deflate, the server accepts both, and every command (encoded with Google's Python
protobuf through Tests/CrossCheck/leancloud_oracle.py) travels compressed and, from the client,
masked. Masking keys and the handshake key come from a seeded generator so the files are
reproducible. The corrupt variant damages the deflate data of one server frame.
Usage: scripts/make-websocket-captures.py   (needs `pip install wsproto protobuf`)
"""
import base64
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "CrossCheck"))
import leancloud_cases as cases  # noqa: E402
import leancloud_oracle as oracle  # noqa: E402

seeded = random.Random(20261122)
os.urandom = lambda n: bytes(seeded.randrange(256) for _ in range(n))  # noqa: E731 — deterministic keys

from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import AcceptConnection, BytesMessage, Request  # noqa: E402
from wsproto.extensions import PerMessageDeflate  # noqa: E402

OUT = os.path.join(oracle.ROOT, "Fixtures", "captures")
A, B, CID = cases.A, cases.B, cases.CID1


def text(s):
    return json.dumps({"_lctype": -1, "_lctext": s}, separators=(",", ":"))


SESSION = [
    ("send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": A, "i": 1,
              "sessionMessage": {"ua": "js/5.0.0", "configBitmap": "187"}}),
    ("receive", {"cmd": "session", "op": "opened", "peerId": A, "i": 1, "serverTs": "1700000000081",
                 "sessionMessage": {"st": "TOKEN-alice", "stTtl": 172800}}),
    ("send", {"cmd": "conv", "op": "start", "peerId": A, "i": 2, "convMessage": {"m": [A, B], "unique": True}}),
    ("receive", {"cmd": "conv", "op": "started", "peerId": A, "i": 2, "convMessage": {"cid": CID, "cdate": "2023-11-14T22:13:21.060Z"}}),
    ("send", {"cmd": "direct", "peerId": A, "i": 3, "directMessage": {"cid": CID, "msg": text("hello over deflate " * 8)}}),
    ("receive", {"cmd": "ack", "peerId": A, "i": 3, "ackMessage": {"uid": "msg-0001", "t": "1700000002045"}}),
    ("receive", {"cmd": "direct", "peerId": A, "directMessage": {"id": "msg-0002", "cid": CID, "fromPeerId": B,
                                                                   "timestamp": "1700000003000", "msg": text("hello back " * 8)}}),
    ("send", {"cmd": "ack", "peerId": A, "ackMessage": {"cid": CID, "mid": "msg-0002"}}),
    ("send", {"cmd": "session", "op": "close", "peerId": A, "i": 4, "sessionMessage": {}}),
    ("receive", {"cmd": "session", "op": "closed", "peerId": A, "i": 4}),
]


def session(conn, corrupt_index=None):
    client = WSConnection(ConnectionType.CLIENT)
    server = WSConnection(ConnectionType.SERVER)
    lines = [{"type": "open", "conn": conn, "t": 0.0, "dialect": "leancloud"}]
    t = 0.0

    def stream(direction, data):
        lines.append({"type": "stream", "conn": conn, "t": round(t, 3), "dir": direction, "base64": base64.b64encode(data).decode()})

    request = client.send(Request(host="rtm51.leancloud.example", target="/", subprotocols=["lc.protobuf2.3"],
                                  extensions=[PerMessageDeflate()]))
    stream("send", request)
    server.receive_data(request)
    event = next(server.events())
    response = server.send(AcceptConnection(subprotocol="lc.protobuf2.3", extensions=[PerMessageDeflate()]))
    t += 0.05
    stream("receive", response)
    client.receive_data(response)
    list(client.events())
    for index, (direction, command) in enumerate(SESSION):
        t += 0.2
        sender, receiver = (client, server) if direction == "send" else (server, client)
        data = sender.send(BytesMessage(data=oracle.encode(command)))
        if index == corrupt_index:
            data = data[:2] + bytes(b ^ 0xff for b in data[2:6]) + data[6:]  # break the deflate stream
        receiver.receive_data(data)
        list(receiver.events())
        stream(direction, data)
    lines.append({"type": "close", "conn": conn, "t": round(t + 0.1, 3), "code": 1000, "by": "client"})
    assert event.subprotocols == ["lc.protobuf2.3"]
    return lines


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as fh:
        fh.write("".join(json.dumps(line) + "\n" for line in lines))


def main():
    write("leancloud-websocket.jsonl", session("ws1"))
    with open(os.path.join(OUT, "leancloud-websocket.expected.json"), "w") as fh:
        json.dump({"description": "a clean LeanCloud session over lc.protobuf2.3 with permessage-deflate both ways, as raw "
                                  "WebSocket bytes made by wsproto: no finding at warning or error", "rules": []}, fh, indent=2)
        fh.write("\n")
    corrupt = 5  # the server's ack of the direct message (i=3)
    write("leancloud-websocket-corrupt.jsonl", session("ws1", corrupt_index=corrupt))
    with open(os.path.join(OUT, "leancloud-websocket-corrupt.expected.json"), "w") as fh:
        json.dump({"description": "the LeanCloud WebSocket session with the deflate data of the server's ack (i=3) damaged: "
                                  "the frame does not inflate, the ack is lost, so the direct message stays unanswered until the "
                                  "capture ends (info) — the rules `imwire check` reports at warning or error, exactly",
                   "rules": ["ZLIB.CORRUPT-DATA"]}, fh, indent=2)
        fh.write("\n")
    print("wrote Fixtures/captures/leancloud-websocket.jsonl, leancloud-websocket-corrupt.jsonl (+ .expected.json)")


if __name__ == "__main__":
    main()
