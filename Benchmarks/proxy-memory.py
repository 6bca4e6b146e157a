#!/usr/bin/env python3
"""Memory per open proxied connection: N raw-MQTT clients (a CONNECT each) held open through
`imwire proxy` to a plain TCP server; the proxy's VmRSS before and with them open.

Usage: Benchmarks/proxy-memory.py path/to/imwire N  (needs 2N+ file descriptors in this process and in the proxy)
"""
import socket
import subprocess
import sys
import time
N = int(sys.argv[2])
up = socket.socket(); up.bind(("127.0.0.1", 0)); up.listen(4096); upp = up.getsockname()[1]
p = subprocess.Popen([sys.argv[1], "proxy", "--listen", "127.0.0.1:0", "--upstream", f"127.0.0.1:{upp}", "--format", "jsonl", "--severity", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
line = p.stderr.readline(); port = int(line.split("listening on ")[1].split(",")[0].rsplit(":",1)[1])
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1])
time.sleep(0.5); base = rss()
clients, servers = [], []
connect = bytes([0x10, 0x0e, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 30, 0, 2]) + b"c1"
up.setblocking(True)
for i in range(N):
    c = socket.create_connection(("127.0.0.1", port)); clients.append(c)
    s, _ = up.accept(); servers.append(s)
    c.sendall(connect)
time.sleep(1.0)
for s in servers: s.recv(100)
after = rss()
print(f"{N} open connections: RSS {base} KiB idle, {after} KiB with them open: {(after-base)/N:.1f} KiB per proxied connection")
for c in clients: c.close()
for s in servers: s.close()
time.sleep(1)
p.send_signal(2); p.wait(30)
