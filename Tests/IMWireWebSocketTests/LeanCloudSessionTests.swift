import IMWireCore
import IMWireLeanCloud
import Testing

@testable import IMWireWebSocket

/// A LeanCloud session carried as raw WebSocket bytes, as the checker will see it: the
/// handshake picks `lc.protobuf2.3` and permessage-deflate, compressed frames go both ways, and
/// every message decodes as a LeanCloud command.
@Suite struct LeanCloudSession {
    func command(_ configure: (inout LCGenericCommand) -> Void) -> [UInt8] {
        var command = LCGenericCommand()
        configure(&command)
        return LeanCloudCodec(encoding: .protobuf).encode(command)
    }

    /// The client's and the server's bytes, and the handshake.
    func session(corruptSecondClientFrame: Bool = false) throws -> ([UInt8], [UInt8]) {
        let request = head(rfcRequest)
        let response = LeanCloudSession.response()
        let handshake = WebSocketHandshake.parse(request: request, response: response)
        let deflate = try #require(handshake.permessageDeflate)
        var keys: UInt32 = 0x1234_5678
        let clientEncoder = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                keys = keys &* 1_664_525 &+ 1_013_904_223
                return keys
            })
        let serverEncoder = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        var client = request
        var server = response
        let open = command {
            $0.cmd = .session
            $0.op = .open
            $0.appID = "app"
            $0.peerID = "alice"
            $0.i = 1
        }
        let opened = command {
            $0.cmd = .session
            $0.op = .opened
            $0.peerID = "alice"
            $0.i = 1
        }
        try clientEncoder.encodeMessage(.binary, open, into: &client)
        if corruptSecondClientFrame {
            // A second client message whose deflate data is damaged (reserved block type).
            client += WebSocketFrameEncoder.frame(
                WebSocketFrameHeader(rsv1: true, opcode: .binary, maskingKey: 7), payload: [0xff, 0xff, 0xff])
        } else {
            try clientEncoder.encodeMessage(.binary, open, into: &client)
        }
        try serverEncoder.encodeMessage(.binary, opened, into: &server)
        client += clientEncoder.close(.normalClosure)
        server += serverEncoder.close(.normalClosure)
        return (client, server)
    }

    static func response() -> [UInt8] {
        head([
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol: lc.protobuf2.3",
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=15",
        ])
    }

    /// Decodes one direction after its handshake head; returns the LeanCloud commands and all findings.
    func decode(_ bytes: [UInt8], _ direction: Direction, _ handshake: WebSocketHandshake) throws -> (
        [LeanCloudDecodedCommand], [Finding]
    ) {
        let start = try #require(direction == .send ? handshake.requestLength : handshake.responseLength)
        let encoding = try #require(handshake.subprotocol.flatMap(LeanCloudSubprotocol.init)?.encoding)
        var decoder = WebSocketStreamDecoder(handshake.streamConfiguration(direction), startOffset: start)
        // Arbitrary chunking, as captures deliver it.
        var events: [WebSocketEvent] = []
        var index = start
        while index < bytes.count {
            let end = min(bytes.count, index + 17)
            events += decoder.feed(Array(bytes[index..<end]))
            index = end
        }
        events += decoder.finish()
        let codec = LeanCloudCodec(encoding: encoding)
        let commands = events.messages.map { codec.decode($0.payload) }
        return (commands, events.findings + commands.flatMap(\.findings))
    }

    @Test func cleanSessionWithCompressionBothWays() throws {
        let (client, server) = try session()
        let handshake = WebSocketHandshake.parse(
            request: Array(client.prefix(head(rfcRequest).count)), response: LeanCloudSession.response())
        #expect(handshake.subprotocol == "lc.protobuf2.3")
        #expect(handshake.isUpgraded)
        let (sent, clientFindings) = try decode(client, .send, handshake)
        let (received, serverFindings) = try decode(server, .receive, handshake)
        #expect(clientFindings.filter { $0.severity >= .warning }.isEmpty, "\(clientFindings)")
        #expect(serverFindings.filter { $0.severity >= .warning }.isEmpty, "\(serverFindings)")
        #expect(sent.compactMap(\.command).map(\.peerID) == ["alice", "alice"])
        #expect(received.compactMap(\.command).map(\.op) == [.opened])
    }

    @Test func corruptedFrameGivesFindingsWithOffsetsAndCloseCode() throws {
        let (client, _) = try session(corruptSecondClientFrame: true)
        let handshake = WebSocketHandshake.parse(
            request: Array(client.prefix(head(rfcRequest).count)), response: LeanCloudSession.response())
        let (sent, findings) = try decode(client, .send, handshake)
        #expect(sent.count == 1)
        let errors = findings.filter { $0.severity >= .warning }
        #expect(errors.map(\.ruleID.rawValue) == ["ZLIB.CORRUPT-DATA"])
        #expect(errors.first?.message.contains("1007") == true)
        // The offset is absolute in the client's stream, past the handshake.
        #expect((errors.first?.offset ?? 0) > head(rfcRequest).count)
    }
}
