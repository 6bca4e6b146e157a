#!/usr/bin/env python3
"""TLS recordings of real libraries on 127.0.0.1, decrypted by IMWire and by tshark from the
same key log, which the peers wrote themselves (Python's ssl `keylog_filename`).

  LeanCloud  `websockets` 17.4 over TLS both sides (wss, `lc.protobuf2.3`): session/open with the
             JS SDK's ua, direct → ack, a server push acknowledged, echo, close. TLS 1.2 with each
             AEAD suite (ECDHE-RSA-AES128-GCM-SHA256, -AES256-GCM-SHA384, -CHACHA20-POLY1305), TLS 1.3
             with each suite (forced through an OpenSSL config's Ciphersuites, the only way Python's
             ssl offers), one with permessage-deflate, and one whose server answers a request that
             was never made (LC.RESPONSE-WITHOUT-REQUEST, the defect must be found inside TLS).
  yun2win    paho-mqtt 2.2.0 to Debian's mosquitto on a TLS listener (MQTT 3.1.1, client id 00+uuid).
  handshakes `openssl s_client` as the LeanCloud client of the same server (the WebSocket upgrade
             and masked frames written to its stdin, its key log from -keylogfile): a
             HelloRetryRequest (the server accepts only P-256, the client's key share is X25519),
             KeyUpdates both ways (its K and k commands), and a second connection resuming the
             first's session (-sess_out, -sess_in) in TLS 1.2 and 1.3; each session ends with
             session/close.
  JMessage   real_traffic.py's python-socketio 4.6.1 session (long-polls, then the upgrade) with its
             eventlet server on TLS 1.2 and 1.3, the server writing the key log.

Usage:
  Tests/CrossCheck/tls_traffic.py record [--out DIR]
      records every scenario into DIR (default Fixtures/captures/tls/): <name>.pcapng, <name>.keylog and
      manifest.json (expected verdicts are written from what tshark shows, see verify)
  Tests/CrossCheck/tls_traffic.py verify IMWIRE [DIR]
      what CI runs. For each recording:
      a. `check --tls-keylog`: the manifest's exit status and rules (clean ones exit 0 with no finding);
         tshark sees the handshake event the recording is about; the connections' bytes add up to
         the capture's TCP payload;
      b. every WebSocket message (frame, direction, payload), engine.io packet or MQTT packet (frame, type) that tshark
         decrypts with the same key log (-o tls.keylog_file) is what `imwire show --tls-keylog` gives,
         in the same frames, and nothing more;
      c. the same capture with the key log inside it (editcap --inject-secrets: a Decryption Secrets
         Block) gives the same report without --tls-keylog, and so do its `imwire shard --tls-keylog`
         shards;
      d. without a key: exit 1, one TLS.NO-KEY per connection, no message; with another session's
         secrets under this one's client random: TLS.DECRYPT-FAILED, no message;
      e. one byte of the first server record after the handshake flipped: TLS.DECRYPT-FAILED at
         that packet (tshark cannot decrypt it either).
Needs tshark (editcap) for verify; record needs dumpcap, mosquitto, openssl and a venv with
websockets and paho-mqtt (Tests/CrossCheck/.venv-tls, made here).
"""
import asyncio
import collections
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_DIR = ROOT / "Fixtures" / "captures" / "tls"
VENV = ROOT / "Tests" / "CrossCheck" / ".venv-tls"
PINS = ["websockets==17.4", "paho-mqtt==2.2.0"]

TLS12_SUITES = {
    "aes128gcm": "ECDHE-RSA-AES128-GCM-SHA256",
    "aes256gcm": "ECDHE-RSA-AES256-GCM-SHA384",
    "chacha20": "ECDHE-RSA-CHACHA20-POLY1305",
}
TLS13_SUITES = {
    "aes128gcm": "TLS_AES_128_GCM_SHA256",
    "aes256gcm": "TLS_AES_256_GCM_SHA384",
    "chacha20": "TLS_CHACHA20_POLY1305_SHA256",
}

SHA384_SUITES = {"0xc030", "0xc02c", "0x1302", "0x009d", "0x009f"}

