import IMWireCore

/// Where code meanings live: the tables of `JMessageStatusCodes`, read, not retyped.
public enum JMessageWebCodes {
    static let tables = [
        JMessageStatusCodes.server, JMessageStatusCodes.webErrors, JMessageStatusCodes.tcpErrorCode,
        JMessageStatusCodes.httpErrorCode,
    ]

    /// The first row that names `code`, the server table first.
    public static func row(_ code: Int64) -> StatusCode? {
        for table in tables { if let row = table.rows(code).first { return row } }
        return nil
    }
}

/// `event_notification`'s `event_type` through the registry's `web-event-type` table
/// (jmessage.md §2.3).
public enum JMessageEventType {
    /// The row naming `value`; nil for a value that is not an integer or not in the table.
    public static func row(_ value: JSONValue) -> StatusCode? {
        guard let number = value.numberValue, number.isInteger, let code = value.int64Value else { return nil }
        return JMessageStatusCodes.webEventType.rows(code).first
    }

    /// `{"code": n, "meaning": "…"}` for the decoded output; `meaning` null for an unknown value.
    public static func json(_ value: JSONValue) -> JSONValue {
        var object = JSONObject()
        object.append("code", value)
        object.append("meaning", row(value).map { .string($0.meaning) } ?? .null)
        return .object(object)
    }
}

/// The payload checks of one event: rid, code, the fields the SDK always sends, the message
/// protocol `content` with its `msg_body`, the c_init signature and the MD5 password.
enum JMessageChecks {
    static let maxRid: Int64 = 2_147_483_646

    static func check(_ event: JMessageEvent, at offset: Int, secret: String?) -> [Finding] {
        var findings: [Finding] = []
        let payload = event.payload
        let ridOffset = payload.offset(of: "rid").map { offset + $0 } ?? offset
        switch event.kind {
        case .request, .reply, .ack, .response:
            if let rid = payload["rid"] {
                if !(rid.numberValue?.isInteger ?? false) || !(1...maxRid).contains(rid.int64Value ?? 0) {
                    findings.append(JMessageRules.ridInvalid.finding("rid \(rid)", at: ridOffset))
                }
            } else {
                findings.append(
                    JMessageRules.ridMissing.finding("\(event.name) (\(event.kind.rawValue)) without rid", at: offset))
            }
        case .push:
            break
        }
        if event.kind == .response {
            let codeOffset = payload.offset(of: "code").map { offset + $0 } ?? offset
            if let code = payload["code"]?.int64Value, payload["code"]?.numberValue?.isInteger ?? false {
                if code != 0 {
                    if let row = JMessageWebCodes.row(code) {
                        findings.append(JMessageRules.errorCode.finding("code \(code): \(row.meaning)", at: codeOffset))
                    } else {
                        findings.append(JMessageRules.codeUnknown.finding("code \(code)", at: codeOffset))
                    }
                }
            } else {
                findings.append(
                    JMessageRules.codeInvalid.finding("\(event.name) response without an integer code", at: codeOffset))
            }
            return findings
        }
        if event.kind == .ack { return findings }
        // Requests, replies and pushes carry the fields the SDK builds.
        let missing = (event.spec?.required ?? []).filter { $0 != "rid" && payload[$0] == nil }
        if !missing.isEmpty {
            findings.append(
                JMessageRules.fieldMissing.finding(
                    "\(event.name) without \(missing.joined(separator: ", "))", at: offset))
        }
        switch event.name {
        case "c_init":
            findings += JMessageSignature.check(
                payload, secret: secret, at: payload.offset(of: "signature").map { offset + $0 } ?? offset)
        case "login", "register":
            if let password = payload["password"]?.stringValue, !isHex32(password), payload["is_md5"] != .bool(true) {
                findings.append(
                    JMessageRules.passwordNotMD5.finding(
                        "password is not an MD5 hex digest",
                        at: payload.offset(of: "password").map { offset + $0 } ?? offset))
            }
        case "s_across_single_text", "s_single_text", "send_group_msg":
            let at = payload.offset(of: "content").map { offset + $0 } ?? offset
            if let content = payload["content"] {
                findings += JMessageContentChecks.check(
                    content, expectedTarget: event.name == "send_group_msg" ? "group" : "single", at: at)
            }
        case "event_notification":
            if let value = payload["event_type"], JMessageEventType.row(value) == nil {
                findings.append(
                    JMessageRules.eventTypeUnknown.finding(
                        "event_type \(value) is not in web-event-type",
                        at: payload.offset(of: "event_type").map { offset + $0 } ?? offset))
            }
        case "msg_sync":
            let at = payload.offset(of: "messages").map { offset + $0 } ?? offset
            guard let messages = payload["messages"]?.arrayValue else {
                if payload["messages"] != nil {
                    findings.append(JMessageRules.fieldMissing.finding("messages is not an array", at: at))
                }
                break
            }
            for message in messages {
                guard message["msg_id"] != nil, let content = message["content"] else {
                    findings.append(
                        JMessageRules.fieldMissing.finding("a msg_sync message without msg_id or content", at: at))
                    continue
                }
                let target = message["msg_type"]?.int64Value == 4 ? "group" : "single"
                findings += JMessageContentChecks.check(content, expectedTarget: target, at: at)
            }
        default:
            break
        }
        return findings
    }

