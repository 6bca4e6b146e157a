#!/usr/bin/env python3
"""Writes the NIM and JMessage sample captures (Fixtures/captures/nim-*.jsonl, jmessage-*.jsonl)
and the findings `imwire check --severity info` must report for them. Messages are built with
Python's json, independently of IMWire. Run from the repository root."""
import hashlib, json, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def dumps(v): return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
def nim(p): return "3:::" + dumps(p)
def jm(name, payload): return "42" + dumps([name, payload])

def write(name, description, lines, rules):
    with open(os.path.join(ROOT, "Fixtures", "captures", name + ".jsonl"), "w", encoding="utf-8") as out:
        for line in lines: out.write(json.dumps(line, ensure_ascii=False) + "\n")
    with open(os.path.join(ROOT, "Fixtures", "captures", name + ".expected.json"), "w", encoding="utf-8") as out:
        out.write(json.dumps({"description": description, "threshold": "info", "rules": sorted(rules)}, indent=2) + "\n")

LOGIN = {"3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-1", "18": "app-key-1", "19": "alice", "40": "8.5.0", "1000": "token-1"}
MSG = {"0": 0, "1": "bob", "8": 0, "9": "hi", "11": "c-1"}
def m(conn, t, d, text): return {"conn": conn, "t": t, "dir": d, "text": text}
n1 = [{"type": "open", "conn": "n1", "t": 0, "dialect": "nim", "url": "wss://weblink.netease.im/socket.io/1/websocket/8d2f0c"},
      m("n1", 0.01, "receive", "1::"),
      m("n1", 0.05, "send", nim({"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "Property", "v": LOGIN}]})),
      m("n1", 0.12, "receive", nim({"sid": 2, "cid": 3, "ser": 1, "code": 200, "r": [{"102": "conn-1", "103": "10.0.0.1"}, [], {"110": 0}]})),
      m("n1", 0.2, "send", nim({"SID": 5, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": {"1": 0, "2": 0, "7": 0}}]})),
      m("n1", 0.3, "receive", nim({"sid": 4, "cid": 4, "ser": 0, "code": 200, "r": [[{"0": 0, "1": "alice", "2": "bob", "8": 0, "9": "missed you", "12": "s-1"}]]})),
      m("n1", 0.4, "receive", nim({"sid": 5, "cid": 1, "ser": 2, "code": 200, "r": [1700000000123]})),
      m("n1", 1.0, "send", nim({"SID": 7, "CID": 1, "SER": 3, "Q": [{"t": "Property", "v": MSG}]})),
      m("n1", 1.1, "receive", nim({"sid": 7, "cid": 1, "ser": 3, "code": 200, "r": [dict(MSG, **{"7": 1700000001000, "12": "s-2"})]})),
      m("n1", 25.0, "receive", "2::"), m("n1", 25.01, "send", "2::"),
      m("n1", 30.2, "send", nim({"SID": 1, "CID": 2, "SER": 0, "Q": []})),
      m("n1", 30.3, "receive", nim({"sid": 1, "cid": 2, "ser": 0, "code": 200})),
      m("n1", 40.0, "receive", nim({"sid": 2, "cid": 5, "ser": 0, "code": 200, "r": [16, 1, "", 0]})),
      {"type": "close", "conn": "n1", "t": 40.1, "by": "server"},
      {"type": "open", "conn": "n2", "t": 42, "url": "wss://weblink.netease.im/socket.io/1/websocket/9a01bb"},
      m("n2", 42.01, "receive", "1::"),
      m("n2", 42.05, "send", nim({"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "Property", "v": LOGIN}]})),
      m("n2", 42.1, "receive", nim({"sid": 2, "cid": 3, "ser": 1, "code": 200, "r": [{"102": "conn-2"}, [], {"110": 0}]})),
      {"type": "close", "conn": "n2", "t": 43, "by": "client"}]
write("nim-login-sync-send-kicked", "NIM web link: connect, login, sync (offline message in 4_4), send, heartbeat, kicked (2_5 reason 1); then the client logs in again by itself on a new connection (its dialect known from the socket.io 0.9 URL)",
      n1, ["NIM.LOGIN-STEP"] * 5 + ["NIM.KICKED"] + ["NIM.LOGIN-STEP"] * 3 + ["NIM.AUTO-RELOGIN"])

SECRET = "master-secret-1"
CINIT = {"appkey": "4f7aef34fb361292c566a1cd", "random_str": "022cd9fd995849b58b3ef0e943421ed9", "timestamp": 1507882399401, "flag": 0, "fromPlatForm": "j"}
CINIT["signature"] = hashlib.md5(("appkey=%s&timestamp=%s&random_str=%s&key=%s" % (CINIT["appkey"], CINIT["timestamp"], CINIT["random_str"], SECRET)).encode()).hexdigest()
CONTENT = {"version": 1, "target_type": "group", "from_platform": "web", "target_id": "10001", "target_name": "devs", "from_id": "alice",
           "create_time": 1507882400000, "msg_type": "text", "msg_body": {"text": "hello"}}
def j(t, d, text): return {"conn": "j1", "t": t, "dir": d, "text": text}
j1 = [{"type": "open", "conn": "j1", "t": 0, "dialect": "jmessage", "url": "wss://ws.im.jiguang.cn/socket.io/?EIO=3&transport=websocket"},
      j(0.01, "receive", "0" + dumps({"sid": "kS0", "upgrades": [], "pingInterval": 25000, "pingTimeout": 60000})),
      j(0.02, "receive", "40"),
      j(0.1, "send", jm("c_init", dict(CINIT, rid=1001))), j(0.15, "receive", jm("ack", {"rid": 1001})),
      j(0.2, "receive", jm("c_init", {"rid": 1001, "code": 0, "message": "success"})),
      j(0.7, "send", jm("login", {"username": "alice", "password": hashlib.md5(b"secret").hexdigest(), "version": "2.5.0", "rid": 1002})),
      j(0.75, "receive", jm("ack", {"rid": 1002})), j(0.8, "receive", jm("login", {"rid": 1002, "code": 0, "message": "success"})),
      j(1.0, "send", jm("send_group_msg", {"content": CONTENT, "no_offline": False, "no_notification": False, "target_name": "devs",
                                          "target_gid": "10001", "appkey": CINIT["appkey"], "rid": 1003})),
      j(1.05, "receive", jm("ack", {"rid": 1003})),
      j(1.1, "receive", jm("send_group_msg", {"rid": 1003, "code": 803005, "message": "user not in group"})),
      j(20.0, "send", "2"), j(20.05, "receive", "3"),
      {"type": "close", "conn": "j1", "t": 21, "by": "client"}]
write("jmessage-group-803005", "JMessage web: open, c_init (signature checked with --secret master-secret-1), login, send_group_msg to a group the user is not in → 803005",
      j1, ["JM.RESPONSE-ERROR"])
print("wrote 2 captures")
