import IMWireCapture
import IMWireCore
import IMWireWebSocket

/// Turns the two transport byte streams of one connection (TCP from a pcap, `stream` lines of a
/// transcript) into what the dialect sessions read. A connection whose client starts with an
/// HTTP `GET` is a WebSocket: both handshake heads are parsed and checked, then each direction
/// goes through its own streaming WebSocket decoder (permessage-deflate as negotiated), and the
/// messages come out whole. Anything else is the dialect's own framing on raw TCP (MQTT) and
/// passes through as it comes.
struct TransportReader {
    enum Output {
        /// The WebSocket handshake finished: what it negotiated, and its findings. Boxed, as
        /// `finding` is: both are rare, and unboxed they set the size every message is copied at.
        indirect case handshake(subprotocol: String?, url: String?, upgraded: Bool, findings: [Finding])
        /// One application message (WebSocket) or one chunk of a raw stream.
        case message(WireMessage)
        case close(Direction, code: Int?)
        /// A WebSocket ping frame (a LeanCloud client's heartbeat).
        case ping(Direction)
        indirect case finding(Finding)
    }

    private enum Mode {
        case undecided
        case raw
        /// Waiting for both HTTP heads; frame bytes that arrive early wait with them.
        case handshake(request: [UInt8], response: [UInt8])
        /// Boxed: the two decoders are large, and every open connection in another state (raw,
        /// ignored, still deciding) would otherwise carry their room inline.
        case webSocket(WebSocketDecoders)
        /// The upgrade failed (or the bytes are not what they should be): the rest is counted, not read.
        case ignored
    }

    /// A class, so each direction's decoder is changed in place: an `indirect` case had to be
    /// copied out and boxed again for every chunk of bytes. Only its connection's checker
    /// touches it, so the runtime's exclusivity checks (in perf) are left out.
    private final class WebSocketDecoders {
        @exclusivity(unchecked) var client: WebSocketStreamDecoder
        @exclusivity(unchecked) var server: WebSocketStreamDecoder
        init(client: WebSocketStreamDecoder, server: WebSocketStreamDecoder) {
            self.client = client
            self.server = server
        }
    }

    private var mode = Mode.undecided
    private let limits: Limits
    private var host: String?
    /// What the last `feed` produced, kept to reuse its storage: the caller has let go of the
    /// returned array by the next feed, so clearing it keeps the buffer instead of allocating
    /// one per packet.
    private var outputs: [Output] = []

    init(limits: Limits) {
        self.limits = limits
    }

    /// True once the bytes are no longer read (a failed upgrade, an unusable head).
    var isIgnoring: Bool {
        if case .ignored = mode { return true }
        return false
    }

    var isWebSocket: Bool {
        switch mode {
        case .handshake, .webSocket: true
        default: false
        }
    }

    mutating func feed(_ bytes: [UInt8], direction: Direction) -> [Output] {
        if case .undecided = mode {
            mode = direction == .send && bytes.starts(with: Array("GET ".utf8)) ? .handshake(request: [], response: []) : .raw
        }
        switch mode {
        case .undecided, .raw:
            let frameType: WireMessage.FrameType = .binary
            return [.message(WireMessage(direction: direction, frameType: frameType, payload: bytes))]
        case .handshake(var request, var response):
            mode = .ignored  // released while the buffers grow, so they are not copied
            if direction == .send { request += bytes } else { response += bytes }
            return handshake(request: request, response: response)
        case .webSocket(let decoders):
            // Emptied from the end: `removeAll(keepingCapacity:)` went through the generic
            // replaceSubrange (1% of a capture check), for a list of one message or two.
            while outputs.popLast() != nil {}
            if direction == .send {
                decoders.client.feed(bytes) { if let output = Self.output($0, .send) { outputs.append(output) } }
            } else {
                decoders.server.feed(bytes) { if let output = Self.output($0, .receive) { outputs.append(output) } }
            }
            return outputs
        case .ignored:
            return []
        }
    }

