#!/usr/bin/env python3
"""`imwire proxy --tls` and `--explicit` between real TLS peers on 127.0.0.1 (CI runs this).

A CA from `imwire ca create`; TLS servers with their own certificate (openssl, CN/SAN localhost and
127.0.0.1), trusted by the proxy through --upstream-ca; clients that trust only the IMWire CA:
  1. tls-leancloud[-errors]: Python `websockets` (ssl, TLS 1.3) LeanCloud sessions through
     `proxy --tls --upstream`, clean and with protocol errors. The live findings equal those of the
     same session through the plaintext proxy (rule, severity, message), and the check of --record
     (the plaintext) equals the live run. dumpcap records both legs of the wire; with the key log
     the proxy wrote (--tls-keylog-out), tshark decrypts both legs' WebSocket messages and `imwire
     check --tls-keylog` reads the same number on each leg, with the client leg's findings those of
     the live run;
  2. connect-leancloud: the same client through `proxy --tls --explicit`, after an HTTP CONNECT
     request on its socket (answered 200); its client leg read by tshark and by imwire check past
     the CONNECT exchange;
  3. socks-mqtt: paho-mqtt (PySocks) through `proxy --tls --explicit` as a SOCKS5 proxy to
     mosquitto's TLS listener: CONNECT, SUBSCRIBE, PUBLISH, the message back; the same session
     through `proxy --explicit` to mosquitto's plain listener is judged the same (MQTT reads as
     yun2win, so these generic clients get yun2win findings: the same ones both ways);
  4. node-mqtt: Node 20's `tls.connect` (NODE_EXTRA_CA_CERTS=the IMWire CA) sending an MQTT CONNECT
     through `proxy --tls --upstream` to mosquitto's TLS listener, reading its CONNACK; judged as
     the same client with `net.connect` through the plaintext proxy;
  5. untrusted: a client that does not trust the IMWire CA refuses the leaf; the proxy reports
     PROXY.TLS-HANDSHAKE-FAILED; not-verified: an upstream whose certificate the proxy cannot verify
     (no --upstream-ca): PROXY.TLS-HANDSHAKE-FAILED and the client's connection closed;
  6. plain-http: Python `requests` and curl send plain-HTTP proxy requests (absolute form) through
     `proxy --explicit` to two keep-alive HTTP servers: each reaches its server in origin form;
     curl's request for the second server on the first's connection is closed and sent again
     (PROXY.SERVER-SWITCH); a request in origin form is answered 501 (PROXY.REQUEST-REFUSED);
  7. `imwire ca create` refuses to overwrite a CA and writes its key with mode 0600.

Usage: Tests/CrossCheck/tls_proxy.py [path/to/imwire]   (the environment of proxy.py, plus openssl)
"""
import asyncio
import json
import os
import socket
import ssl
import stat
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proxy as base  # noqa: E402  (its environment: the venv, mosquitto, dumpcap, tshark)
import real_traffic  # noqa: E402
sys.path.insert(0, HERE)  # real_traffic takes this folder off sys.path
import tls_traffic  # noqa: E402  (its server certificate)
import paho.mqtt.client as paho  # noqa: E402
import socks  # noqa: E402  (PySocks, for paho's proxy_set)
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import serve  # noqa: E402

IMWIRE, PROBLEMS, STATS = base.IMWIRE, base.PROBLEMS, base.STATS


def make_server_certificate(work):
    if base.shutil.which("openssl") is None:
        subprocess.run([os.path.join(base.ROOT, "scripts", "ensure-packages.sh"), "openssl"], check=True)
    tls_traffic.make_certificate(work)  # CN/SAN localhost and 127.0.0.1
    return os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")


def make_ca(work):
    ca = os.path.join(work, "ca")
    made = subprocess.run([IMWIRE, "ca", "create", "--out", ca], capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"imwire ca create failed: {made.stderr}")
    mode = stat.S_IMODE(os.stat(os.path.join(ca, "imwire-ca-key.pem")).st_mode)
    if mode != 0o600:
        PROBLEMS.append(f"ca create: the key's mode is {oct(mode)}, not 0o600")
    again = subprocess.run([IMWIRE, "ca", "create", "--out", ca], capture_output=True, text=True)
    if again.returncode != 2 or "exists" not in again.stderr:
        PROBLEMS.append(f"ca create over an existing CA exited {again.returncode}: {again.stderr.strip()}")
    return ca, os.path.join(ca, "imwire-ca.pem")


