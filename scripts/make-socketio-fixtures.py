#!/usr/bin/env python3
"""Writes Fixtures/nim/ and Fixtures/jmessage/: socket.io 0.9 messages and NIM packets, engine.io 3
/ socket.io 4 messages and JMessage events, c_init signatures, and session runs.

Independent of IMWire: the bytes are built here with Python's json (compact, like JSON.stringify),
the socket.io 0.9 grammar of socket.io-client 0.9.11 and the socket.io-parser 3.x encoder are
re-written here, the NIM id table and tag maps are read from ../shared/reference/nim.md, the
signature is hashlib's MD5. `decoded` is what this script expects IMWire to print; expected
findings are placed by searching the text. Tests/CrossCheck/socketio.py re-checks the files
with python-socketio/python-engineio (protocol 3/4) and gevent-socketio/socketIO-client (0.9).

Run from the repository root: python3 scripts/make-socketio-fixtures.py
"""
import hashlib, json, os, re, shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "..", "shared", "reference", "nim.md")
if not os.path.exists(REFERENCE):
    REFERENCE = "/work/shared/reference/nim.md"

def dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

# ------------------------------------------------------------------ NIM tables from the reference
def read_tables():
    lines = open(REFERENCE, encoding="utf-8").read().split("\n")
    def section(start, end):
        rows, on = [], False
        for line in lines:
            if line.startswith(start): on = True; continue
            if on and line.startswith(end): break
            if on and line.startswith("|") and not line.startswith("|---"):
                rows.append([c.strip() for c in line.strip("|").split("|")])
        return rows[1:]
    table = {}
    for service, sid, name, cid in section("### 3.5", "### 3.6"):
        table.setdefault((int(sid), int(cid)), {})
        table[(int(sid), int(cid))].update(service=service, command=name)
    for key, service, handler, fields in section("### 3.6", "### 3.7"):
        sid, cid = map(int, key.split("_"))
        entry = table.setdefault((sid, cid), {"service": service})
        entry["handler"] = None if handler.startswith("(") else handler
        entry["fields"] = [f.strip() for f in fields.split(",") if f.strip()]
    text = "\n".join(lines).split("### 3.7")[1].split("### 3.8")[0]
    maps = {name: {int(t): f for t, f in (p.strip().split("=") for p in body.split(","))}
            for name, body in re.findall(r"\*\*`(\w+)`\*\* \(tag → field\): (.*)", text)}
    return table, maps

TABLE, MAPS = read_tables()
PARAMS = {(2, 3): [("login", "login")], (5, 1): [("sync", "sync")], (7, 1): [("msg", "msg")], (8, 2): [("msg", "msg")],
          (21, 2): [("msg", "msg")], (13, 1): [("chatroomId", None), ("isWeixinApp", None), ("type", None)]}
SUCCESS = {200, 406, 808, 810}

def named(props, tagmap):
    return {MAPS[tagmap].get(int(k), "#" + k) if k.isdigit() else "#" + k: v for k, v in props.items()}

def field_map(field):
    if field in MAPS: return field, False
    if field.endswith("s") and field[:-1] in MAPS: return field[:-1], True
    return None, False

def nim_canonical(packet):
    if "SID" in packet:
        key = (packet["SID"], packet["CID"])
        entry = TABLE.get(key, {})
        out = {"kind": "request", "sid": key[0], "cid": key[1], "ser": packet["SER"], "service": entry.get("service"),
               "command": entry.get("command"), "params": []}
        specs = PARAMS.get(key, [])
        for index, item in enumerate(packet["Q"]):
            p = {"t": item["t"], "v": item["v"]}
            if index < len(specs):
                p["name"] = specs[index][0]
                if specs[index][1] and isinstance(item["v"], dict): p["fields"] = named(item["v"], specs[index][1])
            out["params"].append(p)
        return out
    key = (packet["sid"], packet["cid"])
    entry = TABLE.get(key, {})
    out = {"kind": "response", "sid": key[0], "cid": key[1], "ser": packet["ser"], "service": entry.get("service"),
           "command": entry.get("handler") or entry.get("command"), "code": packet["code"], "success": packet["code"] in SUCCESS}
    if "r" in packet: out["r"] = packet["r"]
    if entry and entry.get("handler") is None and key[0] == 4:
        # nim.md §3.3: the SDK looks the inner sid_cid up again and reads body as its r.
        wrapper = packet["r"][1]
        inner_key = (wrapper["headerPacket"]["sid"], wrapper["headerPacket"]["cid"])
        inner = TABLE.get(inner_key, {})
        out["inner"] = {"sid": inner_key[0], "cid": inner_key[1], "command": inner.get("handler") or inner.get("command"), "body": wrapper["body"]}
        is_wrapper = inner and inner.get("handler") is None and inner_key[0] == 4
        if packet["code"] in SUCCESS and inner and not is_wrapper and isinstance(wrapper["body"], list):
            fields = read_fields(inner, wrapper["body"])
            if fields: out["inner"]["fields"] = fields
    elif packet["code"] in SUCCESS and entry and packet.get("r"):
        fields = read_fields(entry, packet["r"])
        if fields: out["fields"] = fields
    return out

def read_fields(entry, r):
    """r by the handler's field names (nim.md §3.6), Property entries named through their maps (§3.7)."""
    fields = {}
    for name, value in zip(entry.get("fields", []), r):
        tagmap, is_list = field_map(name)
        if tagmap and is_list and isinstance(value, list):
            value = [named(v, tagmap) if isinstance(v, dict) else v for v in value]
        elif tagmap and not is_list and isinstance(value, dict):
            value = named(value, tagmap)
        fields[name] = value
    return fields

# ------------------------------------------------------------------ socket.io 0.9 (0.9.11 grammar)
REASONS = ["transport not supported", "client not handshaken", "unauthorized"]
TYPES09 = ["disconnect", "connect", "heartbeat", "message", "json", "event", "ack", "error", "noop"]

def v09_canonical(text):
    m = re.match(r"^([^:]+):([0-9]+)?(\+)?:([^:]+)?:?([\s\S]*)?$", text)
    kind = TYPES09[int(m.group(1))]
    out = {"type": kind}
    if m.group(2):
        out["id"] = int(m.group(2)); out["ack"] = "data" if m.group(3) else True
    out["endpoint"] = m.group(4) or ""
    data = m.group(5) or ""
    if kind == "connect": out["qs"] = data
    elif kind == "message": out["data"] = data
    elif kind == "json": out["data"] = json.loads(data)
    elif kind == "event":
        value = json.loads(data); out["name"] = value["name"]; out["args"] = value.get("args", [])
    elif kind == "ack":
        ack = re.match(r"^([0-9]+)(\+)?(.*)", data); out["ackId"] = int(ack.group(1))
        out["args"] = json.loads(ack.group(3)) if ack.group(3) else []
    elif kind == "error":
        parts = data.split("+")
        out["reason"] = REASONS[int(parts[0])] if parts[0] else ""
        out["advice"] = "reconnect" if len(parts) > 1 and parts[1] == "0" else ""
    return out

FIXTURES = []

def fixture(dialect, layer, name, description, expect="ok", source="", **fields):
    body = {"description": description, "dialect": dialect, "layer": layer}
    body.update(fields)
    body["expect"] = expect
    body["verified_by"] = fields.pop("verified_by", None) or ["Python 3 json (scripts/make-socketio-fixtures.py)"]
    body["source"] = source
    FIXTURES.append((os.path.join(ROOT, "Fixtures", dialect, layer, name + ".json"), body))

def err(rule, offset):
    return [{"rule": rule, "offset": offset}]

V09 = "socket.io-client 0.9.11 lib/parser.js; nim.md §3.2"
# ---- NIM socketio layer: every 0.9 packet type
for name, text, what in [
    ("disconnect", "0::", "disconnect"), ("disconnect-endpoint", "0::/chat", "disconnect of the /chat endpoint"),
    ("connect", "1::", "the server's connect after the WebSocket opens"), ("connect-endpoint-query", "1::/chat:?token=abc", "connect to an endpoint with a query"),
    ("heartbeat", "2::", "heartbeat (both ways)"), ("message", "3:::hello", "a message"),
    ("message-id", "3:7::hello", "a message with id 7 (socket.io acks it)"), ("message-id-data-ack", "3:8+::hello", "a message whose ack the app sends with data"),
    ("json", '4:::{"a":[1,2,{"b":null}]}', "a json packet"), ("event", '5:::{"name":"chat","args":[1,"x"]}', "an event with arguments"),
    ("event-no-args", '5:3+::{"name":"ping"}', "an event without args, id 3 with data ack"),
    ("ack", "6:::4", "ack of packet 4"), ("ack-args", '6:::4+["A","B"]', "ack of packet 4 with arguments"),
    ("error", "7:::1+0", "error: client not handshaken, advice reconnect"), ("error-reason", "7:::2", "error: unauthorized"),
    ("noop", "8::", "noop (closes a poll)"), ("message-utf8", "3:::你好，世界", "a message with non-ASCII text"),
]:
    fixture("nim", "socketio", name, "socket.io 0.9 " + what, text=text, decoded={"packets": [v09_canonical(text)]}, source=V09)
framed = "\ufffd3\ufffd2::\ufffd9\ufffd3:::héllo"
fixture("nim", "socketio", "framed-payload", "two packets in the U+FFFD payload framing (lengths in UTF-16 units)",
        text=framed, decoded={"packets": [v09_canonical("2::"), v09_canonical("3:::héllo")]}, source=V09 + " decodePayload")
