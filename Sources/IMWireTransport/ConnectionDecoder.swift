import IMWireCore
import IMWireSocketIO
import IMWireWebSocket

/// The transport layer of one TCP connection: its two byte streams in, what they hold out
/// (`TransportEvent`s), with findings and an account of every byte. What the connection is comes
/// from the client's first bytes:
/// - an HTTP request line: HTTP/1.1, requests and responses in order (keep-alive, pipelining,
///   Content-Length, chunked); socket.io's handshakes and long-polls are read (`SocketIOPolling`),
///   and a request with `Upgrade` is a WebSocket upgrade, checked as one, after which each
///   direction goes through its own WebSocket decoder (permessage-deflate as negotiated);
/// - an MQTT CONNECT: each direction cut into MQTT packets;
/// - anything else (or a server that speaks first): chunks passed on as they come.
///
/// One owner at a time feeds it (a checker's lane, a proxy's connection); a class so the
/// decoders change in place.
package final class ConnectionDecoder {
    /// What the connection's first bytes showed it to be.
    package enum Kind: Sendable, Hashable {
        case undecided
        case http
        case webSocket
        case mqtt
        case raw
        /// An upgrade that failed: the rest is counted, not read.
        case ignored
    }

    package let limits: Limits
    @exclusivity(unchecked) package private(set) var kind = Kind.undecided
    /// The framing the connection's bytes revealed (MQTT on raw TCP; socket.io from a
    /// WebSocket URL), when there is one.
    @exclusivity(unchecked) package private(set) var framing: Framing?
    /// The socket.io session a WebSocket upgrade named in its URL (`sid=`): everything on the
    /// connection after the upgrade belongs to it.
    @exclusivity(unchecked) package private(set) var session: SessionKey?

    // Undecided: the client's first bytes (and any server bytes that came before them).
    @exclusivity(unchecked) private var heldClient: [UInt8] = []
    @exclusivity(unchecked) private var heldServer: [UInt8] = []
    // HTTP
    @exclusivity(unchecked) private var http: HTTPState?
    // WebSocket
    @exclusivity(unchecked) private var webSocket: WebSocketDecoders?
    // MQTT
    @exclusivity(unchecked) private var mqtt: (client: MQTTFramer, server: MQTTFramer)?
    // Accounting
    @exclusivity(unchecked) private var streamBytes = 0
    @exclusivity(unchecked) private var lost = 0
    @exclusivity(unchecked) private var afterGap = 0
    @exclusivity(unchecked) private var ignoredBytes = 0
    /// Directions whose stream lost bytes: the rest of them cannot be framed again. (Two flags,
    /// not a set: a set is hashed for every chunk of bytes.)
    @exclusivity(unchecked) private var clientBroken = false
    @exclusivity(unchecked) private var serverBroken = false
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var unfinishedUpgradeBytes = 0
    /// What the last `feed` produced, kept to reuse its storage: the caller has let go of the
    /// returned array by the next feed, so clearing it keeps the buffer instead of allocating
    /// one per packet.
    @exclusivity(unchecked) private var outputs: [TransportEvent] = []

    static let ignoredReason = "not a WebSocket connection, or its upgrade failed"
    static let afterGapReason = "after a gap in the stream"
    static let unfinishedUpgradeReason = "the connection ended inside its WebSocket upgrade"

    package init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Whether the connection is (or is becoming) a WebSocket.
    package var isWebSocket: Bool { kind == .webSocket || (http?.upgradeRequest != nil) }

    /// The next bytes of one direction: what they complete, handed to `handle` in order.
    package func feed(_ bytes: [UInt8], direction: Direction, _ handle: (TransportEvent) -> Void) {
        if kind == .webSocket, !isBroken(direction), let webSocket {
            // The usual case, straight through: no list of events in between.
            streamBytes += bytes.count
            webSocket.feed(bytes, direction: direction, handle)
            return
        }
        for event in feed(bytes, direction: direction) { handle(event) }
    }

    /// The next bytes of one direction: what they complete, in order.
    package func feed(_ bytes: [UInt8], direction: Direction) -> [TransportEvent] {
        streamBytes += bytes.count
        // Emptied from the end: `removeAll(keepingCapacity:)` goes through the generic
        // replaceSubrange, for a list of one message or two.
        while outputs.popLast() != nil {}
        guard !isBroken(direction) else {
            afterGap += bytes.count
            return []
        }
        switch kind {
        case .webSocket:
            webSocket?.feed(bytes, direction: direction, into: &outputs)
        case .mqtt:
            frameMQTT(bytes, direction: direction)
        case .raw:
            if !bytes.isEmpty {
                outputs.append(.message(WireMessage(direction: direction, frameType: .binary, payload: bytes)))
            }
        case .http:
            feedHTTP(bytes, direction: direction)
        case .ignored:
            ignoredBytes += bytes.count
        case .undecided:
            if direction == .send { heldClient += bytes } else { heldServer += bytes }
            decide(atEnd: false)
        }
        return outputs
    }

    /// Bytes of one direction the capture lost: the rest of that direction cannot be framed.
    package func gap(_ count: Int, direction: Direction) {
        lost += count
        if direction == .send { clientBroken = true } else { serverBroken = true }
    }

    /// Whether a gap broke `direction`.
    package func isBroken(_ direction: Direction) -> Bool { direction == .send ? clientBroken : serverBroken }

    /// The connection ended: what was held goes out, and units cut short are reported.
    package func finish() -> [TransportEvent] {
        while outputs.popLast() != nil {}
        guard !finished else { return [] }
        finished = true
        if kind == .undecided { decide(atEnd: true) }
        switch kind {
        case .http:
            finishHTTP()
        case .webSocket:
            webSocket?.finish(into: &outputs)
        case .mqtt:
            mqtt?.client.finish {
                outputs.append(.message(WireMessage(direction: .send, frameType: .binary, payload: $0)))
            }
            mqtt?.server.finish {
                outputs.append(.message(WireMessage(direction: .receive, frameType: .binary, payload: $0)))
            }
        default:
            break
        }
        return outputs
    }

    /// Every byte of the connection by fate; exact once `finish` has run.
    package var account: ByteAccount {
        var account = ByteAccount()
        account.lost = lost
        account.skip(afterGap, because: Self.afterGapReason)
        account.skip(ignoredBytes, because: Self.ignoredReason)
        account.skip(unfinishedUpgradeBytes, because: Self.unfinishedUpgradeReason)
        var skipped = afterGap + ignoredBytes + unfinishedUpgradeBytes
        if let http {
            for reader in [http.client, http.server] {
                for (reason, count) in reader.skipped {
                    account.skip(count, because: reason)
                    skipped += count
                }
            }
        }
        account.decoded = streamBytes - skipped
        return account
    }

    // MARK: Deciding what the connection is

    private func decide(atEnd: Bool) {
        guard !heldClient.isEmpty || atEnd || !heldServer.isEmpty else { return }
        if heldClient.isEmpty {
            // The server spoke first: neither HTTP nor MQTT.
            guard !heldServer.isEmpty else { return }
            becomeRaw()
            return
        }
        if let http = Self.looksLikeHTTPRequest(heldClient) {
            if http {
                kind = .http
                self.http = HTTPState(limits: limits)
                let (client, server) = (heldClient, heldServer)
                (heldClient, heldServer) = ([], [])
                feedHTTP(client, direction: .send)
                if !server.isEmpty { feedHTTP(server, direction: .receive) }
                return
            }
        } else if !atEnd {
            return
        }
        if let connect = MQTTFramer.isConnect(heldClient) {
            if connect {
                kind = .mqtt
                framing = .mqtt
                mqtt = (MQTTFramer(maxPacket: limits.maxMessageSize), MQTTFramer(maxPacket: limits.maxMessageSize))
                let (client, server) = (heldClient, heldServer)
                (heldClient, heldServer) = ([], [])
                frameMQTT(client, direction: .send)
                if !server.isEmpty { frameMQTT(server, direction: .receive) }
                return
            }
        } else if !atEnd, heldClient.count < 64 {
            return
        }
        becomeRaw()
    }

    private func becomeRaw() {
        kind = .raw
        let (client, server) = (heldClient, heldServer)
        (heldClient, heldServer) = ([], [])
        if !client.isEmpty {
            outputs.append(.message(WireMessage(direction: .send, frameType: .binary, payload: client)))
        }
        if !server.isEmpty {
            outputs.append(.message(WireMessage(direction: .receive, frameType: .binary, payload: server)))
        }
    }

    /// Whether `bytes` start with an HTTP request line (`METHOD SP target`): nil while too few
    /// have arrived to tell.
    static func looksLikeHTTPRequest(_ bytes: [UInt8]) -> Bool? {
        var index = 0
        while index < bytes.count, index < 16 {
            let byte = bytes[index]
            if byte == 0x20 { break }
            guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return false }
            index += 1
        }
        guard index < bytes.count else { return index < 16 ? nil : false }
        guard index > 0, bytes[index] == 0x20 else { return false }
        guard index + 1 < bytes.count else { return nil }
        let target = bytes[index + 1]
        return target == UInt8(ascii: "/") || target == UInt8(ascii: "*") || target == UInt8(ascii: "h")
    }

    // MARK: MQTT

    private func frameMQTT(_ bytes: [UInt8], direction: Direction) {
        guard mqtt != nil else { return }
        if direction == .send {
            mqtt?.client.feed(bytes) {
                outputs.append(.message(WireMessage(direction: .send, frameType: .binary, payload: $0)))
            }
        } else {
            mqtt?.server.feed(bytes) {
                outputs.append(.message(WireMessage(direction: .receive, frameType: .binary, payload: $0)))
            }
        }
    }

    // MARK: HTTP

    /// Both directions of an HTTP connection, and the requests waiting for their responses.
    private struct HTTPState {
        var client: HTTPReader
        var server: HTTPReader
        /// Requests read in full, in order, each waiting for its response (RFC 9112 §9.3).
        var waiting: [HTTPMessage] = []
        /// The methods of requests whose heads have been read and not answered, for the framing
        /// of their responses.
        var methods: [String?] = []
        /// The upgrade request waiting for its answer: its head and its stream offset.
        var upgradeRequest: (head: HTTPHead, offset: Int)?
        /// The head of its answer, once read.
        var upgradeResponse: (head: HTTPHead, offset: Int)?
        /// Stream offsets of the upgrade requests and of their responses: their exchanges carry no socket.io payloads.
        var upgradeOffsets: Set<Int> = []
        /// Interim (1xx) response heads read whose (empty) message is still to come.
        var interim = 0
        /// Wire bytes of the interim responses read since the last exchange: they go to the next one.
        var interimBytes = 0

        init(limits: Limits) {
            client = HTTPReader(limits: limits)
            server = HTTPReader(limits: limits)
        }
    }

    private func feedHTTP(_ bytes: [UInt8], direction: Direction) {
        guard var state = http else { return }
        http = nil  // released while it changes, so its buffers are not copied
        var read: [HTTPReader.Output] = []
        if direction == .send {
            state.client.feed(bytes, framing: HTTPBodyFraming.request, into: &read)
        } else {
            // Each response head answers the next request waiting (several can come in one feed).
            var methods = state.methods[...]
            // An interim response (100 Continue, 103 Early Hints) answers nothing: the final one follows.
            state.server.feed(
                bytes,
                framing: { head in
                    HTTPBodyFraming.response(
                        head, requestMethod: Self.isInterim(head) ? methods.first ?? nil : methods.popFirst() ?? nil)
                }, into: &read)
        }
        handle(read, direction: direction, state: &state)
        if let request = state.upgradeRequest, let response = state.upgradeResponse {
            completeUpgrade(request: request, response: response, state: &state)
        }
        if http == nil { http = state }
    }

    private func handle(_ read: [HTTPReader.Output], direction: Direction, state: inout HTTPState) {
        for output in read {
            switch output {
            case .head(let head, let offset, let framing):
                if direction == .send {
                    state.methods.append(head.startLine.first)
                    if framing == .awaitingUpgrade {
                        state.upgradeRequest = (head, offset)
                        state.upgradeOffsets.insert(offset)
                    }
                } else if Self.isInterim(head) {
                    state.interim += 1
                } else if state.methods.isEmpty {
                    var finding = HTTPRules.responseWithoutRequest.finding(
                        head.startLine.joined(separator: " "), at: offset)
                    finding.location.direction = .receive
                    outputs.append(.finding(finding, session: nil))
                } else {
                    // The answer to the upgrade request when nothing before it waits.
                    if state.upgradeRequest != nil, state.methods.count == 1 {
                        state.upgradeResponse = (head, offset)
                        state.upgradeOffsets.insert(offset)
                    }
                    state.methods.removeFirst()
                }
            case .message(let message):
                if direction == .send {
                    state.waiting.append(message)
                    requestRead(message, state: state)
                } else if state.interim > 0 {
                    state.interim -= 1
                    state.interimBytes += message.wireLength
                } else if !state.waiting.isEmpty {
                    exchange(state.waiting.removeFirst(), message, state: &state)
                }
            case .finding(let finding):
                var located = finding
                located.location.direction = direction
                outputs.append(.finding(located, session: nil))
            }
        }
    }

    /// A request was read in full: what its URL and body say goes out now, at its own packet (a
    /// long-poll's answer may come much later).
    private func requestRead(_ request: HTTPMessage, state: HTTPState) {
        guard !state.upgradeOffsets.contains(request.offset),
            let reading = SocketIOPolling.read(request, nil, limits: limits)
        else { return }
        emit(reading, .send)
    }

    /// A request and its response (nil at the end): the exchange, and what the response says.
    /// The interim responses read before `response` count in its exchange's bytes.
    private func exchange(_ request: HTTPMessage, _ response: HTTPMessage?, state: inout HTTPState) {
        let reading =
            state.upgradeOffsets.contains(request.offset)
            ? nil : SocketIOPolling.read(request, response, limits: limits)
        outputs.append(
            .exchange(
                HTTPExchange(
                    request: request, response: response, session: reading?.session, framing: reading?.framing,
                    interimBytes: state.interimBytes)))
        state.interimBytes = 0
        if let reading { emit(reading, .receive) }
    }

    /// The findings and messages of one side of a socket.io exchange.
    private func emit(_ reading: SocketIOPolling.Reading, _ side: Direction) {
        for finding in reading.findings where finding.location.direction == side {
            outputs.append(.finding(finding, session: reading.session))
        }
        for message in reading.messages where message.direction == side {
            outputs.append(.polled(message, session: reading.session, framing: reading.framing))
        }
    }

    /// The upgrade request has its response head: check the handshake, then switch to WebSocket
    /// (a valid 101), ignore the rest (a 101 that is not valid), or go on with HTTP (a refusal).
    private func completeUpgrade(
        request: (head: HTTPHead, offset: Int), response: (head: HTTPHead, offset: Int), state: inout HTTPState
    ) {
        state.upgradeRequest = nil
        state.upgradeResponse = nil
        var shake = WebSocketHandshake.check(requestHead: request.head, responseHead: response.head)
        shake.requestFindings = shake.requestFindings.map { $0.shifted(by: request.offset) }
        shake.responseFindings = shake.responseFindings.map { $0.shifted(by: response.offset) }
        let url = shake.request.map { request in (request.head.value("Host").map { "//\($0)" } ?? "") + request.target }
        var findings = shake.findings
        if let url {
            let (transport, urlFindings) = SocketIOTransport.from(url: url, overWebSocket: true)
            findings += urlFindings
            framing = transport.map(Self.framing)
            session = transport.flatMap(Self.sessionKey)
        }
        outputs.append(
            .upgrade(
                WebSocketUpgrade(
                    subprotocol: shake.subprotocol, url: url, permessageDeflate: shake.permessageDeflate,
                    upgraded: shake.isUpgraded, findings: findings)))
        guard shake.response?.status == 101 else {
            // Refused: the connection goes on as HTTP, with what the client sent meanwhile.
            var read: [HTTPReader.Output] = []
            state.client.resume(framing: HTTPBodyFraming.request, into: &read)
            handle(read, direction: .send, state: &state)
            return
        }
        // The 101 is no exchange to pair: the request's entry leaves the queue.
        if let index = state.waiting.firstIndex(where: { $0.offset == request.offset }) {
            state.waiting.remove(at: index)
        }
        let client = state.client.takePaused()
        let server = state.server.takePaused()
        guard shake.isUpgraded else {
            // Switched, but not to a WebSocket this side can read: the rest is counted only.
            kind = .ignored
            ignoredBytes += client.bytes.count + server.bytes.count
            return
        }
        kind = .webSocket
        let decoders = WebSocketDecoders(
            client: WebSocketStreamDecoder(
                shake.streamConfiguration(.send, limits: limits).withoutFrames, startOffset: client.offset),
            server: WebSocketStreamDecoder(
                shake.streamConfiguration(.receive, limits: limits).withoutFrames, startOffset: server.offset))
        webSocket = decoders
        decoders.feed(client.bytes, direction: .send, into: &outputs)
        decoders.feed(server.bytes, direction: .receive, into: &outputs)
    }

    private func finishHTTP() {
        guard var state = http else { return }
        http = nil
        defer { http = state }
        if let upgrade = state.upgradeRequest {
            // The upgrade was never answered: nothing of it could be decoded.
            let pending = state.server.pendingBytes
            outputs.append(
                .finding(
                    Self.unfinishedUpgrade(responseBytes: pending, at: state.server.nextOffset + pending), session: nil)
            )
            unfinishedUpgradeBytes += upgrade.head.length
            state.client.abandon(because: Self.unfinishedUpgradeReason)
            state.server.abandon(because: Self.unfinishedUpgradeReason)
            return
        }
        if let head = state.client.pendingHead, Self.mentionsUpgrade(head) {
            // A request cut short that was asking for an upgrade.
            var finding = WebSocketRules.handshakeTruncated.finding(
                """
                the connection ended inside the upgrade request (\(head.count) \
                bytes, no blank line); the connection is not decoded
                """,
                at: state.client.nextOffset + head.count)
            finding.location.direction = .send
            outputs.append(.finding(finding, session: nil))
            state.client.abandon(because: Self.unfinishedUpgradeReason)
            state.server.abandon(because: Self.unfinishedUpgradeReason)
            return
        }
        var read: [HTTPReader.Output] = []
        state.client.finish(into: &read)
        handle(read, direction: .send, state: &state)
        read = []
        state.server.finish(into: &read)
        handle(read, direction: .receive, state: &state)
        for request in state.waiting {
            var finding = HTTPRules.requestUnanswered.finding(
                "\(request.method ?? "?") \(request.target ?? "?") has no response", at: request.offset)
            finding.location.direction = .send
            outputs.append(.finding(finding, session: SocketIOPolling.read(request, nil, limits: limits)?.session))
            exchange(request, nil, state: &state)
        }
        state.waiting = []
    }

    /// A 1xx response other than 101: it answers no request (RFC 9110 §15.2), the final response follows.
    static func isInterim(_ head: HTTPHead) -> Bool {
        guard head.startLine.count >= 2, let status = Int(head.startLine[1]) else { return false }
        return (100..<200).contains(status) && status != 101
    }

    /// The framing a socket.io URL names.
    static func framing(_ transport: SocketIOTransport) -> Framing {
        switch transport {
        case .v09, .v09Handshake: .socketIO09
        case .engineIO(let version, _, _): .engineIO(version: version)
        }
    }

    /// The socket.io session a WebSocket URL names (`sid=` of engine.io, the last path segment
    /// of socket.io 0.9), if any.
    package static func sessionKey(webSocketURL url: String) -> SessionKey? {
        SocketIOTransport.from(url: url, overWebSocket: true).0.flatMap(sessionKey)
    }

    private static func sessionKey(_ transport: SocketIOTransport) -> SessionKey? {
        guard let sid = transport.sid, !sid.isEmpty else { return nil }
        return SessionKey(framing: framing(transport), sid: sid)
    }

    /// Whether a head cut short carries an `Upgrade` field.
    static func mentionsUpgrade(_ head: [UInt8]) -> Bool {
        // Compared in place, ASCII case folded: no lowered copy of the head.
        let needle = "\r\nupgrade:".utf8
        guard head.count >= needle.count else { return false }
        return (0...(head.count - needle.count)).contains { start in
            zip(head[start...], needle).allSatisfy { ($0 >= 0x41 && $0 <= 0x5a ? $0 | 0x20 : $0) == $1 }
        }
    }

    /// The connection ended before the upgrade request had its answer: nothing after it can be
    /// decoded. The offset is where the response cut short ends.
    static func unfinishedUpgrade(responseBytes: Int, at offset: Int) -> Finding {
        var finding = WebSocketRules.handshakeTruncated.finding(
            responseBytes == 0
                ? "the connection ended before the upgrade response; the connection is not decoded"
                : """
                the connection ended inside the upgrade response (\(responseBytes) \
                bytes, no blank line); the connection is not decoded
                """,
            at: offset)
        finding.location.direction = .receive
        return finding
    }
}

extension WebSocketStreamConfiguration {
    /// The transport reads messages, closes, pings and findings; data frames only matter to the decoder.
    var withoutFrames: WebSocketStreamConfiguration {
        var copy = self
        copy.emitsFrames = false
        return copy
    }
}
