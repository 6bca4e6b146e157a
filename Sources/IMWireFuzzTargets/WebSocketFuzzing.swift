import IMWireCore
import IMWireWebSocket

enum WebSocketFuzzing {
    /// Direction from variant bit 0; permessage-deflate from extra bits 0-1 (none, defaults,
    /// no context takeover, or the window bits of extra bits 2-3: 8, 9, 12, 15).
    static func configuration(_ input: FuzzInput) -> WebSocketStreamConfiguration {
        let direction: Direction = input.variant & 1 == 0 ? .send : .receive
        var deflate: PerMessageDeflateParameters?
        switch input.extra & 3 {
        case 0: deflate = nil
        case 1: deflate = PerMessageDeflateParameters()
        case 2: deflate = PerMessageDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true)
        default:
            let bits = [8, 9, 12, 15][input.extra >> 2 & 3]
            deflate = PerMessageDeflateParameters(serverMaxWindowBits: bits, clientMaxWindowBits: bits)
        }
        return WebSocketStreamConfiguration(direction: direction, permessageDeflate: deflate, limits: input.limits)
    }

    /// One direction's bytes through the streaming decoder: any chunking gives the same events;
    /// frames, messages and fragments stay within the limits; every frame re-encodes to its own
    /// bytes (or, when its length was not minimal, to bytes that decode to the same frame); the
    /// messages and the close, encoded again (compressed where they were), decode to the same.
    static func stream(_ input: FuzzInput) -> [String] {
        let configuration = configuration(input)
        var whole = WebSocketStreamDecoder(configuration)
        let events = whole.feed(input.payload) + whole.finish()
        var pieces = WebSocketStreamDecoder(configuration)
        var chunked: [WebSocketEvent] = []
        for chunk in input.chunks { chunk.withUnsafeBytes { raw in pieces.feed(raw) { chunked.append($0) } } }
        chunked += pieces.finish()
        var violations: [String] = []
        if events != chunked { violations.append("a second chunking gives other events") }
        if whole.failure != pieces.failure || whole.frameCount != pieces.frameCount || whole.offset != pieces.offset {
            violations.append("a second chunking ends in another state")
        }
        if whole.offset != input.payload.count {
            violations.append("offset \(whole.offset) after \(input.payload.count) bytes")
        }
        violations += withinLimits(events, configuration.limits)
        violations += framesReencode(events, input.payload)
        violations += messagesReencode(events, configuration)
        return violations
    }

    static func withinLimits(_ events: [WebSocketEvent], _ limits: Limits) -> [String] {
        var violations: [String] = []
        for event in events {
            switch event {
            case .frame(let frame) where frame.payload.count > limits.maxFrameSize:
                violations.append("frame of \(frame.payload.count) bytes passes maxFrameSize")
            case .message(let message):
                let cap =
                    message.wasCompressed
                    ? min(limits.maxMessageSize, limits.maxDecompressedSize) : limits.maxMessageSize
                if message.payload.count > cap {
                    violations.append("message of \(message.payload.count) bytes passes its cap \(cap)")
                }
                if message.frameCount > limits.maxFragments {
                    violations.append("message of \(message.frameCount) fragments")
                }
            case .finding(let finding) where finding.offset == nil:
                violations.append("finding without an offset: \(finding)")
            default:
                break
            }
        }
        return violations
    }

    private static func framesReencode(_ events: [WebSocketEvent], _ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        for case .frame(let frame) in events {
            let header = frame.header
            let encoded = WebSocketFrameEncoder.frame(header, payload: frame.payload)
            let count = frame.payload.count
            let minimal = 2 + (count < 126 ? 0 : (count <= 0xffff ? 2 : 8)) + (header.maskingKey == nil ? 0 : 4)
            let end = frame.offset + header.headerLength + count
            guard frame.offset >= 0, end <= bytes.count, header.payloadLength == count else {
                violations.append("frame at \(frame.offset) does not lie within the input")
                continue
            }
            if header.headerLength == minimal {
                if encoded[...] != bytes[frame.offset..<end] {
                    violations.append("frame at \(frame.offset) re-encodes to other bytes")
                }
                continue
            }
            var decoder = WebSocketFrameDecoder(direction: .send, limits: .default, rsv1Negotiated: true)
            let again = decoder.feed(encoded).compactMap { output -> WebSocketFrame? in
                if case .frame(let frame) = output { return frame }
                return nil
            }
            var expected = header
            expected.headerLength = minimal
            if again.count != 1 || again.first?.header != expected || again.first?.payload != frame.payload {
                violations.append(
                    "frame at \(frame.offset) with a non-minimal length does not re-encode to the same frame")
            }
        }
        return violations
    }

    /// A message or close, without where it was.
    private enum Unit: Equatable {
        case message(WebSocketMessage.Kind, [UInt8], compressed: Bool)
        case close(CloseCode?, [UInt8])
    }

    private static func units(_ events: [WebSocketEvent]) -> [Unit] {
        events.compactMap { event in
            switch event {
            case .message(let message): .message(message.kind, message.payload, compressed: message.wasCompressed)
            case .close(let close): .close(close.code, close.code == nil ? [] : close.reason)
            default: nil
            }
        }
    }

    private static func messagesReencode(_ events: [WebSocketEvent], _ configuration: WebSocketStreamConfiguration)
        -> [String]
    {
        let expected = units(events)
        guard !expected.isEmpty else { return [] }
        var key: UInt32 = 0x1234_5678
        let encoder: WebSocketMessageEncoder
        do {
            encoder = try WebSocketMessageEncoder(
                direction: configuration.direction, permessageDeflate: configuration.permessageDeflate,
                fragmentSize: configuration.limits.maxFrameSize,
                maskingKey: {
                    key = key &* 1_103_515_245 &+ 12_345
                    return key
                })
        } catch {
            return ["no encoder for \(configuration.permessageDeflate.map(\.description) ?? "no deflate"): \(error)"]
        }
        var bytes: [UInt8] = []
        for unit in expected {
            switch unit {
            case .message(let kind, let payload, let compressed):
                do { try encoder.encodeMessage(kind, payload, compress: compressed, into: &bytes) } catch {
                    return ["a decoded message does not compress: \(error)"]
                }
            case .close(let code, let reason):
                // Written directly: the encoder's control() cuts payloads to 125 bytes, and a decoded
                // close may be longer (reported, still read).
                let mask: UInt32? = configuration.direction == .send ? 0x0bad_cafe : nil
                WebSocketFrameEncoder.encode(
                    WebSocketFrameHeader(opcode: .close, maskingKey: mask),
                    payload: WebSocketClose(code: code, reason: reason).payload, into: &bytes)
            }
        }
        var limits = Limits.default
        limits.maxExpansionRatio = .max
        var decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(
                direction: configuration.direction, permessageDeflate: configuration.permessageDeflate, limits: limits,
                emitsFrames: false))
        let again = decoder.feed(bytes) + decoder.finish()
        return units(again) == expected ? [] : ["messages and close encoded again decode to something else"]
    }

    /// The opening handshake: the request is the input up to its blank line, the response the
    /// rest (none with variant bit 0). Parsing is deterministic; findings lie within their head;
    /// the parsed request written out again parses to the same request; negotiated
    /// permessage-deflate parameters survive their own header value.
    static func handshake(_ input: FuzzInput) -> [String] {
        let (request, response) = split(input)
        let first = WebSocketHandshake.parse(request: request, response: response)
        let second = WebSocketHandshake.parse(request: request, response: response)
        var violations: [String] = []
        if !sameFindings(first.findings, second.findings) || first.isUpgraded != second.isUpgraded
            || first.subprotocol != second.subprotocol || first.permessageDeflate != second.permessageDeflate
        {
            violations.append("the handshake parses differently twice")
        }
        for finding in first.requestFindings where !(0...request.count).contains(finding.offset ?? -1) {
            violations.append("request finding outside the request: \(finding)")
        }
        for finding in first.responseFindings where !(0...(response?.count ?? 0)).contains(finding.offset ?? -1) {
            violations.append("response finding outside the response: \(finding)")
        }
        if let deflate = first.permessageDeflate {
            if !(8...15).contains(deflate.clientMaxWindowBits) || !(8...15).contains(deflate.serverMaxWindowBits) {
                violations.append("negotiated window bits outside 8...15: \(deflate)")
            }
            if PerMessageDeflateParameters(responseHeader: deflate.headerValue) != deflate {
                violations.append("`\(deflate.headerValue)` does not parse back to itself")
            }
        }
        if first.isUpgraded, first.request == nil || first.response?.status != 101 {
            violations.append("upgraded without a request and a 101")
        }
        if let parsed = first.request, write(parsed.head).count <= WebSocketHandshake.maxHeadLength {
            var findings: [Finding] = []
            let again = WebSocketHandshake.parseRequest(write(parsed.head), findings: &findings)
            if again.map(summary) != summary(parsed) {
                violations.append("the request written out again parses to another request")
            }
            for field in parsed.head.fields("Sec-WebSocket-Extensions") {
                guard case .success(let items) = WebSocketExtensionHeader.parse(field.value) else { continue }
                let text = items.map(\.headerText).joined(separator: ", ")
                guard case .success(let back) = WebSocketExtensionHeader.parse(text),
                    back.map(\.headerText) == items.map(\.headerText)
                else {
                    violations.append("extension list `\(field.value)` does not survive `\(text)`")
                    continue
                }
            }
        }
        return violations
    }

    static func split(_ input: FuzzInput) -> (request: [UInt8], response: [UInt8]?) {
        let bytes = input.payload
        let end = HTTPHead.endOfHead(bytes) ?? bytes.count
        let request = Array(bytes[..<end])
        return (request, input.variant & 1 == 1 ? nil : Array(bytes[end...]))
    }

    /// A head as CRLF lines; values are trimmed already, so they go back after one space.
    private static func write(_ head: HTTPHead) -> [UInt8] {
        var text = head.startLine.joined(separator: " ") + "\r\n"
        for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private static func summary(_ request: WebSocketUpgradeRequest) -> String {
        let extensions = request.extensions.map(\.headerText).joined(separator: ", ")
        return
            """
            \(request.method) \(request.target) key=\(request.key ?? "-") \
            protocols=\(request.protocols) extensions=\(extensions) offers=\(request.deflateOffers)
            """
    }
}

