import IMWireCore
import IMWireRegistry
import IMWireWebSocket

/// IMWire's own testee (`imwire conformance testee`): answers testee-protocol requests with the
/// canonical codecs of the registration table (`Dialects.standard.codecs`; a suite names a codec
/// and its options) and the WebSocket decoder. In strict mode (the default) any warning or error
/// finding rejects the input, with the first finding that has an offset (else the first) as the
/// rule and offset.
public enum IMWireTestee {
    /// The response body for one request body.
    public static func answer(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.write(respond(body), into: &out)
        return out
    }

    /// The response for one request body, as JSON.
    package static func respond(_ body: [UInt8]) -> JSONValue {
        guard let root = try? JSONParser.parse(body), case .object(let request) = root,
            let id = request["id"]?.int64Value.flatMap({ Int(exactly: $0) })
        else { return TesteeResponse(id: 0, result: .error, message: "not a request").json() }
        guard request["protocol"]?.int64Value == Int64(TesteeProtocol.version) else {
            return TesteeResponse(
                id: id, result: .unsupported, message: "protocol version \(TesteeProtocol.version) only"
            ).json()
        }
        guard let suiteName = request["suite"]?.stringValue, let suite = ConformanceSuite(rawValue: suiteName) else {
            return TesteeResponse(id: id, result: .unsupported, message: "unknown suite").json()
        }
        let options = request["options"]?.objectValue ?? JSONObject()
        let input = request["input"]?.objectValue ?? JSONObject()
        let codec: (any CanonicalCodec)?
        do throws(IMWireError) { codec = try Self.codec(suite, options) } catch {
            return TesteeResponse(id: id, result: .unsupported, message: error.description).json()
        }
        switch request["operation"]?.stringValue {
        case "decode", "both":
            let bytes: [UInt8]
            if let hex = input["hex"]?.stringValue {
                guard let decoded = try? Hex.decode(hex) else {
                    return TesteeResponse(id: id, result: .error, message: "bad hex").json()
                }
                bytes = decoded
            } else if let text = input["text"]?.stringValue {
                bytes = Array(text.utf8)
            } else {
                return TesteeResponse(id: id, result: .error, message: "decode needs input.hex or input.text").json()
            }
            do {
                let (value, findings) = try decode(codec, bytes, options)
                let strict = options["strict"]?.boolValue ?? true
                let problems = findings.filter { $0.severity >= .warning && (strict || $0.severity >= .error) }
                if let first = problems.first(where: { $0.offset != nil }) ?? problems.first {
                    return TesteeResponse(
                        id: id, result: .rejected, rule: first.ruleID.rawValue, offset: first.offset,
                        message: first.message
                    ).json()
                }
                guard request["operation"]?.stringValue == "both" else {
                    return TesteeResponse(id: id, result: .ok, value: value ?? .null).json()
                }
                // A round trip: the value, and the value encoded back.
                guard let value, ConformanceCases.encodes(suite), let codec else {
                    return TesteeResponse(id: id, result: .unsupported, message: "no encoder").json()
                }
                return roundTrip(id: id, suite: suite, value: value, codec: codec)
            } catch {
                return TesteeResponse(id: id, result: .error, message: error.description).json()
            }
        case "encode":
            guard let value = input["value"] else {
                return TesteeResponse(id: id, result: .error, message: "encode needs input.value").json()
            }
            guard ConformanceCases.encodes(suite), let codec else {
                return TesteeResponse(id: id, result: .unsupported, message: "no encoder").json()
            }
            do {
                let encoded = try codec.encode(value)
                let asText = suite.isText && !encoded.binary && String(validating: encoded.bytes, as: UTF8.self) != nil
                return TesteeResponse(id: id, result: .ok, bytes: encoded.bytes).json(text: asText)
            } catch {
                return TesteeResponse(id: id, result: .rejected, message: error.description).json()
            }
        default:
            return TesteeResponse(id: id, result: .unsupported, message: "unknown operation").json()
        }
    }

