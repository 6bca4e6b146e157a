import IMWireCore

/// Reads yun2win JSON payloads into typed commands and server messages, with a finding for every
/// deviation. Offsets are `base` (where the payload starts in the packet) plus the key's offset.
struct PayloadDecoder {
    let base: Int
    var findings: [Finding] = []

    init(base: Int) { self.base = base }

    private mutating func report(_ rule: Rule, _ message: String, at offset: Int?) {
        findings.append(rule.finding(message, at: base + (offset ?? 0)))
    }

    /// The payload as a JSON object, or nil with Y2W.PAYLOAD-NOT-JSON.
    mutating func object(_ payload: [UInt8], limits: Limits) -> JSONObject? {
        do {
            let value = try JSONParser.parse(payload, maxDepth: limits.maxJSONDepth)
            guard case .object(let object) = value else {
                report(Yun2winRules.payloadNotJSON, "payload is a JSON \(value.typeName), not an object", at: 0)
                return nil
            }
            for key in object.duplicateKeys {
                report(Yun2winRules.fieldInvalid, "key \"\(key)\" given twice", at: object.offset(of: key))
            }
            return object
        } catch {
            report(Yun2winRules.payloadNotJSON, error.reason, at: error.offset)
            return nil
        }
    }

    private mutating func checkKeys(_ object: JSONObject, allowed: [String], what: String) {
        for member in object.members where !allowed.contains(member.key) {
            report(Yun2winRules.unknownKey, "\(what) does not carry \"\(member.key)\"", at: member.offset)
        }
    }

    private mutating func messageID(_ object: JSONObject, _ cmd: String) -> String? {
        guard let id = object["y2wMessageId"]?.stringValue, !id.isEmpty else {
            let found = object["y2wMessageId"].map { "a \($0.typeName)" } ?? "none"
            report(
                Yun2winRules.messageIDMissing, "\(cmd) needs a y2wMessageId string, found \(found)",
                at: object.offset(of: "y2wMessageId") ?? 0)
            return nil
        }
        return id
    }

    private mutating func mts(_ object: JSONObject, _ cmd: String) -> JSONNumber? {
        guard let number = object["mts"]?.numberValue else {
            let found = object["mts"].map { "a \($0.typeName)" } ?? "none"
            report(
                Yun2winRules.mtsInvalid, "\(cmd) needs a numeric mts, found \(found)", at: object.offset(of: "mts") ?? 0
            )
            return nil
        }
        return number
    }

    private mutating func message(_ object: JSONObject, _ cmd: String) -> JSONValue? {
        guard let value = object["message"], case .object(let inner) = value else {
            let found = object["message"].map { "a \($0.typeName)" } ?? "none"
            report(
                Yun2winRules.fieldInvalid, "\(cmd) needs a message object, found \(found)",
                at: object.offset(of: "message") ?? 0)
            return nil
        }
        checkAppMessage(inner)
        return value
    }

    /// The demos' inner message: `syncs[{type 0–4 | "singleavcall" | "groupavcall", sessionId}]`, `pns{}`, `av{}`.
    /// Key offsets are from the start of the payload, like the outer object's.
    private mutating func checkAppMessage(_ inner: JSONObject) {
        if let syncs = inner["syncs"] {
            guard let entries = syncs.arrayValue else {
                report(
                    Yun2winRules.appMessageInvalid, "message.syncs is a \(syncs.typeName), not an array",
                    at: inner.offset(of: "syncs"))
                return
            }
            for (index, entry) in entries.enumerated() {
                guard let sync = entry.objectValue else {
                    report(
                        Yun2winRules.appMessageInvalid, "message.syncs[\(index)] is not an object",
                        at: inner.offset(of: "syncs"))
                    continue
                }
                switch sync["type"] {
                case .number(let number)?:
                    if let type = number.int64Value, Yun2winStatusCodes.syncType.contains(where: { $0.number == type })
                    {
                        if type == 1, sync["sessionId"]?.stringValue == nil {
                            report(
                                Yun2winRules.appMessageInvalid,
                                "message.syncs[\(index)] of type 1 (Message) has no sessionId",
                                at: sync.offset(of: "type"))
                        }
                    } else {
                        report(
                            Yun2winRules.appMessageInvalid,
                            "message.syncs[\(index)].type \(number) is not a Y2WSyncType (0–4)",
                            at: sync.offset(of: "type"))
                    }
                case .string("singleavcall")?, .string("groupavcall")?:
                    break
                default:
                    report(
                        Yun2winRules.appMessageInvalid, "message.syncs[\(index)] has no valid type",
                        at: inner.offset(of: "syncs"))
                }
            }
        }
        if let pns = inner["pns"], pns.objectValue == nil {
            report(
                Yun2winRules.appMessageInvalid, "message.pns is a \(pns.typeName), not an object",
                at: inner.offset(of: "pns"))
        }
    }

