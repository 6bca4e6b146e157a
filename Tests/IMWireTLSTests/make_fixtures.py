#!/usr/bin/env python3
"""Re-creates the real-traffic TLS fixtures in Resources/ (IMWireTLSTests).

Each case runs a real TLS server and client on 127.0.0.1 (Python's ssl, or openssl s_client where Python
cannot force a TLS 1.3 suite, a KeyUpdate or a HelloRetryRequest), with a recording TCP relay between
them, and writes:
  <case>.chunks   the relay's recv() chunks in order: 1 byte direction (c: client->server, s: server->client),
                  4 bytes big-endian length, the bytes
  <case>.keylog   the NSS key log the client wrote
  <case>.json     what was negotiated and the exact plaintext each side wrote (c2s, s2c)
If tshark is installed, each case is also written as a pcap and decrypted by tshark with the key log, and
the generator fails unless tshark's decrypted application data equals the plaintext written.

Usage: python3 make_fixtures.py [OUTDIR]   (default: Resources/ beside this script)
Needs: python3 >= 3.8, openssl (CLI); tshark optional (oracle).
"""
import json
import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "Resources")
HRR_RANDOM = bytes.fromhex("cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c")


class Relay:
    """Accepts one connection, connects it to the server and records every chunk both ways."""

    def __init__(self, upstream_port):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.upstream_port = upstream_port
        self.chunks = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        down, _ = self.listener.accept()
        up = socket.create_connection(("127.0.0.1", self.upstream_port))
        a = threading.Thread(target=self.pipe, args=(down, up, b"c"))
        b = threading.Thread(target=self.pipe, args=(up, down, b"s"))
        a.start()
        b.start()
        a.join()
        b.join()
        down.close()
        up.close()
        self.listener.close()

    def pipe(self, src, dst, tag):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            with self.lock:
                self.chunks.append((tag, data))
            try:
                dst.sendall(data)
            except OSError:
                return


def line_server(context, ready, result):
    """Serves one TLS connection: answers each line L with 'reply:L'."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    ready.append(listener.getsockname()[1])
    raw, _ = listener.accept()
    conn = context.wrap_socket(raw, server_side=True)
    result["alpn"] = conn.selected_alpn_protocol()
    buffer = b""
    sent = b""
    while True:
        try:
            data = conn.recv(65536)
        except (ssl.SSLError, OSError):
            break
        if not data:
            break
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            reply = b"reply:" + line + b"\n"
            conn.sendall(reply)
            sent += reply
    result["s2c"] = sent
    try:
        conn.unwrap()
    except (ssl.SSLError, OSError):
        pass
    conn.close()
    listener.close()


def server_context(tmp, version=None, ecdh_curve=None, alpn=("http/1.1",), key="key"):
    """key: "key" (RSA 2048) or "ec" (ECDSA P-256), made by main()."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(tmp, key + "-cert.pem"), os.path.join(tmp, key + ".pem"))
    if version == "1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    if ecdh_curve:
        context.set_ecdh_curve(ecdh_curve)
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context


def start_server(context):
    ready, result = [], {}
    thread = threading.Thread(target=line_server, args=(context, ready, result), daemon=True)
    thread.start()
    while not ready:
        time.sleep(0.01)
    return ready[0], thread, result


def client_context(keylog, version=None, ciphers=None, alpn=("imwire/1", "http/1.1")):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.keylog_filename = keylog
    if version == "1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    elif version == "1.3":
        context.minimum_version = ssl.TLSVersion.TLSv1_3
    if ciphers:
        context.set_ciphers(ciphers)
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context


def python_client(port, context, messages, session=None):
    raw = socket.create_connection(("127.0.0.1", port))
    conn = context.wrap_socket(raw, server_hostname="imwire.test", session=session)
    info = {"version": conn.version(), "suite": conn.cipher()[0], "resumed": conn.session_reused}
    sent = b""
    for message in messages:
        conn.sendall(message)
        sent += message
        expected = b"reply:" + message
        got = b""
        while len(got) < len(expected):
            data = conn.recv(65536)
            if not data:
                break
            got += data
    session = conn.session
    try:
        conn.unwrap()
    except (ssl.SSLError, OSError):
        pass
    conn.close()
    return sent, info, session


