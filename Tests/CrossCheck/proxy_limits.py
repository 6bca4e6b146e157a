#!/usr/bin/env python3
"""`imwire proxy` out of file descriptors: it goes on, and recovers (issue 24, robust as a server).

    python3 Tests/CrossCheck/proxy_limits.py path/to/imwire

The proxy runs under `prlimit --nofile=48` (lowering a limit needs no privilege) in front of an
echo server on 127.0.0.1; 40 clients connect one after another and each sends a line and waits
for its echo, holding its connection open. Each proxied connection costs the proxy two
descriptors, so it runs out part way. Checked:
- the clients served get their exact echo, and those beyond the limit get a clean close: EOF
  (the proxy's FIN), never a reset and never a hang, even though they had sent a line;
- every client refused is a live PROXY.UPSTREAM-UNREACHABLE finding naming "Too many open files";
- the proxy stays up, and once the clients leave, 10 new clients are all served;
- SIGINT stops it with check's exit status 1 (the findings are errors) and a summary line.
"""
import json
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

LIMIT, CLIENTS = 48, 40


def echo_server():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(512)

    def echo(connection):
        with connection:
            try:
                while data := connection.recv(4096):
                    connection.sendall(data)
            except OSError:
                pass

    def serve():
        while True:
            connection, _ = server.accept()
            threading.Thread(target=echo, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1]


def exchange(port, payload, timeout):
    """Connects, sends `payload`, returns (socket, outcome): echo, eof, reset or timeout."""
    client = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        client.sendall(payload)
        received = b""
        while len(received) < len(payload):
            data = client.recv(4096)
            if not data:
                return client, "eof"
            received += data
        return client, "echo" if received == payload else "garbled"
    except ConnectionResetError:
        return client, "reset"
    except socket.timeout:
        return client, "timeout"


def main():
    imwire = sys.argv[1]
    upstream = echo_server()
    proxy = subprocess.Popen(
        ["prlimit", f"--nofile={LIMIT}:{LIMIT}", imwire, "proxy", "--listen", "127.0.0.1:0",
         "--upstream", f"127.0.0.1:{upstream}", "--format", "jsonl", "--dialect", "yun2win"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    banner = proxy.stderr.readline()
    port = int(banner.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proxy.stdout), daemon=True)
    reader.start()
    try:
        held, outcomes = [], Counter()
        for number in range(CLIENTS):
            client, outcome = exchange(port, b"client %d\n" % number, timeout=5)
            outcomes[outcome] += 1
            if outcome == "echo":
                held.append(client)
            else:
                client.close()  # as a client does at EOF
        print(f"{CLIENTS} clients held open through a proxy limited to {LIMIT} descriptors: {dict(outcomes)}")
        assert set(outcomes) == {"echo", "eof"}, outcomes
        assert proxy.poll() is None, "the proxy exited"
        for client in held:
            client.close()
        time.sleep(1.5)  # the held connections close through the proxy (and NIO's accept back-off ends)
        again = Counter()
        for _ in range(10):
            client, outcome = exchange(port, b"again\n", timeout=5)
            again[outcome] += 1
            client.close()
        print(f"after they left, 10 new clients: {dict(again)}")
        assert again == {"echo": 10}, again
    finally:
        if proxy.poll() is None:
            proxy.send_signal(2)
        status = proxy.wait(30)
        reader.join(5)
    findings = [json.loads(line) for line in lines if line.startswith("{")]
    refused = [f for f in findings if f["type"] == "finding" and f["finding"]["rule"] == "PROXY.UPSTREAM-UNREACHABLE"]
    summary = findings[-1]
    print(f"exit {status}; {len(refused)} PROXY.UPSTREAM-UNREACHABLE findings; summary {summary}")
    assert status == 1 and summary["type"] == "summary" and summary["exitCode"] == 1, (status, summary)
    assert len(refused) == outcomes["eof"], (len(refused), outcomes)
    assert all("Too many open files" in f["finding"]["message"] for f in refused)
    print("ok")


if __name__ == "__main__":
    main()
