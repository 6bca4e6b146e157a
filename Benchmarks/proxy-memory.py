#!/usr/bin/env python3
"""Memory per open proxied connection: N raw-MQTT clients (a CONNECT each) held open through
`imwire proxy` to a plain TCP server; the proxy's VmRSS before and with them open.

Usage: Benchmarks/proxy-memory.py path/to/imwire N

The clients are in this process and the upstream server in a child process, so each needs N
file descriptors; the proxy needs 2N plus its own few (printed). A process here may hold at most
`ulimit -Hn` descriptors, so N is at most about half of that.
"""
import os
import resource
import socket
import subprocess
import sys
import time

SERVER = r"""
import socket, sys
up = socket.socket(); up.bind(("127.0.0.1", 0)); up.listen(4096)
print(up.getsockname()[1], flush=True)
held = []
while True:
    s, _ = up.accept(); held.append(s)
    s.recv(100)  # the CONNECT
"""


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])


def main():
    imwire, n = sys.argv[1], int(sys.argv[2])
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # for this process and its children
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    upstream = int(server.stdout.readline())
    proxy = subprocess.Popen(
        [imwire, "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{upstream}", "--format", "jsonl", "--severity", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proxy.stderr.readline()
    port = int(line.split("listening on ")[1].split(",")[0].rsplit(":", 1)[1])
    time.sleep(0.5)
    base, base_fds = rss(proxy.pid), descriptors(proxy.pid)
    print(f"descriptor limit {hard}; the idle proxy holds {base_fds}, so it can proxy at most {(hard - base_fds) // 2} connections")
    connect = bytes([0x10, 0x0E, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 30, 0, 2]) + b"c1"
    clients = []
    start = time.monotonic()
    for _ in range(n):
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(connect)
        clients.append(client)
    opened = time.monotonic() - start
    # Wait until every connection is joined upstream (two descriptors each in the proxy).
    deadline = time.monotonic() + 60
    while descriptors(proxy.pid) < base_fds + 2 * n and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1.0)
    after, fds = rss(proxy.pid), descriptors(proxy.pid)
    joined = (fds - base_fds) // 2
    print(f"{n} clients connected in {opened:.1f} s; {joined} proxied connections open (the proxy holds {fds} descriptors)")
    print(f"proxy RSS {base} KiB idle, {after} KiB with them open: {(after - base) / max(joined, 1):.1f} KiB per proxied connection")
    for client in clients:
        client.close()
    time.sleep(1)
    proxy.send_signal(2)
    proxy.wait(60)
    server.kill()
    assert joined == n, f"only {joined} of {n} connections were proxied"


if __name__ == "__main__":
    main()
