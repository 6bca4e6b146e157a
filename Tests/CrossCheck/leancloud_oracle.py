"""An independent LeanCloud implementation for cross-checks: Google's Python protobuf for the
binary encoding (messages built from Spec/leancloud/messages2.proto through protoc), plus small
re-implementations of the flat JSON encoding, the typed-message mapping and the signatures,
written from leancloud.md, not from IMWire's Swift code.
"""
import base64
import hashlib
import hmac
import json
import os
import subprocess
import tempfile

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.descriptor import FieldDescriptor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_generic_command():
    with tempfile.NamedTemporaryFile(suffix=".pb") as tmp:
        subprocess.run(["protoc", f"--descriptor_set_out={tmp.name}", "--proto_path=Spec/leancloud",
                        "Spec/leancloud/messages2.proto"], cwd=ROOT, check=True)
        fds = descriptor_pb2.FileDescriptorSet()
        fds.ParseFromString(open(tmp.name, "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("push_server.messages2.GenericCommand"))


GenericCommand = load_generic_command()


def from_canonical(obj):
    message = GenericCommand()
    json_format.ParseDict(obj, message)
    return message


def canonical(message):
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def encode(obj):
    return from_canonical(obj).SerializeToString()


def decode(data):
    """Canonical dict, or None if Google's parser rejects the bytes."""
    message = GenericCommand()
    try:
        message.ParseFromString(data)
    except Exception:
        return None
    return canonical(message)


# ---- flat JSON (leancloud.md §2.2) ---------------------------------------------------------

SUB_FOR_CMD = {
    "session": "sessionMessage", "conv": "convMessage", "direct": "directMessage", "ack": "ackMessage",
    "rcp": "rcpMessage", "unread": "unreadMessage", "logs": "logsMessage", "error": "errorMessage",
    "login": "loginMessage", "data": "dataMessage", "room": "roomMessage", "read": "readMessage",
    "presence": "presenceMessage", "report": "reportMessage", "loggedin": "loggedinMessage",
    "patch": "patchMessage", "pubsub": "pubsubMessage", "blacklist": "blacklistMessage",
}


def _flat_value(field, value):
    def scalar(v):
        if field.type == FieldDescriptor.TYPE_INT64:
            return int(v)
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type.name == "JsonObjectMessage":
                return json.loads(v["data"])
            return {k: _flat_value(field.message_type.fields_by_name[k], x) for k, x in v.items()}
        return v
    if field.is_repeated:
        return [scalar(v) for v in value]
    return scalar(value)


def flat_encode(obj):
    """Canonical dict -> flat JSON object (dict)."""
    top = GenericCommand.DESCRIPTOR
    out = {}
    for key, value in obj.items():
        field = top.fields_by_name[key]
        if field.number >= 100:
            for inner_key, inner_value in value.items():
                out[inner_key] = _flat_value(field.message_type.fields_by_name[inner_key], inner_value)
        elif key == "op":
            out[key] = value.replace("_", "-")
        else:
            out[key] = _flat_value(field, value)
    return out


def _canonical_value(field, value):
    def scalar(v):
        if field.type == FieldDescriptor.TYPE_INT64:
            return str(v)
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type.name == "JsonObjectMessage":
                return {"data": json.dumps(v, ensure_ascii=False, separators=(",", ":"))}
            return {k: _canonical_value(field.message_type.fields_by_name[k], x) for k, x in v.items()}
        return v
    if field.is_repeated:
        return [scalar(v) for v in value]
    return scalar(value)


def flat_decode(flat):
    """Flat JSON object -> canonical dict (or None for the {} heartbeat)."""
    if flat == {}:
        return None
    top = GenericCommand.DESCRIPTOR
    sub_name = SUB_FOR_CMD.get(flat.get("cmd"))
    sub_field = top.fields_by_name[sub_name] if sub_name else None
    out, inner = {}, {}
    for key, value in flat.items():
        if key == "op":
            out[key] = value.replace("-", "_")
        elif key in top.fields_by_name:
            out[key] = _canonical_value(top.fields_by_name[key], value)
        else:
            field = sub_field.message_type.fields_by_name[key]
            inner[key] = _canonical_value(field, value)
    if inner:
        out[sub_name] = inner
    return out


# ---- typed messages (leancloud.md §7) ---------------------------------------------------------

KINDS = {-1: "text", -2: "image", -3: "audio", -4: "video", -5: "location", -6: "file", -127: "recalled"}


def rich_typed(text):
    """The typed form of a rich message as IMWire's fixtures write it (None when _lctype is not an integer)."""
    obj = json.loads(text)
    lctype = obj.get("_lctype")
    if not isinstance(lctype, int) or isinstance(lctype, bool):
        return None
    typed = {"kind": KINDS.get(lctype, "custom" if lctype > 0 else "reserved"), "lctype": lctype}
    if isinstance(obj.get("_lctext"), str):
        typed["text"] = obj["_lctext"]
    if isinstance(obj.get("_lcattrs"), dict):
        typed["attributes"] = obj["_lcattrs"]
    if isinstance(obj.get("_lcfile"), dict):
        f = obj["_lcfile"]
        typed["file"] = {k: f[k] for k in ("url", "objId", "metaData") if k in f and f[k] is not None}
    loc = obj.get("_lcloc")
    number = (int, float)
    if isinstance(loc, dict) and isinstance(loc.get("latitude"), number) and isinstance(loc.get("longitude"), number):
        typed["location"] = {"latitude": loc["latitude"], "longitude": loc["longitude"]}
    extra = {k: v for k, v in obj.items() if not k.startswith("_lc")}
    if extra:
        typed["extra"] = extra
    return typed


# ---- signatures (leancloud.md §6) -------------------------------------------------------------

def js_sorted(members):
    return sorted(members, key=lambda s: s.encode("utf-16-be"))


def signature_message(app_id, action, client, conversation, members, timestamp, nonce):
    if action == "login":
        return f"{app_id}:{client}::{timestamp}:{nonce}"
    if action == "start":
        return f"{app_id}:{client}:{':'.join(js_sorted(members))}:{timestamp}:{nonce}"
    return f"{app_id}:{client}:{conversation}:{':'.join(js_sorted(members))}:{timestamp}:{nonce}:{action}"


def sign(message, key):
    return hmac.new(key.encode(), message.encode(), hashlib.sha1).hexdigest()


def b64(data):
    return base64.b64encode(data).decode()
