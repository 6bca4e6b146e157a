import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/LeanCloud.md`, run.
@Suite struct DocCSnippetLeanCloud {
    /// The upgrade a LeanCloud client and server exchange (RFC 6455's sample key and accept).
    static let request = Array(
        ("""
        GET / HTTP/1.1\r\nHost: rtm51.leancloud.example\r\nUpgrade: websocket\r\n\
        Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
        Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: lc.protobuf2.3\r\n\
        Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n
        """).utf8)
    static let response = Array(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: lc.protobuf2.3\r\n"
            + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=15\r\n\r\n").utf8)

    /// `session/open` built field by field.
    static func sessionOpen() -> LCGenericCommand {
        var open = LCGenericCommand()
        open.cmd = .session
        open.op = .open
        open.appID = "app"
        open.peerID = "alice"
        open.i = 1
        return open
    }

    @Test func buildACommand() throws {
        let open = Self.sessionOpen()
        // The same command from its canonical JSON (what `imwire decode` prints).
        let json = try JSONParser.parse(#"{"cmd":"session","op":"open","appId":"app","peerId":"alice","i":1}"#)
        #expect(try LeanCloudCanonicalJSON.decode(json) == open)

        let codec = LeanCloudCodec(encoding: .protobuf)  // lc.protobuf2.*: binary frames
        let payload = codec.encode(open)
        #expect(codec.decode(payload).command == open)
        // lc.json.*: the flat JSON encoding, in text frames
        #expect(
            String(decoding: LeanCloudCodec(encoding: .json).encode(open), as: UTF8.self).contains(#""peerId":"alice""#)
        )
    }

    @Test func frameAndCompress() throws {
        let payload = LeanCloudCodec(encoding: .protobuf).encode(Self.sessionOpen())

        // One frame by hand: a client frame is masked with a key the caller supplies.
        let frame = WebSocketFrameEncoder.frame(
            WebSocketFrameHeader(opcode: .binary, maskingKey: 0x3712_a5c9), payload: payload)
        #expect(frame[0] == 0x82 && frame[1] == 0x80 | UInt8(payload.count))

        // Whole messages, compressed under permessage-deflate as the handshake negotiated it.
        let deflate = PerMessageDeflateParameters()
        var key: UInt32 = 0x1234_5678
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                key = key &* 1_664_525 &+ 1_013_904_223  // use a CSPRNG in production
                return key
            })
        let frames = try client.message(.binary, payload)
        #expect(frames[0] == 0xc2)  // FIN, RSV1 (compressed), binary

        // What the encoder does to the payload, with the zlib layer itself.
        var deflater = try Deflater(format: .raw, windowBits: deflate.maxWindowBits(.receive))
        var compressed: [UInt8] = []
        try deflater.deflate(payload, flush: .sync, into: &compressed)
        #expect(compressed.suffix(4) == [0x00, 0x00, 0xff, 0xff])
        compressed.removeLast(4)  // RFC 7692 §7.2.1: the sync flush's empty block is not sent
        let server = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        #expect(try server.message(.binary, payload) == [0xc2, UInt8(compressed.count)] + compressed)
        let inflated = try Zlib.decompress(
            compressed, format: .raw, limit: InflateLimit(maxOutput: 1 << 20, maxRatio: 1000))
        #expect(inflated == payload)
    }

    @Test func decodeAStream() throws {
        let handshake = WebSocketHandshake.parse(request: Self.request, response: Self.response)
        #expect(handshake.isUpgraded && handshake.findings.isEmpty)
        #expect(handshake.subprotocol == "lc.protobuf2.3")
        let encoding = handshake.subprotocol.flatMap(LeanCloudSubprotocol.init)?.encoding ?? .protobuf

        let deflate = try #require(handshake.permessageDeflate)
        var key: UInt32 = 7
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                key &+= 1
                return key
            })
        let codec = LeanCloudCodec(encoding: encoding)
        var query = LCGenericCommand()
        query.cmd = .conv
        query.op = .query
        query.i = 2
        let bytes =
            try client.message(.binary, codec.encode(Self.sessionOpen())) + client.message(.binary, codec.encode(query))

        // The client's bytes after the handshake, in whatever chunks the network delivers.
        var decoder = WebSocketStreamDecoder(handshake.streamConfiguration(.send))
        var commands: [LeanCloudDecodedCommand] = []
        var findings: [Finding] = []
        func handle(_ event: WebSocketEvent) {
            switch event {
            case .message(let message): commands.append(codec.decode(message.payload))
            case .finding(let finding): findings.append(finding)
            case .frame, .close: break
            }
        }
        for start in stride(from: 0, to: bytes.count, by: 7) {
            decoder.feed(Array(bytes[start..<min(start + 7, bytes.count)]), handle)
        }
        decoder.finish(handle)
        #expect(findings.isEmpty)
        #expect(commands.map(\.summary) == ["session/open i=1", "conv/query i=2"])
        #expect(commands.allSatisfy { $0.findings.isEmpty })
    }

    @Test func trackTheSession() throws {
        let codec = LeanCloudCodec(encoding: .protobuf)
        func command(_ json: String) throws -> [UInt8] {
            codec.encode(try LeanCloudCanonicalJSON.decode(JSONParser.parse(json)))
        }
        let open = try command(#"{"cmd":"session","op":"open","appId":"app","peerId":"alice","i":1}"#)
        let opened = try command(#"{"cmd":"session","op":"opened","peerId":"alice","i":1}"#)
        let query = try command(#"{"cmd":"conv","op":"query","i":2,"convMessage":{}}"#)

        var tracker = LeanCloudSessionTracker()  // requests answered within 30 s, acks within 5 s
        var findings = tracker.observe(codec.decode(open), direction: .send, timeMicros: 0, frameIndex: 1)
        findings += tracker.observe(codec.decode(opened), direction: .receive, timeMicros: 40_000, frameIndex: 2)
        findings += tracker.observe(codec.decode(query), direction: .send, timeMicros: 1_000_000, frameIndex: 3)
        #expect(findings.isEmpty)
        findings += tracker.finish(atMicros: 60_000_000)  // the query was never answered
        #expect(findings.map(\.ruleID) == ["LC.REQUEST-UNANSWERED"])

        // The same through the dialect's connection, as the checker drives it.
        let connection = LeanCloudConnection(DialectContext(subprotocol: "lc.protobuf2.3"))
        _ = connection.observe(
            WireMessage(direction: .send, frameType: .binary, payload: open), timeMicros: 0, frameIndex: 1)
        _ = connection.observe(
            WireMessage(direction: .receive, frameType: .binary, payload: opened), timeMicros: 40_000, frameIndex: 2)
        #expect(connection.sessionFacts.login?.accepted == 40_000)
        #expect(connection.sessionFacts.client == "app/alice")
    }

    @Test func driveTheReconnectMachine() {
        let policy = LeanCloudPolicies.swift
        var state = ReconnectState()
        var actions: [ReconnectAction] = []
        for event: ReconnectEvent in [
            .userLogin, .routeResolved(ttlMillis: nil), .transportOpened, .loginResponse(code: 0, waitMillis: nil),
        ] {
            let transition = ReconnectMachine.step(state, event, policy: policy)
            state = transition.state
            actions += transition.actions
        }
        #expect(state.phase == .online)
        #expect(actions.contains(.sendLogin(flag: nil)))

        // The server kicks the client (session/closed code 4111): reconnecting stops.
        let kicked = ReconnectMachine.step(state, .kicked(code: 4111), policy: policy)
        #expect(kicked.state.phase == .stopped)
        #expect(kicked.actions.contains(.stop(.kicked, code: 4111)))

        // Time and timers: the simulator fires what the machine scheduled.
        var simulator = ReconnectSimulator(policy: LeanCloudPolicies.js)
        var steps: [TraceStep] = []
        for (time, event): (Int64, ReconnectEvent) in [
            (0, .userLogin), (5, .routeResolved(ttlMillis: nil)), (10, .transportOpened),
            (20, .loginResponse(code: 0, waitMillis: nil)),
            (1_000, .transportClosed(code: 1006)),
        ] {
            steps += simulator.feed(event, atMillis: time)
        }
        steps += simulator.advance(toMillis: 3_000)
        let delays = steps.flatMap(\.actions).compactMap { action in
            if case .scheduleTimer(.retry, let delay) = action { delay } else { nil }
        }
        #expect(delays == [1_000])
        #expect(steps.last?.timeMillis == 2_000 && steps.last?.commands.contains(.openTransport) == true)
        #expect(simulator.state.phase == .connecting)
    }
}
