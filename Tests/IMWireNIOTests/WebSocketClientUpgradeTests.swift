import IMWireCore
import IMWireNIO
import IMWireWebSocket
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

/// What a future came to, when it has (an `EmbeddedChannel`'s futures complete as it is driven).
func outcome<Value: Sendable>(_ future: EventLoopFuture<Value>) -> Result<Value, any Error>? {
    let box = NIOLockedValueBox<Result<Value, any Error>?>(nil)
    future.whenComplete { result in box.withLockedValue { $0 = result } }
    return box.withLockedValue { $0 }
}

/// `addWebSocketClientUpgrade`: the request, the answer checked, the WebSocket handlers in place.
@Suite("IMWireNIO WebSocket client upgrade")
struct WebSocketClientUpgradeTests {
    static let handshake = try! WebSocketClientHandshake(
        host: "rtm.example:8080", protocols: ["lc.protobuf2.3"],
        deflateOffers: [PerMessageDeflateOffer(clientMaxWindowBits: .anyValue)])

    /// The server's answer to `handshake`, with `fields` after Upgrade and Connection.
    static func answer(_ fields: [String], status: String = "101 Switching Protocols") -> [UInt8] {
        Array(
            (["HTTP/1.1 \(status)", "Upgrade: websocket", "Connection: Upgrade"] + fields).map { $0 + "\r\n" }.joined()
                .utf8) + Array("\r\n".utf8)
    }

    static let accept = "Sec-WebSocket-Accept: \(handshake.expectedAccept)"

    /// A channel with the upgrade added, connected: the request is sent.
    func upgrading(requiresSubprotocol: Bool = true) throws -> (EmbeddedChannel, EventLoopFuture<WebSocketNegotiation>)
    {
        let channel = EmbeddedChannel()
        let upgraded = try channel.pipeline.syncOperations.addWebSocketClientUpgrade(
            Self.handshake, requiresSubprotocol: requiresSubprotocol
        ) { _, negotiation in negotiation }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return (channel, upgraded)
    }

    func handshakeError(_ future: EventLoopFuture<WebSocketNegotiation>) -> IMWireError? {
        guard case .failure(let error)? = outcome(future) else { return nil }
        return (error as? IMWireError).flatMap { $0.code == .webSocketHandshakeResponse ? $0 : nil }
    }