/// IMWire's side of the WebSocket differential target (the other side, swift-nio's
/// `WebSocketFrameDecoder`, lives in `Fuzz/Sources/FuzzWebSocketDifferential`, so the main
/// package does not depend on swift-nio). Both decode the same bytes in the same pieces; the
/// frames both produce must be the same, and where one stops earlier the reason must be one of
/// the allowed differences (`Fuzz/README.md`).
public enum WebSocketDifferential {
    /// A frame as both decoders see it.
    public struct Frame: Equatable, Sendable, CustomStringConvertible {
        public var firstByte: UInt8
        public var maskingKey: UInt32?
        public var payload: [UInt8]

        public init(firstByte: UInt8, maskingKey: UInt32?, payload: [UInt8]) {
            self.firstByte = firstByte
            self.maskingKey = maskingKey
            self.payload = payload
        }

        public var description: String {
            """
            frame 0x\(String(firstByte, radix: 16)) mask \
            \(maskingKey.map { String($0, radix: 16) } ?? "-") \(payload.count) bytes
            """
        }
    }

    /// Why swift-nio's decoder threw (`NIOWebSocketError`), or something else it threw.
    public enum Rejection: Sendable, Equatable {
        case invalidFrameLength
        case fragmentedControlFrame
        case multiByteControlFrameLength
        case other(String)
    }