class TLSProxy:
    """`imwire proxy` with the given mode options; records both legs with dumpcap (the proxy's port
    and the upstream's), and reads what it printed when it stops."""

    def __init__(self, work, name, mode, connections, upstream_ports, extra=()):
        self.name, self.work = name, work
        self.record = os.path.join(work, f"{name}.pcapng")
        self.report = os.path.join(work, f"{name}.json")
        self.keylog = os.path.join(work, f"{name}.keylog")
        self.proc = subprocess.Popen(
            [IMWIRE, "proxy", "--listen", "127.0.0.1:0", *mode, "--format", "jsonl", "--severity", "info", "--record", self.record,
             "--report", self.report, "--max-connections", str(connections), "--duration", "60", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        if "listening on" not in line:
            raise SystemExit(f"{name}: imwire proxy did not start: {line}{self.proc.stderr.read()}")
        self.port = int(line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])
        self.wire = os.path.join(work, f"{name}-wire.pcapng")
        self.capture = real_traffic.Capture(self.wire, [self.port, *upstream_ports], sentinel=True).__enter__()
        base.CAPTURES.append(self.capture)

    def finish(self):
        try:
            out, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            PROBLEMS.append(f"{self.name}: imwire proxy did not stop by itself")
        self.capture.__exit__(None, None, None)
        self.stderr = err
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        self.live = [entry["finding"] for entry in lines if entry["type"] == "finding"]
        with open(self.report) as f:
            self.final = json.load(f)
        return self.live


def essence(findings):
    """What two runs of one session share: rule, severity and message (frames and times differ)."""
    return sorted((f["rule"], f["severity"], f["message"]) for f in findings)


def check(path, *extra):
    done = subprocess.run([IMWIRE, "check", path, "--format", "json", "--severity", "info", *extra], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        PROBLEMS.append(f"imwire check {os.path.basename(path)} exited {done.returncode}: {done.stderr.strip()}")
        return None
    return json.loads(done.stdout)


def tshark_websocket_messages(path, keylog, ports):
    """Decrypted WebSocket data frames per server port of `ports` (tshark's view, with the key log)."""
    decode = [arg for port in ports for arg in ("-d", f"tcp.port=={port},tls")]
    out = subprocess.run(["tshark", "-r", path, "-o", f"tls.keylog_file:{keylog}", *decode, "-Y", "websocket && websocket.opcode != 8",
                          "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "websocket.opcode"],
                         capture_output=True, text=True, check=True).stdout
    counts = {}
    for line in out.splitlines():
        source, destination, opcodes = line.split("\t")
        if int(source) not in ports and int(destination) not in ports:
            continue
        server = int(source) if int(source) in ports else int(destination)
        counts[server] = counts.get(server, 0) + len(opcodes.split(","))
    return counts


# -- LeanCloud over wss ------------------------------------------------------------------------

def server_context(cert, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def client_context(cafile):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(cafile)
    return context


def leancloud_session(server_port, proxy_args, work, name, errors, ca_file, cert, key, upstream_flags, tls=True, connect_request=False):
    """One LeanCloud session from a websockets client through a proxy to a websockets server."""
    async def run():
        ssl_server = server_context(cert, key) if tls else None
        async with serve(base.lc_server, "127.0.0.1", server_port, subprotocols=["lc.protobuf2.3"], compression="deflate", ssl=ssl_server):
            proxy = TLSProxy(work, name, proxy_args, 1, [server_port], upstream_flags)
            if connect_request:
                sock = socket.create_connection(("127.0.0.1", proxy.port))
                sock.sendall(f"CONNECT localhost:{server_port} HTTP/1.1\r\nHost: localhost:{server_port}\r\n\r\n".encode())
                answer = sock.recv(4096)
                if not answer.startswith(b"HTTP/1.1 200"):
                    PROBLEMS.append(f"{name}: CONNECT answered {answer!r}")
                uri, extra = f"wss://localhost:{server_port}/", dict(sock=sock, server_hostname="localhost")
            else:
                uri, extra = f"{'wss' if tls else 'ws'}://localhost:{proxy.port}/", {}
            context = client_context(ca_file) if tls else None
            async with connect(uri, subprotocols=["lc.protobuf2.3"], compression="deflate", ssl=context, **extra) as ws:
                await session_commands(ws, errors)
            return proxy
    return asyncio.run(run())


async def session_commands(ws, errors):
    async def request(command):
        await ws.send(base.oracle.encode(command))
        return base.oracle.decode(await ws.recv())
    if errors:
        await request({"cmd": "direct", "peerId": "alice", "i": 1, "directMessage": {"cid": "C1", "msg": base.text("early")}})
    await request({"cmd": "session", "op": "open", "appId": "FreeChatDemo01", "peerId": "alice", "i": 2,
                   "sessionMessage": {"ua": "py/websockets", "configBitmap": "187"}})
    await request({"cmd": "conv", "op": "start", "peerId": "alice", "i": 3, "convMessage": {"m": ["alice", "bob"] + (["mallory"] if errors else [])}})
    for n in range(5):
        await request({"cmd": "direct", "peerId": "alice", "i": 4 + n, "directMessage": {"cid": "C1", "msg": base.text(f"hello {n}")}})
    await request({"cmd": "session", "op": "close", "peerId": "alice", "i": 30, "sessionMessage": {}})


def leancloud(work, ca, ca_file, cert, key, errors):
    name = "tls-leancloud" + ("-errors" if errors else "")
    port = base.free_port()
    proxy = leancloud_session(port, ["--upstream", f"127.0.0.1:{port}", "--tls", "--ca", ca], work, name, errors, ca_file, cert, key,
                              ["--upstream-ca", cert, "--tls-keylog-out", os.path.join(work, f"{name}.keylog")])
    live = proxy.finish()
    # The same session through the plaintext proxy.
    plain_port = base.free_port()
    plain = leancloud_session(plain_port, ["--upstream", f"127.0.0.1:{plain_port}"], work, name + "-plain", errors, None, cert, key, [],
                              tls=False)
    plain_live = plain.finish()
    if essence(live) != essence(plain_live):
        PROBLEMS.append(f"{name}: live findings over TLS {essence(live)} differ from the plaintext proxy's {essence(plain_live)}")
    if errors and not [f for f in live if f["severity"] == "error"]:
        PROBLEMS.append(f"{name}: the injected errors were not reported live")
    if not errors and [f for f in live if f["severity"] != "info"]:
        PROBLEMS.append(f"{name}: a clean session got {essence(live)}")
    if proxy.proc.returncode != (1 if errors else 0):
        PROBLEMS.append(f"{name}: the proxy exited {proxy.proc.returncode}")
    recorded = check(proxy.record)
    if recorded is not None and essence(f for c in recorded["connections"] for f in c["findings"]) != essence(live):
        PROBLEMS.append(f"{name}: check of --record differs from the live run")
    wire_agrees(proxy, port, live)


def wire_agrees(proxy, upstream_port, live):
    """dumpcap's recording of both legs, with the proxy's key log: tshark and imwire decrypt the same
    WebSocket messages on each leg, and the client leg's findings are the live run's. (The client leg
    of explicit mode begins with the CONNECT request in clear, then TLS: both follow that.)"""
    legs = [proxy.port, upstream_port]
    theirs = tshark_websocket_messages(proxy.wire, proxy.keylog, legs)
    wire = check(proxy.wire, "--tls-keylog", proxy.keylog)
    if wire is None:
        return
    ours = {}
    for c in wire["connections"]:
        server_port = int(c["id"].split("-")[1].rsplit(":", 1)[1].split("#")[0])
        if server_port not in legs:
            continue
        tls = c.get("tls") or {}
        if not tls.get("decrypted"):
            PROBLEMS.append(f"{proxy.name}: connection {c['id']} not decrypted with the proxy's key log: {tls}")
        ours[server_port] = ours.get(server_port, 0) + c["messages"]
        if server_port == proxy.port and essence(c["findings"]) != essence(live):
            PROBLEMS.append(f"{proxy.name}: the client leg's findings {essence(c['findings'])} differ from the live run's {essence(live)}")
    if set(ours) != set(legs) or ours != theirs:
        PROBLEMS.append(f"{proxy.name}: WebSocket messages per leg: imwire {ours}, tshark {theirs}")
    STATS[proxy.name] = f"{len(live)} findings, legs {ours}"


def connect_leancloud(work, ca, ca_file, cert, key):
    name = "connect-leancloud"
    port = base.free_port()
    keylog = os.path.join(work, f"{name}.keylog")
    proxy = leancloud_session(port, ["--explicit", "--tls", "--ca", ca], work, name, False, ca_file, cert, key,
                              ["--upstream-ca", cert, "--tls-keylog-out", keylog], connect_request=True)
    live = proxy.finish()
    if [f for f in live if f["severity"] != "info"] or proxy.proc.returncode != 0:
        PROBLEMS.append(f"{name}: exit {proxy.proc.returncode}, findings {essence(live)}")
    connections = proxy.final["connections"]
    if len(connections) != 1 or connections[0]["dialect"] != "leancloud" or connections[0]["messages"] < 16:
        PROBLEMS.append(f"{name}: the report's connections {[(c['id'], c['dialect'], c['messages']) for c in connections]}")
    wire_agrees(proxy, port, live)


# -- MQTT over TLS: paho-mqtt through SOCKS5, Node 20 --------------------------------------------

def start_tls_broker(work, cert, key):
    """mosquitto with a TLS listener and a plain one (for the same sessions without TLS)."""
    port, plain = base.free_port(), base.free_port()
    # As root, mosquitto runs as the user `mosquitto`, which cannot read the temporary directory.
    proc = base.run_mosquitto(work, "mosquitto-tls", f"user root\nallow_anonymous true\npersistence false\nlog_type none\n"
                              f"listener {plain} 127.0.0.1\nlistener {port} 127.0.0.1\ncertfile {cert}\nkeyfile {key}\n", [port, plain])
    return proc, port, plain


def paho_through_socks(proxy_port, broker_port, ca_file):
    got, done = [], threading.Event()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="socks-client", protocol=paho.MQTTv311)
    client.proxy_set(proxy_type=socks.SOCKS5, proxy_addr="127.0.0.1", proxy_port=proxy_port, proxy_rdns=True)
    if ca_file:
        client.tls_set_context(client_context(ca_file))
    client.on_connect = lambda c, u, f, rc, p: c.subscribe("imwire/tls", qos=1)
    client.on_subscribe = lambda c, u, m, rc, p: c.publish("imwire/tls", b'{"text":"through SOCKS5"}', qos=1)
    client.on_message = lambda c, u, m: (got.append(m.payload), done.set())
    client.connect("localhost", broker_port, keepalive=30)
    client.loop_start()
    done.wait(15)
    client.disconnect()
    client.loop_stop()
    return got


def same_as_plaintext(name, proxy, plain):
    """The session through `proxy --tls` is judged as the same session through the plaintext proxy."""
    if essence(proxy.live) != essence(plain.live) or proxy.proc.returncode != plain.proc.returncode:
        PROBLEMS.append(f"{name}: over TLS exit {proxy.proc.returncode} {essence(proxy.live)}; "
                        f"in plaintext exit {plain.proc.returncode} {essence(plain.live)}")
    if [f for f in proxy.live if f["rule"].startswith(("PROXY.", "TLS."))]:
        PROBLEMS.append(f"{name}: {essence(proxy.live)}")


def socks_mqtt(work, ca, ca_file, cert, broker_port, plain_port):
    name = "socks-mqtt"
    proxy = TLSProxy(work, name, ["--explicit", "--tls", "--ca", ca], 1, [broker_port], ["--upstream-ca", cert])
    got = paho_through_socks(proxy.port, broker_port, ca_file)
    proxy.finish()
    plain = TLSProxy(work, name + "-plain", ["--explicit"], 1, [plain_port])
    got_plain = paho_through_socks(plain.port, plain_port, None)
    plain.finish()
    if got != [b'{"text":"through SOCKS5"}'] or got_plain != got:
        PROBLEMS.append(f"{name}: the message came back as {got} (plaintext: {got_plain})")
    same_as_plaintext(name, proxy, plain)
    connections = proxy.final["connections"]
    if len(connections) != 1 or connections[0]["dialect"] != "yun2win" or connections[0]["messages"] < 6:
        PROBLEMS.append(f"{name}: connections {[(c['id'], c['dialect'], c['messages']) for c in connections]}")
    STATS[name] = f"{connections[0]['messages'] if connections else 0} MQTT packets, {len(proxy.live)} findings as in plaintext"


NODE_CLIENT = r"""
const [port, name, secure] = [Number(process.argv[1]), process.argv[2], process.argv[3] === 'tls'];
// MQTT 3.1.1 CONNECT, client id "node-tls", clean session, keep-alive 30 s; then DISCONNECT after the CONNACK
const id = Buffer.from('node-tls');
const body = Buffer.concat([Buffer.from([0, 4]), Buffer.from('MQTT'), Buffer.from([4, 2, 0, 30, 0, id.length]), id]);
const send = () => socket.write(Buffer.concat([Buffer.from([0x10, body.length]), body]));
const socket = secure ? require('tls').connect({ host: '127.0.0.1', port, servername: name }, send)
                      : require('net').connect({ host: '127.0.0.1', port }, send);
socket.on('data', (data) => {
  console.log(JSON.stringify({ protocol: secure ? socket.getProtocol() : 'plain', connack: [...data] }));
  socket.end(Buffer.from([0xe0, 0]));
});
socket.on('error', (e) => { console.log(JSON.stringify({ error: String(e) })); process.exit(1); });
"""


def node_mqtt(work, ca, ca_file, cert, broker_port, plain_port):
    name = "node-mqtt"
    runs = []
    for label, mode, upstream, secure in ((name, ["--tls", "--ca", ca], broker_port, "tls"), (name + "-plain", [], plain_port, "plain")):
        proxy = TLSProxy(work, label, ["--upstream", f"127.0.0.1:{upstream}", *mode], 1, [upstream],
                         ["--upstream-ca", cert] if mode else [])
        node = subprocess.run(["node", "-e", NODE_CLIENT, str(proxy.port), "localhost", secure], capture_output=True, text=True,
                              timeout=30, env=dict(os.environ, NODE_EXTRA_CA_CERTS=ca_file))
        proxy.finish()
        said = node.stdout.strip()
        if node.returncode != 0 or '"connack":[32,2,0,0]' not in said:
            PROBLEMS.append(f"{label}: node exited {node.returncode}: {said} {node.stderr.strip()}")
        runs.append((proxy, said))
    same_as_plaintext(name, runs[0][0], runs[1][0])
    STATS[name] = runs[0][1]


# -- failures ----------------------------------------------------------------------------------

def untrusted(work, ca, cert, key):
    """A client without the IMWire CA; then a proxy without the upstream's CA."""
    port = base.free_port()
    for name, client_ca, flags in (("untrusted-client", cert, ["--upstream-ca", cert]), ("unverified-upstream", None, [])):
        async def run():
            async with serve(base.lc_server, "127.0.0.1", port, subprotocols=["lc.protobuf2.3"], ssl=server_context(cert, key)):
                proxy = TLSProxy(work, name, ["--upstream", f"127.0.0.1:{port}", "--tls", "--ca", ca], 1, [port], flags)
                refused = None
                try:
                    # the first trusts the server's certificate but not the IMWire CA; the second trusts the CA
                    context = client_context(client_ca or os.path.join(ca, "imwire-ca.pem"))
                    async with connect(f"wss://localhost:{proxy.port}/", subprotocols=["lc.protobuf2.3"], ssl=context,
                                       open_timeout=10) as ws:
                        await ws.send(b"\x08\x00")
                        await ws.recv()
                except Exception as error:  # noqa: BLE001 (any refusal will do: it is what the client saw)
                    refused = type(error).__name__
                return proxy, refused
        proxy, refused = asyncio.run(run())
        live = proxy.finish()
        rules = [f["rule"] for f in live]
        if refused is None or "PROXY.TLS-HANDSHAKE-FAILED" not in rules or proxy.proc.returncode != 1:
            PROBLEMS.append(f"{name}: client saw {refused}, proxy exited {proxy.proc.returncode} with {essence(live)}")
        STATS[name] = f"client: {refused}; " + "; ".join(f["message"][:90] for f in live if f["rule"] == "PROXY.TLS-HANDSHAKE-FAILED")


HTTP_SERVER = r"""
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so that one connection carries several requests
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, format, *args):
        print(self.requestline, flush=True)
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), functools.partial(Handler, directory=sys.argv[2])).serve_forever()
"""


def plain_http(work):
    """Plain-HTTP proxy requests (absolute form) through `proxy --explicit`: Python `requests` sends
    GET, POST and GET on one kept-alive connection; the server must see each in origin form, and
    the client its answers. Then curl asks for a second server on that connection: the proxy closes
    it (PROXY.SERVER-SWITCH, info) and curl sends the request again on a new one. A request in
    origin form is no proxy request: answered 501 (PROXY.REQUEST-REFUSED)."""
    import requests
    name = "explicit-plain-http"
    ports = [base.free_port(), base.free_port()]
    folders = []
    for index, port in enumerate(ports):
        folder = os.path.join(work, f"site-{index}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "x.txt"), "w") as f:
            f.write(f"site {index}\n")
        folders.append(folder)
    servers = [subprocess.Popen([sys.executable, "-c", HTTP_SERVER, str(port), folder], stdout=subprocess.PIPE, text=True)
               for port, folder in zip(ports, folders)]
    try:
        for port in ports:
            real_traffic.wait_port(port)
        proxy = TLSProxy(work, name, ["--explicit"], 4, ports)
        through = {"http": f"http://127.0.0.1:{proxy.port}"}
        with requests.Session() as session:
            answers = [session.get(f"http://127.0.0.1:{ports[0]}/x.txt?token=1", proxies=through).text,
                       session.post(f"http://127.0.0.1:{ports[0]}/echo", data=b"GET http://elsewhere/ HTTP/1.1\r\n\r\n",
                                    proxies=through).text,
                       session.get(f"http://127.0.0.1:{ports[0]}/x.txt", proxies=through).text]
        if answers != ["site 0\n", "GET http://elsewhere/ HTTP/1.1\r\n\r\n", "site 0\n"]:
            PROBLEMS.append(f"{name}: requests got {answers}")
        curl = subprocess.run(["curl", "-sv", "-x", through["http"], f"http://127.0.0.1:{ports[0]}/x.txt",
                               f"http://127.0.0.1:{ports[1]}/x.txt"], capture_output=True, text=True, timeout=30)
        if curl.stdout != "site 0\nsite 1\n":
            PROBLEMS.append(f"{name}: curl got {curl.stdout!r}: {curl.stderr[-300:]}")
        with socket.create_connection(("127.0.0.1", proxy.port)) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            refused = sock.recv(4096)
        live = proxy.finish()
    finally:
        for server in servers:
            server.terminate()
    seen = [line.strip() for server in servers for line in server.communicate(timeout=10)[0].splitlines()]
    expected = ["GET /x.txt?token=1 HTTP/1.1", "POST /echo HTTP/1.1", "GET /x.txt HTTP/1.1", "GET /x.txt HTTP/1.1", "GET /x.txt HTTP/1.1"]
    if seen != expected:
        PROBLEMS.append(f"{name}: the servers saw {seen}, not {expected}")
    if not refused.startswith(b"HTTP/1.1 501"):
        PROBLEMS.append(f"{name}: an origin-form request was answered {refused[:40]!r}")
    rules = sorted(f["rule"] for f in live)
    if rules != ["PROXY.REQUEST-REFUSED", "PROXY.SERVER-SWITCH"]:
        PROBLEMS.append(f"{name}: findings {essence(live)}")
    STATS[name] = f"{len(seen)} requests in origin form, curl switched servers: {curl.stderr.count('retrying a fresh connect')} retry"


def main():
    started = time.time()
    with base.tempfile.TemporaryDirectory() as work:
        ca, ca_file = make_ca(work)
        cert, key = make_server_certificate(work)
        broker, broker_port, plain_port = start_tls_broker(work, cert, key)
        try:
            for label, scenario in (("tls-leancloud", lambda: leancloud(work, ca, ca_file, cert, key, errors=False)),
                                    ("tls-leancloud-errors", lambda: leancloud(work, ca, ca_file, cert, key, errors=True)),
                                    ("connect-leancloud", lambda: connect_leancloud(work, ca, ca_file, cert, key)),
                                    ("socks-mqtt", lambda: socks_mqtt(work, ca, ca_file, cert, broker_port, plain_port)),
                                    ("node-mqtt", lambda: node_mqtt(work, ca, ca_file, cert, broker_port, plain_port)),
                                    ("untrusted", lambda: untrusted(work, ca, cert, key)),
                                    ("plain-http", lambda: plain_http(work))):
                begun = time.time()
                scenario()
                STATS[label + " s"] = round(time.time() - begun, 1)
        finally:
            broker.kill()
            for capture in base.CAPTURES:
                if capture.proc.poll() is None:
                    capture.proc.kill()
    for problem in PROBLEMS:
        print("PROBLEM:", problem)
    print("imwire proxy --tls / --explicit with real peers: " + "; ".join(f"{k}: {v}" for k, v in STATS.items())
          + f" ({time.time() - started:.1f}s)")
    print(f"{0 if PROBLEMS else 1} passed, {1 if PROBLEMS else 0} failed")
    sys.exit(1 if PROBLEMS else 0)


if __name__ == "__main__":
    main()
