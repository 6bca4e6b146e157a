#!/usr/bin/env python3
"""Writes the LeanCloud sample transcripts in Fixtures/captures/ (format: Spec/capture-jsonl.md).

Commands are encoded by Google's Python protobuf (Tests/CrossCheck/leancloud_oracle.py), so the
samples are independent of IMWire. The broken sample lists the findings it must produce in
leancloud-broken.expected.json; a Swift test checks `imwire check` against it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "CrossCheck"))
import leancloud_cases as cases  # noqa: E402
import leancloud_oracle as oracle  # noqa: E402

OUT = os.path.join(oracle.ROOT, "Fixtures", "captures")
A, B, CID1, CID2 = cases.A, cases.B, cases.CID1, cases.CID2


class Transcript:
    def __init__(self):
        self.lines = []

    def open(self, conn, t, subprotocol):
        self.lines.append(json.dumps({"type": "open", "conn": conn, "t": t, "subprotocol": subprotocol,
                                      "url": "wss://rtm51.leancloud.example/"}))

    def close(self, conn, t, code=1000, by="client"):
        self.lines.append(json.dumps({"type": "close", "conn": conn, "t": t, "code": code, "by": by}))

    def binary(self, conn, t, direction, command):
        self.lines.append(json.dumps({"conn": conn, "t": t, "dir": direction, "hex": oracle.encode(command).hex()}))

    def base64(self, conn, t, direction, command):
        self.lines.append(json.dumps({"conn": conn, "t": t, "dir": direction, "text": oracle.b64(oracle.encode(command))}))

    def flat(self, conn, t, direction, command):
        text = "{}" if command is None else json.dumps(oracle.flat_encode(command), ensure_ascii=False, separators=(",", ":"))
        self.lines.append(json.dumps({"conn": conn, "t": t, "dir": direction, "text": text}, ensure_ascii=False))

    def raw(self, line):
        self.lines.append(line)

    def write(self, name):
        with open(os.path.join(OUT, name), "w") as fh:
            fh.write("\n".join(self.lines) + "\n")


def text(s):
    return json.dumps({"_lctype": -1, "_lctext": s}, ensure_ascii=False, separators=(",", ":"))


def clean():
    t = Transcript()
    # c1: alice on lc.protobuf2.3 (binary frames), a FreeChat session.
    t.open("c1", 0.0, "lc.protobuf2.3")
    t.binary("c1", 0.020, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": A, "i": 1,
                                   "sessionMessage": {"ua": "LeanCloud-Swift-SDK/17.11.0", "configBitmap": "187", "tag": "mobile"}})
    t.binary("c1", 0.081, "receive", {"cmd": "session", "op": "opened", "peerId": A, "i": 1, "serverTs": "1700000000081",
                                      "sessionMessage": {"st": "TOKEN-alice", "stTtl": 172800}})
    t.binary("c1", 0.090, "receive", {"cmd": "unread", "peerId": A, "unreadMessage": {"notifTime": "1700000000090",
                                      "convs": [{"cid": CID2, "unread": 2}]}})
    t.binary("c1", 0.300, "send", {"cmd": "conv", "op": "query", "peerId": A, "i": 2,
                                   "convMessage": {"where": {"data": '{"m":"alice"}'}, "sort": "-lm", "limit": 10, "flag": 2}})
    t.binary("c1", 0.355, "receive", {"cmd": "conv", "op": "results", "peerId": A, "i": 2,
                                      "convMessage": {"results": {"data": json.dumps([{"objectId": CID2, "name": "ski trip"}])}}})
    t.binary("c1", 1.000, "send", {"cmd": "conv", "op": "start", "peerId": A, "i": 3, "convMessage": {"m": [A, B], "unique": True}})
    t.binary("c1", 1.060, "receive", {"cmd": "conv", "op": "started", "peerId": A, "i": 3,
                                      "convMessage": {"cid": CID1, "cdate": "2023-11-14T22:13:21.060Z"}})
    t.binary("c1", 2.000, "send", {"cmd": "direct", "peerId": A, "i": 4, "directMessage": {"cid": CID1, "msg": text("hi bob"), "r": True}})
    t.binary("c1", 2.045, "receive", {"cmd": "ack", "peerId": A, "i": 4, "ackMessage": {"uid": "msg-0001", "t": "1700000002045"}})
    t.binary("c1", 2.500, "receive", {"cmd": "rcp", "peerId": A, "rcpMessage": {"id": "msg-0001", "cid": CID1, "t": "1700000002500", "from": B}})
    t.binary("c1", 3.000, "receive", {"cmd": "direct", "peerId": A, "directMessage": {"id": "msg-0002", "cid": CID1, "fromPeerId": B,
                                      "timestamp": "1700000003000", "msg": text("hey alice")}})
    t.binary("c1", 3.010, "send", {"cmd": "ack", "peerId": A, "ackMessage": {"cid": CID1, "mid": "msg-0002"}})
    t.binary("c1", 3.500, "send", {"cmd": "read", "peerId": A, "readMessage": {"convs": [{"cid": CID1, "timestamp": "1700000003000"}]}})
    t.binary("c1", 4.000, "send", {"cmd": "direct", "peerId": A, "i": 5, "directMessage": {"cid": CID2, "msg": cases.IMAGE}})
    t.binary("c1", 4.070, "receive", {"cmd": "ack", "peerId": A, "i": 5, "ackMessage": {"uid": "msg-0003", "t": "1700000004070"}})
    t.binary("c1", 5.000, "send", {"cmd": "conv", "op": "add", "peerId": A, "i": 6, "convMessage": {"cid": CID2, "m": ["dave"]}})
    t.binary("c1", 5.050, "receive", {"cmd": "conv", "op": "added", "peerId": A, "i": 6, "convMessage": {"allowedPids": ["dave"]}})
    t.binary("c1", 5.060, "receive", {"cmd": "conv", "op": "members_joined", "peerId": A, "convMessage": {"cid": CID2, "m": ["dave"], "initBy": A}})
    t.binary("c1", 6.000, "send", {"cmd": "conv", "op": "update", "peerId": A, "i": 7, "convMessage": {"cid": CID2, "attr": {"data": '{"name":"ski trip 2024"}'}}})
    t.binary("c1", 6.040, "receive", {"cmd": "conv", "op": "updated", "peerId": A, "i": 7, "convMessage": {"udate": "2023-11-14T22:13:26.040Z"}})
    t.binary("c1", 7.000, "send", {"cmd": "logs", "peerId": A, "i": 8, "logsMessage": {"cid": CID1, "limit": 20}})
    t.binary("c1", 7.080, "receive", {"cmd": "logs", "peerId": A, "i": 8, "logsMessage": {"logs": [
        {"from": B, "data": text("hey alice"), "timestamp": "1700000003000", "msgId": "msg-0002"},
        {"from": A, "data": text("hi bob"), "timestamp": "1700000002045", "msgId": "msg-0001", "ackAt": "1700000002500"}]}})
    t.binary("c1", 8.000, "send", {"cmd": "conv", "op": "mute", "peerId": A, "i": 9, "convMessage": {"cid": CID2}})
    t.binary("c1", 8.030, "receive", {"cmd": "conv", "op": "updated", "peerId": A, "i": 9, "convMessage": {}})
    t.binary("c1", 9.000, "send", {"cmd": "session", "op": "close", "peerId": A, "i": 10, "sessionMessage": {}})
    t.binary("c1", 9.040, "receive", {"cmd": "session", "op": "closed", "peerId": A, "i": 10})
    t.close("c1", 9.100)
    # c2: bob on lc.proto2base64.3 (JS with noBinary): base64 text frames.
    t.open("c2", 0.500, "lc.proto2base64.3")
    t.base64("c2", 0.520, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": B, "i": 1,
                                   "sessionMessage": {"ua": "js/5.0.0", "configBitmap": "187"}})
    t.base64("c2", 0.580, "receive", {"cmd": "session", "op": "opened", "peerId": B, "i": 1, "sessionMessage": {"st": "TOKEN-bob", "stTtl": 172800}})
    t.base64("c2", 2.050, "receive", {"cmd": "direct", "peerId": B, "directMessage": {"id": "msg-0001", "cid": CID1, "fromPeerId": A,
                                      "timestamp": "1700000002045", "msg": text("hi bob")}})
    t.base64("c2", 2.900, "send", {"cmd": "ack", "peerId": B, "ackMessage": {"cid": CID1, "fromts": "1700000002045", "tots": "1700000002045"}})
    t.base64("c2", 2.950, "send", {"cmd": "direct", "peerId": B, "i": 2, "directMessage": {"cid": CID1, "msg": text("hey alice")}})
    t.base64("c2", 2.990, "receive", {"cmd": "ack", "peerId": B, "i": 2, "ackMessage": {"uid": "msg-0002", "t": "1700000003000"}})
    t.base64("c2", 180.6, "send", {"cmd": "echo", "i": 3})
    t.base64("c2", 180.65, "receive", {"cmd": "echo", "i": 3})
    # c3: the old .NET SDK on lc.json.3: flat JSON and the {} keep-alive.
    t.open("c3", 1.0, "lc.json.3")
    t.flat("c3", 1.01, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": "carol", "i": -65536,
                                "sessionMessage": {"ua": "net/1.0", "configBitmap": "1"}})
    t.flat("c3", 1.06, "receive", {"cmd": "session", "op": "opened", "peerId": "carol", "i": -65536,
                                   "sessionMessage": {"st": "TOKEN-carol", "stTtl": 172800}})
    t.flat("c3", 61.0, "send", None)
    t.flat("c3", 61.05, "receive", None)
    t.flat("c3", 62.0, "receive", {"cmd": "conv", "op": "members_joined", "peerId": "carol",
                                   "convMessage": {"cid": CID2, "m": ["dave"], "initBy": A}})
    t.write("leancloud-clean.jsonl")


def broken():
    t = Transcript()
    expected = []
    frame = {"k1": 0, "k2": 0}

    def note(conn, rule, line_frame=None):
        expected.append({"connection": conn, "frame": frame[conn] if line_frame is None else line_frame, "rule": rule})

    def send(conn, t_, direction, command, how="binary"):
        frame[conn] += 1
        getattr(t, how)(conn, t_, direction, command)

    t.open("k1", 0.0, "lc.protobuf2.3")
    # a command before the session is open (the server would answer 4105)
    send("k1", 0.010, "send", {"cmd": "direct", "peerId": A, "i": 1, "directMessage": {"cid": CID1, "msg": text("too early")}})
    note("k1", "LC.BEFORE-SESSION-OPEN")
    send("k1", 0.050, "receive", {"cmd": "error", "peerId": A, "i": 1, "errorMessage": {"code": 4105, "reason": "SESSION_REQUIRED"}})
    note("k1", "LC.ERROR-REPLY")
    send("k1", 0.100, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": A, "i": 2, "sessionMessage": {"ua": "js/5.0.0"}})
    send("k1", 0.150, "receive", {"cmd": "session", "op": "opened", "peerId": A, "i": 2, "sessionMessage": {"st": "T", "stTtl": 60}})
    # a reply nobody asked for
    send("k1", 0.200, "receive", {"cmd": "conv", "op": "started", "peerId": A, "i": 99, "convMessage": {"cid": CID1}})
    note("k1", "LC.RESPONSE-WITHOUT-REQUEST")
    # the same i twice while in flight
    send("k1", 0.300, "send", {"cmd": "conv", "op": "query", "peerId": A, "i": 3, "convMessage": {"limit": 10}})
    send("k1", 0.310, "send", {"cmd": "conv", "op": "query", "peerId": A, "i": 3, "convMessage": {"limit": 20}})
    note("k1", "LC.DUPLICATE-I")
    send("k1", 0.350, "receive", {"cmd": "conv", "op": "results", "peerId": A, "i": 3, "convMessage": {"results": {"data": "[]"}}})
    # a 6 KB message: over the 5 KB limit (4109)
    send("k1", 1.000, "send", {"cmd": "direct", "peerId": A, "i": 4, "directMessage": {"cid": CID1, "msg": text("x" * 6000)}})
    note("k1", "LC.COMMAND-TOO-LARGE")
    send("k1", 1.050, "receive", {"cmd": "ack", "peerId": A, "i": 4, "ackMessage": {"code": 4109, "reason": "FRAME_TOO_LONG"}})
    note("k1", "LC.ERROR-REPLY")
    # a truncated frame (the last 3 bytes cut off)
    frame["k1"] += 1
    data = oracle.encode({"cmd": "direct", "peerId": A, "i": 5, "directMessage": {"cid": CID1, "msg": text("cut")}})
    t.raw(json.dumps({"conn": "k1", "t": 1.5, "dir": "send", "hex": data[:-3].hex()}))
    note("k1", "PB.TRUNCATED")
    # a message received and never acknowledged
    send("k1", 2.000, "receive", {"cmd": "direct", "peerId": A, "directMessage": {"id": "msg-9", "cid": CID1, "fromPeerId": B,
                                  "timestamp": "1700000002000", "msg": text("ack me")}})
    note("k1", "LC.MISSING-ACK")
    # a text frame on a binary subprotocol
    frame["k1"] += 1
    t.raw(json.dumps({"conn": "k1", "t": 3.0, "dir": "send", "text": oracle.b64(oracle.encode({"cmd": "echo", "i": 6}))}))
    note("k1", "LC.FRAME-TYPE-MISMATCH")
    # an unreadable transcript line (reported by the reader, not tied to a connection)
    bad_line = len(t.lines) + 1
    t.raw('{"conn":"k1","t":3.5,"dir":"receive","hex":"0815"')
    # kicked by another device, then the client keeps talking and auto-reopens
    send("k1", 10.0, "receive", {"cmd": "session", "op": "closed", "peerId": A, "sessionMessage": {"code": 4111, "reason": "SESSION_CONFLICT"}})
    note("k1", "LC.ERROR-REPLY")
    send("k1", 10.1, "send", {"cmd": "read", "peerId": A, "readMessage": {"convs": [{"cid": CID1}]}})
    note("k1", "LC.COMMAND-AFTER-KICK")
    send("k1", 11.0, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": A, "i": 7,
                              "sessionMessage": {"ua": "js/5.0.0", "r": True, "st": "T"}})
    note("k1", "LC.REOPEN-AFTER-KICK")
    send("k1", 11.1, "receive", {"cmd": "session", "op": "opened", "peerId": A, "i": 7})
    # goaway, and the client does not reconnect
    send("k1", 12.0, "receive", {"cmd": "goaway"})
    send("k1", 12.5, "send", {"cmd": "echo", "i": 8})
    note("k1", "LC.GOAWAY-IGNORED")
    send("k1", 12.6, "receive", {"cmd": "echo", "i": 8})
    # k2: lc.json with a bad frame and a request left unanswered past the timeout
    t.open("k2", 20.0, "lc.json.3")
    frame["k2"] += 1
    t.raw(json.dumps({"conn": "k2", "t": 20.1, "dir": "send", "text": '{"cmd":"session","op":"open","peerId":"bob","i":1,"bogus":true}'}))
    note("k2", "LC.JSON-UNKNOWN-KEY")
    send("k2", 20.2, "receive", {"cmd": "session", "op": "opened", "peerId": "bob", "i": 1}, "flat")
    send("k2", 21.0, "send", {"cmd": "logs", "peerId": "bob", "i": 2, "logsMessage": {"cid": CID1}}, "flat")
    note("k2", "LC.REQUEST-UNANSWERED")
    send("k2", 60.0, "send", None, "flat")
    send("k2", 60.1, "receive", None, "flat")
    t.write("leancloud-broken.jsonl")
    with open(os.path.join(OUT, "leancloud-broken.expected.json"), "w") as fh:
        json.dump({"description": "findings (warning and error) `imwire check Fixtures/captures/leancloud-broken.jsonl` must "
                                  "report, exactly",
                   "captureFindings": [{"line": bad_line, "rule": "CAPTURE.JSONL-BAD-LINE"}],
                   "findings": expected}, fh, indent=2)
        fh.write("\n")


def reconnect():
    """One client (alice, default policy leancloud-swift) over nine connections: kicked by 4111,
    an automatic re-open with r=true anyway, a drop, a storm of re-opens 0.1 s apart, a re-open
    without r after a session existed, a logout, and a fresh login."""
    t = Transcript()
    expected = []
    frame = {}

    def send(conn, t_, direction, command):
        frame[conn] = frame.get(conn, 0) + 1
        t.binary(conn, t_, direction, command)

    def note(conn, rule):
        expected.append({"connection": conn, "frame": frame[conn], "rule": rule})

    def open_session(conn, t_, r=None, answered=True):
        t.open(conn, t_, "lc.protobuf2.3")
        session = {"ua": "LeanCloud-Swift-SDK/17.11.0"}
        if r is not None:
            session["r"] = r
        send(conn, t_ + 0.02, "send", {"cmd": "session", "op": "open", "appId": cases.APP, "peerId": A, "i": 1,
                                       "sessionMessage": session})
        if answered:
            send(conn, t_ + 0.08, "receive", {"cmd": "session", "op": "opened", "peerId": A, "i": 1,
                                              "sessionMessage": {"st": "TOKEN-alice", "stTtl": 172800}})

    open_session("r1", 0.0)
    send("r1", 10.0, "receive", {"cmd": "session", "op": "closed", "peerId": A, "sessionMessage": {"code": 4111}})
    note("r1", "LC.ERROR-REPLY")
    t.close("r1", 10.1, code=1000, by="server")
    # Kicked (4111): the SDK must stop, yet it re-opens with r=true two seconds later.
    open_session("r2", 12.0, r=True)
    expected.append({"connection": "r2", "frame": 1, "rule": "RECONNECT.AFTER-TERMINAL"})
    t.raw(json.dumps({"type": "close", "conn": "r2", "t": 20.0}))  # dropped: no close frame
    # Five re-opens 0.2 s apart, none answered: attempts 0 and 1 may be immediate, 2-4 must wait
    # 1, 2 and 4 s; three early in a row are a storm.
    for index in range(5):
        conn = "r%d" % (3 + index)
        start = round(20.3 + 0.2 * index, 1)
        open_session(conn, start, r=True, answered=False)
        if index == 2:
            expected.append({"connection": conn, "frame": 1, "rule": "RECONNECT.STORM"})
        t.raw(json.dumps({"type": "close", "conn": conn, "t": round(start + 0.1, 1)}))
    # Attempt 5 after 38 s is in time, but a session existed and the re-open lacks r=true.
    open_session("r8", 60.0, r=False)
    expected.append({"connection": "r8", "frame": 1, "rule": "RECONNECT.FLAG-MISSING"})
    send("r8", 60.5, "send", {"cmd": "session", "op": "close", "peerId": A, "i": 2})
    send("r8", 60.55, "receive", {"cmd": "session", "op": "closed", "peerId": A, "i": 2})
    t.close("r8", 60.6)
    # After the logout a login without r is a fresh one; the capture ends with it open.
    open_session("r9", 62.0)
    t.write("leancloud-reconnect.jsonl")
    with open(os.path.join(OUT, "leancloud-reconnect.expected.json"), "w") as fh:
        json.dump({"description": "findings (warning and error) `imwire check Fixtures/captures/leancloud-reconnect.jsonl` must "
                                  "report, exactly (reconnect judge, policy leancloud-swift)",
                   "findings": expected}, fh, indent=2)
        fh.write("\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    clean()
    broken()
    reconnect()
    print("wrote Fixtures/captures/leancloud-{clean,broken,reconnect}.jsonl and the expected findings")