    static func isHex32(_ text: String) -> Bool {
        text.utf8.count == 32
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }
}

/// The message protocol (jmessage.md §3): `content` and its `msg_body` per `msg_type`.
public enum JMessageContentChecks {
    /// msg_type → the msg_body fields it requires and their JSON types ("s" string, "n" number).
    public static let bodies: [String: [(String, String)]] = [
        "text": [("text", "s")],
        "voice": [("media_id", "s"), ("media_crc32", "n"), ("duration", "n"), ("format", "s"), ("fsize", "n")],
        "image": [("media_id", "s"), ("media_crc32", "n"), ("width", "n"), ("height", "n"), ("fsize", "n")],
        "file": [("media_id", "s"), ("media_crc32", "n"), ("fsize", "n"), ("fname", "s")],
        "location": [("latitude", "n"), ("longitude", "n"), ("scale", "n"), ("label", "s")],
        "video": [],
        "custom": [],
    ]

    public static func check(_ value: JSONValue, expectedTarget: String?, at offset: Int) -> [Finding] {
        guard case .object(let content) = value else {
            return [JMessageRules.contentInvalid.finding("content is \(value.typeName), not an object", at: offset)]
        }
        var problems: [String] = []
        if content["version"]?.int64Value != 1 { problems.append("version is not 1") }
        let target = content["target_type"]?.stringValue
        if target != "single", target != "group" {
            problems.append("target_type \(content["target_type"].map(\.description) ?? "missing")")
        } else if let expectedTarget, target != expectedTarget {
            problems.append("target_type \(target ?? "") in a \(expectedTarget) send")
        }
        for key in ["target_id", "from_id"] where content[key]?.stringValue == nil {
            problems.append("\(key) is not a string")
        }
        if content["create_time"]?.numberValue == nil { problems.append("create_time is not a number") }
        let type = content["msg_type"]?.stringValue
        if type == nil || bodies[type ?? ""] == nil {
            problems.append("msg_type \(content["msg_type"].map(\.description) ?? "missing")")
        }
        var findings: [Finding] = []
        if !problems.isEmpty {
            findings.append(JMessageRules.contentInvalid.finding(problems.joined(separator: "; "), at: offset))
        }
        guard let type, let fields = bodies[type] else { return findings }
        guard case .object(let body)? = content["msg_body"] else {
            findings.append(
                JMessageRules.msgBodyInvalid.finding("\(type) content without a msg_body object", at: offset))
            return findings
        }
        var wrong: [String] = []
        for (name, kind) in fields {
            let value = body[name]
            let ok = kind == "s" ? value?.stringValue != nil : value?.numberValue != nil
            if !ok { wrong.append(name) }
        }
        if let extras = body["extras"], extras.objectValue == nil { wrong.append("extras (not an object)") }
        if !wrong.isEmpty {
            findings.append(
                JMessageRules.msgBodyInvalid.finding("\(type) msg_body: \(wrong.joined(separator: ", "))", at: offset))
        }
        return findings
    }
}
