import IMWireCore
import IMWireNIO
import IMWireSocketIO
import IMWireWebSocket
import NIOCore
import NIOEmbedded
import Testing

/// An embedded channel with `handler` alone, connected: WebSocket events in, WebSocket outbound values out.
func messageChannel(_ handler: some ChannelHandler) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandler(handler)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    return channel
}

/// A WebSocket message as the WebSocket reader delivers it.
func wsMessage(_ text: String) -> WebSocketEvent { .message(WebSocketMessage(kind: .text, payload: Array(text.utf8))) }

func wsMessage(binary bytes: [UInt8]) -> WebSocketEvent { .message(WebSocketMessage(kind: .binary, payload: bytes)) }

/// Everything the channel wrote, as WebSocket outbound values.
func outboundValues(_ channel: EmbeddedChannel) throws -> [WebSocketOutbound] {
    var values: [WebSocketOutbound] = []
    while let value = try channel.readOutbound(as: WebSocketOutbound.self) { values.append(value) }
    return values
}

/// Writes `event` inbound; returns the socket.io violation it raised, if any.
func feedEvent(_ channel: EmbeddedChannel, _ event: WebSocketEvent) -> IMWireError? {
    do { try channel.writeInbound(event) } catch let violation as IMWireError {
        return violation
    } catch {
        Issue.record("unexpected error \(error)")
    }
    return nil
}

/// The engine.io packets as written by `EngineIOPacketHandler`, turned back into the reader's events.
func asEvents(_ values: [WebSocketOutbound]) -> [WebSocketEvent] {
    values.compactMap { value in
        guard case .message(let kind, let payload, _) = value else { return nil }
        return .message(WebSocketMessage(kind: kind, payload: payload))
    }
}

private func placeholder(_ number: Int64) -> JSONValue { ["_placeholder": true, "num": .number(JSONNumber(number))] }

@Suite("IMWireNIO socket.io handlers")
struct SocketIOHandlerTests {
    static let handshake = #"{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":5000}"#
    static let engineIOPackets: [EngineIOPacket] = [
        EngineIOPacket(type: .open, payload: .text(handshake)),
        EngineIOPacket(type: .close), EngineIOPacket(type: .ping, payload: .text("probe")), EngineIOPacket(type: .ping),
        EngineIOPacket(type: .pong, payload: .text("probe")), EngineIOPacket(type: .upgrade),
        EngineIOPacket(type: .noop),
    ]

    static let socketIOPackets: [SocketIOPacket] = {
        var binaryEvent = SocketIOPacket(
            type: .binaryEvent, id: 7, data: ["upload", placeholder(0), "name", placeholder(1)])
        binaryEvent.buffers = [[1, 2, 3], [0xff, 0]]
        var binaryAck = SocketIOPacket(type: .binaryAck, namespace: "/chat", id: 8, data: [placeholder(0)])
        binaryAck.buffers = [Array("ok".utf8)]
        return [
            SocketIOPacket(type: .connect), SocketIOPacket(type: .connect, namespace: "/chat", query: "token=x"),
            SocketIOPacket(type: .disconnect, namespace: "/chat"),
            .event("login", [["username": "alice", "rid": 1]], id: 3),
            .event("你好😀", ["text"], namespace: "/chat"), SocketIOPacket(type: .ack, id: 3, data: [["code": 0]]),
            SocketIOPacket(type: .error, data: "not authorized"), binaryEvent, binaryAck,
        ]
    }()

