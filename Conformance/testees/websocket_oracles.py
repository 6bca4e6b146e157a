#!/usr/bin/env python3
"""Testee: wsproto 1.3.2 or websockets 17.4 (argument `wsproto` or `websockets`) for
websocket.frames and websocket.permessage-deflate, decode only, playing the server.

The client's bytes are fed to the library's sans-IO connection exactly as
Tests/CrossCheck/websocket.py does (its wsproto_run / websockets_run, loaded from there): the
messages and control frames it delivers, the frames it accepts (recorded by a pass-through
extension) and the close code it fails the connection with. A failed connection is a rejection
(the library reports no offset). Runs in Tests/CrossCheck/.venv.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

ORACLE = sys.argv[1] if len(sys.argv) > 1 else "wsproto"
spec = importlib.util.spec_from_file_location("websocket_crosscheck", os.path.join(HERE, "..", "..", "Tests", "CrossCheck", "websocket.py"))
crosscheck = importlib.util.module_from_spec(spec)
sys.argv = sys.argv[:1]
spec.loader.exec_module(crosscheck)


def handle(operation, given, options):
    if operation != "decode":
        return {"result": "unsupported"}
    if options.get("role", "server") != "server":
        return {"result": "unsupported", "message": "only the server role"}
    data = harness.input_bytes(given)
    deflate = options.get("permessage_deflate")
    if ORACLE == "wsproto":
        messages, frames, code = crosscheck.wsproto_run(data, True, deflate, None, "conformance")
    else:
        messages, frames, code = crosscheck.websockets_run(data, True, deflate, None, options.get("limits"), "conformance")
    if code is not None:
        response = harness.rejected("fails the connection with close code %d" % code)
        response["value"] = {"messages": messages, "close_code": code, "frames": frames}
        return response
    return harness.ok_value({"messages": messages, "close_code": None, "frames": frames})


harness.serve({"websocket.frames": handle, "websocket.permessage-deflate": handle})