    /// A client command.
    mutating func command(_ object: JSONObject) -> Yun2winCommand? {
        guard let cmdValue = object["cmd"] else {
            report(Yun2winRules.cmdMissing, "no cmd in the payload", at: 0)
            return nil
        }
        switch cmdValue.stringValue {
        case "sendMessage"?:
            checkKeys(object, allowed: ["cmd", "y2wMessageId", "mts", "message"], what: "sendMessage")
            return sendMessage(object).map(Yun2winCommand.sendMessage)
        case "updateSession"?:
            checkKeys(
                object, allowed: ["cmd", "y2wMessageId", "mts", "members", "force", "message"], what: "updateSession")
            let id = messageID(object, "updateSession")
            let stamp = mts(object, "updateSession")
            var members: [Yun2winUpdateSession.Member] = []
            var membersValid = true
            if let list = object["members"]?.arrayValue {
                for (index, entry) in list.enumerated() {
                    guard let member = entry.objectValue, let uid = member["uid"]?.stringValue else {
                        report(
                            Yun2winRules.fieldInvalid, "members[\(index)] needs a uid string",
                            at: object.offset(of: "members"))
                        membersValid = false
                        continue
                    }
                    members.append(.init(uid: uid, isDel: member["isDel"]?.boolValue ?? false))
                    if let isDel = member["isDel"], isDel.boolValue == nil {
                        report(
                            Yun2winRules.fieldInvalid, "members[\(index)].isDel is a \(isDel.typeName), not a boolean",
                            at: object.offset(of: "members"))
                        membersValid = false
                    }
                }
            } else {
                let found = object["members"].map { "a \($0.typeName)" } ?? "none"
                report(
                    Yun2winRules.fieldInvalid,
                    "updateSession needs a members array (the web SDK refuses with 29), found \(found)",
                    at: object.offset(of: "members") ?? 0)
                membersValid = false
            }
            var force = false
            if let value = object["force"] {
                if let flag = value.boolValue {
                    force = flag
                } else {
                    report(
                        Yun2winRules.fieldInvalid, "force is a \(value.typeName), not a boolean",
                        at: object.offset(of: "force"))
                }
            }
            let inner = message(object, "updateSession")
            guard let id, let stamp, let inner, membersValid else { return nil }
            return .updateSession(
                Yun2winUpdateSession(y2wMessageID: id, mts: stamp, members: members, force: force, message: inner))
        case "updateToken"?:
            checkKeys(object, allowed: ["cmd", "token"], what: "updateToken")
            guard let token = object["token"]?.stringValue else {
                report(
                    Yun2winRules.fieldInvalid, "updateToken needs a token string", at: object.offset(of: "token") ?? 0)
                return nil
            }
            return .updateToken(token: token)
        default:
            report(
                Yun2winRules.cmdUnknown, "cmd \(cmdValue) (the server acks 22 cmdIsInvalid)",
                at: object.offset(of: "cmd"))
            return nil
        }
    }