    /// `ok` with `value` and its encoding, or `rejected` when it does not encode.
    static func roundTrip(id: Int, suite: ConformanceSuite, value: JSONValue, codec: any CanonicalCodec) -> JSONValue {
        do {
            let encoded = try codec.encode(value)
            let asText = suite.isText && !encoded.binary && String(validating: encoded.bytes, as: UTF8.self) != nil
            return TesteeResponse(id: id, result: .ok, value: value, bytes: encoded.bytes).json(text: asText)
        } catch {
            return TesteeResponse(
                id: id, result: .rejected, message: "decoded, but the value does not encode: \(error)"
            ).json()
        }
    }

    static func direction(_ options: JSONObject) -> Direction? {
        options["direction"]?.stringValue.flatMap(Direction.init(rawValue:))
    }

    /// The table's codec of `suite` with its options (nil for a suite no codec reads), or why
    /// the request's options cannot make it.
    static func codec(_ suite: ConformanceSuite, _ options: JSONObject) throws(IMWireError) -> (
        any CanonicalCodec
    )? {
        guard let (name, codecOptions) = suite.codec(options), let definition = Dialects.standard.codec(named: name)
        else { return nil }
        return try definition.makeCodec(codecOptions)
    }

    /// The canonical JSON of the unit in `bytes` and every finding, as the fixtures spell them:
    /// one unit (a stream of two packets is not a case), and `null` for the lc.json keep-alive
    /// `{}` (`Spec/conformance.md` §4). Without a codec, a WebSocket suite's.
    static func decode(_ codec: (any CanonicalCodec)?, _ bytes: [UInt8], _ options: JSONObject) throws(IMWireError) -> (
        JSONValue?, [Finding]
    ) {
        guard let codec else { return try decodeWebSocket(bytes, options) }
        let input = CanonicalInput(binary: options["frame"]?.stringValue == "binary", direction: direction(options))
        let parts = codec.decode(bytes, as: input).parts
        guard parts.count == 1 else { throw IMWireError(.fixtureFormat, "\(parts.count) packets, expected one") }
        let value = parts[0].decoded
        return (value == .object(JSONObject()) ? nil : value, parts[0].findings)
    }

    /// A client's bytes read by a server: messages and control frames up to the first failure,
    /// the close code of that failure, and the frames a conforming peer accepts.
    static func decodeWebSocket(_ bytes: [UInt8], _ options: JSONObject) throws(IMWireError) -> (
        JSONValue?, [Finding]
    ) {
        var deflate: PerMessageDeflateParameters?
        if let header = options["permessage_deflate"]?.stringValue {
            guard let parsed = PerMessageDeflateParameters(responseHeader: header) else {
                throw IMWireError(.fixtureFormat, "permessage_deflate `\(header)` is not a valid response")
            }
            deflate = parsed
        }
        var limits = Limits.default
        for member in options["limits"]?.objectValue ?? JSONObject() {
            guard let value = member.value.int64Value.flatMap({ Int(exactly: $0) }) else { continue }
            switch member.key {
            case "max_frame_size": limits.maxFrameSize = value
            case "max_message_size": limits.maxMessageSize = value
            case "max_fragments": limits.maxFragments = value
            case "max_decompressed_size": limits.maxDecompressedSize = value
            case "max_expansion_ratio": limits.maxExpansionRatio = value
            default: throw IMWireError(.fixtureFormat, "unknown limit \(member.key)")
            }
        }
        if options["role"]?.stringValue == "client" {
            throw IMWireError(.fixtureFormat, "only role server is implemented")
        }
        var decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate, limits: limits))
        let events = WebSocketFixtures.decode(bytes, chunks: nil, into: &decoder)
        let findings = events.compactMap { if case .finding(let f) = $0 { f } else { nil } }
        let (messages, closeCode) = WebSocketFixtures.summary(events)
        let frames = JSONValue.array(
            WebSocketFixtures.acceptedFrames(bytes, deflate: deflate, limits: limits).map(WebSocketFixtures.json))
        var value = JSONObject()
        value.append("messages", messages)
        value.append("close_code", closeCode.map { .number(JSONNumber($0)) } ?? .null)
        value.append("frames", frames)
        return (.object(value), findings)
    }
}
