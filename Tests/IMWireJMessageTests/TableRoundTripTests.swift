import IMWireCore
import IMWireJMessage
import IMWireSocketIO
import Testing

/// Every event of `JMessageEvents.all` through `JMessageCodec.encode` and back, in each way it
/// travels: a request from the client and its response (code 0 and an error code) from the
/// server, a reply from the client, a push from the server (event_notification also as the
/// client's reply), the server's ack. Each decoded event must carry the table's name and the
/// expected kind, report nothing, and encode to the same bytes.
@Suite struct JMessageTableRoundTripTests {
    static let appkey = "4f7aef34fb361292c566a1cd"
    static let secret = "master-secret-1"

    static func content(_ target: String) -> JSONValue {
        [
            "version": 1, "target_type": .string(target), "from_platform": "web", "target_id": "t-1",
            "target_name": "T",
            "from_id": "alice", "from_name": "Alice", "create_time": 1_507_882_400_000, "msg_type": "text",
            "msg_body": ["text": "hi"],
        ]
    }

    /// A payload with every field the table requires for `spec`, valid where the codec checks
    /// values (signature, MD5 password, message protocol content, msg_sync messages).
    static func payload(_ spec: JMessageEventSpec, rid: Int64?) -> JSONObject {
        var payload = JSONObject()
        for field in spec.required where field != "rid" {
            let value: JSONValue
            switch (spec.name, field) {
            case ("c_init", "appkey"): value = .string(appkey)
            case ("c_init", "random_str"): value = "022cd9fd995849b58b3ef0e943421ed9"
            case ("c_init", "timestamp"): value = 1_507_882_399_401
            case ("c_init", "signature"):
                value = .string(
                    JMessageSignature.sign(
                        appkey: appkey, timestamp: "1507882399401",
                        randomString: "022cd9fd995849b58b3ef0e943421ed9", secret: secret))
            case (_, "password"), (_, "old_pwd"), (_, "new_pwd"): value = "5ebe2294ecd0e0f08eab7690d2a6ee69"
            case (_, "content"): value = content(spec.name == "send_group_msg" ? "group" : "single")
            case ("msg_sync", "messages"):
                value = [
                    [
                        "msg_id": 5001, "msg_type": 3, "from_uid": 77, "from_gid": 0, "ctime_ms": 1_507_882_401_000,
                        "content": content("single"),
                    ]
                ]
            case (_, "member_usernames"): value = [["username": "bob"]]
            case (_, "sessions"): value = [["msg_ids": [5001], "type": 3, "username": "bob"]]
            case (_, "event_type"): value = 1
            case (_, "msg_id"), (_, "msg_type"), (_, "from_uid"), (_, "from_gid"), (_, "sync_key"), (_, "sync_type"),
                (_, "sync_event_key"), (_, "msg_receipt_key"), (_, "event_id"), (_, "gid"):
                value = .number(JSONNumber(Int64(field.utf8.count)))
            default: value = .string("\(spec.name).\(field)")
            }
            payload.append(field, value)
        }
        if spec.name == "event_notification", rid != nil {
            // The client's reply to event_type 1: {event_id, event_type, from_uid, gid}.
            payload.append("event_id", 9001)
            payload.append("from_uid", 0)
            payload.append("gid", 0)
        }
        if let rid { payload.append("rid", .number(JSONNumber(rid))) }
        return payload
    }

    /// Encodes, decodes (with the direction and the secret), checks and returns the event.
    @discardableResult
    static func roundTrip(
        _ event: JMessageEvent, _ direction: Direction, expecting kind: JMessageEventKind,
        findings expected: [String] = [], _ what: String
    ) -> JMessageEvent? {
        let bytes = JMessageCodec.encode(event)
        #expect(bytes.starts(with: Array("42[".utf8)), "\(what)")
        let message = JMessageCodec.decode(bytes, direction: direction, secret: secret)
        #expect(message.findings.map(\.ruleID.rawValue) == expected, "\(what): \(message.findings)")
        #expect(message.engineIO.engineIO?.type == .message && message.engineIO.socketIO?.type == .event, "\(what)")
        #expect(message.engineIO.socketIO?.eventName == event.name, "\(what)")
        guard let decoded = message.event else {
            Issue.record("\(what): no event")
            return nil
        }
        #expect(decoded.name == event.name && decoded.spec == event.spec, "\(what)")
        #expect(decoded.kind == kind, "\(what): \(decoded.kind)")
        #expect(decoded.payload == event.payload && decoded.rid == event.rid, "\(what)")
        #expect(JMessageCodec.encode(decoded) == bytes, "\(what): re-encoded differently")
        let canonical = JMessageCanonicalJSON.encode(message)
        #expect(canonical["jmessage"]?["event"]?.stringValue == event.name, "\(what)")
        #expect(canonical["jmessage"]?["kind"]?.stringValue == kind.rawValue, "\(what)")
        #expect(canonical["jmessage"]?["payload"] == .object(event.payload), "\(what)")
        return decoded
    }

