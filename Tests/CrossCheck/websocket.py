#!/usr/bin/env python3
"""Cross-checks Fixtures/websocket/ against two independent WebSocket implementations from
PyPI, wsproto and websockets (both sans-IO, no network).

For every frame/message fixture, each oracle plays the server and is fed the client's bytes
(in the fixture's chunking). What it reports before it fails the connection (messages after
unmasking, joining and inflating; pings, pongs, the close) must equal the fixture's `decoded`
messages, and the verdict must agree: the close code it would send on failure, or none. The
server's bytes are fed to each oracle playing the client and must decode cleanly. Handshake
fixtures go through wsproto's H11 handshake (server side for requests, client side for
responses) and websockets' ServerProtocol/ClientProtocol: accepted or refused must agree.

Disagreements the fixture documents in `known_disagreements` (oracle → reason, where the
oracle departs from RFC 6455/7692 or has no such limit) are counted, not failed; any other
disagreement makes the script exit 1.

Usage: python3 Tests/CrossCheck/websocket.py [--fixtures DIR]
It creates Tests/CrossCheck/.venv and installs the pinned oracles there on first use.
"""

import codecs
import glob
import json
import os
import subprocess
import sys
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")
PINS = ["wsproto==1.3.2", "websockets==17.4"]


def ensure_oracles():
    """Re-executes inside the project's venv with the pinned oracles installed."""
    python = os.path.join(VENV, "bin", "python")
    if os.path.abspath(sys.prefix) != os.path.abspath(VENV):
        if not os.path.exists(python):
            venv.create(VENV, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + PINS, check=True)
        os.execv(python, [python] + sys.argv)


ensure_oracles()

import logging  # noqa: E402

import websockets.frames as wsframes  # noqa: E402
from websockets.extensions.permessage_deflate import PerMessageDeflate as WSDeflate  # noqa: E402
from websockets.protocol import OPEN, Protocol, Side  # noqa: E402
from wsproto.connection import Connection, ConnectionType  # noqa: E402
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage  # noqa: E402
from wsproto.extensions import PerMessageDeflate as WPDeflate  # noqa: E402

logging.disable(logging.CRITICAL)
BIG = 1 << 30


def deflate_params(header):
    p = {"server_nct": False, "client_nct": False, "server_bits": 15, "client_bits": 15}
    for part in [x.strip() for x in header.split(";")[1:]]:
        name, _, value = part.partition("=")
        if value == "" and name.endswith("window_bits"):
            continue  # client_max_window_bits without a value: the default stands
        if name == "server_no_context_takeover":
            p["server_nct"] = True
        elif name == "client_no_context_takeover":
            p["client_nct"] = True
        elif name == "server_max_window_bits":
            p["server_bits"] = int(value)
        elif name == "client_max_window_bits":
            p["client_bits"] = int(value)
    return p


def chunks(data, chunking):
    if chunking in (None, "whole", "frames"):
        return [data]
    sizes = [1] if chunking == "octets" else chunking
    out, start, i = [], 0, 0
    while start < len(data):
        size = max(1, sizes[i % len(sizes)])
        out.append(data[start:start + size])
        start += size
        i += 1
    return out


def limit(limits, key):
    return (limits or {}).get(key)


# --- wsproto -------------------------------------------------------------------------------