    private mutating func sendMessage(_ object: JSONObject) -> Yun2winSendMessage? {
        let id = messageID(object, "sendMessage")
        let stamp = mts(object, "sendMessage")
        let inner = message(object, "sendMessage")
        guard let id, let stamp, let inner else { return nil }
        return Yun2winSendMessage(y2wMessageID: id, mts: stamp, message: inner)
    }

    /// A server → client payload.
    mutating func serverMessage(_ object: JSONObject) -> Yun2winServerMessage? {
        if let codeValue = object["returnCode"] {
            let codeOffset = object.offset(of: "returnCode")
            guard let code = codeValue.int64Value else {
                report(
                    Yun2winRules.fieldInvalid, "returnCode is a \(codeValue.typeName), not an integer", at: codeOffset)
                return nil
            }
            if object["y2wMessageId"] != nil {
                checkKeys(object, allowed: ["y2wMessageId", "returnCode", "mts"], what: "an ack")
                let id = messageID(object, "an ack")
                checkAckCode(code, at: codeOffset)
                var stamp: JSONNumber?
                if let value = object["mts"] {
                    if let number = value.numberValue {
                        stamp = number
                    } else {
                        report(Yun2winRules.mtsInvalid, "ack mts is a \(value.typeName)", at: object.offset(of: "mts"))
                    }
                } else if code == 27 || code == 28 {
                    report(
                        Yun2winRules.ackMTSMissing,
                        "ack \(Yun2winStatusCodes.describe(code, in: Yun2winStatusCodes.sendReturnCode)) without mts",
                        at: codeOffset)
                }
                guard let id else { return nil }
                return .sendAck(Yun2winSendAck(y2wMessageID: id, returnCode: code, mts: stamp))
            }
            checkKeys(object, allowed: ["returnCode"], what: "a connection return code")
            checkConnectionCode(code, at: codeOffset)
            return .connectionReturn(code: code)
        }
        if object["cmd"]?.stringValue == "sendMessage" {
            checkKeys(object, allowed: ["cmd", "y2wMessageId", "mts", "message"], what: "sendMessage")
            return sendMessage(object).map(Yun2winServerMessage.relayedMessage)
        }
        return .data(.object(object))
    }

    private mutating func checkAckCode(_ code: Int64, at offset: Int?) {
        if let row = Yun2winStatusCodes.sendReturn(code) {
            if row.travel == .clientLocal {
                report(
                    Yun2winRules.clientLocalCodeOnWire, "ack \(code) \(row.name) is generated by client SDKs only",
                    at: offset)
            }
        } else if let row = Yun2winStatusCodes.connectionReturn(code) {
            report(
                Yun2winRules.returnCodeWrongTravel, "\(code) \(row.name) is a connection code, not a send ack",
                at: offset)
        } else {
            report(Yun2winRules.returnCodeUnknown, "ack returnCode \(code)", at: offset)
        }
    }

    private mutating func checkConnectionCode(_ code: Int64, at offset: Int?) {
        if let row = Yun2winStatusCodes.connectionReturn(code) {
            switch row.travel {
            case .publish: break
            case .clientLocal:
                report(
                    Yun2winRules.clientLocalCodeOnWire, "\(code) \(row.name) is generated by client SDKs only",
                    at: offset)
            default:
                report(
                    Yun2winRules.returnCodeWrongTravel, "\(code) \(row.name) travels in CONNACK, not in a PUBLISH",
                    at: offset)
            }
        } else if let row = Yun2winStatusCodes.sendReturn(code) {
            if row.travel == .clientLocal {
                report(
                    Yun2winRules.clientLocalCodeOnWire, "\(code) \(row.name) is generated by client SDKs only",
                    at: offset)
            } else {
                report(
                    Yun2winRules.returnCodeWrongTravel, "send ack \(code) \(row.name) without a y2wMessageId",
                    at: offset)
            }
        } else {
            report(Yun2winRules.returnCodeUnknown, "returnCode \(code)", at: offset)
        }
    }
}
