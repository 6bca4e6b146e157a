"""The testee side of IMWire's conformance protocol (Spec/conformance.md): framing and the loop.

A testee module calls `serve(handlers)`, where `handlers` maps a suite name to a function
`(operation, input, options) -> response dict` (without `id`); a suite not in the map is
answered `unsupported`, an exception `error`.
"""
import json
import struct
import sys
import traceback


def read_message(stream):
    head = stream.read(4)
    if len(head) < 4:
        return None
    (length,) = struct.unpack("<I", head)
    return stream.read(length)


def write_message(stream, obj):
    body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
    stream.write(struct.pack("<I", len(body)) + body)
    stream.flush()


def input_bytes(given):
    if "hex" in given:
        return bytes.fromhex(given["hex"])
    return given["text"].encode("utf-8")


def ok_value(value):
    return {"result": "ok", "value": value}


def ok_bytes(data, text=False):
    if text:
        try:
            return {"result": "ok", "text": data.decode("utf-8")}
        except UnicodeDecodeError:
            pass
    return {"result": "ok", "hex": data.hex()}


def rejected(why, offset=None):
    response = {"result": "rejected", "rule": str(why)[:200]}
    if offset is not None:
        response["offset"] = offset
    return response


def round_trip(handler, given, options):
    """`both`: the testee's decode, then its encode of the value it gave; unsupported unless it does both."""
    decoded = handler("decode", given, options)
    if decoded.get("result") != "ok":
        return decoded
    encoded = handler("encode", {"value": decoded.get("value")}, options)
    if encoded.get("result") != "ok":
        return encoded
    return {**encoded, "value": decoded.get("value")}


def serve(handlers):
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while (body := read_message(stdin)) is not None:
        request = json.loads(body)
        handler = handlers.get(request.get("suite"))
        if request.get("protocol") != 1 or handler is None:
            response = {"result": "unsupported"}
        else:
            try:
                if request["operation"] == "both":
                    response = round_trip(handler, request["input"], request.get("options", {}))
                else:
                    response = handler(request["operation"], request["input"], request.get("options", {}))
            except Exception as error:  # the implementation's own failure, not a verdict
                response = {"result": "error", "message": "".join(traceback.format_exception_only(type(error), error)).strip()[:300]}
        response["id"] = request["id"]
        write_message(stdout, response)
