import IMWireCore
import IMWireWebSocket

/// WebSocket fixture layers (`Fixtures/websocket/`): `frame` and `message` (the client's and the
/// server's bytes of one connection after the handshake; the verdict is about the client's) and
/// `handshake` (the upgrade request and response as text).
enum WebSocketFixtures {
    /// Decodes the client's bytes (with the fixture's chunking, and again one byte at a time:
    /// both must give the same events), compares the findings, the messages and control frames
    /// before the first failure, and the close code; decodes the server's bytes, which must be
    /// clean and end with that close code; for a clean fixture, re-encodes every frame.
    static func verifyStream(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let input = fixture.object["input"]?.objectValue,
            let clientHex = input["client_hex"]?.stringValue, let serverHex = input["server_hex"]?.stringValue
        else { throw IMWireError(.fixtureFormat, "input needs client_hex and server_hex", path: fixture.path) }
        let client: [UInt8]
        let server: [UInt8]
        do {
            client = try Hex.decode(clientHex)
            server = try Hex.decode(serverHex)
        } catch {
            throw IMWireError(.fixtureFormat, "\(error)", path: fixture.path)
        }
        var deflate: PerMessageDeflateParameters?
        if let header = input["permessage_deflate"]?.stringValue {
            guard let parsed = PerMessageDeflateParameters(responseHeader: header) else {
                throw IMWireError(
                    .fixtureFormat, "permessage_deflate `\(header)` is not a valid response", path: fixture.path)
            }
            deflate = parsed
        }
        var limits = Limits.default
        if let given = input["limits"]?.objectValue {
            for member in given {
                guard let value = member.value.int64Value.flatMap({ Int(exactly: $0) }) else { continue }
                switch member.key {
                case "max_frame_size": limits.maxFrameSize = value
                case "max_message_size": limits.maxMessageSize = value
                case "max_fragments": limits.maxFragments = value
                case "max_decompressed_size": limits.maxDecompressedSize = value
                case "max_expansion_ratio": limits.maxExpansionRatio = value
                default: throw IMWireError(.fixtureFormat, "unknown limit \(member.key)", path: fixture.path)
                }
            }
        }
        let chunks = chunkSizes(input["chunking"], count: client.count)

        let configuration = WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate, limits: limits)
        var decoder = WebSocketStreamDecoder(configuration)
        let events = decode(client, chunks: chunks, into: &decoder)
        var octets = WebSocketStreamDecoder(configuration)
        var problems: [String] = []
        if decode(client, chunks: [1], into: &octets) != events {
            problems.append("one-byte chunks give different events than the fixture's chunking")
        }
        problems += FixtureVerifier.compare(
            events.compactMap { if case .finding(let f) = $0 { f } else { nil } }, fixture.expected)

        let (actual, closeCode) = summary(events)
        let expectedMessages = fixture.decoded?["messages"] ?? .array([])
        if !actual.semanticallyEquals(expectedMessages) {
            problems.append("decoded \(clip(actual.description)), expected \(clip(expectedMessages.description))")
        }
        let frames = JSONValue.array(acceptedFrames(client, deflate: deflate, limits: limits).map(json))
        if let expectedFrames = fixture.decoded?["frames"] {
            if !frames.semanticallyEquals(expectedFrames) {
                problems.append(
                    "accepted frames \(clip(frames.description)), expected \(clip(expectedFrames.description))")
            }
        } else {
            problems.append("decoded.frames is missing")
        }
        let expectedCode = fixture.decoded?["close_code"]?.int64Value
        if closeCode.map(Int64.init) != expectedCode {
            problems.append(
                """
                close code \(closeCode.map(String.init) ?? "none"), \
                expected \(expectedCode.map(String.init) ?? "none")
                """)
        }

