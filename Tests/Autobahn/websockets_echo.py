#!/usr/bin/env python3
"""websockets_echo.py PORT: a WebSocket echo server on 127.0.0.1 built on Python `websockets`
(permessage-deflate on, as websockets offers it by default), the upstream of `imwire proxy` in
proxy_table.py."""
import asyncio
import sys

from websockets.asyncio.server import serve


async def echo(websocket):
    try:
        async for message in websocket:
            await websocket.send(message)
    except Exception:  # a connection the fuzzer broke: websockets has already closed it
        pass


async def main(port):
    async with serve(echo, "127.0.0.1", port, max_size=16 << 20, ping_interval=None) as server:
        print(f"websockets echo on 127.0.0.1:{port}", flush=True)
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