def openssl_client(port, keylog, lines, extra, version="-tls1_3"):
    """openssl s_client, typing `lines` (a line 'K' is its KeyUpdate command, 'R' renegotiates: not data)."""
    args = ["openssl", "s_client", "-connect", "127.0.0.1:%d" % port, "-servername", "imwire.test",
            "-keylogfile", keylog, version, "-no_ign_eof"] + extra
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    sent = b""
    for line in lines:
        proc.stdin.write(line)
        proc.stdin.flush()
        if line not in (b"K\n", b"R\n"):
            sent += line
        time.sleep(0.4)
    out, _ = proc.communicate(timeout=10)
    return sent, out.decode("latin-1")


def pcap(chunks, path):
    """Writes the chunks as an Ethernet/IPv4/TCP pcap (client 127.0.0.1:50000, server 127.0.0.2:443)."""
    seq = {b"c": 1000, b"s": 5000}
    records = []

    def packet(tag, flags, payload):
        client, server = b"\x7f\x00\x00\x01", b"\x7f\x00\x00\x02"
        src, dst = (client, server) if tag == b"c" else (server, client)
        sport, dport = (50000, 443) if tag == b"c" else (443, 50000)
        other = b"s" if tag == b"c" else b"c"
        tcp = struct.pack("!HHIIBBHHH", sport, dport, seq[tag], seq[other], 5 << 4, flags, 65535, 0, 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0, 64, 6, 0, src, dst) + tcp
        eth = b"\x00" * 12 + b"\x08\x00" + ip
        records.append(eth)

    packet(b"c", 0x02, b"")
    seq[b"c"] += 1
    packet(b"s", 0x12, b"")
    seq[b"s"] += 1
    for tag, data in chunks:
        for start in range(0, len(data), 1400):
            piece = data[start:start + 1400]
            packet(tag, 0x18, piece)
            seq[tag] += len(piece)
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for index, frame in enumerate(records):
            f.write(struct.pack("<IIII", index, 0, len(frame), len(frame)) + frame)


def tshark_plaintext(pcap_path, keylog):
    """Decrypted application data per direction, as tshark's "follow tls" reads it (the oracle)."""
    out = subprocess.run(
        ["tshark", "-r", pcap_path, "-o", "tls.keylog_file:" + keylog, "-d", "tcp.port==443,tls",
         "-q", "-z", "follow,tls,raw,0"],
        capture_output=True, text=True, check=True).stdout
    result = {b"c": b"", b"s": b""}
    # rows of node 0 are flush left, node 1's are indented; node 0 is whichever side spoke first
    first, second = b"c", b"s"
    for row in out.splitlines():
        if row.startswith("Node 0:") and not row.strip().endswith(":50000"):
            first, second = b"s", b"c"
        text = row.strip()
        if not text or any(ch not in "0123456789abcdef" for ch in text):
            continue
        result[second if row.startswith("\t") else first] += bytes.fromhex(text)
    return result


def write_case(name, relay, keylog, meta):
    relay.thread.join(timeout=10)
    blob = b"".join(tag + struct.pack("!I", len(data)) + data for tag, data in relay.chunks)
    with open(os.path.join(OUT, name + ".chunks"), "wb") as f:
        f.write(blob)
    shutil.copy(keylog, os.path.join(OUT, name + ".keylog"))
    s2c = b"".join(data for tag, data in relay.chunks if tag == b"s")
    # the server's first handshake message: a HelloRetryRequest has the special random
    meta["hrr"] = s2c[5] == 2 and s2c[11:43] == HRR_RANDOM
    meta["c2s"] = meta["c2s"].decode()
    meta["s2c"] = meta["s2c"].decode()
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    if shutil.which("tshark"):
        path = os.path.join(tempfile.gettempdir(), name + ".pcap")
        pcap(relay.chunks, path)
        oracle = tshark_plaintext(path, keylog)
        ok = oracle[b"c"] == meta["c2s"].encode() and oracle[b"s"] == meta["s2c"].encode()
        print("%-28s %6d bytes  tshark %s" % (name, len(blob), "agrees" if ok else "DIFFERS"), meta)
        if not ok:
            print("  tshark c2s", oracle[b"c"], "\n  tshark s2c", oracle[b"s"])
            sys.exit(1)
    else:
        print("%-28s %6d bytes" % (name, len(blob)), meta)


