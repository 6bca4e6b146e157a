import IMWireCore
import IMWireNIO
import NIOCore
import NIOEmbedded
import Testing

/// `DialectStreamHandler`: yun2win's MQTT on raw TCP, in whatever chunks the socket gives.
@Suite("IMWireNIO dialect handler on raw TCP")
struct DialectStreamHandlerTests {
    // From Fixtures/captures/yun2win-clean.jsonl: the client's CONNECT and sendMessage m-0001,
    // the server's CONNACK and its ack of m-0001 (returnCode 26).
    static let connect = hex(
        """
        104700044d51545404c2012c0026303035663063386538612d316232632d346433652d386\
        639302d61316232633364346535663600057531303031000c696d746f6b656e2d33623166
        """
    )
    static let connack = hex("20020000")
    static let sendMessage = hex(
        """
        30c00100147932772f73657373696f6e2f7032705f323030317b22636d64223a2273656e644d657373616765222c227932\
        774d6573736167654964223a226d2d30303031222c226d7473223a313437393436303030303030302c226d657373616765\
        223a7b2273796e6373223a5b7b2274797065223a307d2c7b2274797065223a312c2273657373696f6e4964223a22703270\
        5f32303031227d5d2c22706e73223a7b226d7367223a22e682a8e69c89e4b880e69da1e696b0e6b688e681af227d7d7d
        """
    )
    static let ack = hex(
        "303400097932772f75313030317b227932774d6573736167654964223a226d2d30303031222c2272657475726e436f6465223a32367d")

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            DialectStreamHandler(dialect: .yun2win, role: .client, now: steppingClock()))
        return channel
    }

    func rules(_ events: [DialectEvent]) -> [String] {
        dialectMessages(events).flatMap { $0.findings.map(\.ruleID.rawValue) }
    }

    /// An ack the client never asked for is reported, though it arrives cut in two reads and the
    /// CONNACK shares a read with its first half.
    @Test func anAckWithoutItsRequestIsReportedAcrossChunks() throws {
        let channel = try channel()
        try channel.writeOutbound(ByteBuffer(bytes: Self.connect))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(bytes: Self.connect))
        try channel.writeInbound(ByteBuffer(bytes: Self.connack + Self.ack.prefix(10)))
        try channel.writeInbound(ByteBuffer(bytes: Self.ack.dropFirst(10)))
        let events = try dialectEvents(channel)
        let messages = dialectMessages(events)
        #expect(messages.map(\.direction) == [.send, .receive, .receive])
        #expect(messages.map(\.frameIndex) == [1, 2, 3])
        #expect(rules(events).contains("Y2W.ACK-WITHOUT-REQUEST"))
        #expect(messages[2].findings.map(\.ruleID.rawValue).contains("Y2W.ACK-WITHOUT-REQUEST"))
        // Typed: the packets each read completed (the ack's first half, read with the CONNACK, none).
        let packets = messages.map { message -> [String] in
            guard case .yun2win(let packets)? = message.decoded else { return ["untyped"] }
            return packets.map(\.summary)
        }
        #expect(
            packets == [
                ["CONNECT MQTT/4 client=005f0c8e8a-1b2c-4d3e-8f90-a1b2c3d4e5f6"], ["CONNACK rc=0"],
                ["PUBLISH q0 y2w/u1001 (41 B) ack 26 id=m-0001"],
            ])
        _ = try channel.finish()
    }

    /// After the client wrote sendMessage m-0001 through the handler, the same ack is no finding.
    @Test func theAckOfARequestWrittenIsNoFinding() throws {
        let channel = try channel()
        try channel.writeOutbound(ByteBuffer(bytes: Self.connect))
        try channel.writeInbound(ByteBuffer(bytes: Self.connack))
        try channel.writeOutbound(ByteBuffer(bytes: Self.sendMessage))
        try channel.writeInbound(ByteBuffer(bytes: Self.ack))
        let events = try dialectEvents(channel)
        #expect(dialectMessages(events).count == 4)
        #expect(!rules(events).contains("Y2W.ACK-WITHOUT-REQUEST"))
        #expect(rules(events).allSatisfy { !$0.hasPrefix("MQTT.") })
        _ = try channel.finish()
        // The end of the connection is delivered once.
        var ends = 0
        while let event = try channel.readInbound(as: DialectEvent.self) { if case .finished = event { ends += 1 } }
        #expect(ends == 1)
    }
}
