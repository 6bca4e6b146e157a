import IMWireCore
import IMWireNIO
import IMWireWebSocket
import NIOCore
import NIOEmbedded
import Testing

/// A channel with the WebSocket reader and writer for `configuration`, connected.
func webSocketChannel(_ configuration: WebSocketChannelConfiguration) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(configuration))
    try channel.pipeline.syncOperations.addHandler(WebSocketFrameWriter(configuration))
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    return channel
}

/// Everything the channel wrote, as one byte string.
func written(_ channel: EmbeddedChannel) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
    return bytes
}

func inbound(_ channel: EmbeddedChannel) throws -> [WebSocketEvent] {
    var events: [WebSocketEvent] = []
    while let event = try channel.readInbound(as: WebSocketEvent.self) { events.append(event) }
    return events
}

func messages(_ events: [WebSocketEvent]) -> [[UInt8]] {
    events.compactMap { if case .message(let message) = $0 { message.payload } else { nil } }
}

/// Feeds `bytes` to the channel in chunks of `size`, returning the violation if one is raised.
@discardableResult
func feed(_ channel: EmbeddedChannel, _ bytes: [UInt8], chunk size: Int = 1 << 20) -> IMWireError? {
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + size)
        do { try channel.writeInbound(ByteBuffer(bytes: bytes[start..<end])) } catch let violation as IMWireError {
            return violation
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
        start = end
    }
    return nil
}

@Suite("IMWireNIO WebSocket handlers")
struct WebSocketHandlerTests {
    let deflate = PerMessageDeflateParameters(
        serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15
    )

