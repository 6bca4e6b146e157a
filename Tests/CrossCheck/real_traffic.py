#!/usr/bin/env python3
"""Real-traffic captures of the NIM, JMessage and yun2win dialects, recorded with dumpcap.

Each session runs on 127.0.0.1 between real, independent protocol libraries while `dumpcap`
records the loopback interface as pcapng (a capture filter on the session's own fixed port, so
nothing else is in it). Every scenario is recorded twice: clean, and with ONE dialect-level
defect injected; manifest.json says which message carries it, the IMWire rule expected for it
and the frame number tshark finds it in.

  yun2win  Debian mosquitto broker (own config in a temp dir, anonymous, one TCP listener per
           capture, websockets listeners for MQTT over WebSocket, and one uncaptured listener) and
           paho-mqtt clients. The client plays a yun2win SDK (uid/imToken as user name/password,
           client id [0|1][platform]<uuid>, the platform's MQTT version and keep-alive): Android
           ("01"+UUID, 38 characters, MQTT 3.1 `MQIsdp`, 30 s), iOS ("02"+UUID, 3.1.1, 60 s) and
           web ("00"+uuid, 3.1.1, 300 s, WebSocket path "/" with subprotocol `mqttv3.1` like the web
           SDK's MQTT.js). It SUBSCRIBEs to its inbox y2w/<uid> (a stock broker needs it; the real
           SDKs never subscribe, yun2win.md §1) and PUBLISHes JSON commands (QoS 0) to
           y2w/session/p2p_2001. A second paho client, on the uncaptured listener, plays the yun2win
           push server: {"returnCode":11}, send acks 26/20 (26 answered by updateSession, as the
           demos do), a relayed peer message (yun2win.md §4, §5).
  JMessage engine.io 3 / socket.io protocol 4: python-socketio 4.6.1 + python-engineio 3.14.2 on
           both sides (the server with eventlet; its aiohttp mode does not run on Python 3.11:
           python-socketio 4.6.1 passes coroutines to asyncio.wait). The client emits the Web
           SDK's events with a rid (c_init with the MD5 signature, login with the MD5 password,
           msg_recv_v2 for msg_sync, s_across_single_text, send_group_msg); the server answers
           `ack {rid}` then the same event (s_single_text for s_across_single_text) with code 0
           (jmessage.md §3). WebSocket only; polling then upgrade (the client's default); polling
           only. Server pingInterval 2000 / pingTimeout 3000 ms (the real server: 25000/60000) so
           engine.io pings fall inside the few seconds recorded. The client emits c_init once the
           socket.io CONNECT `40` arrived, and disconnects through disconnect_in_order(), which
           keeps two thread races of python-engineio 3.14.2 / websocket-client 1.7.0 off the wire
           (frames after the client's own Close; see there).
  NIM      socket.io 0.9 (protocol 1): the server is gevent-socketio 0.3.6 with gevent 1.0.2 and
           gevent-websocket 0.10.1 on Python 2.7 (gevent-socketio needs the gevent of its time:
           gevent >= 1.1b5 refuses its integer header value Access-Control-Max-Age: 3600), the
           client socketIO-client 0.5.7.4 on Python 3.11. Handshake GET /socket.io/1/?t=... answered
           `sid:heartbeat:close:transports`, then WebSocket /socket.io/1/websocket/<sid> or
           xhr-polling /socket.io/1/xhr-polling/<sid> (U+FFFD-framed when the server has several
           packets queued). NIM requests `3:::{"SID","CID","SER","Q"}` and responses
           `3:::{"sid","cid","ser","code","r"}` (nim.md §3): login 2_3, sync 5_1 (with an offline
           4_4 push before syncDone), sendMsg 7_1, heartbeat 1_2 (SER 0), logout 2_6; socket.io
           heartbeats from both libraries (server heartbeat_interval 1 s, heartbeat_timeout 4 s, so
           the client beats every 2 s). Client-side settings, none of them in the wire's grammar:
           the client logs in once `1::` arrived (as the SDK does on connect); a requests hook
           decodes polling bodies as UTF-8 (gevent-socketio labels them `text/plain` without a
           charset, so requests would read the U+FFFD frame marks as Latin-1); a request that
           fails because the server had closed the kept-alive connection is sent again, as a
           browser does; SocketIO.__del__ is disabled (it would open a new session on exit).

The dialect servers are small scripted handlers written here (the vendors' servers are not
public) on top of those libraries; every byte of framing (MQTT, WebSocket, HTTP, engine.io,
socket.io) is the libraries' own.

Usage:
  Tests/CrossCheck/real_traffic.py record --out DIR [--only NAME ...]
      writes DIR/<scenario>-clean.pcapng and DIR/<scenario>-defect.pcapng for every scenario
      (or only those NAMEd: a scenario, or a dialect yun2win, jmessage, nim), and DIR/manifest.json;
      the NIM scenarios are skipped, with the reason in the manifest, without Python 2.7. A
      defect's "frame" is the packet in which tshark completes the message carrying its marker
      (for a polling POST whose body follows its headers in a later segment: the body's segment).
  Tests/CrossCheck/real_traffic.py payloads CAPTURE
      the tshark oracle: the application messages as tshark dissects them (PDML, so payloads are
      exact bytes), one JSON object per line in frame order: {"type":"stream"} opening each TCP
      stream, then {"layer":"http"} requests/responses with headers and body,
      {"layer":"websocket"} frames (-o websocket.decompress:TRUE; text, close code, or the MQTT
      packet inside), {"layer":"mqtt"} packets; each with stream, frame and dir
  Tests/CrossCheck/real_traffic.py verify IMWIRE [DIR]
      what CI runs, on DIR (default: the committed Fixtures/captures/real/); prints one line per
      capture and every problem, exits 1 on any. For each capture of DIR/manifest.json (all 16
      must be there, none skipped):
      a. `IMWIRE check --format json --severity warning`: a clean capture exits 0 with no finding;
         a defect capture exits 1 with exactly one finding, of the manifest's rule, in the frame
         where tshark completes the message carrying the defect's marker (the manifest's frame
         must be that frame too);
      b. the messages `IMWIRE convert --to jsonl` gives equal, per logical connection and
         direction, in order, kind (text/binary), bytes and time (`t`, to the microsecond: the
         time of the packet that completes the message), what tshark dissects on that
         connection's TCP connections (the report's `tcp` list, or its id): WebSocket data
         messages (-o websocket.decompress:TRUE, unmasked, fragments joined; no Lua shim, so MQTT
         over WebSocket stays bytes), MQTT packets on raw TCP (each direction's TCP bytes, seq
         checked, cut at tshark's MQTT PDU sizes), engine.io 3 polling bodies (tshark's
         http.file_data) split into packets by python-engineio 3.14.2's engineio.payload.Payload,
         socket.io 0.9 xhr-polling bodies whole (each non-empty POST body, each 200 GET response
         body; the handshake's body is no message); every TCP connection with bytes must belong
         to exactly one report connection;
      c. bytes: each report connection's `captured` equals tshark's tcp.len sum over its TCP
         connections and decoded + skipped + lost, the connections add up to the capture's
         tcp.len sum, and no count is negative.
      On Fixtures/captures/real/ it also checks that Fixtures/captures/<dialect>-real.pcapng are
      the recordings they were copied from and that each *-real.har says what tshark's
      dissection of its pcapng says.
  Tests/CrossCheck/real_traffic.py freeze DIR [--into CAPTURES]
      copies a recording DIR (all 16 captures and manifest.json) to CAPTURES/real/ (default
      Fixtures/captures/real/), yun2win-mqtt31-clean (raw MQTT 3.1, Android-style),
      jmessage-eio3-polling-upgrade-clean and nim-sio09-websocket-clean to CAPTURES/yun2win-real,
      jmessage-real and nim-real .pcapng, and writes jmessage-real.har and nim-real.har: Chrome
      DevTools-style HARs (xhr entries with bodies, a websocket entry with _webSocketMessages)
      written from tshark's dissection, not from imwire. Run it after verify passes on DIR.

record and payloads install what they need: tshark and mosquitto with apt-get;
Tests/CrossCheck/.venv-real (Python 3.11, PY3_PINS) and Tests/CrossCheck/.venv-real-py27 (Python
2.7 via virtualenv 20.21.1, PY27_PINS; gevent 1.0.2 is built from source, about a minute the
first time). verify and freeze need only tshark (apt-get install -y -o DPkg::Lock::Timeout=300
tshark when missing) and Tests/CrossCheck/.venv-real-verify (the running Python 3, VERIFY_PINS).
"""
import hashlib
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv-real")
VENV27 = os.path.join(HERE, ".venv-real-py27")
VERIFY_VENV = os.path.join(HERE, ".venv-real-verify")  # ignored like .venv-real (.gitignore)
VERIFY_PINS = ["python-engineio==3.14.2", "six==1.17.0"]
PY3_PINS = [
    "paho-mqtt==2.2.0",
    "python-socketio==4.6.1", "python-engineio==3.14.2", "six==1.17.0",
    "eventlet==0.35.2", "greenlet==3.5.6", "dnspython==2.9.2",
    "requests==2.31.0", "urllib3==2.8.0", "idna==3.20", "certifi==2026.10.19.post1", "charset-normalizer==3.5.3",
    "websocket-client==1.7.0",
    "socketIO-client==0.5.7.4",
    "virtualenv==20.21.1", "distlib==0.4.4", "filelock==3.32.7", "platformdirs==3.11.0",
]
PY27_PINS = ["gevent==1.0.2", "greenlet==2.0.2", "gevent-websocket==0.10.1", "gevent-socketio==0.3.6"]
PY27_CANDIDATES = ["/root/.pyenv/versions/2.7.18/bin/python2.7", "python2.7"]
PY311_CANDIDATES = ["python3.11", "/root/.pyenv/versions/3.11.7/bin/python3.11"]


def find_interpreter(candidates):
    for c in candidates:
        path = c if os.path.isabs(c) else shutil.which(c)
        if path and os.path.exists(path):
            return path
    return None


def pinned(venv, pins):
    marker = os.path.join(venv, ".pins")
    return os.path.exists(marker) and open(marker).read() == "\n".join(pins)


def mark_pinned(venv, pins):
    with open(os.path.join(venv, ".pins"), "w") as fh:
        fh.write("\n".join(pins))