MESSAGES = [b"hello imwire\n", b'{"cmd":"session","op":"open","i":1}\n', b"x" * 300 + b"\n"]


def python_case(tmp, name, version, ciphers=None, server_version=None, key="key"):
    keylog = os.path.join(tmp, name + ".keylog")
    port, thread, result = start_server(server_context(tmp, version=server_version, key=key))
    relay = Relay(port)
    sent, info, _ = python_client(relay.port, client_context(keylog, version, ciphers), MESSAGES)
    thread.join(timeout=10)
    meta = dict(info, c2s=sent, s2c=result["s2c"], alpn=result["alpn"], sni="imwire.test")
    write_case(name, relay, keylog, meta)


def resumed_case(tmp, name):
    keylog = os.path.join(tmp, name + ".keylog")
    context = server_context(tmp, version="1.2")
    port, thread, _ = start_server(context)
    relay = Relay(port)
    client = client_context(keylog, "1.2", "ECDHE-RSA-AES128-GCM-SHA256")
    _, _, session = python_client(relay.port, client, MESSAGES[:1])
    thread.join(timeout=10)
    relay.thread.join(timeout=10)
    # the same server context (its session cache and ticket key), a new listener
    port, thread, result = start_server(context)
    relay = Relay(port)
    sent, info, _ = python_client(relay.port, client, MESSAGES, session=session)
    thread.join(timeout=10)
    assert info["resumed"], "the second connection was not resumed"
    meta = dict(info, c2s=sent, s2c=result["s2c"], alpn=result["alpn"], sni="imwire.test")
    write_case(name, relay, keylog, meta)


def openssl_case(tmp, name, lines, extra, version="-tls1_3"):
    keylog = os.path.join(tmp, name + ".keylog")
    server_version = "1.2" if version == "-tls1_2" else None
    port, thread, result = start_server(server_context(tmp, version=server_version, alpn=None))
    relay = Relay(port)
    sent, out = openssl_client(relay.port, keylog, lines, extra, version)
    thread.join(timeout=10)
    write_openssl_case(name, relay, keylog, lines, sent, result["s2c"], out)


def s_server_case(tmp, name, lines, server_args, client_args, version="-tls1_3"):
    """openssl s_server -rev (it answers each line reversed) and openssl s_client."""
    keylog = os.path.join(tmp, name + ".keylog")
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", "127.0.0.1:%d" % port, "-cert", os.path.join(tmp, "key-cert.pem"),
         "-key", os.path.join(tmp, "key.pem"), "-rev", "-naccept", "1"] + server_args,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    relay = Relay(port)
    sent, out = openssl_client(relay.port, keylog, lines, client_args, version)
    server.wait(timeout=10)
    s2c = b"".join(line[:-1][::-1] + b"\n" for line in lines if line not in (b"K\n", b"R\n"))
    write_openssl_case(name, relay, keylog, lines, sent, s2c, out)


def hrr_case(tmp, name, lines):
    """s_server accepting only P-256, s_client offering X25519 first: a HelloRetryRequest."""
    s_server_case(tmp, name, lines, ["-groups", "P-256"], ["-groups", "X25519:P-256"])
    with open(os.path.join(OUT, name + ".json")) as f:
        assert json.load(f)["hrr"], "no HelloRetryRequest"


