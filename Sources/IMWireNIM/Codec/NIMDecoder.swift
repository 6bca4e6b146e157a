import IMWireCore

/// Reads one NIM JSON packet (the data of a socket.io message packet) into a typed request or
/// response, with a finding for every deviation. Offsets are from the JSON text's first byte;
/// the codec shifts them into the WebSocket message.
public enum NIMDecoder {
    public static func decode(_ bytes: [UInt8], direction: Direction?, limits: Limits = .default) -> (
        NIMPacket?, [Finding]
    ) {
        let object: JSONObject
        do {
            guard case .object(let value) = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth) else {
                return (nil, [NIMRules.notJSON.finding("the packet is not a JSON object", at: 0)])
            }
            object = value
        } catch {
            return (nil, [NIMRules.notJSON.finding(error.reason, at: error.offset)])
        }
        var findings: [Finding] = []
        let isRequest = object["SID"] != nil || object["CID"] != nil
        if let direction, isRequest != (direction == .send) {
            findings.append(
                NIMRules.wrongDirection.finding(
                    isRequest
                        ? "a request (SID/CID/SER/Q) from the server"
                        : "a response (sid/cid/ser/code/r) from the client", at: 0))
        }
        let packet = isRequest ? request(object, &findings) : response(object, &findings)
        return (packet, findings)
    }

    private static func integer(_ object: JSONObject, _ key: String, _ rule: Rule, _ findings: inout [Finding])
        -> Int64?
    {
        guard let value = object[key]?.int64Value, object[key]?.numberValue?.isInteger ?? false else {
            let what = object[key].map { "\(key) is \($0.typeName)" } ?? "no \(key)"
            findings.append(rule.finding(what, at: object.offset(of: key) ?? 0))
            return nil
        }
        return value
    }

    // MARK: requests

    static func request(_ object: JSONObject, _ findings: inout [Finding]) -> NIMPacket? {
        let sid = integer(object, "SID", NIMRules.requestShape, &findings)
        let cid = integer(object, "CID", NIMRules.requestShape, &findings)
        let ser = integer(object, "SER", NIMRules.requestShape, &findings)
        let items: [JSONValue]
        switch object["Q"] {
        case .array(let array)?: items = array
        case nil:
            // createCmd adds Q only when the command's cmdConfig has a params list
            // (`s.params && (e.Q = [], …)`): heartbeat 1_2 (`heartbeat:{sid, cid}`), logout 2_6 and
            // 11 more have none, so the Web SDK sends {"SID":1,"CID":2,"SER":0}. A command whose
            // parameter list requires an item is still caught below ("Q lacks …").
            items = []
        default:
            findings.append(NIMRules.requestShape.finding("Q is not an array", at: object.offset(of: "Q") ?? 0))
            items = []
        }
        guard let sid, let cid, let ser else { return nil }
        var request = NIMRequest(sid: sid, cid: cid, ser: ser)
        let serOffset = object.offset(of: "SER")
        if request.isHeartbeat {
            if ser != 0 { findings.append(NIMRules.heartbeatSer.finding("heartbeat with SER \(ser)", at: serOffset)) }
        } else if !(1...32767).contains(ser) {
            findings.append(NIMRules.serOutOfRange.finding("SER \(ser)", at: serOffset))
        }
        let command = request.command
        if command == nil {
            findings.append(NIMRules.commandUnknown.finding("\(sid)_\(cid)", at: object.offset(of: "SID")))
        }
        let qOffset = object.offset(of: "Q") ?? 0
        let specs = NIMCommands.parameters["\(sid)_\(cid)"]
        for (index, item) in items.enumerated() {
            guard let parameter = parameter(item, index: index, at: qOffset, &findings) else { continue }
            var named = parameter
            named.name = nil
            if let spec = specs?[safe: index] {
                named.name = spec.name
                if !spec.types.isEmpty, !spec.types.contains(where: { $0.rawValue == parameter.type }) {
                    findings.append(
                        NIMRules.qMismatch.finding(
                            """
                            Q[\(index)] \(spec.name) is \(parameter.type), expected \
                            \(spec.types.map(\.rawValue).joined(separator: " or "))
                            """,
                            at: qOffset))
                }
                // An item already reported as malformed (name "") is not read through the tag map.
                if let map = spec.tagMap, parameter.name == nil, case .object(let value) = parameter.value {
                    named.fields = .object(PropertyNaming.name(value, map, at: qOffset, &findings))
                }
            }
            request.params.append(named)
        }
        if let specs {
            if items.count > specs.count {
                findings.append(
                    NIMRules.qMismatch.finding(
                        "\(items.count) Q items, \(command?.name ?? "the command") takes \(specs.count)", at: qOffset))
            }
            for (index, spec) in specs.enumerated() where spec.required && index >= items.count {
                findings.append(NIMRules.qMismatch.finding("Q lacks \(spec.name)", at: qOffset))
            }
        }
        return .request(request)
    }

    /// One `{t, v}` item, checked against its type.
    static func parameter(_ item: JSONValue, index: Int, at offset: Int, _ findings: inout [Finding]) -> NIMParameter? {
        guard case .object(let object) = item, let type = object["t"]?.stringValue, let value = object["v"] else {
            findings.append(NIMRules.qItemInvalid.finding("Q[\(index)] is not {t, v}", at: offset))
            return nil
        }
        guard let known = NIMParameterType(rawValue: type) else {
            findings.append(NIMRules.qItemInvalid.finding("Q[\(index)] has unknown type \"\(type)\"", at: offset))
            return NIMParameter(type: type, value: value)
        }
        if let problem = problem(known, value) {
            findings.append(NIMRules.qItemInvalid.finding("Q[\(index)] \(type): \(problem)", at: offset))
            return NIMParameter(type: type, value: value, name: "", fields: nil)
        }
        return NIMParameter(type: type, value: value)
    }

    static func problem(_ type: NIMParameterType, _ value: JSONValue) -> String? {
        switch type {
        case .property:
            guard case .object(let object) = value else { return "v is \(value.typeName), not an object" }
            return object.keys.first { Int($0) == nil || $0.hasPrefix("+") || $0.hasPrefix("-") }.map {
                "key \"\($0)\" is not a numeric tag"
            }
        case .arrayMable:
            guard case .array(let items) = value else { return "v is \(value.typeName), not an array" }
            for item in items {
                guard item["t"]?.stringValue == "Property", let inner = item["v"] else {
                    return "an item is not {t: \"Property\", v}"
                }
                if let problem = problem(.property, inner) { return problem }
            }
            return nil
        case .string, .stringLowercase:
            return value.stringValue == nil ? "v is \(value.typeName), not a string" : nil
        case .strArray:
            guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
                return "v is not an array of strings"
            }
            return nil
        case .int, .intCapitalised, .number, .byte:
            return value.numberValue == nil ? "v is \(value.typeName), not a number" : nil
        case .longArray, .longArrayLowercase:
            // batchMarkRead's ids are the messages' idServer, strings of digits on the wire.
            guard case .array(let items) = value,
                items.allSatisfy({ $0.numberValue != nil || $0.stringValue.map { Int64($0) != nil } == true })
            else { return "v is not an array of numbers" }
            return nil
        case .strStrMap:
            guard case .object(let object) = value, object.members.allSatisfy({ $0.value.stringValue != nil }) else {
                return "v is not an object of strings"
            }
            return nil
        case .ph:
            // markRead's second parameter; the bundle gives it no shape.
            return nil
        case .long:
            // 64-bit values may travel as decimal strings.
            if value.numberValue != nil { return nil }
            if let text = value.stringValue, Int64(text) != nil { return nil }
            return "v is \(value.typeName), not a number"
        case .bool:
            return value == "true" || value == "false" ? nil : "v is \(value), not the string \"true\" or \"false\""
        case .longLongMap:
            guard case .object(let object) = value, object.members.allSatisfy({ $0.value.numberValue != nil }) else {
                return "v is not an object of numbers"
            }
            return nil
        case .kvArray:
            guard case .array(let items) = value, items.allSatisfy({ $0.objectValue != nil }) else {
                return "v is not an array of objects"
            }
            return nil
        }
    }

    // MARK: responses

    static func response(_ object: JSONObject, _ findings: inout [Finding]) -> NIMPacket? {
        let sid = integer(object, "sid", NIMRules.responseShape, &findings)
        let cid = integer(object, "cid", NIMRules.responseShape, &findings)
        let ser = integer(object, "ser", NIMRules.responseShape, &findings)
        let code = integer(object, "code", NIMRules.responseShape, &findings)
        var r: [JSONValue]?
        switch object["r"] {
        case nil: break
        case .array(let array)?: r = array
        default: findings.append(NIMRules.responseShape.finding("r is not an array", at: object.offset(of: "r")))
        }
        guard let sid, let cid, let ser, let code else { return nil }
        var response = NIMResponse(sid: sid, cid: cid, ser: ser, code: code, r: r)
        let codeOffset = object.offset(of: "code")
        if !response.isSuccess {
            if let row = NIMWebCodes.row(code) {
                findings.append(NIMRules.errorCode.finding("code \(code): \(row.meaning)", at: codeOffset))
            } else {
                findings.append(NIMRules.codeUnknown.finding("code \(code)", at: codeOffset))
            }
        }
        guard let command = response.command else {
            findings.append(NIMRules.commandUnknown.finding("\(sid)_\(cid)", at: object.offset(of: "sid")))
            return .response(response)
        }
        let rOffset = object.offset(of: "r") ?? 0
        let entries = r ?? []
        if command.isNotifyWrapper {
            response.inner = inner(entries, at: rOffset, success: response.isSuccess, &findings)
            return .response(response)
        }
        // An error response may carry something else (416: the wait in r[0]).
        guard response.isSuccess else { return .response(response) }
        response.fields = fields(of: command, entries, at: rOffset, &findings)
        return .response(response)
    }

    /// `r` read by the command's handler: each entry under its field name, Property entries (and
    /// lists of them) named through their tag maps. Findings: more entries than the handler
    /// reads, an entry not of its map's shape, a tag the map lacks, a 2_5 reason other than 1–4.
    static func fields(of command: NIMCommand, _ entries: [JSONValue], at offset: Int, _ findings: inout [Finding])
        -> JSONObject
    {
        var fields = JSONObject()
        if entries.count > command.response.count {
            findings.append(
                NIMRules.rMismatch.finding(
                    """
                    r has \(entries.count) entries, \
                    \(command.handler ?? command.name) reads \(command.response.count)
                    """, at: offset))
        }
        for (field, entry) in zip(command.response, entries) {
            fields.append(field, PropertyNaming.field(field, entry, at: offset, &findings))
        }
        if command.sid == NIMCommands.kicked.sid, command.cid == NIMCommands.kicked.cid,
            let reason = entries[safe: 1]?.int64Value,
            NIMStatusCodes.webKickReason.rows(reason).isEmpty
        {
            findings.append(NIMRules.kickReasonUnknown.finding("reason \(reason)", at: offset))
        }
        return fields
    }

    /// The packet a notify wrapper carries (nim.md §3.3): `r[1].headerPacket {sid, cid}` names
    /// it, and the SDK looks that sid_cid up again and reads `r[1].body` as its `r`. The body is
    /// read like a top-level packet's `r` (offsets at the `body` key of the outer text); it stays
    /// raw when the inner command is unknown, reads no fields, is itself a wrapper, or the
    /// wrapper's code is not a success.
    static func inner(_ entries: [JSONValue], at offset: Int, success: Bool, _ findings: inout [Finding])
        -> NIMInnerPacket?
    {
        guard let wrapper = entries[safe: 1]?.objectValue, let header = wrapper["headerPacket"]?.objectValue,
            let sid = header["sid"]?.int64Value, let cid = header["cid"]?.int64Value, let body = wrapper["body"]
        else {
            findings.append(NIMRules.notifyInvalid.finding("r[1] is not {headerPacket: {sid, cid}, body}", at: offset))
            return nil
        }
        var inner = NIMInnerPacket(sid: sid, cid: cid, body: body)
        guard let command = inner.command else {
            findings.append(
                NIMRules.commandUnknown.finding("inner \(sid)_\(cid)", at: wrapper.offset(of: "headerPacket") ?? offset)
            )
            return inner
        }
        let bodyOffset = wrapper.offset(of: "body") ?? offset
        guard case .array(let items) = body else {
            findings.append(
                NIMRules.notifyInvalid.finding(
                    "the body of inner \(sid)_\(cid) \(command.name) is \(body.typeName), not an array (its r)",
                    at: bodyOffset))
            return inner
        }
        guard success, !command.isNotifyWrapper, !command.response.isEmpty else { return inner }
        inner.fields = fields(of: command, items, at: bodyOffset, &findings)
        return inner
    }
}