    /// IMWire's frames, the rules each frame's header broke, and how decoding ended.
    public struct Outcome: Sendable {
        public var frames: [Frame] = []
        public var rules: [[RuleID]] = []
        /// Rules reported after the last frame (for a frame still incomplete or refused).
        public var pendingRules: [RuleID] = []
        /// The decoder stopped on a length it cannot trust.
        public var failed = false
        /// Bytes of a frame (header or payload) still waiting at the end of the input.
        public var incomplete = false
        /// The bytes after the last frame are fewer than the next frame's header.
        public var headerIncomplete = false
    }

    /// The frame size limit both decoders get: from the option byte.
    public static func maxFrameSize(_ input: FuzzInput) -> Int { input.limits.maxFrameSize }

    /// The pieces both decoders are fed: the whole payload at once, or (extra bit 0) the
    /// 1-to-17-byte chunks, which cost swift-nio a trip through its pipeline each (chunking
    /// alone is the `WebSocket` target's business).
    public static func pieces(_ input: FuzzInput) -> [ArraySlice<UInt8>] {
        input.extra & 1 == 0 ? [input.payload[...]] : input.chunks
    }

    public static func imwire(_ input: FuzzInput) -> Outcome {
        var decoder = WebSocketFrameDecoder(
            direction: input.variant & 1 == 0 ? .send : .receive, limits: input.limits,
            rsv1Negotiated: input.variant & 2 != 0)
        var outcome = Outcome()
        var end = 0
        for chunk in pieces(input) {
            chunk.withUnsafeBytes { raw in
                decoder.feed(raw) { output in
                    switch output {
                    case .frame(let frame):
                        end = frame.payloadOffset + frame.payload.count
                        outcome.frames.append(
                            Frame(
                                firstByte: frame.header.firstByte, maskingKey: frame.header.maskingKey,
                                payload: frame.payload))
                        outcome.rules.append(outcome.pendingRules)
                        outcome.pendingRules = []
                    case .finding(let finding):
                        outcome.pendingRules.append(finding.ruleID)
                    }
                }
            }
        }
        outcome.failed = decoder.isFailed
        let tail = input.payload[end...]
        if tail.count >= 2 {
            let second = tail[tail.startIndex + 1]
            let extended = second & 0x7f == 126 ? 2 : (second & 0x7f == 127 ? 8 : 0)
            outcome.headerIncomplete = tail.count < 2 + extended + (second & 0x80 != 0 ? 4 : 0)
        } else {
            outcome.headerIncomplete = !tail.isEmpty
        }
        decoder.finish { output in
            if case .finding(let finding) = output, finding.ruleID == WebSocketRules.truncatedFrame.id {
                outcome.incomplete = true
            }
        }
        return outcome
    }