def wsproto_run(data, as_server, deflate, chunking):
    """Feeds `data` to a wsproto Connection (server or client side); returns the messages and
    control frames it reported and, when it failed the connection, the close code it sends.
    A received close frame moves the connection out of OPEN; a parse failure does not."""
    extensions = []
    if deflate:
        p = deflate_params(deflate)
        if as_server:
            ext = WPDeflate()
            offer = "permessage-deflate" + ("; client_no_context_takeover" if p["client_nct"] else "") + (
                "; server_no_context_takeover" if p["server_nct"] else "") + (
                f"; client_max_window_bits={p['client_bits']}" if p["client_bits"] != 15 else "; client_max_window_bits") + (
                f"; server_max_window_bits={p['server_bits']}" if p["server_bits"] != 15 else "")
            ext.accept(offer)
        else:
            ext = WPDeflate(client_max_window_bits=p["client_bits"], server_max_window_bits=p["server_bits"],
                            client_no_context_takeover=p["client_nct"], server_no_context_takeover=p["server_nct"])
            ext.finalize(deflate)
        extensions.append(ext)
    conn = Connection(ConnectionType.SERVER if as_server else ConnectionType.CLIENT, extensions=extensions)
    messages, pending = [], None
    for piece in chunks(data, chunking):
        try:
            conn.receive_data(piece)
        except Exception:  # data after the close: wsproto refuses to take it
            return messages, None
        for event in conn.events():
            if isinstance(event, (TextMessage, BytesMessage)):
                payload = event.data.encode("utf-8") if isinstance(event, TextMessage) else bytes(event.data)
                kind = "text" if isinstance(event, TextMessage) else "binary"
                pending = (kind, (pending[1] if pending else b"") + payload)
                if event.message_finished:
                    messages.append({"type": kind, "payload_hex": pending[1].hex()})
                    pending = None
            elif isinstance(event, Ping):
                messages.append({"type": "ping", "payload_hex": bytes(event.payload).hex()})
            elif isinstance(event, Pong):
                messages.append({"type": "pong", "payload_hex": bytes(event.payload).hex()})
            elif isinstance(event, CloseConnection):
                if conn.state.name == "OPEN":
                    return messages, int(event.code)  # a parse failure: wsproto would close with this code
                entry = {"type": "close"}
                if int(event.code) != 1005:
                    entry["code"] = int(event.code)
                    entry["reason_hex"] = (event.reason or "").encode("utf-8").hex()
                messages.append(entry)
                return messages, None
    return messages, None


# --- websockets ----------------------------------------------------------------------------

def websockets_run(data, as_server, deflate, chunking, limits):
    extensions = []
    if deflate:
        p = deflate_params(deflate)
        if as_server:
            extensions.append(WSDeflate(p["client_nct"], p["server_nct"], p["client_bits"], p["server_bits"]))
        else:
            extensions.append(WSDeflate(p["server_nct"], p["client_nct"], p["server_bits"], p["client_bits"]))
    max_size = limit(limits, "max_message_size") or limit(limits, "max_frame_size") or BIG
    proto = Protocol(Side.SERVER if as_server else Side.CLIENT, state=OPEN, max_size=max_size)
    proto.extensions = extensions
    messages, pending = [], None
    # websockets checks UTF-8 in its connection layer (asyncio/sync `Assembler`), not in the
    # sans-IO Protocol: it decodes each text frame with an incremental UTF-8 decoder and fails
    # the connection with 1007. The same is done here.
    utf8 = None
    for piece in chunks(data, chunking):
        proto.receive_data(piece)
        for frame in proto.events_received():
            op = frame.opcode
            if op in (wsframes.Opcode.TEXT, wsframes.Opcode.BINARY):
                pending = ("text" if op == wsframes.Opcode.TEXT else "binary", bytes(frame.data))
                utf8 = codecs.getincrementaldecoder("utf-8")() if op == wsframes.Opcode.TEXT else None
            elif op == wsframes.Opcode.CONT and pending:
                pending = (pending[0], pending[1] + bytes(frame.data))
            if op in (wsframes.Opcode.TEXT, wsframes.Opcode.CONT) and utf8 is not None:
                try:
                    utf8.decode(bytes(frame.data), frame.fin)
                except UnicodeDecodeError:
                    return messages, 1007
            elif op == wsframes.Opcode.PING:
                messages.append({"type": "ping", "payload_hex": bytes(frame.data).hex()})
            elif op == wsframes.Opcode.PONG:
                messages.append({"type": "pong", "payload_hex": bytes(frame.data).hex()})
            elif op == wsframes.Opcode.CLOSE:
                close = wsframes.Close.parse(frame.data) if frame.data else None
                entry = {"type": "close"}
                if close and close.code != 1005:
                    entry["code"] = close.code
                    entry["reason_hex"] = close.reason.encode("utf-8").hex()
                messages.append(entry)
                if proto.close_sent is not None and proto.close_sent.code not in (close.code if close else 1005, 1005) and proto.parser_exc:
                    return messages, proto.close_sent.code
                return messages, None
            if op in (wsframes.Opcode.TEXT, wsframes.Opcode.BINARY, wsframes.Opcode.CONT) and frame.fin and pending:
                messages.append({"type": pending[0], "payload_hex": pending[1].hex()})
                pending = None
        if proto.parser_exc is not None:
            code = proto.close_sent.code if proto.close_sent is not None else None
            return messages, code
    return messages, None