/// Renames Property tags to fields through a tag map.
enum PropertyNaming {
    static func name(_ object: JSONObject, _ map: NIMTagMap, at offset: Int, _ findings: inout [Finding]) -> JSONObject
    {
        var named = JSONObject()
        var unknown: [String] = []
        for member in object {
            if let tag = Int(member.key), let name = map.name(ofTag: tag) {
                named.append(name, member.value)
            } else {
                named.append("#\(member.key)", member.value)
                unknown.append(member.key)
            }
        }
        if !unknown.isEmpty {
            findings.append(
                NIMRules.tagUnknown.finding("\(map.name) has no tag \(unknown.joined(separator: ", "))", at: offset))
        }
        return named
    }

    /// A response field: a Property (or list of them) named through its map, else as it came.
    static func field(_ field: String, _ entry: JSONValue, at offset: Int, _ findings: inout [Finding]) -> JSONValue {
        guard let (map, isList) = NIMTagMaps.map(forField: field) else { return entry }
        if isList {
            guard case .array(let items) = entry else {
                findings.append(
                    NIMRules.rMismatch.finding("\(field) is \(entry.typeName), not a list of \(map.name)", at: offset))
                return entry
            }
            return .array(
                items.map { item in
                    guard case .object(let object) = item else { return item }
                    return .object(name(object, map, at: offset, &findings))
                })
        }
        guard case .object(let object) = entry else {
            findings.append(
                NIMRules.rMismatch.finding("\(field) is \(entry.typeName), not a \(map.name) Property", at: offset))
            return entry
        }
        return .object(name(object, map, at: offset, &findings))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