    /// Parses the heads once both are complete, then decodes what followed them.
    private mutating func handshake(request: [UInt8], response: [UInt8]) -> [Output] {
        let requestEnd = HTTPHead.endOfHead(request)
        let responseEnd = HTTPHead.endOfHead(response)
        let tooLong = request.count > WebSocketHandshake.maxHeadLength + limits.maxMessageSize
            || response.count > WebSocketHandshake.maxHeadLength + limits.maxMessageSize
        guard let requestEnd, let responseEnd, !tooLong else {
            if tooLong || (requestEnd == nil && request.count > WebSocketHandshake.maxHeadLength)
                || (responseEnd == nil && response.count > WebSocketHandshake.maxHeadLength) {
                let finding = WebSocketRules.handshakeTruncated.finding(
                    "no complete HTTP head within \(WebSocketHandshake.maxHeadLength) bytes; the connection is not decoded", at: 0)
                return [.finding(finding)]  // stays .ignored
            }
            mode = .handshake(request: request, response: response)
            return []
        }
        let shake = WebSocketHandshake.parse(request: Array(request[..<requestEnd]), response: Array(response[..<responseEnd]))
        let url = shake.request.map { request in
            (request.head.value("Host").map { "//\($0)" } ?? "") + request.target
        }
        var outputs: [Output] = [.handshake(subprotocol: shake.subprotocol, url: url, upgraded: shake.isUpgraded, findings: shake.findings)]
        guard shake.isUpgraded else { return outputs }
        var client = WebSocketStreamDecoder(shake.streamConfiguration(.send, limits: limits).withoutFrames, startOffset: requestEnd)
        var server = WebSocketStreamDecoder(shake.streamConfiguration(.receive, limits: limits).withoutFrames, startOffset: responseEnd)
        client.feed(Array(request[requestEnd...])) { if let output = Self.output($0, .send) { outputs.append(output) } }
        server.feed(Array(response[responseEnd...])) { if let output = Self.output($0, .receive) { outputs.append(output) } }
        mode = .webSocket(WebSocketDecoders(client: client, server: server))
        return outputs
    }

    private static func output(_ event: WebSocketEvent, _ direction: Direction) -> Output? {
        switch event {
        case .message(let message):
            let type: WireMessage.FrameType = message.kind == .text ? .text : .binary
            return .message(WireMessage(direction: direction, frameType: type, payload: message.payload))
        case .close(let close):
            return .close(direction, code: close.code.map { Int($0.rawValue) })
        case .finding(let finding):
            return .finding(finding)
        case .frame(let frame):
            // Only control frames arrive here (`withoutFrames`); pongs answer and tell nothing new.
            return frame.opcode == .ping ? .ping(direction) : nil
        }
    }

    /// Bytes held for an upgrade that has not completed (both heads are needed to decode them).
    var pendingHandshakeBytes: Int {
        guard case .handshake(let request, let response) = mode else { return 0 }
        return request.count + response.count
    }

    /// The connection ended: an upgrade cut short, or frames cut short in either direction.
    mutating func finish() -> [Output] {
        if case .handshake(let request, let response) = mode {
            mode = .ignored
            return [.finding(Self.unfinishedHandshake(request: request, response: response))]
        }
        guard case .webSocket(let decoders) = mode else { return [] }
        mode = .ignored
        var outputs: [Output] = []
        decoders.client.finish { if let output = Self.output($0, .send) { outputs.append(output) } }
        decoders.server.finish { if let output = Self.output($0, .receive) { outputs.append(output) } }
        return outputs
    }
}

extension TransportReader {
    /// The connection ended before both HTTP heads of its upgrade were complete: nothing after
    /// them can be decoded. The offset is where the head that is cut short ends.
    static func unfinishedHandshake(request: [UInt8], response: [UInt8]) -> Finding {
        var finding: Finding
        if HTTPHead.endOfHead(request) == nil {
            finding = WebSocketRules.handshakeTruncated.finding(
                "the connection ended inside the upgrade request (\(request.count) bytes, no blank line); the connection is not decoded",
                at: request.count)
            finding.location.direction = .send
        } else {
            let what = response.isEmpty ? "before the upgrade response" : "inside the upgrade response (\(response.count) bytes, no blank line)"
            finding = WebSocketRules.handshakeTruncated.finding("the connection ended \(what); the connection is not decoded",
                                                                at: response.count)
            finding.location.direction = .receive
        }
        return finding
    }
}

extension WebSocketStreamConfiguration {
    /// The checker reads messages, closes, pings and findings; data frames only matter to the decoder.
    var withoutFrames: WebSocketStreamConfiguration {
        var copy = self
        copy.emitsFrames = false
        return copy
    }
}
