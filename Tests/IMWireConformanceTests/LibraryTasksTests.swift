import IMWire
import Testing

/// Five things a client author does with the library, each in as few lines as the API allows
/// (the code between the markers; issue 23's closing note counts them), run and checked.
@Suite struct LibraryTasksTests {
    /// A LeanCloud command framed as a client sends it (masked, compressed) and read back.
    @Test func leanCloudFrameRoundTrip() throws {
        // BEGIN task
        let command = try LeanCloudCanonicalJSON.decode(
            JSONParser.parse(#"{"cmd":"session","op":"open","peerId":"alice","i":1}"#))
        let deflate = PerMessageDeflateParameters()
        let frames = try WebSocketMessageEncoder(direction: .send, permessageDeflate: deflate)
            .message(.binary, LeanCloudCodec(encoding: .protobuf).encode(command))
        var decoder = WebSocketStreamDecoder(.init(direction: .send, permessageDeflate: deflate, emitsFrames: false))
        let messages = decoder.feed(frames).compactMap { if case .message(let m) = $0 { m } else { nil } }
        let decoded = LeanCloudCodec(encoding: .protobuf).decode(messages[0].payload).command
        // END task
        #expect(decoded == command && decoder.failure == nil && frames[1] & 0x80 != 0)
    }

    /// A NIM login request's wire text.
    @Test func nimLogin() {
        // BEGIN task
        let text = NIMCodec.encode(
            .request(NIMLogin(appKey: "app-key-1", account: "alice", token: "t", os: "Chrome").request(ser: 1)))
        // END task
        #expect(
            String(decoding: text, as: UTF8.self).hasPrefix(
                #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16"#))
        #expect(NIMCodec.decode(text, direction: .send).findings.isEmpty)
    }

    /// yun2win's CONNECT (Web conventions) and a sendMessage PUBLISH, as bytes on the wire.
    @Test func yun2winConnectAndPublish() {
        // BEGIN task
        let clientID = Yun2winClientID(isReconnect: false, platform: .web, uuid: "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        let connect = MQTTConnect(
            version: Yun2winPlatform.web.mqttVersion, keepAlive: Yun2winPlatform.web.keepAlive, clientID: clientID.text,
            username: "u1", password: Array("imToken".utf8))
        let send = Yun2winCommand.sendMessage(
            Yun2winSendMessage(y2wMessageID: "m1", mts: JSONNumber(1), message: ["syncs": []]))
        let bytes =
            MQTTPacketEncoder.encode(.connect(connect))
            + MQTTPacketEncoder.encode(.publish(MQTTPublish(topic: "y2w/session/p2p_2", payload: send.payload)))
        // END task
        var codec = Yun2winCodec()
        let decoded = codec.feed(bytes, direction: .send) + codec.finish(direction: .send)
        #expect(decoded.count == 2 && decoded.allSatisfy { $0.findings.isEmpty })
    }

    /// A JMessage login event's wire text (the password as the SDK sends it: its MD5).
    @Test func jmessageLogin() throws {
        // BEGIN task
        let text = JMessageCodec.encode(try JMessageLogin(username: "alice", password: .plain("secret"), rid: 1).event)
        // END task
        let decoded = JMessageCodec.decode(text, direction: .send)
        #expect(decoded.findings.isEmpty && decoded.event?.name == "login")
    }

    /// What a Web SDK does after its link drops: the reconnect machine's timer and its next connect.
    @Test func reconnectAfterADrop() {
        // BEGIN task
        var client = ReconnectSimulator(policy: NIMPolicies.web)
        for (time, event): (Int64, ReconnectEvent) in [
            (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
        ] {
            _ = client.feed(event, atMillis: time)
        }
        _ = client.feed(.loginResponse(code: 200, waitMillis: nil), atMillis: 3)
        let steps = client.feed(.transportClosed(code: nil), atMillis: 10_000) + client.advance(toMillis: 12_000)
        // END task
        #expect(steps.flatMap(\.commands).contains { if case .scheduleTimer(.retry, _) = $0 { true } else { false } })
        #expect(steps.last?.commands.contains(.openTransport) == true && client.misfits.isEmpty)
    }
}