        // The server's answer: clean, and closing with the failure code when there is one.
        var serverDecoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .receive, permessageDeflate: deflate, limits: .default))
        let serverEvents = decode(server, chunks: nil, into: &serverDecoder)
        let serverFindings = serverEvents.compactMap {
            if case .finding(let f) = $0, f.severity >= .warning { f } else { nil }
        }
        if !serverFindings.isEmpty { problems.append("server bytes: \(serverFindings.map(\.description))") }
        if let expectedCode {
            let lastClose = serverEvents.compactMap { if case .close(let c) = $0 { c } else { nil } }.last
            if lastClose?.code?.rawValue != UInt16(truncatingIfNeeded: expectedCode) {
                problems.append(
                    """
                    server closes with \(lastClose?.code.map { String($0.rawValue) } ?? "nothing"), \
                    expected \(expectedCode)
                    """)
            }
        }

        if fixture.expected.isEmpty {
            var encoded: [UInt8] = []
            for case .frame(let frame) in events {
                WebSocketFrameEncoder.encode(frame.header, payload: frame.payload, into: &encoded)
            }
            if encoded != client { problems.append("the decoded frames do not re-encode to the input") }
        }
        return problems
    }

    /// The frames a conforming peer accepts (`decoded.frames`): each frame the frame decoder
    /// completes and the assembler takes without a connection-failing finding, up to the first
    /// such finding (a header the decoder refuses never becomes a frame) or the close frame. The
    /// same loop as `WebSocketStreamDecoder.feed`, with the frame each assembler finding belongs
    /// to known. Tests/CrossCheck/websocket.py compares the same lists with wsproto's and websockets'.
    static func acceptedFrames(_ bytes: [UInt8], deflate: PerMessageDeflateParameters?, limits: Limits)
        -> [WebSocketFrame]
    {
        var decoder = WebSocketFrameDecoder(direction: .send, limits: limits, rsv1Negotiated: deflate != nil)
        var assembler = WebSocketMessageAssembler(direction: .send, limits: limits, deflate: deflate)
        var accepted: [WebSocketFrame] = []
        func fails(_ event: WebSocketEvent) -> Bool {
            guard case .finding(let finding) = event else { return false }
            return finding.severity == .error && WebSocketRules.closeCode(for: finding.ruleID) != nil
        }
        for output in decoder.feed(bytes) {
            switch output {
            case .finding(let finding):
                if fails(.finding(finding)) { return accepted }
            case .frame(let frame):
                var failed = false
                assembler.consume(frame) { event in failed = failed || fails(event) }
                if failed { return accepted }
                accepted.append(frame)
                if frame.opcode == .close { return accepted }
            }
        }
        return accepted
    }

    /// A frame as the fixtures spell it.
    static func json(_ frame: WebSocketFrame) -> JSONValue {
        let header = frame.header
        let rsv = (header.rsv1 ? 4 : 0) | (header.rsv2 ? 2 : 0) | (header.rsv3 ? 1 : 0)
        return [
            "opcode": .number(JSONNumber(Int(header.opcode.rawValue))), "fin": .bool(header.fin),
            "rsv": .number(JSONNumber(rsv)),
            "payload_hex": .string(Hex.encode(frame.payload)),
        ]
    }

    static func clip(_ text: String) -> String { text.count > 300 ? String(text.prefix(300)) + "…" : text }

    /// Feeds `bytes` in `chunks` (cycled; nil: all at once) and ends the stream.
    static func decode(_ bytes: [UInt8], chunks: [Int]?, into decoder: inout WebSocketStreamDecoder) -> [WebSocketEvent]
    {
        var events: [WebSocketEvent] = []
        guard let chunks, !chunks.isEmpty else {
            events = decoder.feed(bytes)
            events += decoder.finish()
            return events
        }
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, chunks[index % chunks.count]))
            events += decoder.feed(Array(bytes[start..<end]))
            start = end
            index += 1
        }
        events += decoder.finish()
        return events
    }

    /// `chunking`: absent or "whole", "octets", "frames" (treated as whole: frame boundaries are
    /// not chunk boundaries that matter to a streaming decoder), or a list of sizes.
    static func chunkSizes(_ value: JSONValue?, count: Int) -> [Int]? {
        switch value {
        case .string("octets"): return [1]
        case .array(let sizes): return sizes.compactMap { $0.int64Value.flatMap { Int(exactly: $0) } }
        default: return nil
        }
    }

    /// Data messages and control frames up to the first failure, as the fixture spells them,
    /// and the close code of that failure.
    static func summary(_ events: [WebSocketEvent]) -> (JSONValue, Int?) {
        var items: [JSONValue] = []
        var closed = false
        for event in events {
            // After the close frame a peer processes nothing more of this direction.
            if closed, case .finding = event {} else if closed { continue }
            switch event {
            case .finding(let finding):
                if finding.severity == .error, let code = WebSocketRules.closeCode(for: finding.ruleID) {
                    return (.array(items), Int(code.rawValue))
                }
            case .message(let message):
                items.append([
                    "type": .string(message.kind.rawValue), "payload_hex": .string(Hex.encode(message.payload)),
                ])
            case .frame(let frame) where frame.opcode == .ping || frame.opcode == .pong:
                items.append(["type": .string(frame.opcode.name), "payload_hex": .string(Hex.encode(frame.payload))])
            case .close(let close):
                if let code = close.code {
                    items.append([
                        "type": "close", "code": .number(JSONNumber(Int(code.rawValue))),
                        "reason_hex": .string(Hex.encode(close.reason)),
                    ])
                } else {
                    items.append(["type": "close"])
                }
                closed = true
            default:
                break
            }
        }
        return (.array(items), nil)
    }

    /// The request (client bytes) and response (server bytes); the findings of the `tested`
    /// side must be exactly the expected ones, the other side clean; `decoded` holds
    /// `upgraded`, `subprotocol` and `permessage_deflate` (the response header value in force).
    static func verifyHandshake(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let input = fixture.object["input"]?.objectValue, let request = input["request"]?.stringValue,
            let tested = input["tested"]?.stringValue
        else { throw IMWireError(.fixtureFormat, "input needs request and tested", path: fixture.path) }
        let response = input["response"]?.stringValue
        let result = WebSocketHandshake.parse(request: Array(request.utf8), response: response.map { Array($0.utf8) })
        let (checked, other) =
            tested == "request"
            ? (result.requestFindings, result.responseFindings) : (result.responseFindings, result.requestFindings)
        var problems = FixtureVerifier.compare(checked, fixture.expected)
        let otherProblems = other.filter { $0.severity >= .warning }
        if !otherProblems.isEmpty {
            problems.append("the \(tested == "request" ? "response" : "request") is not clean: \(otherProblems)")
        }
        let actual: JSONValue = [
            "upgraded": .bool(result.isUpgraded),
            "subprotocol": result.subprotocol.map(JSONValue.string) ?? .null,
            "permessage_deflate": result.permessageDeflate.map { .string($0.headerValue) } ?? .null,
            "server_accepts": .bool(result.serverAcceptsRequest),
        ]
        if let expected = fixture.decoded, !actual.semanticallyEquals(expected) {
            problems.append("decoded \(actual), expected \(expected)")
        }
        return problems
    }
}