    /// The differences between IMWire's outcome and swift-nio's frames (and its error, if it threw).
    public static func compare(_ ours: Outcome, nio theirs: [Frame], rejection: Rejection?) -> [String] {
        let common = min(ours.frames.count, theirs.count)
        for index in 0..<common where ours.frames[index] != theirs[index] {
            return ["frame \(index): IMWire \(ours.frames[index]), swift-nio \(theirs[index])"]
        }
        if theirs.count > ours.frames.count {
            return ["swift-nio decodes \(theirs.count) frames, IMWire \(ours.frames.count) (failed: \(ours.failed))"]
        }
        guard let rejection else {
            if ours.failed { return ["IMWire stops on a frame length that swift-nio does not refuse"] }
            return ours.frames.count == theirs.count
                ? [] : ["IMWire decodes \(ours.frames.count) frames, swift-nio \(theirs.count) without an error"]
        }
        if case .other(let error) = rejection { return ["swift-nio threw \(error)"] }
        let expected: RuleID =
            switch rejection {
            case .fragmentedControlFrame: WebSocketRules.controlFrameFragmented.id
            case .multiByteControlFrameLength: WebSocketRules.controlFrameTooLong.id
            default: WebSocketRules.frameTooLarge.id
            }
        guard ours.frames.count > theirs.count else {
            // Both stop at the same frame: IMWire refused its length too, has not got its whole
            // header yet (it reads the masking key before it checks; swift-nio checks after the
            // length), or waits for the payload of a frame it reported.
            if ours.failed, rejection == .invalidFrameLength { return [] }
            if !ours.failed, ours.headerIncomplete { return [] }
            if !ours.failed, ours.incomplete, ours.pendingRules.contains(expected) { return [] }
            return [
                """
                swift-nio refuses frame \(theirs.count) (\(rejection)); IMWire failed: \(ours.failed), \
                incomplete: \(ours.incomplete), reports \(ours.pendingRules.map(\.rawValue))
                """
            ]
        }
        // IMWire went on past the frame swift-nio refused: it must have reported why.
        let rules = ours.rules[theirs.count]
        return rules.contains(expected)
            ? []
            : [
                """
                swift-nio refuses frame \(theirs.count) (\(rejection)); \
                IMWire decodes it, reporting \(rules.map(\.rawValue))
                """
            ]
    }

    /// What `swift test` can check of the target without swift-nio: IMWire's side is deterministic.
    static func replay(_ input: FuzzInput) -> [String] {
        let first = imwire(input)
        let second = imwire(input)
        return first.frames == second.frames && first.rules == second.rules && first.failed == second.failed
            ? [] : ["IMWire decodes the same pieces differently twice"]
    }
}