for name, text, rule, offset, what in [
    ("bad-type-9", "9::", "SIO.V09-TYPE-UNKNOWN", 0, "type 9"), ("bad-type-letters", "x1::", "SIO.V09-TYPE-UNKNOWN", 0, "a non-numeric type"),
    ("bad-no-colon", "3", "SIO.V09-PACKET-MALFORMED", 0, "no colon"), ("bad-id", "3:a:", "SIO.V09-PACKET-MALFORMED", 2, "a letter as id"),
    ("bad-event-array", "5:::[1]", "SIO.V09-EVENT-INVALID", 4, "event data an array"),
    ("bad-event-no-name", '5:::{"args":[]}', "SIO.V09-EVENT-INVALID", 4, "event without name"),
    ("bad-event-args", '5:::{"name":"e","args":{}}', "SIO.V09-EVENT-INVALID", 4, "event args an object"),
    ("bad-json", "4:::{bad", "SIO.V09-JSON-INVALID", 5, "json data not JSON"),
    ("bad-ack-id", "6:::x", "SIO.V09-ACK-INVALID", 4, "ack without id"),
    ("bad-ack-args", "6:::1+{}", "SIO.V09-ACK-INVALID", 6, "ack args an object"),
    ("bad-error-reason", "7:::5", "SIO.V09-ERROR-INVALID", 4, "error reason 5"),
    ("bad-heartbeat-data", "2:::beat", "SIO.V09-DATA-UNEXPECTED", 4, "heartbeat with data"),
    ("bad-framing-length", "\ufffd9\ufffd2::", "SIO.V09-FRAMING-INVALID", 3, "a framing length past the end"),
    ("bad-id-overflow", "3:99999999999999999::x", "SIO.V09-ID-INVALID", 2, "an id over 2^53"),
]:
    fixture("nim", "socketio", name, "malformed socket.io 0.9: " + what, text=text, expect=err(rule, offset), source=V09)
fixture("nim", "socketio", "bad-utf8", "malformed: invalid UTF-8 in a text message", bytes_hex="333a3a3aff", expect=err("SIO.TEXT-NOT-UTF8", 4), source="RFC 6455 §5.6")

# ---- socket.io 0.9 handshake body: GET /socket.io/1/ answers sid:heartbeat timeout:close timeout:transports
# (seconds; empty = disabled), and the client opens /socket.io/1/websocket/<sid> if websocket is listed.
HS = "socket.io-spec (0.9) §Handshake; socket.io-client 0.9.11 lib/socket.js (handshake)"

def hs_canonical(text):
    sid, heartbeat, close, transports = text.split(":")
    return {"sid": sid, "heartbeatTimeout": int(heartbeat) if heartbeat else None, "closeTimeout": int(close) if close else None,
            "transports": [t for t in transports.split(",") if t]}

for name, text, what in [
    ("handshake", "4d4f185e96a7b:60:60:websocket,xhr-polling", "as a NIM link answers it: websocket and xhr-polling"),
    ("handshake-all-transports", "Zx9:25:60:websocket,flashsocket,htmlfile,xhr-polling,jsonp-polling", "every 0.9 transport"),
    ("handshake-no-timeouts", "abc:::websocket", "heartbeat and close timeouts disabled (empty)"),
]:
    fixture("nim", "handshake", name, "socket.io 0.9 handshake body " + what, text=text, decoded=hs_canonical(text), source=HS)
for name, text, rule, offset, what in [
    ("bad-handshake-fields", "abc:60:60", "SIO.V09-HANDSHAKE-INVALID", 0, "three fields"),
    ("bad-handshake-empty-sid", ":60:60:websocket", "SIO.V09-HANDSHAKE-INVALID", 0, "an empty sid"),
    ("bad-handshake-timeout", "abc:6x:60:websocket", "SIO.V09-HANDSHAKE-INVALID", 4, "a heartbeat timeout that is not a number"),
    ("bad-handshake-no-websocket", "abc:60:60:xhr-polling,jsonp-polling", "SIO.V09-HANDSHAKE-NO-WEBSOCKET", 10, "no websocket transport"),
]:
    fixture("nim", "handshake", name, "malformed socket.io 0.9 handshake body: " + what, text=text, expect=err(rule, offset), source=HS)

# ---- NIM packets
def msg(packet):
    return "3:::" + dumps(packet)

def nim_fixture(name, description, packet, direction, expect="ok", source="nim.md §3.3", decoded=True):
    text = msg(packet)
    extra = {}
    if decoded: extra["decoded"] = [{"socketio": v09_canonical(text), "nim": nim_canonical(packet)}]
    fixture("nim", "packet", name, description, text=text, direction=direction, expect=expect, source=source, **extra)
    return text

