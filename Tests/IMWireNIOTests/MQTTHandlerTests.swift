import IMWireCore
import IMWireMQTT
import IMWireNIO
import IMWireWebSocket
import NIOCore
import NIOEmbedded
import Testing

@Suite("IMWireNIO MQTT handlers")
struct MQTTHandlerTests {
    func channel(_ options: MQTTDecodeOptions = MQTTDecodeOptions()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(MQTTPacketReader(options: options))
        try channel.pipeline.syncOperations.addHandler(MQTTPacketWriter())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1883)).wait()
        return channel
    }

    func packets(_ channel: EmbeddedChannel) throws -> [MQTTDecodedPacket] {
        var packets: [MQTTDecodedPacket] = []
        while let packet = try channel.readInbound(as: MQTTDecodedPacket.self) { packets.append(packet) }
        return packets
    }

    func feed(_ channel: EmbeddedChannel, _ bytes: [UInt8], chunk size: Int) -> IMWireError? {
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

    let sent: [MQTTPacket] = [
        .connect(MQTTConnect(keepAlive: 60, clientID: "c1")),
        .publish(
            MQTTPublish(
                dup: false, qos: .atLeastOnce, retain: false, topic: "a/b", packetID: 7, payload: Array("hi".utf8))),
        .pingreq,
    ]

    @Test func packetsSplitAnywhereComeOutWhole() throws {
        let bytes = sent.flatMap(MQTTPacketEncoder.encode)
        for size in [1, 2, 7, bytes.count] {
            let channel = try channel()
            #expect(feed(channel, bytes, chunk: size) == nil)
            let read = try packets(channel)
            #expect(read.map(\.packet) == sent)
            #expect(read.allSatisfy { $0.findings.isEmpty })
            #expect(channel.isActive)
        }
    }

    @Test func writerEncodesWhatTheReaderReads() throws {
        let channel = try channel()
        for packet in sent { try channel.writeOutbound(packet) }
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
        #expect(MQTTStreamDecoder.decodeAll(bytes).map(\.packet) == sent)
    }

    @Test(arguments: [
        // PUBLISH with QoS 3
        ("36050001610001", "MQTT.PUBLISH-QOS-INVALID"),
        // a remaining length whose 4th byte continues
        ("30ffffffff01", "MQTT.REMAINING-LENGTH-OVERLONG"),
    ])
    func violationClosesTheConnection(hex: String, rule: String) throws {
        let channel = try channel()
        let ping = MQTTPacketEncoder.encode(.pingreq)
        let violation = try #require(feed(channel, ping + (try Hex.decode(hex)) + ping, chunk: 3))
        #expect(violation.code == .mqttViolation && violation.ruleIDs == [rule])
        #expect(!channel.isActive)
        // The PINGREQ before is delivered, nothing after the violation.
        let read = try packets(channel)
        #expect(read.first?.packet == .pingreq)
        #expect(read.count == 2)
    }

    @Test func oversizedPacketIsRefusedFromItsHeader() throws {
        var limits = Limits.default
        limits.maxFrameSize = 100
        let channel = try channel(MQTTDecodeOptions(limits: limits))
        // PUBLISH announcing 2,097,151 bytes; only its header arrives.
        let violation = try #require(feed(channel, [0x30, 0xff, 0xff, 0x7f], chunk: 4))
        #expect(violation.code == .mqttViolation && violation.ruleIDs == ["MQTT.PACKET-TOO-LARGE"])
        #expect(!channel.isActive)
    }

    @Test func overWebSocketPacketsCrossMessageBoundariesAndATextMessageCloses() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([MQTTWebSocketBridge(), MQTTPacketWriter(), MQTTPacketReader()])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        // MQTT 3.1.1 §6: packets need not align with messages: split the stream anywhere.
        let bytes = sent.flatMap(MQTTPacketEncoder.encode)
        for (start, end) in [(0, 3), (3, 20), (20, bytes.count)] {
            try channel.writeInbound(
                WebSocketEvent.message(WebSocketMessage(kind: .binary, payload: Array(bytes[start..<end]))))
        }
        #expect(try packets(channel).map(\.packet) == sent)
        // Each packet written goes out as one binary message.
        try channel.writeOutbound(MQTTPacket.pingresp)
        #expect(try channel.readOutbound(as: WebSocketOutbound.self) == .message(.binary, [0xD0, 0x00]))
        // A text message is no MQTT: close 1003, then the connection closes.
        try channel.writeInbound(WebSocketEvent.message(WebSocketMessage(kind: .text, payload: Array("hi".utf8))))
        #expect(
            try channel.readOutbound(as: WebSocketOutbound.self)
                == .close(.unsupportedData, reason: "MQTT travels in binary messages"))
        #expect(!channel.isActive)
    }
}