    /// The request goes out when the channel is active; the answer arrives cut in two with the
    /// server's first frame behind it: the frame is read by the new reader, permessage-deflate
    /// is in force both ways, and the client's frames are masked.
    @Test func anAnswerThenAFrameUpgradesTheChannel() throws {
        let (channel, upgraded) = try upgrading()
        #expect(try written(channel) == Self.handshake.request)
        #expect(outcome(upgraded) == nil)
        let answer = Self.answer([
            Self.accept, "Sec-WebSocket-Protocol: lc.protobuf2.3",
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=12",
        ])
        let deflate = PerMessageDeflateParameters(clientMaxWindowBits: 12)
        let server = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        let bytes = answer + (try server.message(.binary, [1, 2, 3]))
        try channel.writeInbound(ByteBuffer(bytes: bytes[..<20]))
        #expect(outcome(upgraded) == nil)
        try channel.writeInbound(ByteBuffer(bytes: bytes[20...]))

        guard case .success(let negotiation)? = outcome(upgraded) else {
            Issue.record("not upgraded: \(String(describing: outcome(upgraded)))")
            return
        }
        #expect(negotiation.subprotocol == "lc.protobuf2.3")
        #expect(negotiation.permessageDeflate == deflate)
        #expect(messages(try inbound(channel)) == [[1, 2, 3]])

        try channel.writeOutbound(WebSocketOutbound.message(.text, Array("hello hello hello".utf8)))
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate))
        let events = decoder.feed(try written(channel))
        #expect(messages(events) == [Array("hello hello hello".utf8)])
        #expect(!events.contains { if case .finding = $0 { true } else { false } })
        #expect(channel.isActive)
    }

    /// Added to a channel already connected, the request goes at once.
    @Test func addedToAnActiveChannelItSendsAtOnce() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        let upgraded = try channel.pipeline.syncOperations.addWebSocketClientUpgrade(Self.handshake) { _, _ in 7 }
        #expect(try written(channel) == Self.handshake.request)
        try channel.writeInbound(
            ByteBuffer(bytes: Self.answer([Self.accept, "Sec-WebSocket-Protocol: lc.protobuf2.3"])))
        #expect(try outcome(upgraded)?.get() == 7)
    }

    /// RFC 7692 §7.1.1.1: a client that offered client_no_context_takeover resets its compressor
    /// after every message though the answer does not repeat the parameter: the same message
    /// twice makes the same frame twice.
    @Test func anOfferedClientNoContextTakeoverIsKept() throws {
        let handshake = try WebSocketClientHandshake(
            host: "rtm.example", deflateOffers: [PerMessageDeflateOffer(clientNoContextTakeover: true)])
        let channel = EmbeddedChannel()
        let upgraded = try channel.pipeline.syncOperations.addWebSocketClientUpgrade(handshake) { _, negotiation in
            negotiation
        }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        _ = try written(channel)
        try channel.writeInbound(
            ByteBuffer(
                bytes: Self.answer([
                    "Sec-WebSocket-Accept: \(handshake.expectedAccept)", "Sec-WebSocket-Extensions: permessage-deflate",
                ])))
        #expect(try outcome(upgraded)?.get().permessageDeflate?.clientNoContextTakeover == false)  // the answer alone
        let payload = Array(String(repeating: "the same message ", count: 8).utf8)
        var frames: [[UInt8]] = []
        for _ in 0..<2 {
            try channel.writeOutbound(WebSocketOutbound.message(.text, payload))
            var decoder = WebSocketStreamDecoder(
                WebSocketStreamConfiguration(
                    direction: .send, permessageDeflate: PerMessageDeflateParameters(), emitsFrames: true))
            frames += decoder.feed(try written(channel)).compactMap {
                if case .frame(let frame) = $0 { frame.payload } else { nil }
            }
        }
        #expect(frames.count == 2)
        #expect(frames.first == frames.last)
    }

    @Test func aWrongAcceptFailsAndCloses() throws {
        let (channel, upgraded) = try upgrading()
        try channel.writeInbound(
            ByteBuffer(
                bytes: Self.answer([
                    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol: lc.protobuf2.3",
                ])))
        #expect(handshakeError(upgraded)?.ruleIDs.contains("WS.HANDSHAKE-ACCEPT") == true)
        #expect(!channel.isActive)
    }

    @Test func aRefusalFailsWithItsStatus() throws {
        let (channel, upgraded) = try upgrading()
        try channel.writeInbound(ByteBuffer(bytes: Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".utf8)))
        #expect(handshakeError(upgraded)?.handshakeStatus == 403)
        #expect(!channel.isActive)
    }

    /// The subprotocol names the encoding: a server that chooses none fails the upgrade, unless
    /// the caller accepts that.
    @Test func noSubprotocolChosenFailsUnlessAccepted() throws {
        let (channel, upgraded) = try upgrading()
        try channel.writeInbound(ByteBuffer(bytes: Self.answer([Self.accept])))
        #expect(handshakeError(upgraded)?.ruleIDs == ["WS.SUBPROTOCOL-NOT-CHOSEN"])
        #expect(!channel.isActive)

        let (lenient, accepted) = try upgrading(requiresSubprotocol: false)
        try lenient.writeInbound(ByteBuffer(bytes: Self.answer([Self.accept])))
        #expect(try outcome(accepted)?.get().subprotocol == nil)
        #expect(lenient.isActive)
    }

    @Test func aCloseBeforeTheWholeAnswerFails() throws {
        let (channel, upgraded) = try upgrading()
        try channel.writeInbound(ByteBuffer(bytes: Array("HTTP/1.1 101 Switching Protocols\r\nUpg".utf8)))
        channel.pipeline.fireChannelInactive()
        #expect(handshakeError(upgraded)?.ruleIDs.contains("WS.HANDSHAKE-TRUNCATED") == true)
    }

    /// A head that never ends is not buffered past 16 KiB.
    @Test func anEndlessHeadFails() throws {
        let (channel, upgraded) = try upgrading()
        try channel.writeInbound(ByteBuffer(bytes: Array("HTTP/1.1 101 Switching Protocols\r\n".utf8)))
        var sent = 0
        while channel.isActive, sent < 64 << 10 {
            try channel.writeInbound(
                ByteBuffer(bytes: Array(("X-Filler: " + String(repeating: "a", count: 1000) + "\r\n").utf8)))
            sent += 1012
        }
        #expect(sent <= 17 << 10)
        #expect(handshakeError(upgraded) != nil)
        #expect(!channel.isActive)
    }
}