LOGIN = {"3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-1", "18": "app-key-1", "19": "alice", "40": "8.5.0", "1000": "token-1"}
nim_fixture("login-request", "login 2_3 with the login Property (clientType 16 web, appKey, account, token)",
            {"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "Property", "v": LOGIN}]}, "send", source="nim.md §3.4, §3.7")
nim_fixture("login-response-200", "login OK: loginRes, loginPorts, aosPushInfo",
            {"sid": 2, "cid": 3, "ser": 1, "code": 200, "r": [{"102": "conn-1", "103": "10.0.0.1", "104": 443},
                                                             [{"3": 2, "13": "ios-1", "19": "alice", "102": "conn-0"}], {"110": 0}]},
            "receive", source="nim.md §3.4, §3.7")
for code, why in [(302, "wrong token"), (417, "already online / auto-login rejected"), (422, "account disabled")]:
    nim_fixture("login-response-%d" % code, "login failed with %d (%s)" % (code, why), {"sid": 2, "cid": 3, "ser": 1, "code": code}, "receive",
                source="nim.md §1.1")
nim_fixture("heartbeat-request", "heartbeat 1_2 with SER 0", {"SID": 1, "CID": 2, "SER": 0, "Q": []}, "send")
nim_fixture("heartbeat-response", "heartbeat answered", {"sid": 1, "cid": 2, "ser": 0, "code": 200}, "receive")
nim_fixture("sync-request", "sync 5_1 with timetags", {"SID": 5, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": {"1": 0, "2": 0, "3": 0, "7": 0}}]}, "send",
            source="nim.md §3.4, §3.7")
nim_fixture("sync-done", "syncDone 5_1 with the timetag", {"sid": 5, "cid": 1, "ser": 2, "code": 200, "r": [1700000000123]}, "receive")
MSG = {"0": 0, "1": "bob", "8": 0, "9": "hi", "11": "c-1"}
nim_fixture("send-msg", "sendMsg 7_1 (p2p text to bob)", {"SID": 7, "CID": 1, "SER": 3, "Q": [{"t": "Property", "v": MSG}]}, "send", source="nim.md §3.3")
nim_fixture("send-msg-response", "sendMsg answered with the msg (idServer, time)",
            {"sid": 7, "cid": 1, "ser": 3, "code": 200, "r": [dict(MSG, **{"7": 1700000000200, "12": "s-1"})]}, "receive")
nim_fixture("send-msg-7101", "sendMsg refused: blacklisted (7101)", {"sid": 7, "cid": 1, "ser": 3, "code": 7101}, "receive", source="nim.md §1.1")
nim_fixture("msg-push", "msg 7_2 pushed", {"sid": 7, "cid": 2, "ser": 0, "code": 200,
                                           "r": [{"0": 0, "1": "alice", "2": "bob", "7": 1700000000300, "8": 0, "9": "yo", "11": "c-9", "12": "s-9"}]}, "receive")
nim_fixture("sysmsg-push", "sysMsg 7_3 (friend request)", {"sid": 7, "cid": 3, "ser": 0, "code": 200,
                                                          "r": [{"0": 1700000000400, "1": 5, "2": "alice", "3": "carol", "4": "hello"}]}, "receive")
nim_fixture("kicked", "kicked 2_5 by another client (reason 1)", {"sid": 2, "cid": 5, "ser": 0, "code": 200, "r": [16, 1, "", 0]}, "receive",
            source="nim.md §3.4, §2.1")
nim_fixture("multiport-login", "multiPortLogin 2_7: another client online", {"sid": 2, "cid": 7, "ser": 0, "code": 200,
                                                                             "r": [2, [{"3": 1, "13": "aos-1", "19": "alice"}]]}, "receive")
nim_fixture("notify-wrapper", "notify 4_1 wrapping a 7_2 msg", {"sid": 4, "cid": 1, "ser": 0, "code": 200,
                                                               "r": [0, {"headerPacket": {"sid": 7, "cid": 2}, "body": [{"1": "alice", "9": "x"}]}]},
            "receive", source="nim.md §3.3 (notify wrapper)")
def notify(cid, inner_sid, inner_cid, body):
    return {"sid": 4, "cid": cid, "ser": 0, "code": 200, "r": [0, {"headerPacket": {"sid": inner_sid, "cid": inner_cid}, "body": body}]}
nim_fixture("notify-wrapper-team-msg", "notify 4_2 wrapping an 8_3 teamMsg: the body named through the msg map", notify(2, 8, 3, [{"0": 1, "1": "team-1", "2": "dave", "9": "hey"}]),
            "receive", source="nim.md §3.3 (notify wrapper), §3.7")
nim_fixture("notify-wrapper-sysmsgs", "notify 4_10 wrapping a 4_6 syncOfflineSysMsgs: a list of sysMsg", notify(10, 4, 6, [[{"0": 1700000000500, "1": 5, "2": "alice", "3": "carol"}]]),
            "receive", source="nim.md §3.3 (notify wrapper), §3.7")
nim_fixture("notify-wrapper-raw", "notify 4_11 wrapping a 6_23 getServerTime: no tag map, the field named, the value as it came", notify(11, 6, 23, [1700000000600]),
            "receive", source="nim.md §3.3 (notify wrapper), §3.6")
nim_fixture("notify-wrapper-no-fields", "notify 4_1 wrapping a 7_7 sendCustomSysMsg, whose handler reads no field: the body stays raw", notify(1, 7, 7, [{"1": "x"}]),
            "receive", source="nim.md §3.3 (notify wrapper), §3.6")
nim_fixture("team-msg-send", "sendTeamMsg 8_2", {"SID": 8, "CID": 2, "SER": 4, "Q": [{"t": "Property", "v": {"0": 1, "1": "team-1", "8": 0, "9": "hi all", "11": "c-2"}}]}, "send")
nim_fixture("team-msg-push", "teamMsg 8_3 pushed", {"sid": 8, "cid": 3, "ser": 0, "code": 200, "r": [{"0": 1, "1": "team-1", "2": "dave", "9": "hey"}]}, "receive")
nim_fixture("super-team-send", "sendSuperTeamMsg 21_2", {"SID": 21, "CID": 2, "SER": 5, "Q": [{"t": "Property", "v": {"0": 5, "1": "st-1", "8": 0, "9": "hi", "11": "c-3"}}]}, "send")
nim_fixture("chatroom-address", "getChatroomAddress 13_1 (chatroomId, isWeixinApp as a string bool, type)",
            {"SID": 13, "CID": 1, "SER": 6, "Q": [{"t": "long", "v": 1234}, {"t": "bool", "v": "false"}, {"t": "int", "v": 1}]}, "send",
            source="nim.md §3.4 item 6")
nim_fixture("chatroom-address-response", "getChatroomAddress answered with addresses", {"sid": 13, "cid": 1, "ser": 6, "code": 200,
                                                                                        "r": [["wss://cr1.example:443"]]}, "receive")
nim_fixture("frequency-416", "416 frequency control: r[0] is the wait in seconds", {"sid": 7, "cid": 1, "ser": 7, "code": 416, "r": [10]}, "receive",
            source="nim.md §1.1 (416)")
nim_fixture("code-406-success", "406 is success on the web", {"sid": 3, "cid": 7, "ser": 8, "code": 406}, "receive")
nim_fixture("code-810-success", "810 is success on the web (team invitation)", {"sid": 8, "cid": 5, "ser": 9, "code": 810}, "receive")
nim_fixture("blacklist-request", "markInBlacklist 3_3 with a String and a bool", {"SID": 3, "CID": 3, "SER": 10, "Q": [{"t": "String", "v": "eve"}, {"t": "bool", "v": "true"}]}, "send")
nim_fixture("get-users", "getUsers 3_7 with a StrArray", {"SID": 3, "CID": 7, "SER": 11, "Q": [{"t": "StrArray", "v": ["bob", "carol"]}]}, "send")

# ---- NIM chat room (nim.md §3.4 item 6): 13_1 on the IM link gives the address, then a separate
# socket where the service 13 commands apply. The Q lists of 13_2+ are not in the reference
# (UNCONFIRMED): their items are checked for shape only. The `msg` field of 13_6/13_7 is named
# with the msg map by its name (INFERRED; the reference gives no chat-room map).
CR = "nim.md §3.4 item 6, §3.5, §3.6"
CR_MSG = {"1": "cr-1001", "2": "alice", "8": 0, "9": "hello room", "11": "c-cr-1"}
nim_fixture("chatroom-login", "chat-room login 13_2 on the chat-room link (Q list UNCONFIRMED: shapes only)",
            {"SID": 13, "CID": 2, "SER": 1, "Q": [{"t": "int", "v": 1}, {"t": "Property", "v": {"1": "cr-1001", "5": "alice"}},
                                                  {"t": "Property", "v": {"3": 16, "19": "alice", "1000": "token-1"}}]}, "send", source=CR)
nim_fixture("chatroom-login-response", "chat-room login OK: chatroom, chatroomMember, chatroomCdnInfo (no tag maps: as they came)",
            {"sid": 13, "cid": 2, "ser": 1, "code": 200, "r": [{"1": "cr-1001", "3": "Room"}, {"1": "cr-1001", "2": "alice"}, {}]}, "receive", source=CR)
nim_fixture("chatroom-login-13003", "chat-room login refused: the account is blacklisted (13003)", {"sid": 13, "cid": 2, "ser": 1, "code": 13003}, "receive",
            source="nim.md §1.1 (13003)")
nim_fixture("chatroom-kicked", "chat-room kicked 13_3 (reason, custom)", {"sid": 13, "cid": 3, "ser": 0, "code": 200, "r": [2, "closed by admin"]}, "receive", source=CR)
nim_fixture("chatroom-logout", "chat-room logout 13_4", {"SID": 13, "CID": 4, "SER": 5, "Q": []}, "send", source=CR)
nim_fixture("chatroom-send-msg", "chat-room sendMsg 13_6 (Q list UNCONFIRMED: shapes only)", {"SID": 13, "CID": 6, "SER": 2, "Q": [{"t": "Property", "v": CR_MSG}]}, "send",
            source=CR)
nim_fixture("chatroom-send-msg-response", "chat-room sendMsg answered with the msg", {"sid": 13, "cid": 6, "ser": 2, "code": 200,
                                                                                     "r": [dict(CR_MSG, **{"7": 1700000000700, "12": "s-cr-1"})]}, "receive", source=CR)
nim_fixture("chatroom-send-msg-13004", "chat-room sendMsg refused: muted (13004)", {"sid": 13, "cid": 6, "ser": 3, "code": 13004}, "receive", source="nim.md §1.1 (13004)")
nim_fixture("chatroom-msg-push", "chat-room msg 13_7 pushed", {"sid": 13, "cid": 7, "ser": 0, "code": 200,
                                                             "r": [{"1": "cr-1001", "2": "bob", "7": 1700000000800, "8": 0, "9": "hi", "11": "c-cr-9"}]}, "receive", source=CR)
nim_fixture("chatroom-members", "getChatroomMembers 13_8", {"SID": 13, "CID": 8, "SER": 4, "Q": [{"t": "bool", "v": "true"}, {"t": "long", "v": 0}, {"t": "int", "v": 100}]},
            "send", source=CR)
nim_fixture("chatroom-members-response", "getChatroomMembers answered", {"sid": 13, "cid": 8, "ser": 4, "code": 200,
                                                                         "r": [[{"1": "cr-1001", "2": "alice"}, {"1": "cr-1001", "2": "bob"}]]}, "receive", source=CR)
nim_fixture("chatroom-history-response", "chat-room getHistoryMsgs 13_9 answered with a list of msg", {"sid": 13, "cid": 9, "ser": 6, "code": 200,
                                                                                                       "r": [[{"2": "bob", "9": "earlier"}]]}, "receive", source=CR)
nim_fixture("chatroom-queue-change", "chat-room queueChange 13_26 pushed", {"sid": 13, "cid": 26, "ser": 0, "code": 200, "r": [["k1", "k2"]]}, "receive", source=CR)
nim_fixture("chatroom-cdn-info", "chat-room notifyCdnInfo 13_99 pushed", {"sid": 13, "cid": 99, "ser": 0, "code": 200, "r": [{"1": 1}]}, "receive", source=CR)

def at(text, needle):
    return text.index(needle)

def bad(name, description, packet, direction, rule, needle, shift=0, source="nim.md §3.3"):
    text = msg(packet)
    offset = at(text, needle) + shift if needle else 4
    fixture("nim", "packet", name, "malformed NIM: " + description, text=text, direction=direction, expect=err(rule, offset), source=source)

bad("bad-ser-zero", "SER 0 outside heartbeat", {"SID": 7, "CID": 1, "SER": 0, "Q": [{"t": "Property", "v": MSG}]}, "send", "NIM.SER-OUT-OF-RANGE", '"SER"')
bad("bad-ser-high", "SER 40000", {"SID": 7, "CID": 1, "SER": 40000, "Q": [{"t": "Property", "v": MSG}]}, "send", "NIM.SER-OUT-OF-RANGE", '"SER"')
bad("bad-heartbeat-ser", "heartbeat with SER 5", {"SID": 1, "CID": 2, "SER": 5, "Q": []}, "send", "NIM.HEARTBEAT-SER", '"SER"')
bad("bad-command", "an unknown sid_cid", {"SID": 99, "CID": 1, "SER": 12, "Q": []}, "send", "NIM.COMMAND-UNKNOWN", '"SID"', source="nim.md §3.5")
bad("bad-q-not-array", "Q an object", {"SID": 3, "CID": 4, "SER": 13, "Q": {}}, "send", "NIM.REQUEST-INVALID", '"Q"')
bad("bad-q-type", "Q item of unknown type", {"SID": 3, "CID": 4, "SER": 14, "Q": [{"t": "Double", "v": 1}]}, "send", "NIM.Q-ITEM-INVALID", '"Q"')
bad("bad-bool", "bool as JSON true", {"SID": 3, "CID": 3, "SER": 15, "Q": [{"t": "String", "v": "eve"}, {"t": "bool", "v": True}]}, "send", "NIM.Q-ITEM-INVALID", '"Q"')
bad("bad-property-key", "a Property key that is not a tag", {"SID": 7, "CID": 1, "SER": 16, "Q": [{"t": "Property", "v": {"to": "bob"}}]}, "send", "NIM.Q-ITEM-INVALID", '"Q"')
bad("bad-login-no-q", "login without its Property", {"SID": 2, "CID": 3, "SER": 1, "Q": []}, "send", "NIM.Q-MISMATCH", '"Q"', source="nim.md §3.4")
bad("bad-login-string", "login with a String", {"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "String", "v": "alice"}]}, "send", "NIM.Q-MISMATCH", '"Q"')
bad("bad-login-tag", "a login tag the map does not name (777)", {"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "Property", "v": dict(LOGIN, **{"777": 1})}]}, "send",
    "NIM.TAG-UNKNOWN", '"Q"', source="nim.md §3.7")
bad("bad-response-no-code", "a response without code", {"sid": 7, "cid": 1, "ser": 3, "r": []}, "receive", "NIM.RESPONSE-INVALID", None, source="nim.md §3.3")
bad("bad-code-unknown", "code 12345", {"sid": 7, "cid": 1, "ser": 3, "code": 12345}, "receive", "NIM.CODE-UNKNOWN", '"code"', source="nim.md §1.4")
bad("bad-notify", "a notify wrapper without headerPacket", {"sid": 4, "cid": 2, "ser": 0, "code": 200, "r": [0, {"body": []}]}, "receive", "NIM.NOTIFY-INVALID", '"r"')
bad("bad-notify-inner-tag", "a notify-wrapped msg with a tag the msg map lacks (777)", notify(1, 7, 2, [{"1": "alice", "777": 1}]), "receive",
    "NIM.TAG-UNKNOWN", '"body"', source="nim.md §3.3 (notify wrapper), §3.7")
bad("bad-notify-inner-r-long", "a notify-wrapped msg body longer than the handler reads", notify(1, 7, 2, [{"1": "alice"}, 2]), "receive",
    "NIM.R-MISMATCH", '"body"', source="nim.md §3.3 (notify wrapper), §3.6")
bad("bad-notify-inner-shape", "a notify-wrapped msg whose body is an object, not the inner r", notify(2, 7, 2, {"1": "alice"}), "receive",
    "NIM.NOTIFY-INVALID", '"body"', source="nim.md §3.3 (notify wrapper)")
bad("bad-notify-inner-unknown", "a notify wrapper around an unknown sid_cid", notify(1, 99, 1, []), "receive",
    "NIM.COMMAND-UNKNOWN", '"headerPacket"', source="nim.md §3.3 (notify wrapper), §3.5")
bad("bad-chatroom-msg-tag", "a chat-room msg push with a tag the msg map lacks (777)", {"sid": 13, "cid": 7, "ser": 0, "code": 200, "r": [{"2": "bob", "777": 1}]},
    "receive", "NIM.TAG-UNKNOWN", '"r"', source="nim.md §3.4 item 6, §3.7")
bad("bad-chatroom-ser", "a chat-room sendMsg with SER 0", {"SID": 13, "CID": 6, "SER": 0, "Q": [{"t": "Property", "v": CR_MSG}]}, "send",
    "NIM.SER-OUT-OF-RANGE", '"SER"', source="nim.md §3.3, §3.4 item 6")
bad("bad-kick-reason", "kicked with reason 9", {"sid": 2, "cid": 5, "ser": 0, "code": 200, "r": [16, 9]}, "receive", "NIM.KICK-REASON-UNKNOWN", '"r"', source="nim.md §2.1")
bad("bad-direction", "a response from the client", {"sid": 7, "cid": 1, "ser": 3, "code": 200}, "send", "NIM.WRONG-DIRECTION", None)
bad("bad-r-long", "r longer than the handler reads", {"sid": 7, "cid": 1, "ser": 3, "code": 200, "r": [MSG, 1]}, "receive", "NIM.R-MISMATCH", '"r"', source="nim.md §3.6")
bad("bad-r-shape", "loginPorts not a list", {"sid": 2, "cid": 3, "ser": 1, "code": 200, "r": [{}, 5]}, "receive", "NIM.R-MISMATCH", '"r"', source="nim.md §3.6")
fixture("nim", "packet", "bad-not-json", "malformed NIM: message data not JSON", text="3:::hello", direction="send", expect=err("NIM.PACKET-NOT-JSON", 4), source="nim.md §3.3")
fixture("nim", "packet", "bad-json-array", "malformed NIM: message data a JSON array", text="3:::[1]", direction="send", expect=err("NIM.PACKET-NOT-JSON", 4), source="nim.md §3.3")
fixture("nim", "packet", "bad-event-packet", "malformed NIM: a socket.io event on a NIM link", text='5:::{"name":"login"}', direction="send",
        expect=err("NIM.TRANSPORT-PACKET", 0), source="nim.md §3.2")

# ---- NIM sessions
def nim_session(name, description, connections, expect="ok"):
    fixture("nim", "sessions", name, description, input={"connections": connections}, expect=expect, source="nim.md §3.3, §3.4")

def ev(t, direction, packet):
    return {"t": t, "dir": direction, "text": packet if isinstance(packet, str) else msg(packet)}

LOGIN_REQ = {"SID": 2, "CID": 3, "SER": 1, "Q": [{"t": "Property", "v": LOGIN}]}
LOGIN_OK = {"sid": 2, "cid": 3, "ser": 1, "code": 200, "r": [{"102": "c"}, [], {}]}
clean = [ev(0, "receive", "1::"), ev(0.05, "send", LOGIN_REQ), ev(0.1, "receive", LOGIN_OK),
         ev(0.2, "send", {"SID": 5, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": {"1": 0}}]}), ev(0.4, "receive", {"sid": 5, "cid": 1, "ser": 2, "code": 200, "r": [1]}),
         ev(1, "send", {"SID": 7, "CID": 1, "SER": 3, "Q": [{"t": "Property", "v": MSG}]}), ev(1.1, "receive", {"sid": 7, "cid": 1, "ser": 3, "code": 200, "r": [MSG]}),
         ev(30.2, "send", {"SID": 1, "CID": 2, "SER": 0, "Q": []}), ev(30.3, "receive", {"sid": 1, "cid": 2, "ser": 0, "code": 200})]
nim_session("clean", "connect, login, sync, send, heartbeat after 30 s", [{"events": clean, "end": 31}])
nim_session("before-login", "sendMsg before login", [{"events": [ev(0, "receive", "1::"), ev(0.1, "send", {"SID": 7, "CID": 1, "SER": 1, "Q": [{"t": "Property", "v": MSG}]}),
                                                             ev(0.2, "receive", {"sid": 7, "cid": 1, "ser": 1, "code": 200, "r": [MSG]})], "end": 1}],
            [{"rule": "NIM.BEFORE-LOGIN"}])
nim_session("unanswered", "sendMsg without a response in 8 s", [{"events": clean[:3] + [ev(1, "send", {"SID": 7, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": MSG}]})], "end": 20}],
            [{"rule": "NIM.REQUEST-UNANSWERED"}])
nim_session("heartbeat-late", "no heartbeat for 60 s after login", [{"events": clean[:3] + [ev(60, "send", {"SID": 1, "CID": 2, "SER": 0, "Q": []}),
                                                                                          ev(60.1, "receive", {"sid": 1, "cid": 2, "ser": 0, "code": 200})], "end": 61}],
            [{"rule": "NIM.HEARTBEAT-LATE"}])
nim_session("after-login-failure", "a request after login failed with 302", [{"events": [ev(0, "receive", "1::"), ev(0.1, "send", LOGIN_REQ),
                                                                                     ev(0.2, "receive", {"sid": 2, "cid": 3, "ser": 1, "code": 302}),
                                                                                     ev(0.3, "send", {"SID": 7, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": MSG}]}),
                                                                                     ev(0.4, "receive", {"sid": 7, "cid": 1, "ser": 2, "code": 200, "r": [MSG]})], "end": 1}],
            [{"rule": "NIM.AFTER-LOGIN-FAILURE"}])
kicked = clean[:3] + [ev(5, "receive", {"sid": 2, "cid": 5, "ser": 0, "code": 200, "r": [16, 1, "", 0]})]
nim_session("kicked-then-relogin", "kicked 2_5, then a new connection logs the same account in by itself",
            [{"events": kicked, "end": 5.1}, {"events": [ev(6, "receive", "1::"), ev(6.1, "send", LOGIN_REQ), ev(6.2, "receive", LOGIN_OK)], "end": 7}],
            [{"rule": "NIM.AUTO-RELOGIN"}])
nim_session("command-after-kick", "a request after kicked 2_5", [{"events": kicked + [ev(5.5, "send", {"SID": 7, "CID": 1, "SER": 2, "Q": [{"t": "Property", "v": MSG}]})], "end": 6}],
            [{"rule": "NIM.COMMAND-AFTER-KICK"}])
nim_session("417-then-relogin", "login 417, then an automatic re-login on a new connection",
            [{"events": [ev(0, "receive", "1::"), ev(0.1, "send", LOGIN_REQ), ev(0.2, "receive", {"sid": 2, "cid": 3, "ser": 1, "code": 417})], "end": 0.3},
             {"events": [ev(2, "receive", "1::"), ev(2.1, "send", LOGIN_REQ), ev(2.2, "receive", LOGIN_OK)], "end": 3}],
            [{"rule": "NIM.AUTO-RELOGIN"}])
nim_session("ser-reused", "a SER reused while pending", [{"events": clean[:3] + [ev(1, "send", {"SID": 3, "CID": 4, "SER": 2, "Q": []}),
                                                                                ev(1.1, "send", {"SID": 3, "CID": 4, "SER": 2, "Q": []}),
                                                                                ev(1.2, "receive", {"sid": 3, "cid": 4, "ser": 2, "code": 200, "r": [[]]})], "end": 2}],
            [{"rule": "NIM.SER-NOT-SEQUENTIAL"}, {"rule": "NIM.SER-REUSED"}])
nim_session("response-without-request", "a response whose ser matches nothing", [{"events": clean[:3] + [ev(1, "receive", {"sid": 3, "cid": 4, "ser": 9, "code": 200, "r": [[]]})], "end": 2}],
            [{"rule": "NIM.RESPONSE-WITHOUT-REQUEST"}])

CR_LOGIN = {"SID": 13, "CID": 2, "SER": 1, "Q": [{"t": "int", "v": 1}, {"t": "Property", "v": {"1": "cr-1001"}}]}
nim_session("chatroom", "the IM link asks 13_1 for the address; the chat-room link logs in with 13_2, sends and receives", [
    {"events": clean[:3] + [ev(0.5, "send", {"SID": 13, "CID": 1, "SER": 2, "Q": [{"t": "long", "v": 1001}, {"t": "bool", "v": "false"}, {"t": "int", "v": 1}]}),
                            ev(0.6, "receive", {"sid": 13, "cid": 1, "ser": 2, "code": 200, "r": [["wss://cr1.example:443"]]})], "end": 1},
    {"events": [ev(1, "receive", "1::"), ev(1.1, "send", CR_LOGIN), ev(1.2, "receive", {"sid": 13, "cid": 2, "ser": 1, "code": 200, "r": [{}, {}, {}]}),
                ev(2, "send", {"SID": 13, "CID": 6, "SER": 2, "Q": [{"t": "Property", "v": CR_MSG}]}),
                ev(2.1, "receive", {"sid": 13, "cid": 6, "ser": 2, "code": 200, "r": [CR_MSG]}),
                ev(3, "receive", {"sid": 13, "cid": 7, "ser": 0, "code": 200, "r": [{"2": "bob", "9": "hi"}]}),
                ev(4, "send", {"SID": 13, "CID": 4, "SER": 3, "Q": []}), ev(4.1, "receive", {"sid": 13, "cid": 4, "ser": 3, "code": 200})], "end": 5}])
nim_session("chatroom-before-login", "a chat-room sendMsg before the chat-room login 13_2", [
    {"events": [ev(0, "receive", "1::"), ev(0.1, "send", {"SID": 13, "CID": 6, "SER": 1, "Q": [{"t": "Property", "v": CR_MSG}]}),
                ev(0.2, "receive", {"sid": 13, "cid": 6, "ser": 1, "code": 200, "r": [CR_MSG]})], "end": 1}], [{"rule": "NIM.BEFORE-LOGIN"}])

# ------------------------------------------------------------------ engine.io 3 / socket.io 4
EIO_TYPES = ["open", "close", "ping", "pong", "message", "upgrade", "noop"]
SIO_TYPES = ["CONNECT", "DISCONNECT", "EVENT", "ACK", "ERROR", "BINARY_EVENT", "BINARY_ACK"]
EIO = "engine.io-protocol v3; socket.io-protocol v4; jmessage.md §3 (Transport)"

def sio_encode(kind, nsp="/", id=None, data=None, attachments=None):
    text = str(SIO_TYPES.index(kind))
    if kind.startswith("BINARY"): text += "%d-" % attachments
    if nsp != "/": text += nsp + ","
    if id is not None: text += str(id)
    if data is not None: text += dumps(data)
    return text

def sio_canonical(kind, nsp="/", id=None, data=None, attachments=None):
    out = {"type": kind, "nsp": nsp}
    if id is not None: out["id"] = id
    if attachments is not None: out["attachments"] = attachments
    if data is not None: out["data"] = data
    return out

def eio_fixture(name, description, eio_type, data="", sio=None, binary=None, base64=False, source=EIO):
    if sio is not None:
        data = sio_encode(**sio)
    if binary is not None and not base64:
        fixture("jmessage", "engineio", name, description, bytes_hex=(bytes([EIO_TYPES.index(eio_type)]) + binary).hex(), frame="binary",
                decoded={"engineio": {"type": eio_type, "binaryHex": binary.hex()}, "socketio": None}, source=source)
        return
    if binary is not None:
        import base64 as b64
        text = "b%d" % EIO_TYPES.index(eio_type) + b64.b64encode(binary).decode()
        fixture("jmessage", "engineio", name, description, text=text,
                decoded={"engineio": {"type": eio_type, "binaryHex": binary.hex(), "base64": True}, "socketio": None}, source=source)
        return
    text = str(EIO_TYPES.index(eio_type)) + data
    fixture("jmessage", "engineio", name, description, text=text,
            decoded={"engineio": {"type": eio_type, "data": data}, "socketio": sio_canonical(**sio) if sio is not None else None}, source=source)

eio_fixture("open", "open with the handshake", "open", dumps({"sid": "Yx1", "upgrades": [], "pingInterval": 25000, "pingTimeout": 60000}))
eio_fixture("close", "close", "close")
eio_fixture("ping", "client ping", "ping")
eio_fixture("pong", "server pong", "pong")
eio_fixture("ping-probe", "ping probe (upgrade from polling)", "ping", "probe")
eio_fixture("pong-probe", "pong probe", "pong", "probe")
eio_fixture("upgrade", "upgrade", "upgrade")
eio_fixture("noop", "noop", "noop")
eio_fixture("message-binary", "a binary message (an attachment) in a binary frame", "message", binary=bytes([1, 2, 3, 255]))
eio_fixture("message-base64", "a binary message as b4<base64> in a text frame", "message", binary=bytes([1, 2, 3]), base64=True)
eio_fixture("sio-connect", "socket.io CONNECT for /", "message", sio={"kind": "CONNECT"})
eio_fixture("sio-connect-namespace", "socket.io CONNECT for /chat", "message", sio={"kind": "CONNECT", "nsp": "/chat"})
eio_fixture("sio-disconnect", "socket.io DISCONNECT", "message", sio={"kind": "DISCONNECT"})
eio_fixture("sio-event", "socket.io EVENT", "message", sio={"kind": "EVENT", "data": ["ack", {"rid": 1}]})
eio_fixture("sio-event-id", "socket.io EVENT with ack id 1", "message", sio={"kind": "EVENT", "id": 1, "data": ["hello", 1, "x"]})
eio_fixture("sio-event-namespace-id", "socket.io EVENT on /chat with id 7", "message", sio={"kind": "EVENT", "nsp": "/chat", "id": 7, "data": ["hi", {"a": [1]}]})
eio_fixture("sio-ack", "socket.io ACK of 7", "message", sio={"kind": "ACK", "id": 7, "data": [{"ok": True}]})
eio_fixture("sio-error", "socket.io ERROR with a string", "message", sio={"kind": "ERROR", "data": "Invalid namespace"})
eio_fixture("sio-binary-event", "socket.io BINARY_EVENT with one placeholder", "message",
            sio={"kind": "BINARY_EVENT", "attachments": 1, "data": ["upload", {"_placeholder": True, "num": 0}]})
eio_fixture("sio-binary-ack", "socket.io BINARY_ACK with id 12", "message",
            sio={"kind": "BINARY_ACK", "attachments": 1, "id": 12, "data": [{"_placeholder": True, "num": 0}]})
for name, text, rule, offset, what in [
    ("bad-empty", "", "EIO.PACKET-EMPTY", 0, "an empty message"), ("bad-type-7", "7", "EIO.TYPE-UNKNOWN", 0, "type 7"),
    ("bad-type-letter", "x", "EIO.TYPE-UNKNOWN", 0, "a letter as type"), ("bad-open-sid", '0{"sid":1}', "EIO.OPEN-INVALID", 1, "open with a numeric sid"),
    ("bad-open-json", "0not json", "EIO.OPEN-INVALID", 1, "open data not JSON"), ("bad-base64", "b4!!!!", "EIO.BASE64-INVALID", 2, "bad base64"),
    ("bad-close-data", "1bye", "EIO.DATA-UNEXPECTED", 1, "close with data"), ("bad-sio-type", "49", "SIO.TYPE-UNKNOWN", 1, "socket.io type 9"),
    ("bad-event-object", '42{"a":1}', "SIO.PAYLOAD-INVALID", 2, "an EVENT whose JSON is not an array"),
    ("bad-event-empty", "42[]", "SIO.EVENT-NAME-INVALID", 2, "an EVENT with an empty array"),
    ("bad-event-name", "42[1,2]", "SIO.EVENT-NAME-INVALID", 2, "an EVENT whose name is a number"),
    ("bad-ack-no-id", "43[1]", "SIO.ACK-WITHOUT-ID", 2, "an ACK without id"),
    ("bad-attachments", '451-["x"]', "SIO.ATTACHMENTS-INVALID", 4, "one attachment, no placeholder"),
    ("bad-attachments-count", '45x["x"]', "SIO.ATTACHMENTS-INVALID", 2, "a binary event without a count"),
    ("bad-json", '42["ev",1', "SIO.PAYLOAD-INVALID", 9, "truncated JSON"),
    ("bad-namespace-comma", "40/chat", "SIO.NAMESPACE-WITHOUT-COMMA", 2, "a namespace without comma"),
    ("bad-connect-data", '40{"token":1}', "SIO.DATA-UNEXPECTED", 2, "CONNECT with data in protocol 4"),
    ("bad-id-overflow", '4299999999999999999["e"]', "SIO.ID-INVALID", 2, "an id over 2^53"),
]:
    fixture("jmessage", "engineio", name, "malformed engine.io/socket.io: " + what, text=text, expect=err(rule, offset), source=EIO)
fixture("jmessage", "engineio", "bad-binary-type", "malformed: a binary frame with type 9", bytes_hex="0901", frame="binary", expect=err("EIO.TYPE-UNKNOWN", 0), source=EIO)
fixture("jmessage", "engineio", "bad-utf8", "malformed: invalid UTF-8 in a text frame", bytes_hex="34325b22ff225d", expect=err("SIO.TEXT-NOT-UTF8", 4), source="RFC 6455 §5.6")

# ---- JMessage events
JM = "jmessage.md §3"

def read_event_types():
    """event_type → meaning. The numbers are read from the reference (jmessage.md §2.3); the
    meaning is the registry's English text as published in Spec/status-codes/jmessage.md
    (web-event-type), and both must list the same numbers."""
    reference = os.path.join(os.path.dirname(REFERENCE), "jmessage.md")
    text = open(reference, encoding="utf-8").read().split("### 2.3")[1].split("\n## ")[0]
    numbers = {int(m) for m in re.findall(r"^\| (\d+) \|", text, re.M)}
    spec = open(os.path.join(ROOT, "Spec", "status-codes", "jmessage.md"), encoding="utf-8").read()
    table = spec.split("### `web-event-type`")[1].split("\n### ")[0]
    meanings = {}
    for line in table.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and cells[0].isdigit():
            meanings[int(cells[0])] = cells[2]
    assert set(meanings) == numbers, (sorted(numbers), sorted(meanings))
    return meanings

EVENT_TYPES = read_event_types()

def jm_text(name, payload):
    return "42" + dumps([name, payload])

def jm_fixture(name, description, event, payload, direction, kind, expect="ok", source=JM, decoded=True, **extra):
    text = jm_text(event, payload)
    fields = dict(extra)
    if decoded:
        out = {"event": event, "kind": kind, "rid": payload.get("rid")}
        if kind in ("response", "ack") and isinstance(payload.get("code"), int):
            out["code"] = payload["code"]; out["success"] = payload["code"] == 0
        if event == "event_notification" and "event_type" in payload:
            value = payload["event_type"]
            known = isinstance(value, int) and not isinstance(value, bool) and value in EVENT_TYPES
            out["event_type"] = {"code": value, "meaning": EVENT_TYPES[value] if known else None}
        out["payload"] = payload
        fields["decoded"] = {"engineio": {"type": "message", "data": text[1:]}, "socketio": sio_canonical("EVENT", data=[event, payload]), "jmessage": out}
    fixture("jmessage", "event", name, description, text=text, direction=direction, expect=expect, source=source, **fields)
    return text

def sign(appkey, timestamp, random_str, secret):
    return hashlib.md5(("appkey=%s&timestamp=%s&random_str=%s&key=%s" % (appkey, timestamp, random_str, secret)).encode()).hexdigest()

SECRET = "master-secret-1"
CINIT = {"appkey": "4f7aef34fb361292c566a1cd", "random_str": "022cd9fd995849b58b3ef0e943421ed9", "timestamp": 1507882399401,
         "flag": 0, "fromPlatForm": "j"}
CINIT["signature"] = sign(CINIT["appkey"], CINIT["timestamp"], CINIT["random_str"], SECRET)
CINIT_REQ = dict(CINIT, rid=101)
jm_fixture("c-init", "c_init with its MD5 signature (verified with the secret)", "c_init", CINIT_REQ, "send", "request", secret=SECRET,
           source="jmessage.md §3 (Init / login)")
jm_fixture("c-init-response", "c_init OK", "c_init", {"rid": 101, "code": 0, "message": "success"}, "receive", "response")
jm_fixture("ack", "the server's ack", "ack", {"rid": 101}, "receive", "ack")
LOGIN_JM = {"username": "alice", "password": hashlib.md5(b"secret").hexdigest(), "version": "2.5.0", "rid": 102}
jm_fixture("login", "login with the MD5 password", "login", LOGIN_JM, "send", "request")
jm_fixture("login-response", "login OK", "login", {"rid": 102, "code": 0, "message": "success"}, "receive", "response")
CONTENT = {"version": 1, "target_type": "single", "from_platform": "web", "target_id": "bob", "target_name": "Bob", "from_id": "alice",
           "create_time": 1507882400000, "msg_type": "text", "msg_body": {"text": "hello", "extras": {"k": "v"}}}
SEND = {"content": CONTENT, "no_offline": False, "no_notification": False, "target_name": "Bob", "target_id": "bob",
        "appkey": CINIT["appkey"], "rid": 103}
jm_fixture("send-single", "s_across_single_text with a text message", "s_across_single_text", SEND, "send", "request",
           source="jmessage.md §3 (Send-message payload, Message protocol)")
jm_fixture("send-single-response", "the send result under s_single_text with msg_id", "s_single_text", {"rid": 103, "code": 0, "msg_id": 4242}, "receive", "response")
GCONTENT = dict(CONTENT, target_type="group", target_id="10001", target_name="devs")
GSEND = {"content": GCONTENT, "target_gid": "10001", "users": [{"username": "bob", "appkey": CINIT["appkey"]}], "appkey": CINIT["appkey"], "rid": 104}
jm_fixture("send-group", "send_group_msg with an @ list", "send_group_msg", GSEND, "send", "request")
jm_fixture("send-group-803005", "send_group_msg refused: not in the group (803005)", "send_group_msg", {"rid": 104, "code": 803005, "message": "user not in group"},
           "receive", "response", source="jmessage.md §1.1")
jm_fixture("send-group-803004", "send_group_msg refused: no such group (803004)", "send_group_msg", {"rid": 105, "code": 803004, "message": "target group not exist"},
           "receive", "response", source="jmessage.md §1.1")
jm_fixture("image-message", "s_across_single_text with an image", "s_across_single_text",
           dict(SEND, rid=106, content=dict(CONTENT, msg_type="image", msg_body={"media_id": "qiniu/image/x", "media_crc32": 123, "width": 10, "height": 20, "format": "png", "fsize": 300})),
           "send", "request")
jm_fixture("location-message", "s_across_single_text with a location", "s_across_single_text",
           dict(SEND, rid=107, content=dict(CONTENT, msg_type="location", msg_body={"latitude": 22.5, "longitude": 113.9, "scale": 1, "label": "Shenzhen"})),
           "send", "request")
jm_fixture("custom-message", "send_group_msg with a custom body", "send_group_msg",
           dict(GSEND, rid=108, content=dict(GCONTENT, msg_type="custom", msg_body={"any": ["thing"]})), "send", "request")
SYNC_MSG = {"msg_id": 5001, "msg_type": 3, "from_uid": 77, "from_gid": 0, "ctime_ms": 1507882401000, "msg_level": 0, "need_receipt": False,
            "content": dict(CONTENT, target_id="alice", from_id="bob")}
jm_fixture("msg-sync", "msg_sync push with one message", "msg_sync", {"messages": [SYNC_MSG]}, "receive", "push")
jm_fixture("msg-recv-v2", "msg_recv_v2 for it", "msg_recv_v2", {"msg_id": 5001, "msg_type": 3, "from_uid": 77, "from_gid": 0, "rid": 109}, "send", "reply")
jm_fixture("event-notification", "event_notification forced offline (event_type 1)", "event_notification",
           {"event_id": 9001, "event_type": 1, "from_uid": 0, "gid": 0, "extra": 0, "ctime_ms": 1507882402000}, "receive", "push", source="jmessage.md §2.3")
jm_fixture("event-notification-reply", "the client's reply to event_type 1", "event_notification",
           {"event_id": 9001, "event_type": 1, "from_uid": 0, "gid": 0, "rid": 110}, "send", "reply", source="jmessage.md §2.3")
jm_fixture("event-notification-retract", "event_notification: a message retracted (event_type 55)", "event_notification",
           {"event_id": 9003, "event_type": 55, "from_uid": 77, "gid": 0, "from_username": "bob", "msgid_list": [5001], "type": 0, "ctime_ms": 1507882403000},
           "receive", "push", source="jmessage.md §2.3")
jm_fixture("sync-conversation", "sync_conversation push", "sync_conversation", {"sync_key": 33, "messages": []}, "receive", "push")
jm_fixture("sync-conversation-ack", "sync_conversation_ack with its key", "sync_conversation_ack", {"sync_key": 33, "rid": 111}, "send", "reply")
jm_fixture("sync-event-ack", "sync_event_ack with its key", "sync_event_ack", {"sync_key": 4, "rid": 112}, "send", "reply")
jm_fixture("sync-check", "sync_check with the keys", "sync_check", {"sync_key": 0, "sync_type": 0, "sync_event_key": 0, "msg_receipt_key": 0, "rid": 113}, "send", "request")
jm_fixture("receipt-report", "receipt_report of read messages", "receipt_report", {"sessions": [{"msg_ids": [5001], "type": 3, "username": "bob"}], "rid": 114}, "send", "reply")
jm_fixture("group-members-response", "get_group_members answered", "get_group_members", {"rid": 115, "code": 0, "member_list": [{"username": "bob", "flag": 1}]}, "receive", "response")
# Chat rooms (2.5.0; jmessage.md §3 event list, 847xxx/851xxx codes in §1.1). The payload fields
# are not in the reference (the table requires none): these carry the room id as the SDK's
# 2.5.0 API names it (`id`); only names, direction, rid and code are checked.
ROOM = 10500
jm_fixture("room-list", "room_list: the app's chat rooms", "room_list", {"start": 0, "limit": 20, "appkey": CINIT["appkey"], "rid": 120}, "send", "request")
jm_fixture("room-list-self", "room_list_self: the rooms the user is in", "room_list_self", {"rid": 121}, "send", "request")
jm_fixture("join-room", "join_room", "join_room", {"id": ROOM, "rid": 122}, "send", "request")
jm_fixture("join-room-response", "join_room OK", "join_room", {"rid": 122, "code": 0, "message": "success"}, "receive", "response")
jm_fixture("join-room-851003", "join_room refused: already in the room (851003)", "join_room", {"rid": 122, "code": 851003, "message": "member has in the chatroom"},
           "receive", "response", source="jmessage.md §1.1")
jm_fixture("room-info", "room_info", "room_info", {"id": ROOM, "rid": 123}, "send", "request")
jm_fixture("room-info-response", "room_info answered", "room_info", {"rid": 123, "code": 0, "info": {"id": ROOM, "name": "lobby", "total_member_count": 2}},
           "receive", "response")
jm_fixture("send-room-msg", "send_room_msg with a text content", "send_room_msg",
           {"target_rid": ROOM, "content": dict(CONTENT, target_type="chatroom", target_id=str(ROOM), target_name="lobby"), "rid": 124}, "send", "request")
jm_fixture("send-room-msg-response", "send_room_msg OK with msg_id", "send_room_msg", {"rid": 124, "code": 0, "msg_id": 7001, "ctime_ms": 1507882404000},
           "receive", "response")
jm_fixture("send-room-msg-847001", "send_room_msg refused: not in the room (847001)", "send_room_msg", {"rid": 125, "code": 847001, "message": "user not in chatroom"},
           "receive", "response", source="jmessage.md §1.1")
jm_fixture("room-msg-sync", "room_msg_sync push", "room_msg_sync",
           {"messages": [{"room_id": ROOM, "msg_id": 7002, "from_uid": 77, "ctime_ms": 1507882405000, "content": dict(CONTENT, target_type="chatroom", target_id=str(ROOM), from_id="bob")}]},
           "receive", "push")
jm_fixture("room-msg-sync-his", "room_msg_sync_his push (history on entering)", "room_msg_sync_his", {"messages": []}, "receive", "push")
jm_fixture("exit-room", "exit_room", "exit_room", {"id": ROOM, "rid": 126}, "send", "request")
jm_fixture("exit-room-response", "exit_room OK", "exit_room", {"rid": 126, "code": 0}, "receive", "response")
jm_fixture("trans-msg-rec", "trans_msg_rec push", "trans_msg_rec", {"type": 3, "from_username": "bob", "cmd": "typing"}, "receive", "push")

def jm_bad(name, description, event, payload, direction, rule, needle, secret=None, text=None, source=JM):
    text = text or jm_text(event, payload)
    offset = (text.index(needle) if needle else text.index("["))
    extra = {"secret": secret} if secret else {}
    fixture("jmessage", "event", name, "malformed JMessage: " + description, text=text, direction=direction, expect=err(rule, offset), source=source, **extra)

jm_bad("bad-cinit-no-signature", "c_init without signature", "c_init", {k: v for k, v in CINIT_REQ.items() if k != "signature"}, "send", "JM.FIELD-MISSING", None)
jm_bad("bad-response-no-rid", "a response without rid", "send_group_msg", {"code": 803005}, "receive", "JM.RID-MISSING", None)
jm_bad("bad-rid-zero", "rid 0", "login", dict(LOGIN_JM, rid=0), "send", "JM.RID-INVALID", '"rid"')
jm_bad("bad-rid-string", "rid a string", "login", dict(LOGIN_JM, rid="x"), "send", "JM.RID-INVALID", '"rid"')
jm_bad("bad-response-no-code", "a response without code", "login", {"rid": 102, "message": "?"}, "receive", "JM.CODE-INVALID", None)
jm_bad("bad-code-unknown", "code 999999", "login", {"rid": 102, "code": 999999}, "receive", "JM.CODE-UNKNOWN", '"code"', source="jmessage.md §1")
jm_bad("bad-payload-array", "an array payload", "login", None, "send", "JM.PAYLOAD-NOT-OBJECT", None, text='42["login",[1]]')
jm_bad("bad-two-args", "two arguments", "login", None, "send", "JM.PAYLOAD-NOT-OBJECT", None, text='42["login",{},{}]')
jm_bad("bad-event-unknown", "an unknown event", "frobnicate", {"rid": 5}, "send", "JM.EVENT-UNKNOWN", None)
jm_bad("bad-direction", "msg_sync from the client", "msg_sync", {"messages": [], "rid": 6}, "send", "JM.WRONG-DIRECTION", None)
jm_bad("bad-content-version", "content version 2", "s_across_single_text", dict(SEND, content=dict(CONTENT, version=2)), "send", "JM.CONTENT-INVALID", '"content"')
jm_bad("bad-content-target", "a group content in a single send", "s_across_single_text", dict(SEND, content=GCONTENT), "send", "JM.CONTENT-INVALID", '"content"')
jm_bad("bad-msg-type", "msg_type sticker", "s_across_single_text", dict(SEND, content=dict(CONTENT, msg_type="sticker")), "send", "JM.CONTENT-INVALID", '"content"')
jm_bad("bad-image-body", "an image without width", "s_across_single_text",
       dict(SEND, content=dict(CONTENT, msg_type="image", msg_body={"media_id": "m", "media_crc32": 1, "height": 2, "fsize": 3})), "send", "JM.MSG-BODY-INVALID", '"content"')
jm_bad("bad-location-body", "a location with lable instead of label", "s_across_single_text",
       dict(SEND, content=dict(CONTENT, msg_type="location", msg_body={"latitude": 1, "longitude": 2, "scale": 1, "lable": "x"})), "send", "JM.MSG-BODY-INVALID", '"content"',
       source="jmessage.md §3 (doc misspells lable; the SDK requires label)")
jm_bad("bad-signature-format", "a signature that is not an MD5", "c_init", dict(CINIT_REQ, signature="not-a-hash"), "send", "JM.SIGNATURE-FORMAT", '"signature"')
jm_bad("bad-signature", "a signature made with another secret", "c_init", dict(CINIT_REQ, signature=sign(CINIT["appkey"], CINIT["timestamp"], CINIT["random_str"], "other")),
       "send", "JM.SIGNATURE-INVALID", '"signature"', secret=SECRET)
jm_bad("bad-password", "a clear-text password", "login", dict(LOGIN_JM, password="secret"), "send", "JM.PASSWORD-NOT-MD5", '"password"')
fixture("jmessage", "event", "bad-socketio-ack", "malformed JMessage: a socket.io ACK instead of an ack event", text='437[{"rid":1}]', direction="receive",
        expect=err("JM.TRANSPORT-PACKET", 1), source=JM)
jm_bad("bad-event-type-unknown", "an event_type the Web table lacks (86, an iOS-only number)", "event_notification",
       {"event_id": 9004, "event_type": 86, "from_uid": 0, "gid": 10001}, "receive", "JM.EVENT-TYPE-UNKNOWN", '"event_type"', source="jmessage.md §2.3, §2.1")
jm_bad("bad-room-msg-sync-direction", "room_msg_sync from the client", "room_msg_sync", {"messages": [], "rid": 127}, "send", "JM.WRONG-DIRECTION", None)
jm_bad("bad-room-response-no-rid", "a send_room_msg response without rid", "send_room_msg", {"code": 847001}, "receive", "JM.RID-MISSING", None)
jm_bad("bad-msg-sync-content", "a msg_sync message without content", "msg_sync", {"messages": [{"msg_id": 1}]}, "receive", "JM.FIELD-MISSING", '"messages"')

# ---- signatures
def sig_fixture(name, description, timestamp, secret_used, signature=None, expect="ok"):
    message = "appkey=%s&timestamp=%s&random_str=%s&key=%s" % (CINIT["appkey"], timestamp, CINIT["random_str"], SECRET)
    signature = signature or sign(CINIT["appkey"], timestamp, CINIT["random_str"], secret_used)
    fixture("jmessage", "signature", name, description, input={"appkey": CINIT["appkey"], "timestamp": timestamp, "random_str": CINIT["random_str"], "secret": SECRET},
            message=message, signature=signature, expect=expect, verified_by=["Python hashlib.md5"], source="jmessage.md §3 (Init / login)")

sig_fixture("valid-ms", "a valid signature, timestamp in milliseconds", CINIT["timestamp"], SECRET)
sig_fixture("valid-string-timestamp", "a valid signature, timestamp as a string", "1507882399", SECRET)
sig_fixture("wrong-secret", "signed with another secret", CINIT["timestamp"], "other", expect=err("JM.SIGNATURE-INVALID", 0))
sig_fixture("uppercase", "the right MD5 in uppercase", CINIT["timestamp"], SECRET,
            signature=sign(CINIT["appkey"], CINIT["timestamp"], CINIT["random_str"], SECRET).upper(), expect=err("JM.SIGNATURE-FORMAT", 0))

# ---- JMessage sessions
OPEN = "0" + dumps({"sid": "s1", "upgrades": [], "pingInterval": 25000, "pingTimeout": 60000})

def jev(t, direction, text):
    return {"t": t, "dir": direction, "text": text}

def jm_session(name, description, events, end, expect="ok"):
    fixture("jmessage", "sessions", name, description, input={"secret": SECRET, "connections": [{"events": events, "end": end}]}, expect=expect,
            source="jmessage.md §3")

START = [jev(0, "receive", OPEN), jev(0, "receive", "40"), jev(0.1, "send", jm_text("c_init", CINIT_REQ)), jev(0.15, "receive", jm_text("ack", {"rid": 101})),
         jev(0.2, "receive", jm_text("c_init", {"rid": 101, "code": 0})), jev(0.7, "send", jm_text("login", LOGIN_JM)),
         jev(0.75, "receive", jm_text("ack", {"rid": 102})), jev(0.8, "receive", jm_text("login", {"rid": 102, "code": 0}))]
jm_session("clean", "init, login, send, receive, acknowledge", START + [
    jev(1, "send", jm_text("s_across_single_text", SEND)), jev(1.05, "receive", jm_text("ack", {"rid": 103})),
    jev(1.1, "receive", jm_text("s_single_text", {"rid": 103, "code": 0, "msg_id": 1})),
    jev(2, "receive", jm_text("msg_sync", {"messages": [SYNC_MSG]})),
    jev(2.05, "send", jm_text("msg_recv_v2", {"msg_id": 5001, "msg_type": 3, "from_uid": 77, "from_gid": 0, "rid": 120})),
    jev(2.1, "receive", jm_text("ack", {"rid": 120})), jev(20, "send", "2"), jev(20.1, "receive", "3")], 21)
jm_session("before-init", "login before c_init", [jev(0, "receive", OPEN), jev(0, "receive", "40"), jev(0.1, "send", jm_text("login", LOGIN_JM)),
                                                  jev(0.2, "receive", jm_text("ack", {"rid": 102})), jev(0.3, "receive", jm_text("login", {"rid": 102, "code": 0}))], 1,
           [{"rule": "JM.BEFORE-INIT"}])
jm_session("before-login", "send before login", START[:5] + [jev(0.5, "send", jm_text("s_across_single_text", SEND)), jev(0.55, "receive", jm_text("ack", {"rid": 103})),
                                                             jev(0.6, "receive", jm_text("s_single_text", {"rid": 103, "code": 0, "msg_id": 1}))], 1,
           [{"rule": "JM.BEFORE-LOGIN"}])
jm_session("ack-missing", "a request never acknowledged", START + [jev(1, "send", jm_text("get_groups_list", {"rid": 130}))], 10, [{"rule": "JM.ACK-MISSING"}])
jm_session("response-missing", "acknowledged, never answered", START + [jev(1, "send", jm_text("get_groups_list", {"rid": 131})),
                                                                       jev(1.1, "receive", jm_text("ack", {"rid": 131}))], 40, [{"rule": "JM.RESPONSE-MISSING"}])
# RETRY_TIMES 5 (jmessage.md §3): one send and up to 5 re-sends of the same payload, so six sends
# are within the budget and the seventh is past it.
def retries(rid, sends):
    last = 1 + 6 * (sends - 1)
    return ([jev(1 + 6 * i, "send", jm_text("get_groups_list", {"rid": rid})) for i in range(sends)]
            + [jev(last + 0.5, "receive", jm_text("ack", {"rid": rid})), jev(last + 0.6, "receive", jm_text("get_groups_list", {"rid": rid, "code": 0}))])
jm_session("retry-limit", "the same rid sent seven times: 6 re-sends, one past RETRY_TIMES 5", START + retries(132, 7), 44,
           [{"rule": "JM.RETRY-LIMIT"}])
jm_session("retry-budget", "the same rid sent six times: 5 re-sends, within RETRY_TIMES 5", START + retries(135, 6), 38)
jm_session("retry-early", "re-sent after 1 s", START + [jev(1, "send", jm_text("get_groups_list", {"rid": 133})), jev(2, "send", jm_text("get_groups_list", {"rid": 133})),
                                                       jev(2.1, "receive", jm_text("ack", {"rid": 133})), jev(2.2, "receive", jm_text("get_groups_list", {"rid": 133, "code": 0}))], 3,
           [{"rule": "JM.RETRY-EARLY"}])
jm_session("rid-reused", "a pending rid reused by another event", START + [jev(1, "send", jm_text("get_groups_list", {"rid": 134})),
                                                                          jev(1.1, "send", jm_text("get_friend_list", {"rid": 134})),
                                                                          jev(1.2, "receive", jm_text("ack", {"rid": 134})),
                                                                          jev(1.3, "receive", jm_text("get_groups_list", {"rid": 134, "code": 0}))], 2,
           [{"rule": "JM.RID-REUSED"}])
jm_session("msg-not-acknowledged", "a msg_sync message without msg_recv_v2", START + [jev(2, "receive", jm_text("msg_sync", {"messages": [SYNC_MSG]}))], 10,
           [{"rule": "JM.MSG-NOT-ACKNOWLEDGED"}])
jm_session("sync-key-mismatch", "sync_conversation_ack with another key", START + [jev(2, "receive", jm_text("sync_conversation", {"sync_key": 33, "messages": []})),
                                                                                 jev(2.1, "send", jm_text("sync_conversation_ack", {"sync_key": 32, "rid": 140})),
                                                                                 jev(2.2, "receive", jm_text("ack", {"rid": 140}))], 3,
           [{"rule": "JM.SYNC-ACK-KEY-MISMATCH"}])
jm_session("after-forced-logout", "a request after event_type 1", START + [
    jev(2, "receive", jm_text("event_notification", {"event_id": 9001, "event_type": 1, "from_uid": 0, "gid": 0})),
    jev(2.1, "send", jm_text("event_notification", {"event_id": 9001, "event_type": 1, "from_uid": 0, "gid": 0, "rid": 150})),
    jev(2.2, "receive", jm_text("ack", {"rid": 150})), jev(3, "send", jm_text("get_groups_list", {"rid": 151})),
    jev(3.1, "receive", jm_text("ack", {"rid": 151})), jev(3.2, "receive", jm_text("get_groups_list", {"rid": 151, "code": 800013}))], 4,
           [{"rule": "JM.AFTER-FORCED-LOGOUT"}])
jm_session("event-not-acknowledged", "event_type 1 without the client's reply", START + [
    jev(2, "receive", jm_text("event_notification", {"event_id": 9002, "event_type": 1, "from_uid": 0, "gid": 0}))], 10, [{"rule": "JM.EVENT-NOT-ACKNOWLEDGED"}])
jm_session("room", "join a chat room, send, receive, leave", START + [
    jev(1, "send", jm_text("join_room", {"id": 10500, "rid": 160})), jev(1.05, "receive", jm_text("ack", {"rid": 160})),
    jev(1.1, "receive", jm_text("join_room", {"rid": 160, "code": 0})),
    jev(1.2, "receive", jm_text("room_msg_sync_his", {"messages": []})),
    jev(2, "send", jm_text("send_room_msg", {"target_rid": 10500, "content": {"version": 1, "msg_type": "text", "msg_body": {"text": "hi"}}, "rid": 161})),
    jev(2.05, "receive", jm_text("ack", {"rid": 161})), jev(2.1, "receive", jm_text("send_room_msg", {"rid": 161, "code": 0, "msg_id": 7003})),
    jev(3, "receive", jm_text("room_msg_sync", {"messages": [{"room_id": 10500, "msg_id": 7004}]})),
    jev(4, "send", jm_text("exit_room", {"id": 10500, "rid": 162})), jev(4.05, "receive", jm_text("ack", {"rid": 162})),
    jev(4.1, "receive", jm_text("exit_room", {"rid": 162, "code": 0}))], 5)
jm_session("ping-unanswered", "a ping without pong within pingTimeout", START + [jev(20, "send", "2")], 90, [{"rule": "EIO.PING-UNANSWERED"}])

# ------------------------------------------------------------------ write
for folder in ("nim", "jmessage"):
    shutil.rmtree(os.path.join(ROOT, "Fixtures", folder), ignore_errors=True)
counts = {}
for path, body in FIXTURES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    key = "%s/%s" % (body["dialect"], body["layer"])
    counts[key] = counts.get(key, 0) + 1
print(" ".join("%s=%d" % item for item in sorted(counts.items())), "total=%d" % len(FIXTURES))
