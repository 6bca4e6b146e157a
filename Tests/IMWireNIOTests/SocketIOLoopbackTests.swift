import IMWireCore
import IMWireNIO
import IMWireSocketIO
import IMWireWebSocket
import NIOCore
import NIOPosix
import Testing

/// An engine.io 3 / socket.io server on 127.0.0.1 built from the handlers (WebSocket reader and
/// writer, `EngineIOPacketHandler`) under `NIOAsyncChannel`, answering a client that writes raw
/// WebSocket frames. The pipeline starts after the HTTP upgrade (the client speaks frames at once).
@Suite("IMWireNIO socket.io over loopback")
struct SocketIOLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func anEngineIOServerAnswersARawClient() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let configuration = WebSocketChannelConfiguration(role: .server)
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(configuration))
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameWriter(configuration))
                    try channel.pipeline.syncOperations.addHandler(EngineIOPacketHandler())
                    return try NIOAsyncChannel<EngineIOMessage, EngineIOOutbound>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(server.channel.localAddress?.port)

        // The server: open and CONNECT first; a pong for each ping, an ACK for each event (its
        // arguments back, or the sizes of its attachments); it stops at the client's close packet.
        async let served: [String] = server.executeThenClose { connections in
            var read: [String] = []
            for try await connection in connections {
                try await connection.executeThenClose { inbound, outbound in
                    try await outbound.write(
                        .engineIO(EngineIOPacket(type: .open, payload: .text(SocketIOHandlerTests.handshake))))
                    try await outbound.write(.socketIO(SocketIOPacket(type: .connect)))
                    for try await message in inbound {
                        read.append(message.summary)
                        guard let packet = message.engineIO else { continue }
                        switch (packet.type, message.socketIO) {
                        case (.ping, _):
                            try await outbound.write(.engineIO(EngineIOPacket(type: .pong, payload: packet.payload)))
                        case (.message, let event?) where event.type == .event:
                            try await outbound.write(
                                .socketIO(SocketIOPacket(type: .ack, id: event.id, data: .array(event.args))))
                        case (.message, let event?) where event.type == .binaryEvent:
                            let sizes = event.buffers.map { JSONValue.number(JSONNumber(Int64($0.count))) }
                            try await outbound.write(
                                .socketIO(SocketIOPacket(type: .ack, id: event.id, data: .array(sizes))))
                        case (.close, _): return
                        default: break
                        }
                    }
                }
                return read
            }
            return read
        }

        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        let received: [String] = try await client.executeThenClose { inbound, outbound in
            let encoder = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x1122_3344 })
            var bytes: [UInt8] = []
            for text in ["2", #"421["hello","world"]"#, #"451-2["upload",{"_placeholder":true,"num":0}]"#] {
                bytes += try encoder.message(.text, Array(text.utf8))
            }
            bytes += try encoder.message(.binary, [4, 9, 9, 9])
            bytes += try encoder.message(.text, Array("1".utf8))
            // Split mid-frame, as a network may.
            try await outbound.write(ByteBuffer(bytes: bytes[..<7]))
            try await outbound.write(ByteBuffer(bytes: bytes[7...]))
            var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
            var texts: [String] = []
            for try await buffer in inbound {
                for event in decoder.feed(Array(buffer.readableBytesView)) {
                    if case .message(let message) = event { texts.append(message.text) }
                }
                if texts.count >= 5 { break }
            }
            return texts
        }
        #expect(
            received == [
                "0" + SocketIOHandlerTests.handshake, "40", "3", #"431["world"]"#, "432[3]",
            ])
        #expect(try await served == ["ping", "message EVENT hello id=1", "message BINARY_EVENT upload id=2", "close"])
        try await group.shutdownGracefully()
    }
}

/// A NIM server on 127.0.0.1 whose pipeline ends in a `DialectMessageHandler` under
/// `NIOAsyncChannel`: its inbound sequence carries the client's messages and its own, each with
/// its findings, then the connection's end.
@Suite("IMWireNIO dialect handler over loopback")
struct DialectLoopbackTests {
    @Test(.timeLimit(.minutes(1))) func aNIMServerSeesBothDirectionsAndItsOwnUnknownCode() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let configuration = WebSocketChannelConfiguration(role: .server)
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(configuration))
                    try channel.pipeline.syncOperations.addHandler(WebSocketFrameWriter(configuration))
                    try channel.pipeline.syncOperations.addHandler(DialectMessageHandler(dialect: .nim, role: .server))
                    return try NIOAsyncChannel<DialectEvent, WebSocketOutbound>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(server.channel.localAddress?.port)

        // The server: connect `1::` first, then it answers the login with code 4242 (in no NIM
        // table) and reads until the client has gone; it returns every event.
        async let served: [DialectEvent] = server.executeThenClose { connections in
            var events: [DialectEvent] = []
            for try await connection in connections {
                try await connection.executeThenClose { inbound, outbound in
                    try await outbound.write(.message(.text, Array("1::".utf8)))
                    for try await event in inbound {
                        events.append(event)
                        if case .message(let message) = event, message.direction == .send {
                            try await outbound.write(
                                .message(.text, Array(#"3:::{"sid":2,"cid":3,"ser":1,"code":4242}"#.utf8)))
                        }
                    }
                }
                return events
            }
            return events
        }

        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        let received: [String] = try await client.executeThenClose { inbound, outbound in
            let encoder = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x5566_7788 })
            var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
            var texts: [String] = []
            // The login goes once the server's connect has arrived, so the order is fixed.
            for try await buffer in inbound {
                for event in decoder.feed(Array(buffer.readableBytesView)) {
                    guard case .message(let message) = event else { continue }
                    texts.append(message.text)
                    if texts.count == 1 {
                        try await outbound.write(
                            ByteBuffer(bytes: try encoder.message(.text, Array(DialectHandlerTests.nimLogin.utf8))))
                    }
                }
                if texts.count >= 2 { break }
            }
            return texts
        }
        #expect(received == ["1::", #"3:::{"sid":2,"cid":3,"ser":1,"code":4242}"#])
        let events = try await served
        let messages = events.compactMap { if case .message(let message) = $0 { message } else { nil } }
        #expect(messages.map(\.direction) == [.receive, .send, .receive])
        #expect(messages.map(\.frameIndex) == [1, 2, 3])
        #expect(messages.last?.findings.map(\.ruleID).contains("NIM.CODE-UNKNOWN") == true)
        #expect(messages.allSatisfy { $0.canonicalJSON != nil })
        // Then the connection's end (nothing was left pending: the login was answered).
        let end = events.last.flatMap { if case .finished(let findings) = $0 { findings } else { nil } }
        #expect(end != nil)
        try await group.shutdownGracefully()
    }
}
