import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/Yun2win.md`, run.
@Suite struct DocCSnippetYun2win {
    static let uuid = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

    /// CONNECT as the Web SDK sends it: the platform's MQTT version and keep-alive, the client id
    /// `[reconnect][platform]<uuid>`, the uid as user name and the imToken as password.
    static func connect(reconnect: Bool = false) -> [UInt8] {
        let platform = Yun2winPlatform.web
        let clientID = Yun2winClientID(isReconnect: reconnect, platform: platform, uuid: uuid)
        let connect = MQTTConnect(
            version: platform.mqttVersion, keepAlive: platform.keepAlive, clientID: clientID.text,
            username: "u1", password: Array("imToken".utf8))
        return MQTTPacketEncoder.encode(.connect(connect))
    }

    /// A `sendMessage` command, published at QoS 0 to the session's topic.
    static func sendMessage(_ id: String) -> [UInt8] {
        let command = Yun2winCommand.sendMessage(
            Yun2winSendMessage(y2wMessageID: id, mts: JSONNumber(1_479_000_000_000), message: ["syncs": [["type": 0]]]))
        return MQTTPacketEncoder.encode(.publish(MQTTPublish(topic: "y2w/session/p2p_2", payload: command.payload)))
    }

    /// A server PUBLISH with a JSON payload (`{"returnCode":11}`, an ack `{"y2wMessageId":…,"returnCode":20}`).
    static func server(_ json: String) -> [UInt8] {
        MQTTPacketEncoder.encode(.publish(MQTTPublish(topic: "y2w/u1", payload: Array(json.utf8))))
    }

    @Test func buildPackets() throws {
        let connect = Self.connect()
        let decoded = MQTTStreamDecoder.decodeAll(connect)
        guard case .connect(let packet)? = decoded.first?.packet else {
            Issue.record("not a CONNECT")
            return
        }
        #expect(packet.clientID == "00" + Self.uuid && packet.keepAlive == 300 && packet.protocolLevel == 4)
        let publish = Self.sendMessage("m1")
        #expect(MQTTStreamDecoder.decodeAll(publish).first?.packet?.summary == "PUBLISH q0 y2w/session/p2p_2 (94 B)")
    }

    @Test func decodeAStreamAndFrameIt() throws {
        let bytes = Self.connect() + Self.sendMessage("m1") + MQTTPacketEncoder.encode(.pingreq)

        // Raw TCP: the packets in whatever chunks the network delivers.
        var mqtt = MQTTStreamDecoder()
        var codec = Yun2winCodec()
        var packets: [MQTTDecodedPacket] = []
        var yun2win: [Yun2winDecodedPacket] = []
        for start in stride(from: 0, to: bytes.count, by: 5) {
            let chunk = Array(bytes[start..<min(start + 5, bytes.count)])
            packets += mqtt.feed(chunk)
            yun2win += codec.feed(chunk, direction: .send)
        }
        packets += mqtt.finish()
        yun2win += codec.finish(direction: .send)
        #expect(packets.map { $0.packet?.type } == [.connect, .publish, .pingreq])
        #expect(yun2win.allSatisfy { $0.findings.isEmpty })
        guard case .connect(let login)? = yun2win.first?.message,
            case .command(let command, let topic)? = yun2win[1].message
        else {
            Issue.record("\(yun2win.map(\.summary))")
            return
        }
        #expect(login.uid == "u1" && login.token == "imToken" && login.parsedClientID?.platform == .web)
        #expect(command.cmd == "sendMessage" && command.y2wMessageID == "m1" && topic == .session(sessionID: "p2p_2"))

        // The Web SDK's MQTT over WebSocket: each packet a binary message, here compressed.
        let deflate = PerMessageDeflateParameters(clientNoContextTakeover: true)
        var key: UInt32 = 0x5eed
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                key = key &* 69_069 &+ 1
                return key
            })
        var deflater = try Deflater(format: .raw, windowBits: deflate.maxWindowBits(.send))
        var compressed: [UInt8] = []
        try deflater.deflate(Self.sendMessage("m1"), flush: .sync, into: &compressed)
        compressed.removeLast(4)
        #expect(compressed.count < Self.sendMessage("m1").count)

        let frames = try client.message(.binary, Self.connect()) + client.message(.binary, Self.sendMessage("m1"))
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .send, permessageDeflate: deflate))
        var overWebSocket = Yun2winCodec()
        var commands: [String] = []
        for case .message(let message) in decoder.feed(frames) + decoder.finish() {
            commands += overWebSocket.feed(message.payload, direction: .send).map(\.summary)
        }
        #expect(commands.count == 2 && commands[1].hasSuffix("sendMessage id=m1"))
    }

    @Test func trackTheSession() {
        let connection = Yun2winConnection()
        var findings: [Finding] = []
        let exchange: [(Int64, Direction, [UInt8])] = [
            (0, .send, Self.connect()),
            (100_000, .receive, MQTTPacketEncoder.encode(.connack(MQTTConnack(returnCode: 0)))),
            (200_000, .receive, Self.server(#"{"returnCode":11}"#)),  // yun2win's "connected"
            (1_000_000, .send, Self.sendMessage("m1")),
            (1_200_000, .receive, Self.server(#"{"y2wMessageId":"m1","returnCode":20}"#)),
            (60_000_000, .receive, Self.server(#"{"returnCode":10}"#)),  // kicked: logged in elsewhere
        ]
        for (index, (time, direction, bytes)) in exchange.enumerated() {
            findings +=
                connection.observe(bytes, direction: direction, timeMicros: time, frameIndex: index + 1).observation
                .findings
        }
        findings += connection.finish(atMicros: 61_000_000, frameIndex: exchange.count)
        #expect(findings.filter { $0.severity >= .warning }.isEmpty, "\(findings)")
        #expect(connection.tracker.phase == .kicked)
        #expect(connection.kickedUIDs == ["u1"])
        #expect(connection.sessionFacts.end == .kicked(code: 10))

        // The client's next connection reconnects by itself (client id prefix 1) after the kick.
        let next = Yun2winConnection(kickedUIDs: connection.kickedUIDs)
        let again = next.observe(Self.connect(reconnect: true), direction: .send, timeMicros: 62_000_000, frameIndex: 1)
        #expect(again.observation.findings.map(\.ruleID) == ["Y2W.RECONNECT-AFTER-KICK"])
    }

    @Test func driveTheReconnectMachine() {
        let policy = Yun2winPolicies.policy(forClientIDPlatformDigit: "0") ?? Yun2winPolicies.web
        #expect(policy.name == "yun2win-web")
        var simulator = ReconnectSimulator(policy: policy)
        var steps: [TraceStep] = []
        for (time, event): (Int64, ReconnectEvent) in [
            (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
            (3, .loginResponse(code: 0, waitMillis: nil)),  // CONNACK 0: not connected yet
            (4, .loginResponse(code: 11, waitMillis: nil)),  // PUBLISH returnCode 11: connected
        ] {
            steps += simulator.feed(event, atMillis: time)
        }
        #expect(steps[3].state.phase == .authenticating && steps[4].state.phase == .online)

        // A dropped link is retried every second with the reconnect flag.
        let dropped =
            simulator.feed(.transportClosed(code: nil), atMillis: 10_000) + simulator.advance(toMillis: 11_000)
        #expect(dropped.flatMap(\.commands).contains(.scheduleTimer(.retry, delayMillis: 1000)))
        #expect(dropped.last?.commands.contains(.openTransport) == true)

        // returnCode 10 (kicked) stops.
        let kicked = ReconnectMachine.step(steps[4].state, .kicked(code: 10), policy: policy)
        #expect(kicked.state.phase == .stopped && kicked.actions.contains(.stop(.kicked, code: 10)))
    }
}
