import IMWireCore

/// Gate ("imgate") discovery, before MQTT (yun2win.md §3): `POST /gateHandler` with
/// `oper=register` (form-encoded on web and Android, JSON `{oper, appKey, uid}` on iOS); the reply
/// `{"rtnval":"success","data":{"url":<host>,"region":<string>}}` names the MQTT host.
public enum Yun2winGate {
    /// The `register` request's fields and its body form.
    public struct Request: Sendable, Hashable {
        public var fields: [(key: String, value: String)]
        /// True for the JSON body of iOS, false for the form body of web and Android.
        public var isJSON: Bool

        public static func == (lhs: Request, rhs: Request) -> Bool {
            lhs.isJSON == rhs.isJSON && lhs.fields.map(\.key) == rhs.fields.map(\.key)
                && lhs.fields.map(\.value) == rhs.fields.map(\.value)
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(isJSON)
            for field in fields {
                hasher.combine(field.key)
                hasher.combine(field.value)
            }
        }

        public var json: JSONValue {
            .object(JSONObject(fields.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }))
        }
    }

    /// The gate's answer: the MQTT host and its region.
    public struct Reply: Sendable, Hashable {
        public var url: String
        public var region: String?

        public var json: JSONValue {
            ["rtnval": "success", "data": ["url": .string(url), "region": region.map(JSONValue.string) ?? .null]]
        }
    }

    /// A gate request body: JSON when it starts with `{`, form-encoded otherwise.
    public static func decodeRequest(_ body: [UInt8], limits: Limits = .default) -> (Request?, [Finding]) {
        var fields: [(key: String, value: String)] = []
        let isJSON = body.first == UInt8(ascii: "{")
        if isJSON {
            do {
                guard case .object(let object) = try JSONParser.parse(body, maxDepth: limits.maxJSONDepth) else {
                    return (nil, [Yun2winRules.gateRequestInvalid.finding("the JSON body is not an object", at: 0)])
                }
                for member in object.members {
                    guard let text = member.value.stringValue else {
                        return (
                            nil,
                            [
                                Yun2winRules.gateRequestInvalid.finding(
                                    "\(member.key) is not a string", at: member.offset)
                            ]
                        )
                    }
                    fields.append((member.key, text))
                }
            } catch {
                return (nil, [Yun2winRules.gateRequestInvalid.finding(error.reason, at: error.offset)])
            }
        } else {
            for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
                let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = formDecode(parts[0]), let value = formDecode(parts.count > 1 ? parts[1] : []) else {
                    return (nil, [Yun2winRules.gateRequestInvalid.finding("bad percent-encoding", at: pair.startIndex)])
                }
                fields.append((key, value))
            }
        }
        let request = Request(fields: fields, isJSON: isJSON)
        guard let oper = fields.last(where: { $0.key == "oper" })?.value else {
            return (request, [Yun2winRules.gateRequestInvalid.finding("no oper field", at: 0)])
        }
        if oper != "register" {
            return (request, [Yun2winRules.gateRequestInvalid.finding("oper=\(oper), expected register", at: 0)])
        }
        return (request, [])
    }

    /// A gate reply; nil with a finding when it does not name a host.
    public static func decodeReply(_ body: [UInt8], limits: Limits = .default) -> (Reply?, [Finding]) {
        let value: JSONValue
        do { value = try JSONParser.parse(body, maxDepth: limits.maxJSONDepth) } catch {
            return (nil, [Yun2winRules.gateReplyInvalid.finding(error.reason, at: error.offset)])
        }
        guard case .object(let object) = value else {
            return (nil, [Yun2winRules.gateReplyInvalid.finding("the reply is not a JSON object", at: 0)])
        }
        guard object["rtnval"]?.stringValue == "success" else {
            return (
                nil,
                [
                    Yun2winRules.gateReplyInvalid.finding(
                        "rtnval is \(object["rtnval"].map(\.description) ?? "missing"), not \"success\"",
                        at: object.offset(of: "rtnval") ?? 0)
                ]
            )
        }
        guard let data = object["data"]?.objectValue, let url = data["url"]?.stringValue, !url.isEmpty else {
            return (
                nil, [Yun2winRules.gateReplyInvalid.finding("data.url is missing", at: object.offset(of: "data") ?? 0)]
            )
        }
        return (Reply(url: url, region: data["region"]?.stringValue), [])
    }

    /// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; nil if malformed.
    private static func formDecode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        guard UTF8Validator.firstInvalidOffset(out) == nil else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
