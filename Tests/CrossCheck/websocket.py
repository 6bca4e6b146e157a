#!/usr/bin/env python3
"""Cross-checks Fixtures/websocket/ against two independent WebSocket implementations from
PyPI, wsproto and websockets (both sans-IO, no network).

For every frame/message fixture, each oracle plays the server and is fed the client's bytes
(in the fixture's chunking). Compared with the fixture, whose `decoded` IMWire reproduces
(`imwire fixtures verify` checks its frames, messages and close code):
- frame by frame, the frames the oracle accepts before it fails the connection (or up to the
  close frame): opcode, FIN, RSV bits and the payload after unmasking, not inflated. Each oracle
  exposes its raw frames through an extension that only records (wsproto: the frame_inbound_*
  hooks, placed before permessage-deflate; websockets: Extension.decode, applied first), paired
  with the events the oracle emits for the frames it accepts;
- the messages after unmasking, joining and inflating, and the pings, pongs and close;
- the verdict: the close code the oracle sends when it fails the connection, or none.
The server's bytes are fed to each oracle playing the client and must decode cleanly, ending with
the failure's close code. Handshake fixtures go through wsproto's H11 handshake and websockets'
ServerProtocol/ClientProtocol: accepted or refused must agree, and for an accepted response so
must the negotiated subprotocol and permessage-deflate parameters; for an accepted request, an
oracle server that supports permessage-deflate must negotiate it exactly when the offer is valid.

A fixture's `known_disagreements` names, per oracle, the oracle's own verdict where it departs
from RFC 6455/7692 or has no such limit (`close_code` and how many `frames` it accepts; for
handshakes `accepts`) and why. Only that difference is excused: the oracle must give exactly that
verdict, and its frames and messages must agree with the fixture's up to where the shorter of the
two stops. Anything else,
including a documented deviation that no longer occurs, makes the script exit 1.

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
from websockets.extensions.base import Extension as WSExtension  # noqa: E402
from websockets.extensions.permessage_deflate import PerMessageDeflate as WSDeflate  # noqa: E402
from websockets.protocol import OPEN, Protocol, Side  # noqa: E402
from wsproto.connection import Connection, ConnectionType  # noqa: E402
from wsproto.events import BytesMessage, CloseConnection, Ping, Pong, TextMessage  # noqa: E402
from wsproto.extensions import Extension as WPExtension  # noqa: E402
from wsproto.extensions import PerMessageDeflate as WPDeflate  # noqa: E402
from wsproto.frame_protocol import RsvBits  # noqa: E402

logging.disable(logging.CRITICAL)
BIG = 1 << 30

# What the oracles do not check themselves, counted for the summary.
NOTES = {"websockets-utf8": set(), "wsproto-window-8": set(), "websockets-window-8": set()}


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


def frame_entry(opcode, fin, rsv1, rsv2, rsv3, payload):
    return {"opcode": int(opcode), "fin": bool(fin), "rsv": (4 if rsv1 else 0) | (2 if rsv2 else 0) | (1 if rsv3 else 0),
            "payload_hex": bytes(payload).hex()}


# --- wsproto -------------------------------------------------------------------------------

class WPRecorder(WPExtension):
    """Records each frame as wsproto's frame decoder reads it (after unmasking, before
    permessage-deflate, which comes after it in the list); claims no RSV bit, changes nothing."""
    name = "x-imwire-recorder"

    def __init__(self):
        self.frames, self.current = [], None

    def enabled(self):
        return True

    def offer(self):
        return False

    def frame_inbound_header(self, proto, opcode, rsv, payload_length):
        self.current = {"opcode": opcode, "rsv": rsv, "payload": bytearray()}
        return RsvBits(False, False, False)

    def frame_inbound_payload_data(self, proto, data):
        self.current["payload"] += data
        return data

    def frame_inbound_complete(self, proto, fin):
        c = self.current
        self.frames.append(frame_entry(c["opcode"], fin, c["rsv"].rsv1, c["rsv"].rsv2, c["rsv"].rsv3, c["payload"]))
        self.current = None
        return None


def wsproto_window(bits, fixture_path):
    """wsproto's PerMessageDeflate takes window bits 9-15 only (RFC 7692 allows 8). Inflating
    with a 9-bit window accepts every stream an 8-bit window does, so 8 is run as 9."""
    if bits == 8:
        NOTES["wsproto-window-8"].add(fixture_path)
        return 9
    return bits


def wsproto_run(data, as_server, deflate, chunking, path):
    """Feeds `data` to a wsproto Connection (server or client side); returns the messages and
    control frames it reported, the frames it accepted and, when it failed the connection, the
    close code it sends. A received close frame moves the connection out of OPEN; a parse
    failure does not."""
    recorder = WPRecorder()
    extensions = [recorder]
    if deflate:
        p = deflate_params(deflate)
        cbits, sbits = wsproto_window(p["client_bits"], path), wsproto_window(p["server_bits"], path)
        if as_server:
            ext = WPDeflate()
            offer = "permessage-deflate" + ("; client_no_context_takeover" if p["client_nct"] else "") + (
                "; server_no_context_takeover" if p["server_nct"] else "") + (
                f"; client_max_window_bits={cbits}" if cbits != 15 else "; client_max_window_bits") + (
                f"; server_max_window_bits={sbits}" if sbits != 15 else "")
            if ext.accept(offer) is None:
                raise RuntimeError(f"wsproto refuses the offer {offer!r}")
        else:
            ext = WPDeflate(client_max_window_bits=cbits, server_max_window_bits=sbits,
                            client_no_context_takeover=p["client_nct"], server_no_context_takeover=p["server_nct"])
            ext.finalize(deflate.replace("window_bits=8", "window_bits=9"))
        extensions.append(ext)
    conn = Connection(ConnectionType.SERVER if as_server else ConnectionType.CLIENT, extensions=extensions)
    messages, pending, accepted = [], None, 0

    def result(code):
        return messages, recorder.frames[:accepted], code

    for piece in chunks(data, chunking):
        try:
            conn.receive_data(piece)
        except Exception:  # data after the close: wsproto refuses to take it
            return result(None)
        for event in conn.events():
            if isinstance(event, (TextMessage, BytesMessage)):
                payload = event.data.encode("utf-8") if isinstance(event, TextMessage) else bytes(event.data)
                kind = "text" if isinstance(event, TextMessage) else "binary"
                pending = (kind, (pending[1] if pending else b"") + payload)
                accepted += 1 if event.frame_finished else 0
                if event.message_finished:
                    messages.append({"type": kind, "payload_hex": pending[1].hex()})
                    pending = None
            elif isinstance(event, Ping):
                accepted += 1
                messages.append({"type": "ping", "payload_hex": bytes(event.payload).hex()})
            elif isinstance(event, Pong):
                accepted += 1
                messages.append({"type": "pong", "payload_hex": bytes(event.payload).hex()})
            elif isinstance(event, CloseConnection):
                if conn.state.name == "OPEN":
                    return result(int(event.code))  # a parse failure: wsproto would close with this code
                accepted += 1
                entry = {"type": "close"}
                if int(event.code) != 1005:
                    entry["code"] = int(event.code)
                    entry["reason_hex"] = (event.reason or "").encode("utf-8").hex()
                messages.append(entry)
                return result(None)
    return result(None)


# --- websockets ----------------------------------------------------------------------------

class WSRecorder(WSExtension):
    """Records each frame as websockets' Frame.parse reads it (after unmasking; extensions are
    applied in reverse order and this one is last, so it sees the frame before
    permessage-deflate); changes nothing."""
    name = "x-imwire-recorder"

    def __init__(self):
        self.frames = []

    def decode(self, frame, *, max_size=None):
        self.frames.append(frame_entry(frame.opcode.value, frame.fin, frame.rsv1, frame.rsv2, frame.rsv3, frame.data))
        return frame

    def encode(self, frame):
        return frame


def websockets_run(data, as_server, deflate, chunking, limits, path):
    recorder = WSRecorder()
    extensions = []
    if deflate:
        p = deflate_params(deflate)
        # remote: the peer's compression (what is decoded here; websockets takes 8); local: this
        # side's, which is never used here and must be 9-15 in websockets.
        if 8 in (p["client_bits"], p["server_bits"]):
            NOTES["websockets-window-8"].add(path)
        if as_server:
            extensions.append(WSDeflate(p["client_nct"], p["server_nct"], p["client_bits"], max(9, p["server_bits"])))
        else:
            extensions.append(WSDeflate(p["server_nct"], p["client_nct"], p["server_bits"], max(9, p["client_bits"])))
    extensions.append(recorder)
    max_size = limit(limits, "max_message_size") or limit(limits, "max_frame_size") or BIG
    proto = Protocol(Side.SERVER if as_server else Side.CLIENT, state=OPEN, max_size=max_size)
    proto.extensions = extensions
    messages, pending, accepted = [], None, 0

    def result(code):
        return messages, recorder.frames[:accepted], code

    # websockets checks UTF-8 in its connection layer (the asyncio/sync/trio message
    # assemblers decode text frames with codecs.getincrementaldecoder("utf-8") and fail with
    # 1007), not in the sans-IO Protocol used here: the same decoder is run here, on the frames
    # the Protocol accepts. For UTF-8 the "websockets" verdict is therefore Python's codec.
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
                NOTES["websockets-utf8"].add(path)
                try:
                    utf8.decode(bytes(frame.data), frame.fin)
                except UnicodeDecodeError:
                    return result(1007)
            elif op == wsframes.Opcode.PING:
                messages.append({"type": "ping", "payload_hex": bytes(frame.data).hex()})
            elif op == wsframes.Opcode.PONG:
                messages.append({"type": "pong", "payload_hex": bytes(frame.data).hex()})
            accepted += 1
            if op == wsframes.Opcode.CLOSE:
                close = wsframes.Close.parse(frame.data) if frame.data else None
                entry = {"type": "close"}
                if close and close.code != 1005:
                    entry["code"] = close.code
                    entry["reason_hex"] = close.reason.encode("utf-8").hex()
                messages.append(entry)
                return result(None)
            if op in (wsframes.Opcode.TEXT, wsframes.Opcode.BINARY, wsframes.Opcode.CONT) and frame.fin and pending:
                messages.append({"type": pending[0], "payload_hex": pending[1].hex()})
                pending = None
        if proto.parser_exc is not None:
            return result(proto.close_sent.code if proto.close_sent is not None else None)
    return result(None)


# --- fixtures ------------------------------------------------------------------------------

def is_prefix(a, b):
    return a == b[:len(a)]


def first_difference(got, want):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return f"#{i}: {str(g)[:120]} / fixture {str(w)[:120]}"
    return f"{len(got)} vs {len(want)} in the fixture"


def check_stream(fixture, failures, documented):
    inp, path = fixture["input"], fixture["_path"]
    client, server = bytes.fromhex(inp["client_hex"]), bytes.fromhex(inp["server_hex"])
    deflate, chunking, limits = inp.get("permessage_deflate"), inp.get("chunking"), inp.get("limits")
    decoded = fixture["decoded"]
    want_msgs, want_frames, want_code = decoded["messages"], decoded["frames"], decoded["close_code"]
    known = fixture.get("known_disagreements", {})
    results = {
        "wsproto": wsproto_run(client, True, deflate, chunking, path),
        "websockets": websockets_run(client, True, deflate, chunking, limits, path),
    }
    problems = []
    for oracle, (msgs, frames, code) in results.items():
        if oracle in known:
            # Only the documented verdict is excused; what the oracle accepted before one of the
            # two stopped must still agree.
            doc = known[oracle]
            issues = []
            if code != doc["close_code"]:
                issues.append(f"close code {code}, documented deviation {doc['close_code']}")
            if len(frames) != doc["frames"]:
                issues.append(f"accepts {len(frames)} frames, documented deviation {doc['frames']}")
            if not (is_prefix(frames, want_frames) or is_prefix(want_frames, frames)):
                issues.append(f"frames differ before either stops: {first_difference(frames, want_frames)}")
            if not (is_prefix(msgs, want_msgs) or is_prefix(want_msgs, msgs)):
                issues.append(f"messages differ before either stops: {first_difference(msgs, want_msgs)}")
            if code == want_code and frames == want_frames and msgs == want_msgs:
                issues.append("agrees with the fixture: the documented deviation no longer occurs")
            if issues:
                problems.append(f"{oracle} (documented deviation): " + "; ".join(issues))
            else:
                documented.append((path, oracle))
            continue
        issues = []
        if code != want_code:
            issues.append(f"close code {code}, fixture {want_code}")
        if frames != want_frames:
            issues.append(f"frames differ: {first_difference(frames, want_frames)}")
        if msgs != want_msgs:
            issues.append(f"messages differ: {first_difference(msgs, want_msgs)}")
        if issues:
            problems.append(f"{oracle}: " + "; ".join(issues))
    # The conforming server's answer decodes cleanly in both oracles, as a client.
    for oracle, (msgs, _, code) in {
        "wsproto": wsproto_run(server, False, deflate, None, path),
        "websockets": websockets_run(server, False, deflate, None, None, path),
    }.items():
        if code is not None:
            problems.append(f"{oracle} (as client) fails the server's bytes with {code}")
        elif want_code is not None and not (msgs and msgs[-1].get("type") == "close" and msgs[-1].get("code") == want_code):
            problems.append(f"{oracle} (as client) does not see the server close with {want_code}")
    if problems:
        failures.append((path, problems))
    return sum(len(f) for _, f, _ in results.values())


def negotiated(subprotocol, deflate):
    """What a handshake agreed on; `deflate` is (server_nct, client_nct, server_bits, client_bits), or None without permessage-deflate."""
    if deflate is None:
        return {"subprotocol": subprotocol, "permessage_deflate": None}
    server_nct, client_nct, server_bits, client_bits = deflate
    return {"subprotocol": subprotocol, "permessage_deflate": {"server_nct": bool(server_nct), "client_nct": bool(client_nct),
                                                               "server_bits": server_bits, "client_bits": client_bits}}


def check_handshake(fixture, failures, documented):
    from websockets.client import ClientProtocol
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, ServerPerMessageDeflateFactory
    from websockets.http11 import Request
    from websockets.server import ServerProtocol
    from websockets.streams import StreamReader
    from websockets.uri import parse_uri
    from wsproto import WSConnection
    from wsproto.events import AcceptConnection, Request as WPRequest
    from wsproto.utilities import RemoteProtocolError

    inp, path = fixture["input"], fixture["_path"]
    tested, request, response = inp["tested"], inp["request"], inp.get("response")
    decoded = fixture["decoded"]
    # Requests: would a conforming server upgrade (it declines a bad permessage-deflate offer
    # and still upgrades)? Responses: does the client accept the upgrade?
    want_ok = decoded["server_accepts"] if tested == "request" else decoded["upgraded"]
    verdicts, params = {}, {}
    if tested == "request":
        # With a valid offer an accepting server negotiates permessage-deflate; with an invalid
        # one (a PMD.* finding) it declines the extension and still upgrades.
        offered = "permessage-deflate" in request
        expect = fixture["expect"] if isinstance(fixture["expect"], list) else []
        want_params = offered and not any(f["rule"].startswith("PMD.") for f in expect)
        # wsproto: the server side parses the request and accepts it with permessage-deflate.
        conn = WSConnection(ConnectionType.SERVER)
        try:
            conn.receive_data(request.encode())
            events = list(conn.events())
            upgrade = next((e for e in events if isinstance(e, WPRequest)), None)
            verdicts["wsproto"] = upgrade is not None
            if upgrade is not None:
                reply = conn.send(AcceptConnection(extensions=[WPDeflate()])).decode()
                params["wsproto"] = "permessage-deflate" in reply
        except RemoteProtocolError:
            verdicts["wsproto"] = False
        # websockets: parse, then let a server with permessage-deflate accept or refuse it.
        reader = StreamReader()
        reader.feed_data(request.encode())
        parser = Request.parse(reader.read_line)
        try:
            next(parser)
            verdicts["websockets"] = False  # incomplete
        except StopIteration as done:
            server = ServerProtocol(extensions=[ServerPerMessageDeflateFactory()])
            reply = server.accept(done.value)
            verdicts["websockets"] = reply.status_code == 101
            if verdicts["websockets"]:
                params["websockets"] = "permessage-deflate" in reply.headers.get("Sec-WebSocket-Extensions", "")
        except Exception:
            verdicts["websockets"] = False
        params = {o: v == want_params for o, v in params.items()}
        want_negotiated = None
    else:
        want_negotiated = None
        if decoded["upgraded"]:
            p = deflate_params(decoded["permessage_deflate"]) if decoded["permessage_deflate"] else None
            want_negotiated = negotiated(decoded["subprotocol"],
                                         (p["server_nct"], p["client_nct"], p["server_bits"], p["client_bits"]) if p else None)
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
        exts = []
        if req.headers.get_all("Sec-WebSocket-Extensions"):
            offer = req.headers["Sec-WebSocket-Extensions"]
            offer_params = deflate_params(offer)
            cmwb = True if "client_max_window_bits" in offer and "client_max_window_bits=" not in offer else (
                offer_params["client_bits"] if "client_max_window_bits=" in offer else None)
            smwb = offer_params["server_bits"] if "server_max_window_bits=" in offer else None
            exts = [ClientPerMessageDeflateFactory(server_no_context_takeover=offer_params["server_nct"],
                                                   client_no_context_takeover=offer_params["client_nct"],
                                                   server_max_window_bits=smwb, client_max_window_bits=cmwb)]
        client = ClientProtocol(parse_uri("ws://rtm51.leancloud.cn/realtime"), extensions=exts, subprotocols=protocols or None)
        client.key = key
        client.receive_data(response.encode())
        verdicts["websockets"] = client.state.name == "OPEN" and client.handshake_exc is None
        if verdicts["websockets"]:
            pmd = next((e for e in client.extensions if isinstance(e, WSDeflate)), None)
            params["websockets"] = negotiated(client.subprotocol, (
                pmd.remote_no_context_takeover, pmd.local_no_context_takeover, pmd.remote_max_window_bits, pmd.local_max_window_bits)
                if pmd else None)
        # wsproto: the client side sends its request, then reads the response.
        conn = WSConnection(ConnectionType.CLIENT)
        wp_exts = []
        if req.headers.get_all("Sec-WebSocket-Extensions"):
            h = req.headers["Sec-WebSocket-Extensions"]
            p = deflate_params(h)
            wp_exts = [WPDeflate(client_no_context_takeover=p["client_nct"], server_no_context_takeover=p["server_nct"],
                                 client_max_window_bits=p["client_bits"] if "client_max_window_bits=" in h else None,
                                 server_max_window_bits=p["server_bits"] if "server_max_window_bits=" in h else None)]
        conn.send(WPRequest(host="rtm51.leancloud.cn", target="/realtime", subprotocols=protocols, extensions=wp_exts))
        conn.handshake._nonce = key.encode()
        try:
            conn.receive_data(response.encode())
            events = list(conn.events())
            accept = next((e for e in events if isinstance(e, AcceptConnection)), None)
            verdicts["wsproto"] = accept is not None
            if accept is not None:
                pmd = next((e for e in accept.extensions if isinstance(e, WPDeflate)), None)
                params["wsproto"] = negotiated(accept.subprotocol, (
                    pmd.server_no_context_takeover, pmd.client_no_context_takeover, pmd.server_max_window_bits, pmd.client_max_window_bits)
                    if pmd else None)
        except RemoteProtocolError:
            verdicts["wsproto"] = False
    known = fixture.get("known_disagreements", {})
    problems = []
    for oracle, verdict in verdicts.items():
        if oracle in known:
            if verdict != known[oracle]["accepts"] or verdict == want_ok:
                problems.append(f"{oracle} (documented deviation): {'accepts' if verdict else 'refuses'}, documented "
                                f"{'accepts' if known[oracle]['accepts'] else 'refuses'}, fixture {'ok' if want_ok else 'refused'}")
            else:
                documented.append((path, oracle))
            continue
        if verdict != want_ok:
            problems.append(f"{oracle}: {'accepts' if verdict else 'refuses'}, fixture says {'ok' if want_ok else 'refused'}")
        elif verdict and tested == "request" and not params[oracle]:
            problems.append(f"{oracle}: a server with permessage-deflate {'declines' if want_params else 'accepts'} the offer, "
                            f"fixture {'accepts' if want_params else 'declines'} it")
        elif verdict and tested == "response" and params[oracle] != want_negotiated:
            problems.append(f"{oracle}: negotiates {params[oracle]}, fixture {want_negotiated}")
    if problems:
        failures.append((path, problems))


def main():
    directory = os.path.join(ROOT, "Fixtures", "websocket")
    if "--fixtures" in sys.argv:
        directory = sys.argv[sys.argv.index("--fixtures") + 1]
    paths = sorted(glob.glob(os.path.join(directory, "**", "*.json"), recursive=True))
    failures, documented = [], []
    checked = frames = 0
    for path in paths:
        with open(path) as fh:
            fixture = json.load(fh)
        fixture["_path"] = os.path.relpath(path, ROOT)
        try:
            if fixture["layer"] == "handshake":
                check_handshake(fixture, failures, documented)
            else:
                frames += check_stream(fixture, failures, documented)
        except Exception as error:  # an oracle crashing is a disagreement too
            failures.append((fixture["_path"], [f"cross-check raised {type(error).__name__}: {error}"]))
        checked += 1
    for path, problems in failures:
        print(f"DISAGREE {path}")
        for problem in problems:
            print(f"    {problem}")
    print(f"note: websockets' sans-IO Protocol does not validate UTF-8 (its asyncio/sync/trio layers do); in "
          f"{len(NOTES['websockets-utf8'])} fixtures with text messages its verdict on UTF-8 is Python's incremental "
          f"UTF-8 codec, which those layers use, run here on the frames the Protocol accepted")
    if NOTES["wsproto-window-8"] or NOTES["websockets-window-8"]:
        print(f"note: {len(NOTES['wsproto-window-8'] | NOTES['websockets-window-8'])} fixtures negotiate max_window_bits=8: "
              f"wsproto takes 9-15 only and inflates with 9 bits there (a larger window accepts any stream of a smaller "
              f"one); websockets inflates with 8 bits")
    agreed = checked - len(failures)
    print(f"websocket cross-check (wsproto 1.3.2, websockets 17.4): {agreed} passed, {len(failures)} failed, "
          f"{frames} oracle frames compared one by one, {len(documented)} documented oracle deviations")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