    @Test func everyEventTravelsEachWayItGoes() {
        var ways: [JMessageEventRole: Int] = [:]
        var rid: Int64 = 100
        for spec in JMessageEvents.all {
            rid += 1
            let name = spec.name
            switch spec.role {
            case .request:
                Self.roundTrip(
                    JMessageEvent(name: name, payload: Self.payload(spec, rid: rid), kind: .request), .send,
                    expecting: .request, "request \(name)")
                var ok = JSONObject()
                ok.append("rid", .number(JSONNumber(rid)))
                ok.append("code", 0)
                let response = Self.roundTrip(
                    JMessageEvent(name: name, payload: ok, kind: .response), .receive,
                    expecting: .response, "response \(name)")
                #expect(response?.code == 0)
                var failed = ok
                failed["code"] = 803005
                failed.append("message", "user not in group")
                Self.roundTrip(
                    JMessageEvent(name: name, payload: failed, kind: .response), .receive, expecting: .response,
                    findings: ["JM.RESPONSE-ERROR"], "error response \(name)")
            case .reply:
                Self.roundTrip(
                    JMessageEvent(name: name, payload: Self.payload(spec, rid: rid), kind: .reply), .send,
                    expecting: .reply, "reply \(name)")
            case .push:
                Self.roundTrip(
                    JMessageEvent(name: name, payload: Self.payload(spec, rid: nil), kind: .push), .receive,
                    expecting: .push, "push \(name)")
                if name == "event_notification" {
                    Self.roundTrip(
                        JMessageEvent(name: name, payload: Self.payload(spec, rid: rid), kind: .reply), .send,
                        expecting: .reply, "reply \(name)")
                }
            case .ack:
                Self.roundTrip(
                    JMessageEvent(name: name, payload: Self.payload(spec, rid: rid), kind: .ack), .receive,
                    expecting: .ack, "ack")
            case .local:
                // socket.io's own disconnect event: never emitted on the wire.
                break
            }
            ways[spec.role, default: 0] += 1
        }
        #expect(JMessageEvents.all.count == 79)
        #expect(ways[.local] == 1 && JMessageEvents.spec("disconnect")?.role == .local)
        #expect(ways.values.reduce(0, +) == 79)
        #expect(
            ways[.request, default: 0] + ways[.reply, default: 0] + ways[.push, default: 0] + ways[.ack, default: 0]
                == 78)
    }

    /// The single send is answered under `s_single_text` (the alias the tracker accepts).
    @Test func theSingleSendIsAnsweredUnderItsAlias() {
        #expect(JMessageEvents.responseAliases["s_single_text"] == "s_across_single_text")
        var response = JSONObject()
        response.append("rid", 7)
        response.append("code", 0)
        response.append("msg_id", 4242)
        let event = Self.roundTrip(
            JMessageEvent(name: "s_single_text", payload: response, kind: .response), .receive,
            expecting: .response, "s_single_text response")
        #expect(event?.payload["msg_id"] == 4242)
    }

    /// A wrong expectation is seen: the round trip checks the event's name and kind.
    @Test func theRoundTripNoticesAWrongKind() {
        let spec = JMessageEvents.spec("msg_recv_v2")!
        let event = JMessageEvent(name: spec.name, payload: Self.payload(spec, rid: 3), kind: .reply)
        let decoded = JMessageCodec.decode(JMessageCodec.encode(event), direction: .send).event
        #expect(decoded?.kind == .reply && decoded?.kind != .request)
        #expect(decoded?.name == "msg_recv_v2" && decoded?.name != "msg_recv")
    }
}
