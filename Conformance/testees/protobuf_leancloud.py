#!/usr/bin/env python3
"""Testee: Google's Python protobuf (upb) for leancloud.binary and leancloud.base64.

GenericCommand comes from Spec/leancloud/messages2.proto through protoc (Tests/CrossCheck/
leancloud_oracle.py); decode is `ParseFromString` then `json_format.MessageToDict` (proto field
names), encode `ParseDict` then `SerializeToString`. base64 is Python's strict `b64decode`.
Needs protoc and `protobuf` (pip). Every other suite is unsupported.
"""
import base64
import binascii
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "CrossCheck"))
import harness  # noqa: E402
import leancloud_oracle as oracle  # noqa: E402
from google.protobuf.message import DecodeError  # noqa: E402


def binary(operation, given, options):
    if operation == "encode":
        return harness.ok_bytes(oracle.encode(given["value"]))
    message = oracle.GenericCommand()
    try:
        message.ParseFromString(harness.input_bytes(given))
    except DecodeError as error:
        return harness.rejected(error)
    return harness.ok_value(oracle.canonical(message))


def base64_text(operation, given, options):
    if operation == "encode":
        return harness.ok_bytes(base64.b64encode(oracle.encode(given["value"])), text=True)
    try:
        data = base64.b64decode(harness.input_bytes(given), validate=True)
    except (binascii.Error, ValueError) as error:
        return harness.rejected(error)
    return binary("decode", {"hex": data.hex()}, options)


harness.serve({"leancloud.binary": binary, "leancloud.base64": base64_text})