# --- fixtures ------------------------------------------------------------------------------

def check_stream(fixture, failures, documented):
    inp = fixture["input"]
    client, server = bytes.fromhex(inp["client_hex"]), bytes.fromhex(inp["server_hex"])
    deflate, chunking, limits = inp.get("permessage_deflate"), inp.get("chunking"), inp.get("limits")
    want_msgs, want_code = fixture["decoded"]["messages"], fixture["decoded"]["close_code"]
    known = fixture.get("known_disagreements", {})
    results = {
        "wsproto": wsproto_run(client, True, deflate, chunking),
        "websockets": websockets_run(client, True, deflate, chunking, limits),
    }
    problems = []
    for oracle, (msgs, code) in results.items():
        issues = []
        if code != want_code:
            issues.append(f"close code {code}, fixture {want_code}")
        if msgs != want_msgs:
            issues.append(f"messages differ ({len(msgs)} vs {len(want_msgs)}: {str(msgs)[:160]} / {str(want_msgs)[:160]})")
        if issues:
            if oracle in known:
                documented.append((fixture["_path"], oracle))
            else:
                problems.append(f"{oracle}: " + "; ".join(issues))
    # The conforming server's answer decodes cleanly in both oracles, as a client.
    for oracle, (msgs, code) in {
        "wsproto": wsproto_run(server, False, deflate, None),
        "websockets": websockets_run(server, False, deflate, None, None),
    }.items():
        if code is not None:
            problems.append(f"{oracle} (as client) fails the server's bytes with {code}")
        elif want_code is not None and not (msgs and msgs[-1].get("type") == "close" and msgs[-1].get("code") == want_code):
            problems.append(f"{oracle} (as client) does not see the server close with {want_code}")
    if problems:
        failures.append((fixture["_path"], problems))