def apt_install(packages):
    """apt-get install (as root, or through sudo) of the Debian packages not installed yet."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    sudo = [] if os.geteuid() == 0 else ["sudo", "-E"]
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False, env=env)
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", *sorted(set(packages))],
                   check=True, env=env, stdout=subprocess.DEVNULL)


def ensure_environment(command):
    """record and payloads: tshark, mosquitto and .venv-real (Python 3.11, PY3_PINS). verify and
    freeze: tshark and .venv-real-verify (any Python 3, VERIFY_PINS: python-engineio for splitting
    polling bodies), nothing else."""
    light = command in ("verify", "freeze")
    venv, pins = (VERIFY_VENV, VERIFY_PINS) if light else (VENV, PY3_PINS)
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    tools = (("tshark", "tshark"),) if light else (("tshark", "dumpcap"), ("tshark", "tshark"), ("mosquitto", "mosquitto"))
    missing = [p for p, exe in tools if shutil.which(exe) is None and not os.path.exists("/usr/sbin/" + exe)]
    if missing:
        apt_install(missing)
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        base = sys.executable if light or sys.version_info[:2] == (3, 11) else find_interpreter(PY311_CANDIDATES)
        if base is None:
            raise SystemExit("real_traffic.py record needs Python 3.11")
        subprocess.run([base, "-m", "venv", venv], check=True)
    if not pinned(venv, pins):
        subprocess.run([python, "-m", "pip", "install", "-q", *pins], check=True)
        mark_pinned(venv, pins)
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


def ensure_py27():
    """The Python 2.7 virtualenv for gevent-socketio; None (with the reason) when it cannot be had."""
    python = os.path.join(VENV27, "bin", "python")
    if not os.path.exists(python):
        base = find_interpreter(PY27_CANDIDATES)
        if base is None:
            return None, "no Python 2.7 interpreter"
        subprocess.run([sys.executable, "-m", "virtualenv", "-q", "-p", base, VENV27], check=True)
    if not pinned(VENV27, PY27_PINS):
        result = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *PY27_PINS],
                                capture_output=True, text=True)
        if result.returncode != 0:
            return None, "pip install in .venv-real-py27 failed: " + result.stderr.strip()[-400:]
        mark_pinned(VENV27, PY27_PINS)
    return python, None


# This folder holds websocket.py (another cross-check), which would shadow websocket-client.
sys.path = [p for p in sys.path if os.path.abspath(p or os.getcwd()) != HERE]


def dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def wait_port(port, timeout=15.0, proc=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server for port {port} exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def stop(proc):
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Capture:
    """dumpcap on `interface` with a capture filter on the given TCP ports, as pcapng. Entering waits
    until dumpcap reports its file (`File: PATH` on stderr: it prints that once the interface is open,
    the filter set and the file's header flushed); leaving stops it with SIGINT and waits until it
    has written the rest of the file and exited. `stats` is what dumpcap printed at the end
    (packets captured, received and dropped). Also used by Tests/CrossCheck/proxy.py.

    On Linux, libpcap hands packets over in blocks that the kernel passes on when full or after
    dumpcap's read timeout (250 ms), and packets of a block not yet passed on when SIGINT comes are
    lost without being counted as dropped. So before SIGINT, leaving waits 0.4 s; or, with
    `sentinel`, the filter also takes UDP to the first port, and leaving sends one datagram there
    with a random token and waits until the token is in the file (so is every packet before it):
    a capture then ends with that datagram, which `imwire check` passes over (not TCP)."""

    def __init__(self, path, ports, interface="lo", timeout=15.0, sentinel=False):
        self.path = path
        self.ports = ports
        self.timeout = timeout
        self.sentinel = sentinel
        self.stats = ""
        if os.path.exists(path):
            os.remove(path)
        bpf = " or ".join([f"tcp port {p}" for p in ports] + ([f"udp port {ports[0]}"] if sentinel else []))
        # -B 64: a 64 MiB kernel buffer, so that megabytes at loopback speed are not dropped
        self.proc = subprocess.Popen(["dumpcap", "-q", "-i", interface, "-B", "64", "-f", bpf, "-w", path],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def __enter__(self):
        said = b""
        deadline = time.monotonic() + self.timeout
        while b"File: " not in said:
            left = deadline - time.monotonic()
            ready = select.select([self.proc.stderr], [], [], max(left, 0))[0]
            chunk = os.read(self.proc.stderr.fileno(), 4096) if ready else b""
            if not chunk:  # exited (EOF) or no word in time
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError(f"dumpcap did not start (exit {self.proc.returncode}): "
                                   + said.decode(errors="replace").strip())
            said += chunk
        return self

    def __exit__(self, *exc):
        problem = None
        if self.sentinel and self.proc.poll() is None:
            token = b"imwire-capture-end-" + os.urandom(8).hex().encode()
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.sendto(token, ("127.0.0.1", self.ports[0]))
            deadline = time.monotonic() + self.timeout
            while not self._holds(token):
                if time.monotonic() > deadline:
                    problem = f"the end-of-capture datagram was not in dumpcap's file after {self.timeout} s"
                    break
                time.sleep(0.02)
        else:
            time.sleep(0.4)
        self.proc.send_signal(signal.SIGINT)
        try:
            rest = self.proc.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rest = self.proc.communicate()[1]
        self.stats = rest.decode(errors="replace").strip()
        if self.proc.returncode != 0 or problem:
            raise RuntimeError(f"dumpcap: {problem or 'exit ' + str(self.proc.returncode) + ' on SIGINT'}: {self.stats}")
        os.chmod(self.path, 0o644)  # dumpcap writes 0600

    def _holds(self, token):
        with open(self.path, "rb") as fh:
            return token in fh.read()


class Waiter:
    """Things a library callback received, and waiting for one of them."""

    def __init__(self):
        self.items = []
        self.cond = threading.Condition()

    def add(self, item):
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def wait(self, predicate, timeout=5.0, what="message"):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for item in self.items:
                    if predicate(item):
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"timed out waiting for {what}; have {self.items[-5:]}")
                self.cond.wait(left)


# ---------------------------------------------------------------------------------- yun2win

Y2W_UID, Y2W_TOKEN = "u1001", "imtoken-3b1f"
Y2W_INBOX = "y2w/" + Y2W_UID
Y2W_SESSION = "p2p_2001"
Y2W_TOPIC = "y2w/session/" + Y2W_SESSION
Y2W_MTS = 1479460000000
Y2W_APP = {"syncs": [{"type": 0}, {"type": 1, "sessionId": Y2W_SESSION}], "pns": {"msg": "您有一条新消息"}}
Y2W_INTERNAL_PORT = 18830


def y2w_send(mid):
    return {"cmd": "sendMessage", "y2wMessageId": mid, "mts": Y2W_MTS, "message": Y2W_APP}


def y2w_update(mid):
    return {"cmd": "updateSession", "y2wMessageId": mid, "mts": Y2W_MTS,
            "members": [{"uid": Y2W_UID, "isDel": False}, {"uid": "u2001", "isDel": False}], "force": True,
            "message": Y2W_APP}


class Mosquitto:
    """One Debian mosquitto for every yun2win capture: a listener per capture and one for the push server."""

    def __init__(self, workdir, tcp_ports, ws_ports):
        conf = os.path.join(workdir, "mosquitto.conf")
        lines = ["per_listener_settings false", "allow_anonymous true", "persistence false", "log_type none",
                 f"listener {Y2W_INTERNAL_PORT} 127.0.0.1"]
        lines += [f"listener {p} 127.0.0.1" for p in tcp_ports]
        for p in ws_ports:
            lines += [f"listener {p} 127.0.0.1", "protocol websockets"]
        with open(conf, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.proc = subprocess.Popen([binary, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for p in [Y2W_INTERNAL_PORT, *tcp_ports, *ws_ports]:
            wait_port(p, proc=self.proc)
        self.version = subprocess.run([binary, "-h"], capture_output=True, text=True).stdout.splitlines()[0].strip()

    def close(self):
        stop(self.proc)


def paho_client(client_id, protocol, transport="tcp", ws_protocol=None):
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol,
                         clean_session=True, transport=transport)
    if transport == "websockets":
        client.ws_set_options(path="/", headers={"Sec-Websocket-Protocol": ws_protocol})
    return client


def yun2win_session(port, version, client_id, keepalive, transport, defect):
    import paho.mqtt.client as mqtt
    protocol = mqtt.MQTTv31 if version == "3.1" else mqtt.MQTTv311
    # The push server: on the uncaptured listener, subscribed to every session topic.
    server = paho_client("y2w-push-server", mqtt.MQTTv311)
    commands, ready = Waiter(), Waiter()
    known_sessions = set()

    def server_reply(obj):
        server.publish(Y2W_INBOX, dumps(obj).encode(), qos=0)

    def on_command(c, userdata, message):
        commands.add(message.payload)
        try:
            command = json.loads(message.payload)
        except ValueError:
            return  # a command that is not JSON: no y2wMessageId to ack
        session = message.topic[len("y2w/session/"):]
        mid = command.get("y2wMessageId")
        if command.get("cmd") == "updateSession":
            known_sessions.add(session)
            code = 20
        elif command.get("cmd") == "sendMessage":
            code = 20 if session in known_sessions else 26
        else:
            code = 22
        if defect == "return-code-unknown" and mid == "m-0003":
            code = 42
        server_reply({"y2wMessageId": mid, "returnCode": code})

    server.on_connect = lambda c, u, f, rc, p: ready.add("connected")
    server.on_subscribe = lambda c, u, mid, rcs, p: ready.add("subscribed")
    server.on_message = on_command
    server.connect("127.0.0.1", Y2W_INTERNAL_PORT, keepalive=60)
    server.loop_start()
    ready.wait(lambda x: x == "connected", what="push server CONNACK")
    server.subscribe("y2w/session/#", qos=0)
    ready.wait(lambda x: x == "subscribed", what="push server SUBACK")

    client = paho_client(client_id, protocol, transport, ws_protocol="mqttv3.1")
    client.username_pw_set(Y2W_UID, Y2W_TOKEN)
    inbox, events = Waiter(), Waiter()
    client.on_connect = lambda c, u, f, rc, p: events.add(("connack", int(rc.value) if hasattr(rc, "value") else int(rc)))
    client.on_subscribe = lambda c, u, mid, rcs, p: events.add(("suback", mid))
    client.on_message = lambda c, u, m: inbox.add(json.loads(m.payload))
    client.on_disconnect = lambda c, u, f, rc, p: events.add(("disconnected", str(rc)))
    try:
        client.connect("127.0.0.1", port, keepalive=keepalive)
        client.loop_start()
        code = events.wait(lambda e: e[0] == "connack", what="CONNACK")[1]
        if code != 0:
            raise RuntimeError(f"mosquitto refused the CONNECT with {code}")
        client.subscribe(Y2W_INBOX, qos=0)
        events.wait(lambda e: e[0] == "suback", what="SUBACK")
        server_reply({"returnCode": 11})
        inbox.wait(lambda m: m.get("returnCode") == 11, what="returnCode 11")

        def command(obj, raw=None):
            client.publish(Y2W_TOPIC, raw if raw is not None else dumps(obj).encode(), qos=0)
            if raw is None:
                return inbox.wait(lambda m: m.get("y2wMessageId") == obj["y2wMessageId"], what=obj["y2wMessageId"] + " ack")

        assert command(y2w_send("m-0001"))["returnCode"] == 26
        command(y2w_update("m-0002"))
        command(y2w_send("m-0003"))
        if defect == "payload-not-json":
            raw = dumps(y2w_send("m-0004")).encode()[:60]
            command(None, raw=raw)
            commands.wait(lambda p: p == raw, what="the malformed command at the push server")
        if defect == "ack-without-request":
            server_reply({"y2wMessageId": "m-0099", "returnCode": 20})
            inbox.wait(lambda m: m.get("y2wMessageId") == "m-0099", what="the stray ack")
        relayed = dict(y2w_send("m-9001"), mts=Y2W_MTS + 1000)
        server_reply(relayed)
        inbox.wait(lambda m: m.get("y2wMessageId") == "m-9001", what="the relayed message")
        client._send_pingreq()  # paho pings only after keep-alive seconds of silence
        time.sleep(0.3)
        client.disconnect()
        events.wait(lambda e: e[0] == "disconnected", what="disconnect")
    finally:
        client.loop_stop()
        server.disconnect()
        server.loop_stop()


Y2W_DEFECTS = {
    "return-code-unknown": {
        "direction": "server->client", "marker": '"returnCode":42',
        "description": 'the push server acks sendMessage m-0003 with {"y2wMessageId":"m-0003","returnCode":42}: 42 is in no yun2win table',
        "expected_rule": "Y2W.RETURN-CODE-UNKNOWN"},
    "payload-not-json": {
        "direction": "client->server", "marker": '"y2wMessageId":"m-0004"',
        "description": "the client publishes a sendMessage cut after 60 bytes to y2w/session/p2p_2001: not JSON (no ack follows)",
        "expected_rule": "Y2W.PAYLOAD-NOT-JSON"},
    "ack-without-request": {
        "direction": "server->client", "marker": '"m-0099"',
        "description": 'the push server sends {"y2wMessageId":"m-0099","returnCode":20}: the client never sent m-0099',
        "expected_rule": "Y2W.ACK-WITHOUT-REQUEST"},
}


# ---------------------------------------------------------------------------------- JMessage

JM_APPKEY = "4f7aef34fb361292c566a1cd"
JM_SECRET = "master-secret-1"
JM_CINIT = {"appkey": JM_APPKEY, "random_str": "022cd9fd995849b58b3ef0e943421ed9", "timestamp": 1507882399401,
            "flag": 0, "fromPlatForm": "j"}
JM_CINIT["signature"] = hashlib.md5(("appkey=%s&timestamp=%s&random_str=%s&key=%s" % (
    JM_APPKEY, JM_CINIT["timestamp"], JM_CINIT["random_str"], JM_SECRET)).encode()).hexdigest()


def jm_content(target_type, target_id, target_name, text):
    return {"version": 1, "target_type": target_type, "from_platform": "web", "target_id": target_id,
            "target_name": target_name, "from_id": "alice", "from_name": "Alice", "create_time": 1507882400000,
            "msg_type": "text", "msg_body": {"text": text}}


JM_PUSH = {"messages": [{"msg_id": 52736211, "msg_type": 3, "from_uid": 10086, "from_gid": 0, "ctime_ms": 1507882398000,
                         "msg_level": 0, "need_receipt": False,
                         "custom_notification": {"enabled": False, "title": "", "alert": "", "at_prefix": ""},
                         "content": dict(jm_content("single", "alice", "Alice", "hi alice"), from_id="bob", from_name="Bob",
                                         sui_mtime=1507882300)}]}

JM_SERVER = r'''
import eventlet
eventlet.monkey_patch()
import sys
import socketio

port, defect = int(sys.argv[1]), sys.argv[2]
sio = socketio.Server(async_mode="eventlet", ping_interval=2, ping_timeout=3)
PUSH = %(push)s
msg_ids = iter(range(52736300, 52736400))


def request(event, answer_as=None, extra=None):
    def handler(sid, data):
        sio.emit("ack", {"rid": data["rid"]}, room=sid)
        response = {"rid": data["rid"], "code": 0, "message": "success"}
        response.update(extra() if extra else {})
        if defect == "code-missing" and event == "send_group_msg":
            del response["code"]
        sio.emit(answer_as or event, response, room=sid)
        if event == "login":
            sio.emit("msg_sync", PUSH, room=sid)
        if defect == "response-without-request" and event == "send_group_msg":
            sio.emit("send_group_msg", {"rid": 9999, "code": 0, "message": "success", "msg_id": 52736999}, room=sid)
    sio.on(event, handler)


request("c_init")
request("login")
request("s_across_single_text", "s_single_text", lambda: {"msg_id": next(msg_ids), "ctime_ms": 1507882401000})
request("send_group_msg", None, lambda: {"msg_id": next(msg_ids), "ctime_ms": 1507882402000})
sio.on("msg_recv_v2", lambda sid, data: sio.emit("ack", {"rid": data["rid"]}, room=sid))
listener = eventlet.listen(("127.0.0.1", port))
if len(sys.argv) > 3:  # TLS (Tests/CrossCheck/tls_traffic.py): cert, key, and the key log the server writes
    from eventlet.green import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    context.keylog_filename = sys.argv[5]
    if sys.argv[6] == "1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    listener = context.wrap_socket(listener, server_side=True)
eventlet.wsgi.server(listener, socketio.WSGIApp(sio), log_output=False)
'''


def drain(eio, left, timeout=3.0):
    deadline = time.monotonic() + timeout
    while eio.queue.unfinished_tasks > left and time.monotonic() < deadline:
        time.sleep(0.01)


def disconnect_in_order(client):
    """Client.disconnect() without two client-side races on the WebSocket. Left alone,
    python-engineio 3.14.2 queues "41" and "1" for its write thread and closes the WebSocket at
    once from the caller's thread, so both usually follow its Close frame; and websocket-client
    1.7.0 (the same in 1.9.2) answers the server's Close from engine.io's read thread with a second
    Close. Both are frames after the sender's own Close (RFC 6455 §5.5.1), which the JS client does
    not send. Here the Close waits until the write loop sent both packets, and the reply Close is
    not sent again."""
    eio = client.eio
    if eio.current_transport == "websocket" and eio.ws is not None:
        ws, close = eio.ws, eio.ws.close

        def close_after_flush(*args, **kwargs):
            drain(eio, 1)
            ws.send_close = lambda *a, **k: None  # this side's Close is the one close() sends
            close(*args, **kwargs)
        eio.ws.close = close_after_flush
    client.disconnect()
    drain(eio, 0)
    if getattr(eio, "http", None) is not None:
        eio.http.close()


def jmessage_session(port, transports, defect, workdir, path=None, tls=None):
    """One JMessage session recorded into `path` (default: the scenario's). With `tls` (cert, key,
    keylog, version "1.2"/"1.3"), the server speaks TLS and writes the key log, and the client
    connects to https://localhost without verifying the certificate."""
    import socketio
    script = os.path.join(workdir, "jmessage_server.py")
    with open(script, "w") as fh:
        fh.write(JM_SERVER % {"push": repr(JM_PUSH)})
    tls_args = [tls["cert"], tls["key"], tls["keylog"], tls["version"]] if tls else []
    server = subprocess.Popen([sys.executable, script, str(port), defect or "clean", *tls_args],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(port, proc=server)
        with Capture(path or CURRENT["path"], [port]):
            client = socketio.Client(ssl_verify=not tls)
            received = Waiter()
            for event in ("ack", "c_init", "login", "s_single_text", "send_group_msg", "msg_sync"):
                client.on(event, (lambda name: lambda data: received.add((name, data)))(event))
            client.on("connect", lambda: received.add(("connect", None)))
            started = time.monotonic()
            client.connect(f"https://localhost:{port}" if tls else f"http://127.0.0.1:{port}", transports=transports)
            received.wait(lambda e: e[0] == "connect", what="the socket.io CONNECT packet 40")
            rids = iter(range(1001, 1100))

            def request(event, payload, answer=None):
                rid = next(rids)
                client.emit(event, dict(payload, rid=rid))
                received.wait(lambda e: e[0] == "ack" and e[1].get("rid") == rid, what=f"ack {rid}")
                if answer is not False:
                    return received.wait(lambda e: e[0] == (answer or event) and e[1].get("rid") == rid, what=f"{event} {rid}")

            cinit = dict(JM_CINIT)
            if defect == "field-missing":
                del cinit["signature"]
            request("c_init", cinit)
            request("login", {"username": "alice", "password": hashlib.md5(b"secret").hexdigest(), "version": "2.5.0"})
            push = received.wait(lambda e: e[0] == "msg_sync", what="msg_sync")[1]
            for m in push["messages"]:
                request("msg_recv_v2", {"msg_id": m["msg_id"], "msg_type": m["msg_type"], "from_uid": m["from_uid"],
                                        "from_gid": m["from_gid"]}, answer=False)
            request("s_across_single_text", {"content": jm_content("single", "bob", "Bob", "hello bob"), "no_offline": False,
                                             "no_notification": False, "target_name": "Bob", "need_receipt": False,
                                             "target_id": "bob", "appkey": JM_APPKEY}, answer="s_single_text")
            request("send_group_msg", {"content": jm_content("group", "10001", "devs", "hello devs"), "no_offline": False,
                                       "no_notification": False, "target_name": "devs", "need_receipt": False,
                                       "target_gid": "10001", "users": [], "appkey": JM_APPKEY})
            if defect == "response-without-request":
                received.wait(lambda e: e[0] == "send_group_msg" and e[1].get("rid") == 9999, what="the stray response")
            time.sleep(max(0.0, 2.6 - (time.monotonic() - started)))  # an engine.io ping (pingInterval 2 s)
            transport = client.eio.transport()
            disconnect_in_order(client)
            time.sleep(0.3)
        return transport
    finally:
        stop(server)


JM_DEFECTS = {
    "response-without-request": {
        "direction": "server->client", "marker": '"rid":9999',
        "description": 'after the send_group_msg response the server emits send_group_msg {"rid":9999,...}: the client never sent rid 9999',
        "expected_rule": "JM.RESPONSE-WITHOUT-REQUEST"},
    "code-missing": {
        "direction": "server->client", "marker": '"send_group_msg",{"rid":1005,"message"',
        "description": "the server's send_group_msg response (rid 1005) has no code",
        "expected_rule": "JM.CODE-INVALID"},
    "field-missing": {
        "direction": "client->server", "marker": '"fromPlatForm":"j","rid":1001',
        "description": "the client's c_init (rid 1001) has no signature",
        "expected_rule": "JM.FIELD-MISSING"},
}


# ---------------------------------------------------------------------------------- NIM

NIM_LOGIN = {"3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-1", "18": "app-key-1", "19": "alice", "40": "8.5.0",
             "1000": "token-1"}
NIM_MSG = {"0": 0, "1": "bob", "8": 0, "9": "hi", "11": "c-1"}

# Python 2.7 source: gevent-socketio 0.3.6 serving the NIM link (responses in the Web SDK's key order).
NIM_SERVER = r'''
from gevent import monkey
monkey.patch_all()
import json
import sys
from collections import OrderedDict
from socketio import socketio_manage
from socketio.namespace import BaseNamespace
from socketio.server import SocketIOServer

port, defect = int(sys.argv[1]), sys.argv[2]
MSG = json.loads(%(msg)r, object_pairs_hook=OrderedDict)


def response(sid, cid, ser, code=200, r=None):
    out = OrderedDict([("sid", sid), ("cid", cid), ("ser", ser), ("code", code)])
    if r is not None:
        out["r"] = r
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


class NIMLink(BaseNamespace):
    def recv_message(self, data):
        request = json.loads(data, object_pairs_hook=OrderedDict)
        sid, cid, ser = request["SID"], request["CID"], request["SER"]
        if (sid, cid) == (2, 3):
            self.send(response(2, 3, ser, r=[OrderedDict([("102", "conn-1"), ("103", "127.0.0.1")]), [], {"110": 0}]))
        elif (sid, cid) == (5, 1):
            offline = OrderedDict([("0", 0), ("1", "alice"), ("2", "bob"), ("8", 0), ("9", "missed you"), ("12", "s-1")])
            self.send(response(4, 4, 0, r=[[offline]]))
            self.send(response(5, 1, ser, r=[1700000000123]))
        elif (sid, cid) == (7, 1):
            sent = OrderedDict(request["Q"][0]["v"])
            sent["7"] = 1700000001000
            sent["12"] = "s-2"
            self.send(response(7, 1, ser, code=4242 if defect == "code-unknown" else 200, r=[sent]))
            if defect == "response-without-request":
                self.send(response(7, 1, 99, r=[sent]))
        elif (sid, cid) == (1, 2):
            self.send(response(1, 2, 0))
        elif (sid, cid) == (2, 6):
            self.send(response(2, 6, ser))


def application(environ, start_response):
    if environ["PATH_INFO"].startswith("/socket.io"):
        socketio_manage(environ, {"": NIMLink})
        return []
    start_response("404 Not Found", [("Content-Type", "text/plain")])
    return ["not found"]


SocketIOServer(("127.0.0.1", port), application, resource="socket.io", transports=["websocket", "xhr-polling"],
               policy_server=False, heartbeat_interval=1, heartbeat_timeout=4, close_timeout=10,
               log_file="/dev/null").serve_forever()
'''


def nim_request(sid, cid, ser, q):
    return dumps({"SID": sid, "CID": cid, "SER": ser, "Q": q})


def nim_server(port, defect, workdir, py27):
    """gevent-socketio 0.3.6 (Python 2.7 `py27`) serving the NIM link on 127.0.0.1:port, started and
    listening; `defect` is None or a key of NIM_DEFECTS. Also used by Tests/CrossCheck/proxy.py."""
    script = os.path.join(workdir, "nim_server.py")
    with open(script, "w") as fh:
        fh.write(NIM_SERVER % {"msg": dumps(NIM_MSG)})
    server = subprocess.Popen([py27, script, str(port), defect or "clean"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(port, proc=server)
    except Exception:
        stop(server)
        raise
    return server


def nim_client(port, transport, defect, retried=lambda: None, linger=2.6):
    """A NIM Web SDK session by socketIO-client 0.5.7.4 against 127.0.0.1:port (the server, or a proxy
    in front of it): login, sync, sendMsg, heartbeat, socket.io heartbeats until `linger` seconds have
    passed, logout, disconnect. `retried` is called for each request sent again (see again()).
    Also used by Tests/CrossCheck/proxy.py."""
    from socketIO_client import BaseNamespace, SocketIO
    from socketIO_client.exceptions import ConnectionError as SIOConnectionError, TimeoutError as SIOTimeout
    SocketIO.__del__ = lambda self: None  # it would hand-shake a new session when collected
    received = Waiter()

    class Link(BaseNamespace):
        def on_connect(self):
            received.add({"connected": True})

        def on_message(self, data):
            received.add(json.loads(data))

    started = time.monotonic()
    utf8 = {"response": lambda r, *a, **k: setattr(r, "encoding", "utf-8")}
    io = SocketIO("127.0.0.1", port, Link, transports=[transport], params={"t": "1700000000000"}, hooks=utf8)

    def again(action):
        """gevent-socketio closes the connection after each xhr-polling POST without saying so
        (its second start_response drops the first one's Connection: close); requests may
        have reused it, and the request, which the server never read, fails: send it again,
        as a browser does."""
        try:
            return action()
        except SIOConnectionError as e:
            if "Remote end closed connection without response" not in str(e):
                raise
            retried()
            return action()

    def poll():
        try:
            again(lambda: io._process_events(3))  # longer than the server's 1 s poll, so no poll is cut short
        except SIOTimeout:
            pass
        next(io._heartbeat_pacemaker)

    def pump(predicate, what, timeout=6.0):
        deadline = time.monotonic() + timeout
        while True:
            for item in received.items:
                if predicate(item):
                    return item
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}; have {received.items[-5:]}")
            poll()

    def request(sid, cid, ser, q):
        again(lambda: io.message(nim_request(sid, cid, ser, q)))
        return pump(lambda m: (m.get("sid"), m.get("cid"), m.get("ser")) == (sid, cid, ser), f"{sid}_{cid} ser {ser}")

    pump(lambda m: m.get("connected"), "the socket.io connect packet 1::")  # the SDK logs in on connect
    request(2, 3, 1, [{"t": "Property", "v": NIM_LOGIN}])
    request(5, 1, 2, [{"t": "Property", "v": {"1": 0, "2": 0, "7": 0}}])
    request(7, 1, 3, [{"t": "Property", "v": NIM_MSG}])
    if defect == "response-without-request":
        pump(lambda m: m.get("ser") == 99, "the stray response")
    request(1, 2, 0, [])
    while time.monotonic() - started < linger:  # socket.io heartbeats: the server's every second, the client's every 2 s
        poll()
    request(2, 6, 4, [])
    again(io.disconnect)
    session = getattr(io._SocketIO__transport, "_http_session", None)
    if session is not None:
        session.close()
    time.sleep(0.3)
    return received.items


def nim_session(port, transport, defect, workdir, py27):
    server = nim_server(port, defect, workdir, py27)
    try:
        with Capture(CURRENT["path"], [port]):
            nim_client(port, transport, defect, retried=lambda: RETRIED.append(CURRENT["path"]))
    finally:
        stop(server)


NIM_DEFECTS = {
    "response-without-request": {
        "direction": "server->client", "marker": '"ser":99',
        "description": 'after the sendMsg 7_1 response (ser 3) the server sends a second 7_1 response with "ser":99: no request has SER 99',
        "expected_rule": "NIM.RESPONSE-WITHOUT-REQUEST"},
    "code-unknown": {
        "direction": "server->client", "marker": '"code":4242',
        "description": 'the server answers sendMsg 7_1 (ser 3) with "code":4242, in no NIM status table',
        "expected_rule": "NIM.CODE-UNKNOWN"},
}


# ---------------------------------------------------------------------------------- scenarios

# name, dialect, transport description, port (clean), port (defect), defect, session arguments
SCENARIOS = [
    ("yun2win-mqtt31", "yun2win", "MQTT 3.1 (MQIsdp) over TCP; Android-style client 01<UUID> (38 characters), keep-alive 30 s",
     18831, 18832, "return-code-unknown", ("tcp", "3.1", "01" + "0b9f6c1e-7d2a-4e8b-9c3f-2a1b0c9d8e7f", 30)),
    ("yun2win-mqtt311", "yun2win", "MQTT 3.1.1 over TCP; iOS-style client 02<UUID>, keep-alive 60 s",
     18833, 18834, "payload-not-json", ("tcp", "3.1.1", "02" + "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", 60)),
    ("yun2win-mqtt-ws", "yun2win", "MQTT 3.1.1 over WebSocket (path /, subprotocol mqttv3.1); web-style client 00<uuid>, keep-alive 300 s",
     18835, 18836, "ack-without-request", ("websockets", "3.1.1", "00" + "5f0c8e8a-1b2c-4d3e-8f90-a1b2c3d4e5f6", 300)),
    ("jmessage-eio3-websocket", "jmessage", "engine.io 3 / socket.io 4 over WebSocket only (transports=['websocket'])",
     18841, 18842, "response-without-request", (["websocket"],)),
    ("jmessage-eio3-polling-upgrade", "jmessage", "engine.io 3 / socket.io 4: long-polling, then upgrade to WebSocket (the client's default)",
     18843, 18844, "code-missing", (["polling", "websocket"],)),
    ("jmessage-eio3-polling", "jmessage", "engine.io 3 / socket.io 4 over long-polling only (transports=['polling'])",
     18845, 18846, "field-missing", (["polling"],)),
    ("nim-sio09-websocket", "nim", "socket.io 0.9 (protocol 1): handshake GET /socket.io/1/?t=..., then WebSocket /socket.io/1/websocket/<sid>",
     18851, 18852, "response-without-request", ("websocket",)),
    ("nim-sio09-xhr-polling", "nim", "socket.io 0.9 (protocol 1): handshake GET /socket.io/1/?t=..., then xhr-polling /socket.io/1/xhr-polling/<sid> (U+FFFD framing)",
     18853, 18854, "code-unknown", ("xhr-polling",)),
]
DEFECTS = {"yun2win": Y2W_DEFECTS, "jmessage": JM_DEFECTS, "nim": NIM_DEFECTS}
Y2W_NOTE = ("The client SUBSCRIBEs to y2w/u1001 (mosquitto needs it; the yun2win SDKs never subscribe). The push server's "
            "connection uses the uncaptured listener, so the capture holds the SDK side only. paho's PINGREQ is forced "
            "(_send_pingreq): it pings only after keep-alive seconds of silence.")
NOTES = {
    "yun2win-mqtt31": [Y2W_NOTE, "mosquitto 2.0.11 accepts the 38-character client id on MQTT 3.1 (whose spec caps it at 23)."],
    "yun2win-mqtt311": [Y2W_NOTE],
    "yun2win-mqtt-ws": [Y2W_NOTE, "paho sends every MQTT packet as one masked binary frame; mosquitto (libwebsockets) answers "
                                  "'Upgrade: WebSocket' and Sec-WebSocket-Protocol mqttv3.1. tshark dissects the MQTT inside only "
                                  "with the Lua ws.protocol shim the payloads command loads."],
    "jmessage-eio3-websocket": ["The client sends an engine.io ping '2' right after the open packet (upgrades []), then every 2 s."],
    "jmessage-eio3-polling-upgrade": [
        "The client upgrades right after the handshake GET (t=<float seconds>), whose binary payload carries the open packet and "
        "'40'; it sends no polling POST or second GET: 2probe/3probe, 5 and the server's noop 6 travel on the WebSocket, and "
        "the polling connection stays idle until the end."],
    "jmessage-eio3-polling": [
        "Polling bodies are engine.io 3 binary payloads (application/octet-stream: 0x00, length digits, 0xff, packet) both "
        "ways: the client sends no b64=1. Its requests.Session pool spreads long-poll GETs and POSTs over two TCP "
        "connections; each POST leaves as two segments (headers, then body)."],
    "nim-sio09-websocket": [
        "The handshake GET has its own connection, then the WebSocket. socketIO-client beats '2:::' (empty data field), "
        "gevent-socketio '2::' (every second here); the server answers the client's Close with an empty Close (no code)."],
    "nim-sio09-xhr-polling": [
        "gevent-socketio answers each POST with '1' and then closes the connection without a Connection: close header "
        "(its second start_response replaces the first's headers; bodies are labelled text/plain without a charset), so "
        "the session spreads over about nine TCP connections; a request that went out on a connection the server was "
        "closing gets no response and is sent again (requests_sent_again). socketIO-client's disconnect is "
        "GET ...?t=...&disconnect=True, which gevent-socketio does not take for one (it wants a query starting with "
        "'disconnect'): it is answered as a poll."],
}
CURRENT = {}
RETRIED = []


def versions():
    from importlib.metadata import version
    py3 = f"Python {sys.version.split()[0]} ({os.path.relpath(sys.executable, ROOT)})"
    return {name: version(name) for name in ("paho-mqtt", "python-socketio", "python-engineio", "eventlet", "requests",
                                             "urllib3", "websocket-client", "socketIO-client")}, py3


def py27_versions(py27):
    code = ("import sys, pkg_resources; print(sys.version.split()[0]); "
            "[sys.stdout.write('%s %s\\n' % (d, pkg_resources.get_distribution(d).version)) "
            "for d in ('gevent', 'greenlet', 'gevent-websocket', 'gevent-socketio')]")
    lines = subprocess.run([py27, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    return lines[0], dict(line.split(" ", 1) for line in lines[1:] if line.strip())


def tool_version(tool):
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0].strip() if out else tool


def record(out, only):
    os.makedirs(out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="imwire-real-traffic-")
    lib, py3 = versions()
    wanted = [s for s in SCENARIOS if not only or s[0] in only or s[1] in only]
    manifest = {"description": "Real-traffic captures recorded by Tests/CrossCheck/real_traffic.py on 127.0.0.1 (loopback, "
                               "dumpcap with a capture filter on each capture's port)",
                "recorder": tool_version("dumpcap"), "tshark": tool_version("tshark"), "captures": []}
    py27, py27_problem, py27_info = None, None, None
    if any(s[1] == "nim" for s in wanted):
        py27, py27_problem = ensure_py27()
        if py27:
            py27_info = py27_versions(py27)
    broker = None
    y2w = [s for s in wanted if s[1] == "yun2win"]
    started = time.monotonic()
    try:
        if y2w:
            tcp = [p for s in y2w if s[6][0] == "tcp" for p in s[3:5]]
            ws = [p for s in y2w if s[6][0] == "websockets" for p in s[3:5]]
            broker = Mosquitto(workdir, tcp, ws)
        for name, dialect, transport, port_clean, port_defect, defect_name, args in wanted:
            for variant, port, defect in (("clean", port_clean, None), ("defect", port_defect, defect_name)):
                path = os.path.join(out, f"{name}-{variant}.pcapng")
                CURRENT["path"] = path
                entry = {"file": os.path.basename(path), "scenario": name, "variant": variant, "dialect": dialect,
                         "transport": transport, "server": f"127.0.0.1:{port}"}
                t0 = time.monotonic()
                if dialect == "yun2win":
                    kind, version, client_id, keepalive = args
                    with Capture(path, [port]):
                        yun2win_session(port, version, client_id, keepalive, kind, defect)
                    entry["client"] = {"client_id": client_id, "uid": Y2W_UID, "mqtt": version, "keep_alive": keepalive}
                    entry["libraries"] = {
                        "client": f"paho-mqtt {lib['paho-mqtt']} ({py3})",
                        "server": f"{broker.version} (Debian package), with a paho-mqtt {lib['paho-mqtt']} client playing the "
                                  f"yun2win push server on the uncaptured listener 127.0.0.1:{Y2W_INTERNAL_PORT}"}
                elif dialect == "jmessage":
                    final = jmessage_session(port, args[0], defect, workdir)
                    entry["client_transports"] = args[0]
                    entry["final_transport"] = final
                    entry["libraries"] = {
                        "client": f"python-socketio {lib['python-socketio']} + python-engineio {lib['python-engineio']} Client "
                                  f"(requests {lib['requests']}, urllib3 {lib['urllib3']}, websocket-client {lib['websocket-client']}; {py3})",
                        "server": f"python-socketio {lib['python-socketio']} + python-engineio {lib['python-engineio']} Server, "
                                  f"async_mode eventlet {lib['eventlet']} (eventlet.wsgi; {py3})"}
                else:
                    if py27 is None:
                        entry["skipped"] = py27_problem
                        manifest["captures"].append(entry)
                        print(f"{entry['file']}: skipped ({py27_problem})")
                        continue
                    nim_session(port, args[0], defect, workdir, py27)
                    if RETRIED.count(path):
                        entry["requests_sent_again"] = (f"{RETRIED.count(path)} HTTP request(s) failed on a connection the "
                                                        "server had closed and were sent again on a new one")
                    v27, libs27 = py27_info
                    entry["libraries"] = {
                        "client": f"socketIO-client {lib['socketIO-client']} (requests {lib['requests']}, websocket-client "
                                  f"{lib['websocket-client']}; {py3})",
                        "server": f"gevent-socketio {libs27['gevent-socketio']} on gevent {libs27['gevent']} (greenlet "
                                  f"{libs27['greenlet']}), gevent-websocket {libs27['gevent-websocket']}; Python {v27} "
                                  f"({os.path.relpath(py27, ROOT)})"}
                entry["notes"] = NOTES[name]
                entry["seconds"] = round(time.monotonic() - t0, 1)
                if defect:
                    spec = dict(DEFECTS[dialect][defect])
                    spec["name"] = defect
                    spec["frame"] = find_frame(path, spec["marker"], spec["direction"])
                    entry["defect"] = spec
                else:
                    entry["defect"] = None
                entry["bytes"] = os.path.getsize(path)
                entry["frames"] = count_frames(path)
                entry["tcp_streams"] = len({m["stream"] for m in oracle(path) if m.get("type") == "stream"})
                manifest["captures"].append(entry)
                frame = f", defect in frame {entry['defect']['frame']}" if defect else ""
                print(f"{entry['file']}: {entry['frames']} frames, {entry['bytes']} bytes, "
                      f"{entry['tcp_streams']} TCP connections{frame} ({entry['seconds']} s)", flush=True)
    finally:
        if broker is not None:
            broker.close()
        shutil.rmtree(workdir, ignore_errors=True)
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {len(manifest['captures'])} captures and manifest.json to {out} in {time.monotonic() - started:.0f} s")


# ---------------------------------------------------------------------------------- tshark oracle

def tshark(args):
    return subprocess.run(["tshark", "-n", *args], capture_output=True, text=True, check=True).stdout


def count_frames(path):
    return len(tshark(["-r", path, "-T", "fields", "-e", "frame.number"]).split())


def server_ports(path):
    """The ports that accepted connections: the destination of each SYN without ACK."""
    rows = tshark(["-r", path, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields", "-e", "tcp.dstport"])
    return sorted({int(p) for p in rows.split()})


# tshark hands a WebSocket payload to the MQTT dissector only for the subprotocol "mqtt"; the
# web SDK's "mqttv3.1" needs this line (the Lua ws.protocol shim of anchors.md §6.1).
LUA_SHIM = 'local mqtt = Dissector.get("mqtt")\nfor _, p in ipairs({"mqttv3.1", "mqttv3.1.1"}) do DissectorTable.get("ws.protocol"):add(p, mqtt) end\n'


def dissection_options(path):
    """-d options so tshark dissects each server port by what its clients send first (HTTP or
    MQTT), and the Lua shim for MQTT over WebSocket."""
    ports = server_ports(path)
    options = ["-o", "websocket.decompress:TRUE", "-o", "tcp.desegment_tcp_streams:TRUE", "-o", "http.desegment_body:TRUE"]
    for port in ports:
        rows = tshark(["-r", path, "-Y", f"tcp.dstport == {port} && tcp.len > 0", "-T", "fields", "-e", "tcp.payload"]).split()
        first = rows[0] if rows else ""
        data = bytes.fromhex(first.replace(":", "")) if first else b""
        if data[:4] in (b"GET ", b"POST", b"HEAD", b"OPTI"):
            options += ["-d", f"tcp.port=={port},http"]
        elif data[:1] == b"\x10":
            options += ["-d", f"tcp.port=={port},mqtt"]
    shim = os.path.join(tempfile.gettempdir(), "imwire-real-traffic-shim.lua")
    with open(shim, "w") as fh:
        fh.write(LUA_SHIM)
    return ports, options + ["-X", f"lua_script:{shim}"]


MQTT_TYPES = {1: "CONNECT", 2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL", 7: "PUBCOMP", 8: "SUBSCRIBE",
              9: "SUBACK", 10: "UNSUBSCRIBE", 11: "UNSUBACK", 12: "PINGREQ", 13: "PINGRESP", 14: "DISCONNECT"}
MQTT_FIELDS = {"mqtt.protoname": "protocolName", "mqtt.ver": "protocolLevel", "mqtt.conflags": "connect_flags",
               "mqtt.kalive": "keepAlive", "mqtt.clientid": "clientId", "mqtt.username": "username", "mqtt.passwd": "password",
               "mqtt.conack.flags.sp": "sessionPresent", "mqtt.conack.val": "returnCode", "mqtt.dupflag": "dup",
               "mqtt.qos": "qos", "mqtt.retain": "retain", "mqtt.topic": "topic", "mqtt.msgid": "packetId",
               "mqtt.sub.qos": "requested_qos", "mqtt.suback.qos": "granted_qos"}
MQTT_INTS = {"protocolLevel", "keepAlive", "returnCode", "dup", "qos", "retain", "packetId", "sessionPresent",
             "requested_qos", "granted_qos"}


def fields_of(element):
    """Every field under an element, depth first, as (name, show, value) triples."""
    for f in element.iter("field"):
        yield f.get("name", ""), f.get("show", ""), f.get("value")


def text_or_hex(data, key="text"):
    try:
        return {key: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {key + "Hex": data.hex()}


def mqtt_message(proto):
    out = {"layer": "mqtt"}
    topics = []
    for name, show, value in fields_of(proto):
        if name == "mqtt.msgtype":
            out["type"] = MQTT_TYPES.get(int(show), int(show))
        elif name == "mqtt.msg":
            out.update(text_or_hex(bytes.fromhex(value or ""), "payload"))
        elif name in MQTT_FIELDS:
            key = MQTT_FIELDS[name]
            if key == "topic":
                topics.append(show)
                continue
            out.setdefault(key, int(show, 0) if key in MQTT_INTS else show)
    if topics:
        if out.get("type") in ("SUBSCRIBE", "UNSUBSCRIBE"):
            out["topicFilters"] = topics
        else:
            out["topic"] = topics[0]
    return out


def http_message(proto):
    out = {"layer": "http"}
    headers = []
    for child in proto.findall("field"):
        name, show = child.get("name", ""), child.get("show", "")
        if name == "" and child.find("field[@name='http.request.method']") is not None:
            sub = {f.get("name"): f.get("show") for f in child.findall("field")}
            out.update({"method": sub.get("http.request.method"), "uri": sub.get("http.request.uri"),
                        "version": sub.get("http.request.version")})
        elif name == "" and child.find("field[@name='http.response.code']") is not None:
            sub = {f.get("name"): f.get("show") for f in child.findall("field")}
            out.update({"status": int(sub.get("http.response.code")), "version": sub.get("http.response.version")})
        elif name in ("http.request.line", "http.response.line"):
            headers.append(show.strip())
        elif name == "http.file_data":
            out.update(text_or_hex(bytes.fromhex(child.get("value") or ""), "body"))
    out["headers"] = headers
    return out


def websocket_message(proto):
    out = {"layer": "websocket"}
    for name, show, value in fields_of(proto):
        if name == "websocket.fin":
            out["fin"] = show == "1"
        elif name == "websocket.opcode":
            out["opcode"] = int(show)
        elif name == "websocket.mask":
            out["masked"] = show == "1"
        elif name == "websocket.rsv":
            out["rsv"] = int(show, 16)
        elif name == "websocket.payload.text":
            out.update(text_or_hex(bytes.fromhex(value or "")))
        elif name == "websocket.payload.close.status_code":
            out["close_code"] = int(show)
        elif name == "websocket.payload.close.reason":
            out["close_reason"] = show
    return out


def oracle(path):
    """The capture's application messages as tshark dissects them (PDML, so payloads are exact
    bytes), in frame order; a {"type": "stream"} line opens each TCP stream. A WebSocket binary
    message carries what tshark found in it: an "mqtt" object, or the payload as "hex"."""
    import xml.etree.ElementTree as ET
    ports, options = dissection_options(path)
    pdml = subprocess.run(["tshark", "-n", "-r", path, *options, "-T", "pdml"], capture_output=True, check=True).stdout
    seen = set()
    for packet in ET.fromstring(pdml).findall("packet"):
        protos = packet.findall("proto")
        names = [p.get("name") for p in protos]
        if "tcp" not in names:
            continue
        frame = int(next(f.get("show") for f in protos[0].iter("field") if f.get("name") == "num"))
        tcp = {n: s for n, s, _ in fields_of(protos[names.index("tcp")])}
        stream, src, dst = int(tcp["tcp.stream"]), int(tcp["tcp.srcport"]), int(tcp["tcp.dstport"])
        to_server = dst in ports
        if stream not in seen:
            seen.add(stream)
            yield {"type": "stream", "stream": stream, "frame": frame, "server_port": dst if to_server else src,
                   "client_port": src if to_server else dst}
        base = {"stream": stream, "frame": frame, "dir": "client->server" if to_server else "server->client"}
        pending_ws = None
        for proto in protos[names.index("tcp") + 1:]:
            kind = proto.get("name")
            if kind == "websocket":
                if pending_ws is not None:
                    yield pending_ws
                pending_ws = dict(base, **websocket_message(proto))
                continue
            if kind == "mqtt":
                message = mqtt_message(proto)
                if pending_ws is not None:
                    pending_ws["mqtt"] = dict((k, v) for k, v in message.items() if k != "layer")
                    yield pending_ws
                    pending_ws = None
                else:
                    yield dict(base, **message)
                continue
            if kind == "fake-field-wrapper" or kind == "data":
                data = next((v for n, _, v in fields_of(proto) if n == "data.data"), None)
                if pending_ws is not None and data is not None and "text" not in pending_ws:
                    pending_ws["hex"] = data
                    yield pending_ws
                    pending_ws = None
                elif pending_ws is None and data is not None and "http" not in names:
                    yield dict(base, layer="tcp", hex=data)
                continue
            if kind == "http":
                if pending_ws is not None:
                    yield pending_ws
                    pending_ws = None
                yield dict(base, **http_message(proto))
        if pending_ws is not None:
            yield pending_ws


def message_bytes(m):
    """The application bytes of an oracle message, for finding a marker in them."""
    out = b""
    for key in ("text", "body", "payload"):
        if key in m:
            out += m[key].encode()
        if key + "Hex" in m:
            out += bytes.fromhex(m[key + "Hex"])
    if "hex" in m:
        out += bytes.fromhex(m["hex"])
    if "mqtt" in m:
        out += message_bytes(m["mqtt"])
    return out


def find_frame(path, marker, direction):
    """The frame in which tshark completes the first message of that direction carrying the marker."""
    for m in oracle(path):
        if m.get("type") != "stream" and m.get("dir") == direction and marker.encode() in message_bytes(m):
            return m["frame"]
    return None


def payloads(path):
    for m in oracle(path):
        print(json.dumps(m, ensure_ascii=False))


# ---------------------------------------------------------------------------------- verify

FIXTURE_CAPTURES = os.path.join(ROOT, "Fixtures", "captures")
FIXTURE_REAL = os.path.join(FIXTURE_CAPTURES, "real")
# The capture frozen per dialect beside leancloud-real.pcapng, and whether a HAR of it is written.
FROZEN = [("yun2win-mqtt31-clean.pcapng", "yun2win-real", False),
          ("jmessage-eio3-polling-upgrade-clean.pcapng", "jmessage-real", True),
          ("nim-sio09-websocket-clean.pcapng", "nim-real", True)]
EXPECTED_CAPTURES = 2 * len(SCENARIOS)


class Packet:
    """One TCP segment as tshark reads it without reassembly (pass 1)."""
    __slots__ = ("frame", "time", "stream", "src", "dst", "sport", "dport", "syn", "ack", "length", "seq", "payload")


def segments(path):
    """Every TCP segment, tshark's fields without desegmentation: bytes exactly as captured."""
    fields = ["frame.number", "frame.time_epoch", "tcp.stream", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "tcp.srcport",
              "tcp.dstport", "tcp.flags.syn", "tcp.flags.ack", "tcp.len", "tcp.seq", "tcp.payload"]
    out = tshark(["-r", path, "-o", "tcp.desegment_tcp_streams:FALSE", "-o", "tcp.relative_sequence_numbers:TRUE",
                  "-Y", "tcp", "-T", "fields", "-E", "separator=/t", *[a for f in fields for a in ("-e", f)]])
    packets = []
    for row in out.splitlines():
        v = row.split("\t")
        p = Packet()
        p.frame, p.time, p.stream = int(v[0]), v[1], int(v[2])
        p.src, p.dst = (v[3], v[4]) if v[3] else (f"[{v[5]}]", f"[{v[6]}]")
        p.sport, p.dport = int(v[7]), int(v[8])
        p.syn, p.ack = v[9] in ("1", "True"), v[10] in ("1", "True")
        p.length, p.seq = int(v[11] or 0), int(v[12] or 0)
        p.payload = bytes.fromhex(v[13].replace(":", "")) if v[13] else b""
        if len(p.payload) != p.length:
            raise RuntimeError(f"{path}: frame {p.frame}: tcp.len {p.length} but {len(p.payload)} payload bytes")
        packets.append(p)
    return packets


def streams_of(packets):
    """Per TCP stream: its client and server endpoints (the SYN's sender is the client), as imwire names them."""
    streams = {}
    servers = {(p.dst, p.dport) for p in packets if p.syn and not p.ack}
    for p in packets:
        if p.stream in streams:
            continue
        to_server = (p.dst, p.dport) in servers
        client, server = ((p.src, p.sport), (p.dst, p.dport)) if to_server else ((p.dst, p.dport), (p.src, p.sport))
        streams[p.stream] = {"client": client, "server": server, "id": f"{client[0]}:{client[1]}-{server[0]}:{server[1]}",
                             "bytes": 0, "data": {"send": bytearray(), "receive": bytearray()}}
    for p in packets:
        s = streams[p.stream]
        s["bytes"] += p.length
    return streams, servers


def direction_of(packet, streams):
    s = streams[packet.stream]
    return "send" if (packet.src, packet.sport) == s["client"] else "receive"


def byte_streams(path, packets, streams, problems):
    """Each direction's bytes in sequence order (the relative seq of every segment must follow on)."""
    expected = {}
    for p in packets:
        if p.length == 0:
            continue
        key = (p.stream, direction_of(p, streams))
        first = 1 if key not in expected else expected[key]
        if p.seq != first:
            problems.append(f"{os.path.basename(path)}: frame {p.frame}: TCP seq {p.seq}, expected {first} "
                            "(a retransmission or a gap: the byte stream is not linear)")
        expected[key] = p.seq + p.length
        streams[p.stream]["data"][key[1]] += p.payload


def verify_dissection_options(path, packets, servers):
    """-d options so tshark dissects each server port by what its clients send first (HTTP or MQTT).
    Unlike `payloads`, no Lua shim: a WebSocket binary message stays bytes (data.data)."""
    options = ["-o", "websocket.decompress:TRUE", "-o", "tcp.desegment_tcp_streams:TRUE", "-o", "http.desegment_body:TRUE",
               "-o", "http.desegment_headers:TRUE"]
    for host, port in sorted(servers):
        first = next((p.payload for p in packets if (p.dst, p.dport) == (host, port) and p.length), b"")
        if first[:4] in (b"GET ", b"POST", b"HEAD", b"OPTI"):
            options += ["-d", f"tcp.port=={port},http"]
        elif first[:1] == b"\x10":
            options += ["-d", f"tcp.port=={port},mqtt"]
    return options


def field_value(element, name):
    node = next((f for f in element.iter("field") if f.get("name") == name), None)
    return None if node is None else node


def field_bytes(node):
    return bytes.fromhex(node.get("value") or "") if node is not None else b""


def engineio_packets(body):
    """An engine.io 3 polling body split into packets by python-engineio 3.14.2's own decoder
    (engineio.payload.Payload), the raw bytes of each packet recorded as it hands them to its
    Packet class: (kind, bytes), kind "text" or "binary" as python-engineio reads the packet."""
    from engineio import packet as eio_packet
    from engineio import payload as eio_payload
    recorded = []

    class Recorder(eio_packet.Packet):
        def __init__(self, packet_type=eio_packet.NOOP, data=None, binary=None, encoded_packet=None):
            super().__init__(packet_type, data, binary, encoded_packet)
            if encoded_packet is not None:
                raw = encoded_packet if isinstance(encoded_packet, (bytes, bytearray)) else encoded_packet.encode("utf-8")
                if self.binary and raw[:1] == b"b":  # text form: b<type><base64>
                    raw = bytes([self.packet_type]) + self.data
                recorded.append(("binary" if self.binary else "text", bytes(raw)))

    module = type(sys)("recording_packet")
    module.Packet = Recorder
    saved, cap = eio_payload.packet, eio_payload.Payload.max_decode_packets
    eio_payload.packet, eio_payload.Payload.max_decode_packets = module, 10 ** 9  # a splitter here, not a server
    try:
        eio_payload.Payload(encoded_payload=bytes(body))
    finally:
        eio_payload.packet, eio_payload.Payload.max_decode_packets = saved, cap
    return recorded


def tshark_messages(path, packets, streams, servers, problems):
    """The application messages tshark dissects, per TCP stream, each (dir, kind, bytes, frame)
    with the frame that completes it: WebSocket data messages (unmasked, fragments joined),
    MQTT packets on raw TCP (the stream's bytes cut at tshark's MQTT PDU lengths), engine.io 3
    polling bodies split by python-engineio, socket.io 0.9 xhr-polling bodies whole. Also the
    WebSocket handshakes and HTTP exchanges, for the HAR."""
    import xml.etree.ElementTree as ET
    name = os.path.basename(path)
    options = verify_dissection_options(path, packets, servers)
    pdml = subprocess.run(["tshark", "-n", "-r", path, *options, "-T", "pdml"], capture_output=True, check=True).stdout
    by_frame = {p.frame: p for p in packets}
    messages = {s: [] for s in streams}
    fragments = {}    # (stream, dir) -> [kind, bytearray] of a WebSocket message in progress
    mqtt_at = {}      # (stream, dir) -> bytes consumed
    waiting = {s: [] for s in streams}  # HTTP requests without their response yet, in order
    exchanges = {s: [] for s in streams}
    for element in ET.fromstring(pdml).findall("packet"):
        protos = element.findall("proto")
        frame = int(next(f.get("show") for f in protos[0].iter("field") if f.get("name") == "num"))
        packet = by_frame.get(frame)
        if packet is None:
            continue
        names = [p.get("name") for p in protos]
        if "tcp" not in names:
            continue
        stream, direction = packet.stream, direction_of(packet, streams)
        layers = protos[names.index("tcp") + 1:]
        for index, proto in enumerate(layers):
            kind = proto.get("name")
            if kind == "websocket":
                opcode = int(field_value(proto, "websocket.opcode").get("show"))
                fin = field_value(proto, "websocket.fin").get("show") in ("1", "True")
                text = field_value(proto, "websocket.payload.text")
                if text is not None:
                    data = field_bytes(text)
                else:
                    after = layers[index + 1] if index + 1 < len(layers) else None
                    node = field_value(after, "data.data") if after is not None and after.get("name") in ("data", "fake-field-wrapper") else None
                    data = field_bytes(node)
                key = (stream, direction)
                if opcode in (1, 2):
                    if key in fragments:
                        problems.append(f"{name}: frame {frame}: a WebSocket data frame inside a fragmented message")
                    fragments[key] = ["text" if opcode == 1 else "binary", bytearray(data)]
                elif opcode == 0:
                    if key not in fragments:
                        problems.append(f"{name}: frame {frame}: a WebSocket continuation frame without a message")
                        continue
                    fragments[key][1] += data
                else:
                    if opcode == 8:
                        code = field_value(proto, "websocket.payload.close.status_code")
                        messages[stream].append({"dir": direction, "close": int(code.get("show")) if code is not None else None,
                                                 "frame": frame, "time": packet.time})
                    continue
                if fin:
                    kind_, payload = fragments.pop(key)
                    messages[stream].append({"dir": direction, "kind": kind_, "bytes": bytes(payload), "frame": frame,
                                             "time": packet.time, "via": "websocket"})
            elif kind == "mqtt" and "websocket" not in names:
                size = int(proto.get("size"))
                key = (stream, direction)
                start = mqtt_at.get(key, 0)
                data = bytes(streams[stream]["data"][direction][start:start + size])
                mqtt_at[key] = start + size
                flags = field_value(proto, "mqtt.hdrflags")
                if len(data) != size or (flags is not None and data[:1] != field_bytes(flags)[:1]):
                    problems.append(f"{name}: frame {frame}: tshark's MQTT PDU ({size} bytes, header "
                                    f"{flags.get('value') if flags is not None else '?'}) does not line up with the stream at byte {start}")
                messages[stream].append({"dir": direction, "kind": "binary", "bytes": data, "frame": frame,
                                         "time": packet.time, "via": "mqtt"})
            elif kind == "http":
                method = field_value(proto, "http.request.method")
                status = field_value(proto, "http.response.code")
                body_node = field_value(proto, "http.file_data")
                head = {"frame": frame, "time": packet.time, "body": field_bytes(body_node),
                        "headers": [f.get("show").rstrip("\r\n") for f in proto.iter("field")
                                    if f.get("name") in ("http.request.line", "http.response.line")]}
                if method is not None and direction == "send":
                    head.update(method=method.get("show"), uri=field_value(proto, "http.request.uri").get("show"),
                                version=field_value(proto, "http.request.version").get("show"))
                    waiting[stream].append(head)
                    if head["method"] == "POST":
                        http_messages(name, stream, head, None, messages, problems)
                elif status is not None and direction == "receive":
                    head.update(status=int(status.get("show")), version=field_value(proto, "http.response.version").get("show"),
                                phrase=(field_value(proto, "http.response.phrase").get("show")
                                        if field_value(proto, "http.response.phrase") is not None else ""))
                    if not waiting[stream]:
                        problems.append(f"{name}: frame {frame}: tshark dissects a response without a request")
                        continue
                    request = waiting[stream].pop(0)
                    answered = field_value(proto, "http.request_in")
                    if answered is not None and int(answered.get("show")) != request["frame"]:
                        problems.append(f"{name}: frame {frame}: tshark pairs the response with frame {answered.get('show')}, "
                                        f"HTTP/1.1 order with frame {request['frame']}")
                    exchanges[stream].append((request, head))
                    if request["method"] == "GET":
                        http_messages(name, stream, request, head, messages, problems)
    for (stream, direction), (kind, data) in fragments.items():
        problems.append(f"{name}: TCP stream {stream} ({direction}) ends inside a fragmented WebSocket message")
    for (stream, direction), used in mqtt_at.items():
        total = len(streams[stream]["data"][direction])
        if used != total:
            problems.append(f"{name}: TCP stream {stream} ({direction}): tshark's MQTT PDUs cover {used} of {total} bytes")
    return messages, exchanges


ENGINE_IO_POLL = re.compile(r"[?&]transport=polling(&|$)")
SOCKET_IO_09_POLL = re.compile(r"^(https?://[^/]*)?/socket\.io/1/xhr-polling/")


def http_messages(name, stream, request, response, messages, problems):
    """The socket.io messages of one long-poll: a POST's body (at the request's frame) or a GET's
    200 response body (at the response's frame)."""
    uri = request["uri"]
    source = request if response is None else response
    if response is not None and response["status"] != 200:
        return
    body = source["body"]
    if not body:
        return
    if ENGINE_IO_POLL.search(uri):
        try:
            split = engineio_packets(body)
        except Exception as error:  # noqa: BLE001 - a body python-engineio cannot read is a finding to show
            problems.append(f"{name}: frame {source['frame']}: python-engineio cannot split the polling body: {error!r}")
            return
        for kind, data in split:
            messages[stream].append({"dir": "send" if response is None else "receive", "kind": kind, "bytes": data,
                                     "frame": source["frame"], "time": source["time"], "via": "engine.io polling"})
    elif SOCKET_IO_09_POLL.search(uri):
        messages[stream].append({"dir": "send" if response is None else "receive", "kind": "text", "bytes": body,
                                 "frame": source["frame"], "time": source["time"], "via": "socket.io 0.9 xhr-polling"})


def imwire_run(imwire, *args):
    return subprocess.run([imwire, *args], capture_output=True)


def imwire_transcript(imwire, path, problems):
    result = imwire_run(imwire, "convert", path, "--to", "jsonl", "--show-secrets")
    if result.returncode != 0:
        problems.append(f"{os.path.basename(path)}: imwire convert exited {result.returncode}: {result.stderr.decode(errors='replace').strip()}")
        return {}
    out = {}
    for line in result.stdout.decode("utf-8").splitlines():
        if not line.strip():
            continue
        event = json.loads(line)
        kind = event.get("type", "message")
        conn = str(event.get("conn", "1"))
        out.setdefault(conn, [])
        if kind != "message":
            continue
        if "text" in event:
            out[conn].append({"dir": event["dir"], "kind": "text", "bytes": event["text"].encode("utf-8"), "t": event.get("t")})
        elif "hex" in event:
            out[conn].append({"dir": event["dir"], "kind": "binary", "bytes": bytes.fromhex(event["hex"].replace(" ", "")),
                              "t": event.get("t")})
        else:
            import base64
            out[conn].append({"dir": event["dir"], "kind": "binary", "bytes": base64.b64decode(event["base64"]), "t": event.get("t")})
    return out


def microseconds(epoch):
    """tshark's frame.time_epoch (nanosecond digits) to whole microseconds, as pcapng and imwire keep them."""
    whole, _, fraction = epoch.partition(".")
    return int(whole) * 1000000 + int((fraction + "000000")[:6])


def short(data, limit=90):
    text = data.decode("utf-8", errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def verify_capture(imwire, path, entry):
    """Every check of one capture; returns (problems, summary line)."""
    problems = []
    name = os.path.basename(path)
    packets = segments(path)
    streams, servers = streams_of(packets)
    byte_streams(path, packets, streams, problems)
    messages, _ = tshark_messages(path, packets, streams, servers, problems)

    # (a) imwire check at --severity warning
    result = imwire_run(imwire, "check", path, "--format", "json", "--severity", "warning")
    try:
        report = json.loads(result.stdout)
    except ValueError:
        problems.append(f"{name}: imwire check exited {result.returncode} without a JSON report: "
                        f"{result.stderr.decode(errors='replace').strip()[-300:]}")
        return problems, f"{name}: no report"
    findings = report["captureFindings"] + [f for c in report["connections"] for f in c["findings"]]
    shown = [f"{f['rule']} ({f['severity']}, frame {f['frame']})" for f in findings]
    dropped = sum(c.get("droppedFindings", 0) for c in report["connections"])
    defect = entry.get("defect")
    verdict = ""
    if dropped:
        problems.append(f"{name}: {dropped} findings dropped")
    if defect is None:
        if result.returncode != 0 or findings:
            problems.append(f"{name}: a clean capture, but imwire check exited {result.returncode} with {shown or 'no finding'}")
        verdict = "clean: exit 0, no finding >= warning" if result.returncode == 0 and not findings else f"exit {result.returncode}, {shown}"
    else:
        direction = {"client->server": "send", "server->client": "receive"}[defect["direction"]]
        carrying = [m for ms in messages.values() for m in ms
                    if m.get("dir") == direction and "bytes" in m and defect["marker"].encode() in m["bytes"]]
        frame = min((m["frame"] for m in carrying), default=None)
        if frame is None:
            problems.append(f"{name}: no {defect['direction']} message tshark dissects carries the marker {defect['marker']!r}")
        elif defect.get("frame") != frame:
            problems.append(f"{name}: the manifest puts the defect in frame {defect.get('frame')}, tshark completes the "
                            f"message carrying {defect['marker']!r} in frame {frame}")
        if result.returncode != 1 or len(findings) != 1:
            problems.append(f"{name}: expected exit 1 and exactly one finding >= warning ({defect['expected_rule']} in "
                            f"frame {frame}), imwire check exited {result.returncode} with {shown or 'no finding'}")
        else:
            found = findings[0]
            if found["rule"] != defect["expected_rule"]:
                problems.append(f"{name}: imwire reports {found['rule']}, the manifest expects {defect['expected_rule']}")
            if found["frame"] != frame:
                problems.append(f"{name}: imwire reports {found['rule']} in frame {found['frame']}, tshark completes the message "
                                f"carrying {defect['marker']!r} in frame {frame}")
            if found.get("direction") not in (None, direction):
                problems.append(f"{name}: imwire reports the finding as {found.get('direction')}, the defect is {direction}")
        verdict = f"defect: exit {result.returncode}, {shown or 'no finding'}, tshark frame {frame}"

    # (b) the messages imwire's transport layer reads = what tshark dissects, per logical connection and direction
    transcript = imwire_transcript(imwire, path, problems)
    by_id = {s["id"]: n for n, s in streams.items()}
    claimed = {}
    compared = 0
    for conn in report["connections"]:
        tcp = conn.get("tcp") or [conn["id"]]
        ids = []
        for t in tcp:
            if t not in by_id:
                problems.append(f"{name}: connection {conn['id']}: TCP connection {t} is not one tshark sees")
                continue
            if t in claimed:
                problems.append(f"{name}: TCP connection {t} belongs to {claimed[t]} and to {conn['id']}")
            claimed[t] = conn["id"]
            ids.append(by_id[t])
        theirs_all = sorted((m for n in ids for m in messages[n] if "bytes" in m), key=lambda m: m["frame"])
        ours_all = transcript.get(conn["id"], [])
        for direction in ("send", "receive"):
            theirs = [m for m in theirs_all if m["dir"] == direction]
            ours = [m for m in ours_all if m["dir"] == direction]
            for i, (a, b) in enumerate(zip(ours, theirs)):
                if (a["kind"], a["bytes"]) != (b["kind"], b["bytes"]):
                    problems.append(f"{name}: {conn['id']} {direction} message {i + 1}: imwire {a['kind']} {short(a['bytes'])}, "
                                    f"tshark ({b['via']}, frame {b['frame']}) {b['kind']} {short(b['bytes'])}")
                    break
            else:
                if len(ours) != len(theirs):
                    extra = ours[len(theirs)] if len(ours) > len(theirs) else theirs[len(ours)]
                    problems.append(f"{name}: {conn['id']} {direction}: imwire reads {len(ours)} messages, tshark {len(theirs)}; "
                                    f"the first unmatched: {extra['kind']} {short(extra['bytes'])}"
                                    + (f" (tshark frame {extra['frame']})" if "frame" in extra else ""))
            compared += min(len(ours), len(theirs))
            # A message's time is that of the packet that completes it (what a finding's frame names).
            late = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs))
                    if a.get("t") is not None and round(a["t"] * 1e6) != microseconds(b["time"])]
            if late:
                i, a, b = late[0]
                at = next((p.frame for p in packets if microseconds(p.time) == round(a["t"] * 1e6)), None)
                problems.append(f"{name}: {conn['id']} {direction}: {len(late)} of {len(theirs)} messages carry another time "
                                f"than the packet that completes them ({sorted({b['via'] for _, _, b in late})}); the first, "
                                f"message {i + 1} {short(b['bytes'], 40)}, is complete in frame {b['frame']} "
                                f"(t={b['time']}), imwire gives t={a['t']:.6f}" + (f" (frame {at})" if at else ""))
    for conn in transcript:
        if conn not in {c["id"] for c in report["connections"]}:
            problems.append(f"{name}: imwire convert has connection {conn}, the report does not")
    for n, s in streams.items():
        if s["id"] not in claimed and (s["bytes"] or any("bytes" in m for m in messages[n])):
            problems.append(f"{name}: TCP connection {s['id']} ({s['bytes']} payload bytes) is in no report connection")

    # (c) byte accounting
    total = sum(p.length for p in packets)
    captured = 0
    for conn in report["connections"]:
        b = conn["bytes"]
        captured += b["captured"]
        values = {"captured": b["captured"], "decoded": b["decoded"], "lost": b["lost"],
                  **{f"skipped[{k}]": v for k, v in b["skipped"].items()}}
        negative = {k: v for k, v in values.items() if v < 0}
        if negative:
            problems.append(f"{name}: {conn['id']}: negative byte counts {negative}")
        if b["captured"] != b["decoded"] + sum(b["skipped"].values()) + b["lost"]:
            problems.append(f"{name}: {conn['id']}: captured {b['captured']} != decoded + skipped + lost {values}")
        own = sum(streams[by_id[t]]["bytes"] for t in (conn.get("tcp") or [conn["id"]]) if t in by_id)
        if own != b["captured"]:
            problems.append(f"{name}: {conn['id']}: the report counts {b['captured']} bytes, tshark {own} TCP payload bytes "
                            "on its TCP connections")
    if captured != total:
        problems.append(f"{name}: the report's connections capture {captured} bytes, tshark counts {total} TCP payload bytes")
    summary = (f"{name}: {compared} messages compared with tshark, {total} TCP payload bytes "
               f"({len(report['connections'])} connection(s) over {len(streams)} TCP), {verdict}")
    return problems, summary


def verify(imwire, directory):
    started = time.monotonic()
    problems = []
    imwire = os.path.abspath(imwire)
    if not os.access(imwire, os.X_OK):
        print(f"FAIL imwire not found or not executable: {imwire}")
        return 2
    manifest_path = os.path.join(directory, "manifest.json")
    try:
        manifest = json.load(open(manifest_path, encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"FAIL {manifest_path}: {error}")
        return 1
    entries = manifest.get("captures", [])
    if len(entries) != EXPECTED_CAPTURES:
        problems.append(f"{manifest_path}: {len(entries)} captures, expected {EXPECTED_CAPTURES} (every scenario clean and defect)")
    work = []
    for entry in entries:
        if entry.get("skipped"):
            problems.append(f"{entry['file']}: skipped when recorded ({entry['skipped']}), so not verified")
            continue
        path = os.path.join(directory, entry["file"])
        if not os.path.exists(path):
            problems.append(f"{entry['file']}: missing from {directory}")
            continue
        work.append((path, entry))
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        results = list(pool.map(lambda item: verify_capture(imwire, *item), work))
    for found, summary in results:
        print(("FAIL " if found else "ok   ") + summary)
        problems += found
    if os.path.basename(os.path.normpath(directory)) == "real":
        problems += frozen_fixtures_current(os.path.dirname(os.path.normpath(directory)))
    for problem in problems:
        print("PROBLEM", problem)
    print(f"real traffic {'FAILED' if problems else 'ok'}: {len(results)} captures, {len(problems)} problem(s), "
          f"{time.monotonic() - started:.1f} s")
    return 1 if problems else 0


# ---------------------------------------------------------------------------------- freeze

def iso_time(epoch):
    import datetime
    moment = datetime.datetime.fromtimestamp(float(epoch), datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def har_headers(lines):
    out = []
    for line in lines:
        name, _, value = line.partition(":")
        out.append({"name": name.strip(), "value": value.strip()})
    return out


def har_body(data, mime):
    try:
        return {"size": len(data), "mimeType": mime, "text": data.decode("utf-8")}
    except UnicodeDecodeError:
        import base64
        return {"size": len(data), "mimeType": mime, "text": base64.b64encode(data).decode(), "encoding": "base64"}


def header(headers, name):
    return next((h["value"] for h in har_headers(headers) if h["name"].lower() == name.lower()), None)


def har_of(path):
    """A Chrome DevTools-style HAR of a capture, from tshark's dissection alone: one entry per HTTP
    exchange (long-polls and handshakes as xhr, with their bodies) and one per WebSocket
    (_resourceType websocket, the 101 response, and `_webSocketMessages` {type, time, opcode, data}:
    text as text, binary as base64), in the order the requests were sent."""
    import base64
    problems = []
    packets = segments(path)
    streams, servers = streams_of(packets)
    byte_streams(path, packets, streams, problems)
    messages, exchanges = tshark_messages(path, packets, streams, servers, problems)
    if problems:
        raise RuntimeError("; ".join(problems))
    entries = []
    for stream, pairs in sorted(exchanges.items()):
        for request, response in pairs:
            host = header(request["headers"], "Host") or "%s:%s" % streams[stream]["server"]
            upgraded = response["status"] == 101
            url = ("ws://" if upgraded else "http://") + host + request["uri"]
            query = []
            if "?" in request["uri"]:
                from urllib.parse import parse_qsl
                query = [{"name": k, "value": v} for k, v in parse_qsl(request["uri"].split("?", 1)[1], keep_blank_values=True)]
            entry = {
                "startedDateTime": iso_time(request["time"]),
                "time": round((float(response["time"]) - float(request["time"])) * 1000, 3),
                "request": {"method": request["method"], "url": url, "httpVersion": request["version"],
                            "headers": har_headers(request["headers"]), "queryString": query, "cookies": [],
                            "headersSize": -1, "bodySize": len(request["body"])},
                "response": {"status": response["status"], "statusText": response["phrase"], "httpVersion": response["version"],
                             "headers": har_headers(response["headers"]), "cookies": [],
                             "content": har_body(response["body"], header(response["headers"], "Content-Type") or "x-unknown"),
                             "redirectURL": "", "headersSize": -1, "bodySize": len(response["body"])},
                "cache": {},
                "timings": {"blocked": -1, "dns": -1, "ssl": -1, "connect": -1, "send": 0,
                            "wait": round((float(response["time"]) - float(request["time"])) * 1000, 3), "receive": 0},
                "serverIPAddress": streams[stream]["server"][0],
                "connection": str(streams[stream]["client"][1]),
                "_resourceType": "websocket" if upgraded else "xhr",
            }
            if request["body"]:
                entry["request"]["postData"] = {k: v for k, v in har_body(
                    request["body"], header(request["headers"], "Content-Type") or "x-unknown").items() if k != "size"}
            if upgraded:
                entry["_webSocketMessages"] = [
                    {"type": m["dir"], "time": round(float(m["time"]), 6), "opcode": 1 if m["kind"] == "text" else 2,
                     "data": m["bytes"].decode("utf-8") if m["kind"] == "text" else base64.b64encode(m["bytes"]).decode()}
                    for m in messages[stream] if "bytes" in m and m.get("via") == "websocket"]
            entries.append((float(request["time"]), request["frame"], entry))
    entries.sort(key=lambda e: (e[0], e[1]))
    return {"log": {"version": "1.2", "creator": {"name": "Tests/CrossCheck/real_traffic.py (tshark's dissection)", "version": "1"},
                    "pages": [], "entries": [e for _, _, e in entries]}}


def har_text(path):
    return json.dumps(har_of(path), indent=2, ensure_ascii=False) + "\n"


def har_essence(har):
    """What a HAR says about the session: each entry's request, status, response body and WebSocket messages."""
    return [(e["request"]["method"], e["request"]["url"], e["request"].get("postData", {}).get("text"), e["response"]["status"],
             e["response"]["content"].get("text"), e.get("_webSocketMessages")) for e in har["log"]["entries"]]


def frozen_fixtures_current(captures):
    """The per-dialect copies in CAPTURES (Fixtures/captures) equal their recordings in real/, and
    each HAR says what tshark's dissection of its pcapng says today (entries, bodies, WebSocket
    messages with their times), so neither drifted from the other."""
    problems = []
    for source, stem, with_har in FROZEN:
        pcapng = os.path.join(captures, stem + ".pcapng")
        if not os.path.exists(pcapng):
            problems.append(f"{pcapng} is missing (Tests/CrossCheck/real_traffic.py freeze DIR)")
            continue
        if open(pcapng, "rb").read() != open(os.path.join(captures, "real", source), "rb").read():
            problems.append(f"{stem}.pcapng differs from real/{source}")
        if with_har:
            har = os.path.join(captures, stem + ".har")
            try:
                committed = har_essence(json.load(open(har, encoding="utf-8")))
            except (OSError, ValueError, KeyError) as error:
                problems.append(f"{stem}.har: {error}")
                continue
            if committed != har_essence(har_of(pcapng)):
                problems.append(f"{stem}.har does not say what tshark's dissection of {stem}.pcapng says (freeze again)")
    return problems


def freeze(source, captures=FIXTURE_CAPTURES):
    """Copies a recording (all captures and manifest.json) to CAPTURES/real/, one clean capture per
    dialect to CAPTURES/<dialect>-real.pcapng, and HARs of the WebSocket ones beside them."""
    manifest = json.load(open(os.path.join(source, "manifest.json"), encoding="utf-8"))
    files = [e["file"] for e in manifest["captures"] if not e.get("skipped")]
    if len(files) != EXPECTED_CAPTURES:
        print(f"{source}: {len(files)} recorded captures, expected {EXPECTED_CAPTURES}; not frozen")
        return 1
    real = os.path.join(captures, "real")
    os.makedirs(real, exist_ok=True)
    for stale in os.listdir(real):
        if stale not in files and stale != "manifest.json":
            os.remove(os.path.join(real, stale))
    for f in files + ["manifest.json"]:
        shutil.copyfile(os.path.join(source, f), os.path.join(real, f))
    written = [f"{real}/ ({len(files)} captures and manifest.json)"]
    for captured, stem, with_har in FROZEN:
        target = os.path.join(captures, stem + ".pcapng")
        shutil.copyfile(os.path.join(source, captured), target)
        written.append(target)
        if with_har:
            har = os.path.join(captures, stem + ".har")
            with open(har, "w", encoding="utf-8") as fh:
                fh.write(har_text(target))
            written.append(har)
    print("wrote " + ", ".join(os.path.relpath(w, ROOT) if w.startswith(ROOT) else w for w in written))
    return 0


def main():
    args = sys.argv[1:]
    command = args[0] if args else None
    if command == "payloads" and len(args) == 2:
        payloads(args[1])
        return 0
    if command == "verify" and len(args) in (2, 3):
        return verify(args[1], os.path.abspath(args[2]) if len(args) == 3 else FIXTURE_REAL)
    if command == "freeze" and len(args) == 2:
        return freeze(os.path.abspath(args[1]))
    if command == "freeze" and len(args) == 4 and args[2] == "--into":
        return freeze(os.path.abspath(args[1]), os.path.abspath(args[3]))
    if command == "record" and "--out" in args:
        out = os.path.abspath(args[args.index("--out") + 1])
        only = args[args.index("--only") + 1:] if "--only" in args else []
        record(out, only)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("record", "payloads", "verify", "freeze"):
        ensure_environment(sys.argv[1])
    sys.exit(main())