SCENARIOS = (
    [dict(name=f"leancloud-tls12-{k}", kind="leancloud", version="1.2", suite=v, port=18450 + i) for i, (k, v) in enumerate(TLS12_SUITES.items())]
    + [dict(name=f"leancloud-tls13-{k}", kind="leancloud", version="1.3", suite=v, port=18460 + i) for i, (k, v) in enumerate(TLS13_SUITES.items())]
    + [
        dict(name="leancloud-tls13-deflate", kind="leancloud", version="1.3", suite=None, port=18470, deflate=True),
        dict(name="leancloud-tls12-defect", kind="leancloud", version="1.2", suite=None, port=18471, defect=True),
        dict(name="yun2win-mqtt-tls13", kind="mqtt", version="1.3", suite=None, port=18480),
        # openssl s_client as the client (its stdin commands K and k send KeyUpdates; -sess_out and
        # -sess_in resume), speaking the WebSocket written here to the websockets server
        dict(name="leancloud-tls13-hrr", kind="leancloud", version="1.3", suite=None, port=18472, client="openssl",
             server_groups="P-256", client_args=["-groups", "X25519:P-256"], feature="hrr"),
        dict(name="leancloud-tls13-keyupdate", kind="leancloud", version="1.3", suite=None, port=18473, client="openssl",
             keyupdate=True, feature="keyupdate"),
        dict(name="leancloud-tls12-resumed", kind="leancloud", version="1.2", suite=None, port=18474, client="openssl",
             client_args=["-tls1_2"], sessions=2, feature="resumed"),
        dict(name="leancloud-tls13-resumed", kind="leancloud", version="1.3", suite=None, port=18475, client="openssl",
             client_args=["-tls1_3"], sessions=2, feature="resumed"),
        # python-socketio over TLS; eventlet's server and the client's polling connection close
        # without close_notify, and OpenSSL 3 answers each such end with a decode_error alert
        dict(name="jmessage-socketio-tls12", kind="socketio", version="1.2", suite=None, port=18481, rules={"TLS.ALERT-AFTER-EOF": 2}),
        dict(name="jmessage-socketio-tls13", kind="socketio", version="1.3", suite=None, port=18482, rules={"TLS.ALERT-AFTER-EOF": 2}),
    ]
)


# --------------------------------------------------------------------------- recording

def ensure_venv():
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], check=True)
    return python


def make_certificate(workdir):
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{workdir}/key.pem", "-out", f"{workdir}/cert.pem",
         "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True)


def encode(imwire, command):
    return subprocess.run([imwire, "encode", json.dumps(command)], check=True, capture_output=True, text=True).stdout.strip()


def leancloud_messages(imwire, defect):
    app, peer = "tls-app", "alice"
    m = {
        "open": {"cmd": "session", "op": "open", "appId": app, "peerId": peer, "i": 1, "sessionMessage": {"ua": "js/5.0.0-rc.7"}},
        "opened": {"cmd": "session", "op": "opened", "appId": app, "peerId": peer, "i": 1, "sessionMessage": {}},
        "direct": {"cmd": "direct", "peerId": peer, "i": 2, "directMessage": {"cid": "c1", "msg": "hello over TLS"}},
        "ack": {"cmd": "ack", "peerId": peer, "i": 2, "ackMessage": {"uid": "m1", "t": 1700000000000}},
        "push": {"cmd": "direct", "peerId": peer, "directMessage": {"cid": "c1", "id": "m2", "fromPeerId": "bob", "msg": "hi", "timestamp": 1700000000001}},
        "pushack": {"cmd": "ack", "peerId": peer, "ackMessage": {"cid": "c1", "mid": "m2"}},
        "echo": {"cmd": "echo", "i": 3},
        "close": {"cmd": "session", "op": "close", "peerId": peer, "i": 4},
        "closed": {"cmd": "session", "op": "closed", "peerId": peer, "i": 4},
        "stray": {"cmd": "conv", "op": "started", "peerId": peer, "i": 33, "convMessage": {"cid": "c9"}},
    }
    encoded = {k: encode(imwire, v) for k, v in m.items()}
    encoded["defect"] = defect
    return encoded