def check_handshake(fixture, failures, documented):
    import h11  # noqa: F401  (wsproto's dependency)
    from websockets.client import ClientProtocol
    from websockets.datastructures import Headers
    from websockets.http11 import Request, Response
    from websockets.server import ServerProtocol
    from websockets.streams import StreamReader
    from wsproto import WSConnection
    from wsproto.events import AcceptConnection, RejectConnection, Request as WPRequest
    from wsproto.utilities import RemoteProtocolError

    inp = fixture["input"]
    tested, request, response = inp["tested"], inp["request"], inp.get("response")
    # Requests: would a conforming server upgrade (it declines a bad permessage-deflate offer
    # and still upgrades)? Responses: does the client accept the upgrade?
    want_ok = fixture["decoded"]["server_accepts"] if tested == "request" else fixture["decoded"]["upgraded"]
    verdicts = {}
    if tested == "request":
        # wsproto: the server side parses the request.
        conn = WSConnection(ConnectionType.SERVER)
        try:
            conn.receive_data(request.encode())
            events = list(conn.events())
            verdicts["wsproto"] = any(isinstance(e, WPRequest) for e in events)
        except RemoteProtocolError:
            verdicts["wsproto"] = False
        # websockets: parse, then let the server protocol accept or refuse it.
        reader = StreamReader()
        reader.feed_data(request.encode())
        parser = Request.parse(reader.read_line)
        try:
            next(parser)
            verdicts["websockets"] = None  # incomplete
        except StopIteration as done:
            server = ServerProtocol(extensions=None)
            reply = server.accept(done.value)
            verdicts["websockets"] = reply.status_code == 101
        except Exception:
            verdicts["websockets"] = False
        if verdicts["websockets"] is None:
            verdicts["websockets"] = False
    else:
        # websockets: a client that sent this request judges the response.
        req_reader = StreamReader()
        req_reader.feed_data(request.encode())
        parser = Request.parse(req_reader.read_line)
        try:
            next(parser)
        except StopIteration as done:
            req = done.value
        key = req.headers["Sec-WebSocket-Key"]
        offered = req.headers.get_all("Sec-WebSocket-Protocol")
        protocols = [p.strip() for h in offered for p in h.split(",")]
        from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
        exts = []
        if req.headers.get_all("Sec-WebSocket-Extensions"):
            offer = req.headers["Sec-WebSocket-Extensions"]
            params = deflate_params(offer)
            cmwb = True if "client_max_window_bits" in offer and "client_max_window_bits=" not in offer else (
                params["client_bits"] if "client_max_window_bits=" in offer else None)
            smwb = params["server_bits"] if "server_max_window_bits=" in offer else None
            exts = [ClientPerMessageDeflateFactory(server_no_context_takeover=params["server_nct"],
                                                   client_no_context_takeover=params["client_nct"],
                                                   server_max_window_bits=smwb, client_max_window_bits=cmwb)]
        client = ClientProtocol(__import__("websockets.uri", fromlist=["parse_uri"]).parse_uri("ws://rtm51.leancloud.cn/realtime"),
                                extensions=exts, subprotocols=protocols or None)
        client.key = key
        client.receive_data(response.encode())
        verdicts["websockets"] = client.state.name == "OPEN" and client.handshake_exc is None
        # wsproto: the client side sends its request, then reads the response.
        from wsproto.events import Request as Req
        conn = WSConnection(ConnectionType.CLIENT)
        wp_exts = []
        if req.headers.get_all("Sec-WebSocket-Extensions"):
            p = deflate_params(req.headers["Sec-WebSocket-Extensions"])
            wp_exts = [WPDeflate(client_no_context_takeover=p["client_nct"], server_no_context_takeover=p["server_nct"],
                                 client_max_window_bits=p["client_bits"] if "client_max_window_bits=" in req.headers["Sec-WebSocket-Extensions"] else None,
                                 server_max_window_bits=p["server_bits"] if "server_max_window_bits=" in req.headers["Sec-WebSocket-Extensions"] else None)]
        conn.send(Req(host="rtm51.leancloud.cn", target="/realtime", subprotocols=protocols, extensions=wp_exts))
        conn.handshake._nonce = key.encode()
        try:
            conn.receive_data(response.encode())
            events = list(conn.events())
            verdicts["wsproto"] = any(isinstance(e, AcceptConnection) for e in events)
        except RemoteProtocolError:
            verdicts["wsproto"] = False
    known = fixture.get("known_disagreements", {})
    documented += [(fixture["_path"], o) for o, v in verdicts.items() if v != want_ok and o in known]
    problems = [f"{o}: {'accepts' if v else 'refuses'}, fixture says {'ok' if want_ok else 'refused'}"
                for o, v in verdicts.items() if v != want_ok and o not in known]
    if problems:
        failures.append((fixture["_path"], problems))


def main():
    directory = os.path.join(ROOT, "Fixtures", "websocket")
    if "--fixtures" in sys.argv:
        directory = sys.argv[sys.argv.index("--fixtures") + 1]
    paths = sorted(glob.glob(os.path.join(directory, "**", "*.json"), recursive=True))
    failures, documented = [], []
    checked = 0
    for path in paths:
        with open(path) as fh:
            fixture = json.load(fh)
        fixture["_path"] = os.path.relpath(path, ROOT)
        try:
            if fixture["layer"] == "handshake":
                check_handshake(fixture, failures, documented)
            else:
                check_stream(fixture, failures, documented)
        except Exception as error:  # an oracle crashing is a disagreement too
            failures.append((fixture["_path"], [f"cross-check raised {type(error).__name__}: {error}"]))
        checked += 1
    for path, problems in failures:
        print(f"DISAGREE {path}")
        for problem in problems:
            print(f"    {problem}")
    agreed = checked - len(failures)
    print(f"websocket cross-check (wsproto 1.3.2, websockets 17.4): {agreed} passed, {len(failures)} failed, "
          f"{len(documented)} documented oracle deviations")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