    @Test func everyEngineIOAndSocketIOPacketRoundTrips() throws {
        let writer = try messageChannel(EngineIOPacketHandler())
        for packet in Self.engineIOPackets { try writer.writeOutbound(EngineIOOutbound.engineIO(packet)) }
        for packet in Self.socketIOPackets { try writer.writeOutbound(EngineIOOutbound.socketIO(packet)) }
        let values = try outboundValues(writer)
        // Each packet is one message; each attachment one more.
        #expect(values.count == Self.engineIOPackets.count + Self.socketIOPackets.count + 3)
        #expect(values[2] == .message(.text, Array("2probe".utf8)))
        #expect(
            values[Self.engineIOPackets.count + 3]
                == .message(.text, Array(#"423["login",{"username":"alice","rid":1}]"#.utf8)))
        #expect(
            values[Self.engineIOPackets.count + 7]
                == .message(
                    .text,
                    Array(#"452-7["upload",{"_placeholder":true,"num":0},"name",{"_placeholder":true,"num":1}]"#.utf8)))
        #expect(values[Self.engineIOPackets.count + 8] == .message(.binary, [4, 1, 2, 3]))

        let reader = try messageChannel(EngineIOPacketHandler())
        for event in asEvents(values) { #expect(feedEvent(reader, event) == nil) }
        var read: [EngineIOMessage] = []
        while let message = try reader.readInbound(as: EngineIOMessage.self) { read.append(message) }
        try #require(read.count == Self.engineIOPackets.count + Self.socketIOPackets.count)
        for (packet, message) in zip(Self.engineIOPackets, read) {
            #expect(message.engineIO?.type == packet.type)
            #expect(message.engineIO?.encoded.bytes == packet.encoded.bytes)
            #expect(message.socketIO == nil)
            #expect(message.findings.isEmpty)
        }
        #expect(read[0].engineIO?.handshake?.pingInterval == 25000)
        for (packet, message) in zip(Self.socketIOPackets, read.dropFirst(Self.engineIOPackets.count)) {
            let decoded = try #require(message.socketIO)
            var expected = packet
            if expected.type.isBinary { expected.attachments = expected.buffers.count }
            #expect(decoded.type == packet.type)
            #expect(decoded.encoded == expected.encoded)
            #expect(decoded.buffers == packet.buffers)
            #expect(decoded.namespace == packet.namespace)
            #expect(decoded.query == packet.query)
            #expect(message.findings.isEmpty)
        }
        #expect(reader.isActive)
    }

    @Test func attachmentsSplitAcrossMessagesAreJoined() throws {
        let channel = try messageChannel(EngineIOPacketHandler())
        #expect(
            feedEvent(
                channel, wsMessage(#"452-["upload",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#))
                == nil)
        #expect(try channel.readInbound(as: EngineIOMessage.self) == nil)
        #expect(feedEvent(channel, wsMessage(binary: [4, 0xde, 0xad])) == nil)
        #expect(try channel.readInbound(as: EngineIOMessage.self) == nil)
        // The second attachment as base64 in a text frame (`b4` + base64 of be ef).
        #expect(feedEvent(channel, wsMessage("b4vu8=")) == nil)
        let joined = try #require(try channel.readInbound(as: EngineIOMessage.self))
        #expect(joined.socketIO?.eventName == "upload")
        #expect(joined.socketIO?.buffers == [[0xde, 0xad], [0xbe, 0xef]])
        #expect(try channel.readInbound(as: EngineIOMessage.self) == nil)
        // Then an ordinary packet goes on by itself.
        #expect(feedEvent(channel, wsMessage("3")) == nil)
        #expect(try channel.readInbound(as: EngineIOMessage.self)?.engineIO?.type == .pong)
    }

    @Test func aWarningIsDeliveredWithoutClosing() throws {
        let channel = try messageChannel(EngineIOPacketHandler())
        #expect(feedEvent(channel, wsMessage(#"40/chat"#)) == nil)
        let message = try #require(try channel.readInbound(as: EngineIOMessage.self))
        #expect(message.socketIO?.namespace == "/chat")
        #expect(message.findings.map(\.ruleID) == ["SIO.NAMESPACE-WITHOUT-COMMA"])
        #expect(channel.isActive)
        #expect(try outboundValues(channel).isEmpty)
    }

    /// Each bad message, with the rule that fails it and the close code sent.
    static let badEngineIO: [(name: String, events: [WebSocketEvent], rule: RuleID, code: UInt16)] = [
        ("unknown type", [wsMessage("9")], "EIO.TYPE-UNKNOWN", 1007),
        ("empty", [wsMessage("")], "EIO.PACKET-EMPTY", 1007),
        ("bad open", [wsMessage("0{}")], "EIO.OPEN-INVALID", 1007),
        ("bad base64", [wsMessage("b4!!")], "EIO.BASE64-INVALID", 1007),
        ("socket.io type", [wsMessage("49")], "SIO.TYPE-UNKNOWN", 1007),
        ("socket.io JSON", [wsMessage(#"42["login""#)], "SIO.PAYLOAD-INVALID", 1007),
        ("ack without id", [wsMessage(#"43[1]"#)], "SIO.ACK-WITHOUT-ID", 1007),
        (
            "not UTF-8", [.message(WebSocketMessage(kind: .text, payload: [0x34, 0x32, 0xff]))], "SIO.TEXT-NOT-UTF8",
            1007
        ),
        ("stray attachment", [wsMessage(binary: [4, 1])], "SIO.BINARY-UNEXPECTED", 1007),
        (
            "missing attachment", [wsMessage(#"451-["up",{"_placeholder":true,"num":0}]"#), wsMessage("2")],
            "SIO.ATTACHMENT-MISSING", 1007
        ),
    ]

    @Test(arguments: badEngineIO.indices) func aBadEngineIOPacketClosesWithItsCode(_ index: Int) throws {
        let bad = Self.badEngineIO[index]
        let channel = try messageChannel(EngineIOPacketHandler())
        var violation: IMWireError?
        for event in bad.events { violation = feedEvent(channel, event) ?? violation }
        let raised = try #require(violation, "\(bad.name)")
        #expect(raised.code == .socketIOViolation)
        #expect(raised.findings.map(\.ruleID) == [bad.rule], "\(bad.name)")
        #expect(raised.closeCode?.rawValue == bad.code)
        #expect(try outboundValues(channel) == [.close(CloseCode(bad.code), reason: bad.rule.rawValue)], "\(bad.name)")
        #expect(!channel.isActive)
        #expect(try channel.readInbound(as: EngineIOMessage.self) == nil)
    }

    @Test func attachmentsOverTheMessageLimitClose1009() throws {
        let channel = try messageChannel(EngineIOPacketHandler(limits: Limits(maxMessageSize: 10)))
        #expect(
            feedEvent(channel, wsMessage(#"452-["up",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]"#))
                == nil)
        #expect(feedEvent(channel, wsMessage(binary: [4] + [UInt8](repeating: 1, count: 8))) == nil)
        let violation = try #require(feedEvent(channel, wsMessage(binary: [4] + [UInt8](repeating: 2, count: 8))))
        #expect(violation.findings.map(\.ruleID) == ["WS.MESSAGE-TOO-LARGE"])
        #expect(try outboundValues(channel) == [.close(.messageTooBig, reason: "WS.MESSAGE-TOO-LARGE")])
        #expect(try channel.readInbound(as: EngineIOMessage.self) == nil)
        #expect(!channel.isActive)
    }

    static let v09Packets: [SocketIO09Packet] = {
        var json = SocketIO09Packet(type: .json, id: 4)
        json.json = ["a": 1, "b": ["x"]]
        var event = SocketIO09Packet(type: .event, id: 5, ackWithData: true, endpoint: "/chat")
        event.eventName = "hello"
        event.args = ["你好😀", 2]
        var ack = SocketIO09Packet(type: .ack)
        ack.ackID = 5
        ack.args = ["ok"]
        var error = SocketIO09Packet(type: .error, endpoint: "/chat")
        error.errorReason = 2
        error.errorAdvice = 0
        return [
            SocketIO09Packet(type: .disconnect, endpoint: "/chat"), SocketIO09Packet(type: .connect),
            SocketIO09Packet(type: .connect, endpoint: "/chat", data: "?token=x"), SocketIO09Packet(type: .heartbeat),
            .message(#"{"SID":2,"CID":3,"SER":1}"#, id: 1), json, event, ack, error, SocketIO09Packet(type: .noop),
        ]
    }()

    @Test func everySocketIO09PacketRoundTrips() throws {
        let writer = try messageChannel(SocketIO09PacketHandler())
        for packet in Self.v09Packets { try writer.writeOutbound(packet) }
        let values = try outboundValues(writer)
        #expect(values.count == Self.v09Packets.count)
        #expect(values[6] == .message(.text, Array(#"5:5+:/chat:{"name":"hello","args":["你好😀",2]}"#.utf8)))
        #expect(values[7] == .message(.text, Array(#"6:::5+["ok"]"#.utf8)))

        let reader = try messageChannel(SocketIO09PacketHandler())
        for event in asEvents(values) { #expect(feedEvent(reader, event) == nil) }
        var read: [SocketIO09Decoded] = []
        while let decoded = try reader.readInbound(as: SocketIO09Decoded.self) { read.append(decoded) }
        try #require(read.count == Self.v09Packets.count)
        for (packet, decoded) in zip(Self.v09Packets, read) {
            #expect(decoded.findings.isEmpty)
            #expect(!decoded.framed)
            let got = try #require(decoded.packets.count == 1 ? decoded.packets[0] : nil)
            #expect(got.type == packet.type)
            #expect(got.encoded == packet.encoded)
            #expect(got.id == packet.id)
            #expect(got.endpoint == packet.endpoint)
            #expect(got.eventName == packet.eventName)
            #expect(got.args == packet.args)
            #expect(got.ackID == packet.ackID)
        }
        #expect(read[5].packets.first?.json == ["a": 1, "b": ["x"]])
        #expect(reader.isActive)
    }

    @Test func severalSocketIO09PacketsInOneMessage() throws {
        let channel = try messageChannel(SocketIO09PacketHandler())
        let packets = [
            SocketIO09Packet(type: .heartbeat), .message("你好😀 hello"),
            SocketIO09Packet(type: .connect, endpoint: "/chat"),
        ]
        #expect(feedEvent(channel, wsMessage(SocketIO09Payload.encode(packets))) == nil)
        let decoded = try #require(try channel.readInbound(as: SocketIO09Decoded.self))
        #expect(decoded.framed)
        #expect(decoded.packets.map(\.encoded) == packets.map(\.encoded))
        #expect(decoded.packets[1].data == "你好😀 hello")
        #expect(try channel.readInbound(as: SocketIO09Decoded.self) == nil)
    }

    static let badV09: [(name: String, text: String, rule: RuleID)] = [
        ("no type", "hello", "SIO.V09-PACKET-MALFORMED"),
        ("unknown type", "9::", "SIO.V09-TYPE-UNKNOWN"),
        ("bad JSON", "4:::{", "SIO.V09-JSON-INVALID"),
        ("bad event", #"5:::{"args":[]}"#, "SIO.V09-EVENT-INVALID"),
        ("bad ack", "6:::x", "SIO.V09-ACK-INVALID"),
        ("framing overrun", "\u{fffd}9\u{fffd}2::", "SIO.V09-FRAMING-INVALID"),
    ]

    @Test(arguments: badV09.indices) func aBadSocketIO09PacketCloses1007(_ index: Int) throws {
        let bad = Self.badV09[index]
        let channel = try messageChannel(SocketIO09PacketHandler())
        let violation = try #require(feedEvent(channel, wsMessage(bad.text)), "\(bad.name)")
        #expect(violation.findings.map(\.ruleID) == [bad.rule], "\(bad.name)")
        #expect(violation.closeCode == .invalidPayloadData)
        #expect(try outboundValues(channel) == [.close(.invalidPayloadData, reason: bad.rule.rawValue)])
        #expect(try channel.readInbound(as: SocketIO09Decoded.self) == nil)
        #expect(!channel.isActive)
        // Nothing more is read.
        _ = try? channel.writeInbound(wsMessage("1::"))
        #expect(try channel.readInbound(as: SocketIO09Decoded.self) == nil)
    }

    @Test func aSocketIO09WarningIsDeliveredWithoutClosing() throws {
        let channel = try messageChannel(SocketIO09PacketHandler())
        #expect(feedEvent(channel, wsMessage("2:::extra")) == nil)
        let decoded = try #require(try channel.readInbound(as: SocketIO09Decoded.self))
        #expect(decoded.packets.map(\.type) == [.heartbeat])
        #expect(decoded.findings.map(\.ruleID) == ["SIO.V09-DATA-UNEXPECTED"])
        #expect(channel.isActive)
    }

    /// The whole pipeline: masked frames in, and a violation answered on the wire by a close frame.
    @Test func overWebSocketFramesAViolationSendsACloseFrame() throws {
        let configuration = WebSocketChannelConfiguration(role: .server)
        let channel = try webSocketChannel(configuration)
        try channel.pipeline.syncOperations.addHandler(EngineIOPacketHandler())
        let client = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x0102_0304 })
        try channel.writeInbound(ByteBuffer(bytes: try client.message(.text, Array("2probe".utf8))))
        #expect(try channel.readInbound(as: EngineIOMessage.self)?.engineIO?.text == "probe")
        try channel.writeOutbound(EngineIOOutbound.engineIO(EngineIOPacket(type: .pong, payload: .text("probe"))))
        #expect {
            try channel.writeInbound(ByteBuffer(bytes: try client.message(.text, Array("7".utf8))))
        } throws: { ($0 as? IMWireError)?.code == .socketIOViolation }
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
        let events = decoder.feed(try written(channel))
        #expect(messages(events) == [Array("3probe".utf8)])
        let close = events.compactMap { if case .close(let close) = $0 { close } else { nil } }
        #expect(close.map(\.code) == [.invalidPayloadData])
        #expect(close.map(\.reason) == [Array("EIO.TYPE-UNKNOWN".utf8)])
        #expect(!channel.isActive)
    }
}