LEANCLOUD_SESSION = r'''
import asyncio, json, ssl, sys, websockets
args = json.loads(sys.argv[1])
m = {k: bytes.fromhex(v) if isinstance(v, str) else v for k, v in args["messages"].items()}
def server_context():
    c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(args["cert"], args["key"])
    if args["version"] == "1.2":
        c.maximum_version = ssl.TLSVersion.TLSv1_2
        if args["suite"]: c.set_ciphers(args["suite"])
    return c
async def handler(ws):
    async for data in ws:
        if data == m["open"]:
            await ws.send(m["opened"])
        elif data == m["direct"]:
            await ws.send(m["ack"])
            if m["defect"]: await ws.send(m["stray"])
            await ws.send(m["push"])
        elif data == m["echo"]:
            await ws.send(m["echo"])
        elif data == m["close"]:
            await ws.send(m["closed"])
async def main():
    compression = "deflate" if args["deflate"] else None
    async with websockets.serve(handler, "127.0.0.1", args["port"], ssl=server_context(), subprotocols=["lc.protobuf2.3"], compression=compression):
        if args["client"] == "openssl":
            print("listening", flush=True)
            await asyncio.sleep(60)  # stopped by the recorder
            return
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); c.load_verify_locations(args["cert"]); c.keylog_filename = args["keylog"]
        async with websockets.connect(f"wss://localhost:{args['port']}/", ssl=c, subprotocols=["lc.protobuf2.3"], compression=compression) as ws:
            await ws.send(m["open"]); await ws.recv()
            await ws.send(m["direct"]); await ws.recv()
            if m["defect"]: await ws.recv()
            await ws.recv()  # the push
            await ws.send(m["pushack"])
            await ws.send(m["echo"]); await ws.recv()
asyncio.run(main())
'''

MQTT_SESSION = r'''
import json, ssl, sys, time, uuid
import paho.mqtt.client as mqtt
args = json.loads(sys.argv[1])
seen = []
def wait(what):
    for _ in range(200):
        if what in seen: return
        time.sleep(0.05)
    raise SystemExit("timed out waiting for " + what)
# The yun2win push server, on the broker's uncaptured plain listener: returnCode 11 once the client
# is subscribed, then an ack (returnCode 20) for each command (yun2win.md §4).
server = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="y2w-push-server", protocol=mqtt.MQTTv311)
def on_command(c, u, message):
    command = json.loads(message.payload)
    server.publish("y2w/u1001", json.dumps({"y2wMessageId": command.get("y2wMessageId"), "returnCode": 20}))
server.on_message = on_command
server.on_subscribe = lambda *a: seen.append("server subscribed")
server.connect("127.0.0.1", args["internal_port"], keepalive=60)
server.loop_start()
server.subscribe("y2w/session/#", qos=0)
wait("server subscribed")
c = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); c.load_verify_locations(args["cert"]); c.keylog_filename = args["keylog"]
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="00" + str(uuid.UUID(int=7)), protocol=mqtt.MQTTv311)
client.username_pw_set("u1001", "token-1001")
client.tls_set_context(c)
client.on_subscribe = lambda *a: seen.append("subscribed")
client.on_message = lambda c, u, m: seen.append(json.loads(m.payload).get("returnCode"))
client.connect("localhost", args["port"], keepalive=300)
client.loop_start()
client.subscribe("y2w/u1001", qos=0)
wait("subscribed")
server.publish("y2w/u1001", json.dumps({"returnCode": 11}))
wait(11)
cmd = {"cmd": "sendMessage", "y2wMessageId": "tls-1", "mts": 1479460000000,
       "message": {"syncs": [{"type": 0}, {"type": 1, "sessionId": "p2p_2001"}], "pns": {"msg": "hello over TLS"}}}
client.publish("y2w/session/p2p_2001", json.dumps(cmd), qos=0)
wait(20)
client.disconnect(); client.loop_stop(); server.disconnect(); server.loop_stop()
'''