def early_data_case(tmp, name):
    """TLS 1.3 0-RTT: a first s_client connection saves its session, the second (recorded) resumes it and
    sends early data. s_server -early_data cannot answer (-rev is refused with it): the server sends nothing."""
    keylog = os.path.join(tmp, name + ".keylog")
    session = os.path.join(tmp, name + ".session")
    early = os.path.join(tmp, name + ".early")
    with open(early, "wb") as f:
        f.write(b"early data line\n")
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", "127.0.0.1:%d" % port, "-cert", os.path.join(tmp, "key-cert.pem"),
         "-key", os.path.join(tmp, "key.pem"), "-early_data", "-naccept", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    openssl_client(port, os.path.join(tmp, "first.keylog"), [b"first\n"], ["-sess_out", session])
    relay = Relay(port)
    lines = [b"late\n"]
    sent, out = openssl_client(relay.port, keylog, lines, ["-sess_in", session, "-early_data", early])
    assert "Early data was accepted" in out, "0-RTT not accepted"
    server.stdin.close()
    server.wait(timeout=10)
    write_openssl_case(name, relay, keylog, lines, b"early data line\n" + sent, b"", out)
    with open(os.path.join(OUT, name + ".json")) as f:
        meta = json.load(f)
    meta["resumed"] = True
    meta["earlyData"] = True
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


def write_openssl_case(name, relay, keylog, lines, sent, s2c, out):
    # s_client prints "New, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256"
    suite = next((l.split()[-1] for l in out.splitlines() if "Cipher is" in l), "")
    version = "TLSv1.2" if "TLSv1.2" in out else "TLSv1.3"
    meta = {"version": version, "suite": suite, "resumed": False, "c2s": sent, "s2c": s2c,
            "alpn": None, "sni": "imwire.test", "keyUpdates": sum(1 for l in lines if l == b"K\n"),
            "renegotiations": sum(1 for l in lines if l == b"R\n")}
    write_case(name, relay, keylog, meta)


def main():
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="imwire-tls-")
    for key, spec in (("key", ["rsa:2048"]), ("ec", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"])):
        subprocess.run(["openssl", "req", "-x509", "-newkey"] + spec + ["-nodes", "-subj", "/CN=imwire.test",
                        "-days", "2", "-keyout", os.path.join(tmp, key + ".pem"),
                        "-out", os.path.join(tmp, key + "-cert.pem")], check=True, capture_output=True)
    python_case(tmp, "tls12-aes128gcm", "1.2", "ECDHE-RSA-AES128-GCM-SHA256")
    python_case(tmp, "tls12-aes256gcm", "1.2", "ECDHE-RSA-AES256-GCM-SHA384")
    python_case(tmp, "tls12-chacha20", "1.2", "ECDHE-RSA-CHACHA20-POLY1305")
    python_case(tmp, "tls12-ecdsa-aes256gcm", "1.2", "ECDHE-ECDSA-AES256-GCM-SHA384", key="ec")
    python_case(tmp, "tls12-ecdsa-chacha20", "1.2", "ECDHE-ECDSA-CHACHA20-POLY1305", key="ec")
    python_case(tmp, "tls13-aes256gcm", "1.3")
    resumed_case(tmp, "tls12-resumed")
    lines = [b"hello imwire\n", b"before key update\n", b"K\n", b"after key update\n"]
    openssl_case(tmp, "tls13-aes128gcm-keyupdate", lines, ["-ciphersuites", "TLS_AES_128_GCM_SHA256"])
    openssl_case(tmp, "tls13-chacha20", lines[:2], ["-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"])
    hrr_case(tmp, "tls13-hrr", lines[:2])
    # a client-initiated TLS 1.2 renegotiation (s_client's R command), followed under the new keys
    renegotiate = [b"hello imwire\n", b"R\n", b"after renegotiation\n"]
    s_server_case(tmp, "tls12-renegotiation", renegotiate, ["-client_renegotiation"],
                  ["-cipher", "ECDHE-RSA-AES128-GCM-SHA256"], "-tls1_2")
    early_data_case(tmp, "tls13-early-data")
    # the same asked of a Python (OpenSSL 3) server, which refuses client-initiated renegotiation:
    # warning no_renegotiation from the server, fatal handshake_failure from the client
    openssl_case(tmp, "tls12-renegotiation-refused", renegotiate[:2], ["-cipher", "ECDHE-RSA-AES128-GCM-SHA256"],
                 "-tls1_2")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