    @Test func serverReadsMaskedMessagesInAnyChunking() throws {
        let client = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x1234_5678 })
        var bytes = try client.message(.text, Array("hello".utf8))
        bytes += try client.message(.binary, [1, 2, 3])
        for size in [1, 3, bytes.count] {
            let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server))
            #expect(feed(channel, bytes, chunk: size) == nil)
            #expect(messages(try inbound(channel)) == [Array("hello".utf8), [1, 2, 3]])
            #expect(channel.isActive)
        }
    }

    @Test func permessageDeflateBothWaysWithContextTakeover() throws {
        let header = "permessage-deflate; client_max_window_bits=15"
        let configuration = WebSocketChannelConfiguration(role: .server, extensionsHeader: header)
        #expect(configuration.permessageDeflate != nil)
        let channel = try webSocketChannel(configuration)
        let parameters = try #require(configuration.permessageDeflate)
        let client = try WebSocketMessageEncoder(direction: .send, permessageDeflate: parameters, maskingKey: { 7 })
        let payloads = (0..<3).map { Array("message \($0) repeated repeated repeated".utf8) }
        var bytes: [UInt8] = []
        for payload in payloads { bytes += try client.message(.text, payload) }
        #expect(feed(channel, bytes, chunk: 5) == nil)
        let events = try inbound(channel)
        #expect(messages(events) == payloads)
        #expect(events.allSatisfy { if case .message(let m) = $0 { m.wasCompressed } else { true } })

        // The server's answers: compressed, unmasked, read back by a client-side decoder.
        for payload in payloads { try channel.writeOutbound(WebSocketOutbound.message(.text, payload)) }
        var reader = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .receive, permessageDeflate: parameters))
        let back = reader.feed(try written(channel))
        #expect(messages(back) == payloads)
        #expect(!back.contains { if case .finding = $0 { true } else { false } })
        let frames = back.compactMap { if case .frame(let f) = $0 { f } else { nil } }
        #expect(frames.count == 3 && frames.allSatisfy { $0.header.rsv1 && $0.header.maskingKey == nil })
    }

    @Test func clientRoleMasksAndReadsServerFrames() throws {
        let configuration = WebSocketChannelConfiguration(role: .client, permessageDeflate: deflate)
        let channel = try webSocketChannel(configuration)
        try channel.writeOutbound(WebSocketOutbound.message(.binary, Array(repeating: 0x41, count: 300)))
        var server = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate))
        let events = server.feed(try written(channel))
        #expect(messages(events) == [Array(repeating: 0x41, count: 300)])
        #expect(server.failure == nil)

        let serverEncoder = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        #expect(feed(channel, try serverEncoder.message(.text, Array("ok".utf8))) == nil)
        #expect(messages(try inbound(channel)) == [Array("ok".utf8)])
    }

    @Test(arguments: [
        // unmasked client frame: protocol error
        ("810568656c6c6f", 1002, "WS.CLIENT-FRAME-UNMASKED"),
        // masked text frame whose payload is not UTF-8 (ff with a zero key)
        ("818100000000ff", 1007, "WS.INVALID-UTF8"),
        // reserved opcode 3
        ("838000000000", 1002, "WS.RESERVED-OPCODE"),
        // RSV1 without an extension
        ("c18000000000", 1002, "WS.RSV-WITHOUT-EXTENSION"),
    ])
    func violationClosesWithItsCode(hex: String, code: Int, rule: String) throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server))
        let violation = try #require(feed(channel, try Hex.decode(hex)))
        #expect(violation.code == .webSocketViolation)
        #expect(violation.ruleIDs == [rule])
        #expect(violation.closeCode.map { Int($0.rawValue) } == code)
        #expect(!channel.isActive)
        var client = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive))
        let closes = client.feed(try written(channel)).compactMap {
            if case .close(let close) = $0 { close } else { nil }
        }
        #expect(closes.map { $0.code.map { Int($0.rawValue) } } == [code])
    }

    @Test func oversizedFrameIsRefusedFromItsHeader() throws {
        var limits = Limits.default
        limits.maxFrameSize = 1024
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server, limits: limits))
        // A binary frame announcing 2^40 bytes, masked: only the header is sent.
        let violation = try #require(feed(channel, try Hex.decode("82ff0000010000000000" + "00000000")))
        #expect(violation.code == .webSocketViolation && violation.closeCode == .messageTooBig)
        #expect(!channel.isActive)
    }

    @Test func pingIsAnsweredAndCloseEchoed() throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server))
        let client = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x0102_0304 })
        #expect(feed(channel, client.control(.ping, [9, 8])) == nil)
        var reader = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive))
        let pongs = reader.feed(try written(channel)).compactMap {
            if case .frame(let f) = $0, f.opcode == .pong { f.payload } else { nil }
        }
        #expect(pongs == [[9, 8]])
        #expect(feed(channel, client.close(.goingAway, reason: "bye")) == nil)
        let closes = reader.feed(try written(channel)).compactMap {
            if case .close(let close) = $0 { close.code } else { nil }
        }
        #expect(closes == [.goingAway])
        #expect(!channel.isActive)
    }

    /// A client that closes through the writer: the server's echo completes the handshake, and no
    /// second close frame goes out (it did: the reader answered the echo as if the server had
    /// begun the close, and IMWire's own checker reported WS.FRAME-AFTER-CLOSE).
    @Test func aCloseSentThroughTheWriterIsNotAnsweredAgain() throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .client))
        try channel.writeOutbound(WebSocketOutbound.close(.normalClosure, reason: "done"))
        let server = try WebSocketMessageEncoder(direction: .receive)
        #expect(feed(channel, server.close(.normalClosure)) == nil)
        var reader = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send))
        let events = reader.feed(try written(channel))
        let closes = events.compactMap { if case .close(let close) = $0 { close.code } else { nil } }
        #expect(closes == [.normalClosure])
        #expect(!events.contains { if case .finding = $0 { true } else { false } })
        #expect(!channel.isActive)
    }

    /// RFC 6455 §5.5.1: once this end has sent its close frame it sends no data frame and no
    /// second close. The writes fail with `ChannelError.outputClosed`, and nothing goes out.
    @Test func nothingIsSentAfterTheWritersClose() throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .client))
        let first = channel.writeAndFlush(WebSocketOutbound.close(.normalClosure))
        let late = [
            channel.writeAndFlush(WebSocketOutbound.message(.text, Array("late".utf8))),
            channel.writeAndFlush(WebSocketOutbound.close(.goingAway)),
            channel.writeAndFlush(WebSocketOutbound.ping([])),
        ]
        #expect(outcome(first).map { (try? $0.get()) != nil } == true)
        for future in late {
            guard case .failure(let error)? = outcome(future) else {
                Issue.record("a write after the close went out")
                continue
            }
            #expect(error as? ChannelError == .outputClosed)
        }
        var reader = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send))
        let events = reader.feed(try written(channel))
        let closes = events.compactMap { if case .close(let close) = $0 { close.code } else { nil } }
        #expect(closes == [.normalClosure])
        #expect(messages(events).isEmpty)
        #expect(channel.isActive)  // until the peer's close answers
    }

    /// The reader's close is the writer's too: a handler that writes a close and a message from
    /// `errorCaught`, after the reader failed the connection with 1002, sends neither (it sent a
    /// second close frame and a data frame after the first).
    @Test func nothingIsSentAfterTheReadersClose() throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server))
        try channel.pipeline.syncOperations.addHandler(CloseOnError())
        // An unmasked client frame: WS.CLIENT-FRAME-UNMASKED, close 1002.
        try channel.writeInbound(ByteBuffer(bytes: try Hex.decode("810568656c6c6f")))
        var client = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive))
        let events = client.feed(try written(channel))
        let closes = events.compactMap { if case .close(let close) = $0 { close.code } else { nil } }
        #expect(closes == [.protocolError])
        #expect(messages(events).isEmpty)
        #expect(!events.contains { if case .finding = $0 { true } else { false } })
        #expect(!channel.isActive)
    }
}

/// Answers an error with a close frame of its own and a last message, as an application might.
private final class CloseOnError: ChannelInboundHandler {
    typealias InboundIn = WebSocketEvent
    typealias OutboundOut = WebSocketOutbound

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.write(wrapOutboundOut(.close(.internalError, reason: "app")), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.message(.text, Array("bye".utf8))), promise: nil)
    }
}