def websocket_frame(payload, opcode=2):
    """A masked client frame (RFC 6455 §5.2), FIN set."""
    mask = os.urandom(4)
    length = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | length]) if length < 126 else bytes([0xFE]) + length.to_bytes(2, "big"))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def openssl_session(scenario, port, workdir, keylog, messages, resume):
    """One LeanCloud session from `openssl s_client`: the upgrade and frames written to its stdin
    one at a time (never starting with Q, R, k or K, which are its commands), with `K` (a KeyUpdate
    that asks the server for one) and `k` between messages when the scenario wants KeyUpdates;
    -sess_out keeps the session for the next connection to resume (-sess_in)."""
    session_file = f"{workdir}/{scenario['name']}.session"
    args = ["-sess_in" if resume else "-sess_out", session_file]
    client = subprocess.Popen(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-servername", "localhost", "-CAfile", f"{workdir}/cert.pem",
         "-keylogfile", str(keylog), *scenario.get("client_args", []), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    steps = [f"GET / HTTP/1.1\r\nHost: localhost:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
             "Sec-WebSocket-Protocol: lc.protobuf2.3\r\n\r\n".encode()]
    for name in ("open", "direct", "pushack", "echo", "close"):
        steps.append(websocket_frame(bytes.fromhex(messages[name])))
        if scenario.get("keyupdate") and name in ("open", "pushack"):
            steps.append(b"K\n" if name == "open" else b"k\n")
    steps.append(websocket_frame((1000).to_bytes(2, "big"), opcode=8))
    time.sleep(0.5)
    for step in steps:
        client.stdin.write(step)
        client.stdin.flush()
        time.sleep(0.3)
    time.sleep(0.5)
    client.stdin.close()
    said = client.stdout.read().decode(errors="replace")
    client.wait(timeout=10)
    reused = "Reused, TLS" in said
    if resume != reused:
        raise SystemExit(f"{scenario['name']}: s_client says {'Reused' if reused else 'New'} on connection {2 if resume else 1}")


def record_one(scenario, out, workdir, python, imwire):
    name, port = scenario["name"], scenario["port"]
    pcap, keylog = out / f"{name}.pcapng", out / f"{name}.keylog"
    keylog.unlink(missing_ok=True)
    env = dict(os.environ)
    if scenario["version"] == "1.3" and scenario["suite"]:
        conf = pathlib.Path(workdir) / f"{name}.cnf"
        conf.write_text("openssl_conf = c\n[c]\nssl_conf = s\n[s]\nsystem_default = d\n[d]\nCiphersuites = " + scenario["suite"] + "\n")
        env["OPENSSL_CONF"] = str(conf)
    args = dict(port=port, cert=f"{workdir}/cert.pem", key=f"{workdir}/key.pem", keylog=str(keylog), version=scenario["version"],
                suite=scenario["suite"], deflate=scenario.get("deflate", False), client=scenario.get("client", "python"))
    if scenario["kind"] == "socketio":
        # real_traffic.py's JMessage session (python-socketio 4.6.1 both sides, polling then
        # upgrade), its server on TLS writing the key log
        tls = dict(cert=args["cert"], key=args["key"], keylog=str(keylog), version=scenario["version"])
        script = (f"import sys; sys.path.insert(0, {str(ROOT / 'Tests' / 'CrossCheck')!r}); import real_traffic; "
                  f"real_traffic.jmessage_session({port}, None, None, {workdir!r}, path={str(pcap)!r}, tls={tls!r})")
        subprocess.run([str(python), "-W", "ignore", "-c", script], check=True, timeout=60)
        return pcap, keylog
    if scenario.get("client") == "openssl":
        server_env = dict(env)
        if scenario.get("server_groups"):
            conf = pathlib.Path(workdir) / f"{name}-server.cnf"
            conf.write_text("openssl_conf = c\n[c]\nssl_conf = s\n[s]\nsystem_default = d\n[d]\nGroups = " + scenario["server_groups"] + "\n")
            server_env["OPENSSL_CONF"] = str(conf)
        messages = leancloud_messages(imwire, False)
        args["messages"] = messages
        server = subprocess.Popen([str(python), "-c", LEANCLOUD_SESSION, json.dumps(args)], env=server_env, stdout=subprocess.PIPE)
        try:
            if server.stdout.readline().strip() != b"listening":
                raise SystemExit(f"{name}: the server did not start")
            dump = subprocess.Popen(["dumpcap", "-q", "-i", "lo", "-f", f"tcp port {port}", "-w", str(pcap)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(1.5)
            try:
                for index in range(scenario.get("sessions", 1)):
                    openssl_session(scenario, port, workdir, keylog, messages, resume=index > 0)
                time.sleep(0.8)
            finally:
                dump.send_signal(signal.SIGINT)
                dump.wait(timeout=10)
        finally:
            server.terminate()
            server.wait(timeout=10)
        return pcap, keylog
    broker = None
    if scenario["kind"] == "mqtt":
        config = pathlib.Path(workdir) / "mosquitto.conf"
        # As root, mosquitto runs as the user `mosquitto`, which cannot read the temporary directory.
        args["internal_port"] = port + 1
        config.write_text(f"user root\nallow_anonymous true\nlistener {port + 1} 127.0.0.1\nlistener {port} 127.0.0.1\n"
                          f"certfile {workdir}/cert.pem\nkeyfile {workdir}/key.pem\ntls_version tlsv1.3\n")
        broker = subprocess.Popen(["mosquitto", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        script = MQTT_SESSION
    else:
        args["messages"] = leancloud_messages(imwire, scenario.get("defect", False))
        script = LEANCLOUD_SESSION
    dump = subprocess.Popen(["dumpcap", "-q", "-i", "lo", "-f", f"tcp port {port}", "-w", str(pcap)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.5)
    try:
        subprocess.run([str(python), "-c", script, json.dumps(args)], env=env, check=True, timeout=30)
        time.sleep(0.8)
    finally:
        dump.send_signal(signal.SIGINT)
        dump.wait(timeout=10)
        if broker:
            broker.terminate()
            broker.wait(timeout=10)
    return pcap, keylog


def record(out, only=()):
    imwire = str(ROOT / ".build" / "debug" / "imwire")
    python = ensure_venv()
    out.mkdir(parents=True, exist_ok=True)
    recordings = []
    if only:  # the other recordings stay as they are
        recordings = [r for r in json.loads((out / "manifest.json").read_text())["recordings"] if r["file"][:-len(".pcapng")] not in only]
    with tempfile.TemporaryDirectory() as workdir:
        make_certificate(workdir)
        for scenario in SCENARIOS:
            if only and scenario["name"] not in only:
                continue
            pcap, keylog = record_one(scenario, out, workdir, python, imwire)
            version, suite = tshark_handshake(pcap, keylog)
            recordings.append(dict(
                file=pcap.name, keylog=keylog.name, kind=scenario["kind"], tls=version, suite=suite, feature=scenario.get("feature"),
                expect=dict(exit=1 if scenario.get("defect") else 0,
                            rules={"LC.RESPONSE-WITHOUT-REQUEST": 1} if scenario.get("defect") else scenario.get("rules", {}))))
            print(f"recorded {pcap.name}: {version} {suite}")
    order = [scenario["name"] + ".pcapng" for scenario in SCENARIOS]
    recordings.sort(key=lambda r: order.index(r["file"]))
    manifest = dict(description=__doc__.split("\n\n")[0], recorder=tool_version("dumpcap"), tshark=tool_version("tshark"), recordings=recordings)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def tool_version(tool):
    return subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


def tshark_handshake(pcap, keylog):
    """The version and suite tshark reads from the ServerHello."""
    out = subprocess.run(["tshark", "-r", str(pcap), "-o", f"tls.keylog_file:{keylog}", "-Y", "tls.handshake.type == 2",
                          "-T", "fields", "-e", "tls.handshake.extensions.supported_version", "-e", "tls.handshake.ciphersuite"],
                         capture_output=True, text=True, check=True).stdout.split("\n")[0].split("\t")
    versions = {"0x0304": "TLS 1.3", "0x0303": "TLS 1.2"}
    return versions.get(out[0], "TLS 1.2"), out[1]


# --------------------------------------------------------------------------- verifying

def check(imwire, path, *extra):
    run = subprocess.run([imwire, "check", str(path), "--severity", "info", "--format", "json", *extra], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{path}: imwire check exited {run.returncode}: {run.stderr}")
    plain = subprocess.run([imwire, "check", str(path), *extra], capture_output=True, text=True)
    return plain.returncode, json.loads(run.stdout)


def rules(report):
    counter = collections.Counter(f["rule"] for f in report["captureFindings"])
    for connection in report["connections"]:
        counter.update(f["rule"] for f in connection["findings"])
    return counter


def findings_of(report):
    return [(f["rule"], f["frame"]) for c in report["connections"] for f in c["findings"]]


def imwire_messages(imwire, path, *extra):
    out = subprocess.run([imwire, "show", str(path), "--format", "json", "--show-secrets", *extra], capture_output=True, text=True,
                         check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def engineio3_payload(body):
    """The packets of an engine.io 3 polling body: binary (a type byte 0 string / 1 binary, the
    length as one byte per decimal digit, 0xFF, the packet) or text (`<length>:<packet>`, length
    in characters)."""
    packets, i = [], 0
    if body[:1] in (b"\x00", b"\x01"):
        while i < len(body):
            binary, i = body[i] == 1, i + 1
            digits = ""
            while body[i] != 0xFF:
                digits, i = digits + str(body[i]), i + 1
            length, i = int(digits), i + 1
            packets.append((b"\x04" if binary else b"") + body[i:i + length])
            i += length
        return packets
    text = body.decode()
    while i < len(text):
        colon = text.index(":", i)
        length = int(text[i:colon])
        packets.append(text[colon + 1:colon + 1 + length].encode())
        i = colon + 1 + length
    return packets


def tshark_messages(path, keylog, kind, port):
    """WebSocket data messages (frame, send?, payload hex), MQTT packets (frame, send?, type), or
    engine.io packets of polling bodies and WebSocket text messages (frame, send?, packet hex)."""
    if kind == "socketio":
        out = subprocess.run(["tshark", "-r", str(path), "-o", f"tls.keylog_file:{keylog}", "-Y", "http || websocket.opcode == 1",
                              "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\x1e", "-e", "frame.number", "-e", "tcp.dstport",
                              "-e", "data.data", "-e", "websocket.payload.text"], capture_output=True, text=True, check=True).stdout
        messages = []
        for line in filter(None, out.split("\n")):  # not splitlines(): it splits at the aggregator too
            frame, dstport, body, texts = line.split("\t")
            send = int(dstport) == port
            if body:
                messages += [(int(frame), send, p.hex()) for p in engineio3_payload(bytes.fromhex(body.replace(":", "")))]
            elif texts:
                messages += [(int(frame), send, t.encode().hex()) for t in texts.split("\x1e")]
        return messages
    if kind == "mqtt":
        fields = ["-d", f"tls.port=={port},mqtt", "-Y", "mqtt", "-e", "frame.number", "-e", "tcp.dstport", "-e", "mqtt.msgtype"]
    else:
        fields = ["-o", "websocket.decompress:TRUE", "-Y", "websocket.opcode == 2", "-e", "frame.number", "-e", "tcp.dstport", "-e", "data.data"]
    out = subprocess.run(["tshark", "-r", str(path), "-o", f"tls.keylog_file:{keylog}", "-T", "fields", "-E", "occurrence=a",
                          "-E", "aggregator=;", *fields], capture_output=True, text=True, check=True).stdout
    messages = []
    for line in out.splitlines():
        frame, dstport, values = line.split("\t")
        for value in values.split(";"):
            messages.append((int(frame), int(dstport) == port, value.replace(":", "")))
    return messages


def ours(messages, kind):
    result = []
    for m in messages:
        if kind == "mqtt":
            result.append((m["frame"], m["dir"] == "send", str(int(m["hex"][:2], 16) >> 4)))
        elif kind == "socketio":
            result.append((m["frame"], m["dir"] == "send", m["hex"]))
        elif m["type"] == "binary":
            result.append((m["frame"], m["dir"] == "send", m["hex"]))
    return result


def server_port(path):
    out = subprocess.run(["tshark", "-r", str(path), "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields", "-e", "tcp.dstport"],
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0])


def first_server_record_frame(path, keylog, port):
    """The first packet from the server that carries application data after the handshake."""
    out = subprocess.run(["tshark", "-r", str(path), "-o", f"tls.keylog_file:{keylog}", "-Y",
                          f"tcp.srcport == {port} && tls.record.content_type == 23 && !tls.handshake", "-T", "fields", "-e", "frame.number"],
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0])


def flip_byte(src, dst, frame_number):
    """Copies a pcapng with the last byte of packet `frame_number` flipped (inside its record's tag)."""
    data = bytearray(pathlib.Path(src).read_bytes())
    offset, packets = 0, 0
    while offset < len(data):
        block_type = int.from_bytes(data[offset:offset + 4], "little")
        length = int.from_bytes(data[offset + 4:offset + 8], "little")
        if block_type == 6:
            packets += 1
            if packets == frame_number:
                captured = int.from_bytes(data[offset + 20:offset + 24], "little")
                data[offset + 28 + captured - 1] ^= 0xFF
                break
        offset += length
    pathlib.Path(dst).write_bytes(bytes(data))


def swapped_keylog(keylog, other):
    """This session's client randoms with another session's secrets."""
    mine = [line.split() for line in pathlib.Path(keylog).read_text().splitlines() if line and not line.startswith("#")]
    theirs = {parts[0]: parts[2] for parts in (line.split() for line in pathlib.Path(other).read_text().splitlines() if line)}
    return "".join(f"{label} {random} {theirs.get(label, secret)}\n" for label, random, secret in mine)


def tshark_feature(path, keylog, feature):
    """Whether tshark sees the handshake event the recording is about: a HelloRetryRequest (a
    second ClientHello on one connection), KeyUpdates from both sides, a resumed session (TLS 1.3:
    a ServerHello with pre_shared_key; TLS 1.2: a second ServerHello without a Certificate)."""
    def fields(display_filter, *names):
        out = subprocess.run(["tshark", "-r", str(path), "-o", f"tls.keylog_file:{keylog}", "-Y", display_filter, "-T", "fields",
                              *[x for n in names for x in ("-e", n)]], capture_output=True, text=True, check=True).stdout
        return [line.split("\t") for line in out.splitlines()]
    if feature == "hrr":
        streams = [s for (s,) in fields("tls.handshake.type == 1", "tcp.stream")]
        return any(streams.count(s) == 2 for s in streams)
    if feature == "keyupdate":
        return len({port for (port,) in fields("tls.handshake.type == 24", "tcp.srcport")}) == 2
    if feature == "resumed":
        hellos = fields("tls.handshake.type == 2", "tcp.stream", "tls.handshake.extension.type")
        certificates = {s for (s,) in fields("tls.handshake.type == 11", "tcp.stream")}
        return len(hellos) == 2 and ("41" in hellos[1][1].split(",") or hellos[1][0] not in certificates)
    return True


def tcp_payload_bytes(path):
    out = subprocess.run(["tshark", "-r", str(path), "-T", "fields", "-e", "tcp.len"], capture_output=True, text=True, check=True).stdout
    return sum(int(n) for n in out.split() if n)


def strip_volatile(report):
    report = json.loads(json.dumps(report))
    report.pop("source", None)
    return report


def verify(imwire, directory):
    manifest = json.loads((directory / "manifest.json").read_text())
    failures, checked = [], 0
    recordings = manifest["recordings"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for index, recording in enumerate(recordings):
            name, kind = recording["file"], recording["kind"]
            path, keylog = directory / name, directory / recording["keylog"]
            problems = []
            port = server_port(path)
            # a. the verdict
            status, report = check(imwire, path, "--tls-keylog", str(keylog))
            got = dict(rules(report))
            if status != recording["expect"]["exit"] or got != recording["expect"]["rules"]:
                problems.append(f"check: exit {status}, rules {got}; expected {recording['expect']}")
            tls = [c.get("tls") for c in report["connections"]]
            if not all(t and t.get("decrypted") for t in tls):
                problems.append(f"report's tls members: {tls}")
            if not tshark_feature(path, keylog, recording.get("feature")):
                problems.append(f"tshark does not see the recording's {recording['feature']}")
            captured = sum(c["bytes"]["captured"] for c in report["connections"])
            if captured != tcp_payload_bytes(path):
                problems.append(f"the connections account for {captured} bytes, the capture's TCP payload is {tcp_payload_bytes(path)}")
            # b. messages against tshark
            theirs = tshark_messages(path, keylog, kind, port)
            mine = ours(imwire_messages(imwire, path, "--tls-keylog", str(keylog)), kind)
            if mine != theirs or not theirs:
                problems.append(f"messages differ from tshark's: imwire {mine[:6]}… ({len(mine)}), tshark {theirs[:6]}… ({len(theirs)})")
            # c. the key log inside the capture, and in shards
            dsb = tmp / f"dsb-{name}"
            subprocess.run(["editcap", "--inject-secrets", f"tls,{keylog}", str(path), str(dsb)], check=True)
            status_dsb, report_dsb = check(imwire, dsb)
            if (status_dsb, strip_volatile(report_dsb)) != (status, strip_volatile(report)):
                problems.append("the capture with its Decryption Secrets Block reports otherwise than with --tls-keylog")
            shards = tmp / f"shards-{index}"
            subprocess.run([imwire, "shard", str(path), "--out", str(shards), "--tls-keylog", str(keylog)], check=True, capture_output=True)
            for shard in sorted(shards.glob("*.pcapng")):
                status_shard, report_shard = check(imwire, shard)
                if status_shard != status or rules(report_shard) != rules(report):
                    problems.append(f"shard {shard.name}: exit {status_shard}, rules {dict(rules(report_shard))}")
            # d. no key, wrong key
            status_nokey, report_nokey = check(imwire, path)
            connections = len(report["connections"])
            if status_nokey != 1 or dict(rules(report_nokey)) != {"TLS.NO-KEY": connections} or any(
                    c["messages"] for c in report_nokey["connections"]):
                problems.append(f"without a key: exit {status_nokey}, rules {dict(rules(report_nokey))}")
            # another session of the same version and hash (secrets of another length are refused
            # as missing, a different finding)
            def family(r):
                return r["tls"], r["suite"] in SHA384_SUITES
            others = [r for r in recordings if r is not recording and family(r) == family(recording)]
            other = directory / others[0]["keylog"]
            wrong = tmp / f"wrong-{index}.keylog"
            wrong.write_text(swapped_keylog(keylog, other))
            status_wrong, report_wrong = check(imwire, path, "--tls-keylog", str(wrong))
            if status_wrong != 1 or "TLS.DECRYPT-FAILED" not in rules(report_wrong) or any(
                    c["messages"] for c in report_wrong["connections"]):
                problems.append(f"with another session's secrets: exit {status_wrong}, rules {dict(rules(report_wrong))}")
            # e. a damaged record
            frame = first_server_record_frame(path, keylog, port)
            damaged = tmp / f"damaged-{name}"
            flip_byte(path, damaged, frame)
            _, report_damaged = check(imwire, damaged, "--tls-keylog", str(keylog))
            failed_at = [f for r, f in findings_of(report_damaged) if r == "TLS.DECRYPT-FAILED"]
            if failed_at[:1] != [frame]:
                problems.append(f"damaged packet {frame}: TLS.DECRYPT-FAILED at {failed_at}")
            checked += 1
            if problems:
                failures += [f"{name}: {p}" for p in problems]
                print(f"FAIL {name}")
            else:
                print(f"ok   {name}: {recording['tls']} {recording['suite']}, {len(theirs)} messages as tshark, {dict(got) or 'clean'}")
    for failure in failures:
        print("  " + failure)
    print(f"{checked - len({f.split(':')[0] for f in failures})} passed, {len({f.split(':')[0] for f in failures})} failed")
    return 1 if failures else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "record":
        out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else DEFAULT_DIR
        only = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--only"]
        record(out, only)
        return 0
    if len(sys.argv) in (3, 4) and sys.argv[1] == "verify":
        return verify(sys.argv[2], pathlib.Path(sys.argv[3]) if len(sys.argv) == 4 else DEFAULT_DIR)
    print(__doc__)
    return 64


if __name__ == "__main__":
    sys.exit(main())
