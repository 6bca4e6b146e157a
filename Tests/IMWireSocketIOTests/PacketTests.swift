import IMWireCore
import IMWireSocketIO
import Testing

@Suite struct SocketIO09Tests {
    @Test func messagePacketKeepsColonsInItsData() throws {
        let decoded = SocketIO09Decoder.decode(Array(#"3:::{"SID":2,"CID":3}"#.utf8))
        #expect(decoded.findings.isEmpty)
        let packet = try #require(decoded.packets.first)
        #expect(packet.type == .message)
        #expect(packet.data == #"{"SID":2,"CID":3}"#)
        #expect(packet.dataOffset == 4)
        #expect(packet.encoded == #"3:::{"SID":2,"CID":3}"#)
    }

    @Test(arguments: [
        "2::", "1::", "0::/chat", "8::", #"5:1+::{"name":"hi","args":[1]}"#, "6:::4+[\"A\"]", "7:::1+0",
        #"4:::{"a":1}"#, "3:7::hello",
    ])
    func canonicalPacketsRoundTrip(text: String) throws {
        let decoded = SocketIO09Decoder.decode(Array(text.utf8))
        #expect(decoded.findings.isEmpty, "\(decoded.findings)")
        let packet = try #require(decoded.packets.first)
        #expect(packet.encoded == text)
        let json = SocketIOCanonicalJSON.encode(packet)
        #expect(try SocketIOCanonicalJSON.decode09(json).encoded == text)
    }

    @Test(arguments: [
        ("9::", "SIO.V09-TYPE-UNKNOWN", 0), ("3", "SIO.V09-PACKET-MALFORMED", 0),
        ("3:x:", "SIO.V09-PACKET-MALFORMED", 2),
        ("5:::[1]", "SIO.V09-EVENT-INVALID", 4), ("4:::{", "SIO.V09-JSON-INVALID", 5),
        ("6:::x", "SIO.V09-ACK-INVALID", 4),
        ("2:::beat", "SIO.V09-DATA-UNEXPECTED", 4), ("7:::9", "SIO.V09-ERROR-INVALID", 4),
    ])
    func malformedPacketsGiveFindings(text: String, rule: String, offset: Int) {
        let decoded = SocketIO09Decoder.decode(Array(text.utf8))
        #expect(decoded.findings.map(\.ruleID.rawValue) == [rule])
        #expect(decoded.findings.first?.offset == offset)
    }

    @Test func framedPayloadCountsUTF16Units() {
        // "3:::é😀" is 6 UTF-16 units; the emoji counts twice.
        let text = "\u{fffd}7\u{fffd}3:::é😀\u{fffd}3\u{fffd}2::"
        let decoded = SocketIO09Decoder.decode(Array(text.utf8))
        #expect(decoded.findings.isEmpty, "\(decoded.findings)")
        #expect(decoded.packets.map(\.type) == [.message, .heartbeat])
        #expect(decoded.packets.first?.data == "é😀")
        let overrun = SocketIO09Decoder.decode(Array("\u{fffd}9\u{fffd}2::".utf8))
        #expect(overrun.findings.map(\.ruleID.rawValue) == ["SIO.V09-FRAMING-INVALID"])
    }

    @Test func handshakeAndURL() {
        let (handshake, findings) = SocketIO09Handshake.decode(Array("4d4f185e96a7b:15:25:websocket,xhr-polling".utf8))
        #expect(findings.isEmpty)
        #expect(handshake?.heartbeatTimeout == 15 && handshake?.transports == ["websocket", "xhr-polling"])
        #expect(
            SocketIOTransport.from(url: "wss://weblink.netease.im/socket.io/1/websocket/abc").0
                == .v09(transport: "websocket", sid: "abc"))
        #expect(
            SocketIOTransport.from(url: "wss://ws.im.jiguang.cn/socket.io/?EIO=3&transport=websocket").0
                == .engineIO(version: 3, transport: "websocket", sid: nil))
        #expect(SocketIOTransport.from(url: "wss://example.com/chat").0 == nil)
        // Over HTTP: the 0.9 handshake and xhr-polling, engine.io polling; each judged for what HTTP should ask.
        #expect(
            SocketIOTransport.from(url: "/socket.io/1/?t=1700000000000", overWebSocket: false) == (.v09Handshake, []))
        #expect(
            SocketIOTransport.from(url: "/socket.io/1/xhr-polling/abc?t=1", overWebSocket: false).0
                == .v09(transport: "xhr-polling", sid: "abc"))
        #expect(SocketIOTransport.from(url: "/socket.io/1/xhr-polling/abc", overWebSocket: false).1.isEmpty)
        #expect(
            SocketIOTransport.from(url: "/socket.io/1/xhr-polling/abc", overWebSocket: true).1.map(\.ruleID) == [
                "SIO.V09-URL-INVALID"
            ])
        #expect(
            SocketIOTransport.from(url: "/socket.io/?EIO=3&transport=polling&sid=x", overWebSocket: false)
                == (.engineIO(version: 3, transport: "polling", sid: "x"), []))
        #expect(
            SocketIOTransport.from(url: "/socket.io/?EIO=3&transport=polling", overWebSocket: true).1.map(\.ruleID) == [
                "EIO.URL-INVALID"
            ])
    }
}

@Suite struct EngineIOTests {
    @Test func eventInsideMessage() throws {
        let message = EngineIOMessage.decode(Array(#"42["ack",{"rid":7}]"#.utf8), binaryFrame: false)
        #expect(message.findings.isEmpty)
        #expect(message.engineIO?.type == .message)
        let packet = try #require(message.socketIO)
        #expect(packet.eventName == "ack" && packet.args == [["rid": 7]])
        #expect(EngineIOMessage.encode(packet) == Array(#"42["ack",{"rid":7}]"#.utf8))
    }

    /// Found by the SocketIO fuzz target (Fuzz/FailCases/SocketIO/crash-7eac016d…): a query on
    /// the root namespace was dropped by the encoding.
    @Test(arguments: ["0/?token=x,", "1/?EIO=3,", "0/chat?token=x,", "0/chat,", "2/,1[\"a\"]"])
    func namespaceAndQuerySurviveTheEncoding(text: String) throws {
        let (packet, _) = SocketIOPacket.decode(Array(text.utf8))
        let decoded = try #require(packet)
        let (again, _) = SocketIOPacket.decode(Array(decoded.encoded.utf8))
        #expect(
            again.map(SocketIOCanonicalJSON.encode) == SocketIOCanonicalJSON.encode(decoded),
            "\(text) -> \(decoded.encoded)")
        if text.contains("?") { #expect(decoded.encoded == text) }
    }

    @Test func openHandshake() {
        let text = #"0{"sid":"abc","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"#
        let message = EngineIOMessage.decode(Array(text.utf8), binaryFrame: false)
        #expect(message.findings.isEmpty)
        #expect(message.engineIO?.handshake?.pingInterval == 25000)
        let bad = EngineIOMessage.decode(Array(#"0{"sid":1}"#.utf8), binaryFrame: false)
        #expect(bad.findings.map(\.ruleID.rawValue) == ["EIO.OPEN-INVALID"])
    }

    @Test(arguments: [
        ("7", "EIO.TYPE-UNKNOWN", 0), ("", "EIO.PACKET-EMPTY", 0), ("42{\"a\":1}", "SIO.PAYLOAD-INVALID", 2),
        ("42[]", "SIO.EVENT-NAME-INVALID", 2), ("43[1]", "SIO.ACK-WITHOUT-ID", 2), ("49", "SIO.TYPE-UNKNOWN", 1),
        ("451-[\"x\"]", "SIO.ATTACHMENTS-INVALID", 4), ("40/chat", "SIO.NAMESPACE-WITHOUT-COMMA", 2),
    ])
    func malformed(text: String, rule: String, offset: Int) {
        let message = EngineIOMessage.decode(Array(text.utf8), binaryFrame: false)
        #expect(message.findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue) == [rule])
        #expect(message.findings.first?.offset == offset)
    }

    @Test func binaryEventWaitsForItsAttachment() {
        var session = EngineIOSession()
        let open = EngineIOMessage.decode(
            Array(#"0{"sid":"s","upgrades":[],"pingInterval":25000,"pingTimeout":5000}"#.utf8), binaryFrame: false)
        #expect(session.observe(open, direction: .receive, timeMicros: 0, frameIndex: 1).findings.isEmpty)
        _ = session.observe(
            EngineIOMessage.decode(Array("40".utf8), binaryFrame: false), direction: .receive, timeMicros: 1,
            frameIndex: 2)
        let event = EngineIOMessage.decode(Array(#"451-["up",{"_placeholder":true,"num":0}]"#.utf8), binaryFrame: false)
        let first = session.observe(event, direction: .send, timeMicros: 2, frameIndex: 3)
        #expect(first.completed.isEmpty && first.findings.isEmpty)
        let attachment = EngineIOMessage.decode([4, 1, 2, 3], binaryFrame: true)
        let second = session.observe(attachment, direction: .send, timeMicros: 3, frameIndex: 4)
        #expect(second.completed.first?.packet.buffers == [[1, 2, 3]])
        #expect(second.completed.first?.frameIndex == 3)
        // A ping that never gets its pong, then a late one.
        _ = session.observe(
            EngineIOMessage.decode(Array("2".utf8), binaryFrame: false), direction: .send, timeMicros: 4, frameIndex: 5)
        let late = session.observe(
            EngineIOMessage.decode(Array("2".utf8), binaryFrame: false), direction: .send,
            timeMicros: 40_000_000, frameIndex: 6)
        #expect(late.findings.map(\.ruleID.rawValue).sorted() == ["EIO.PING-LATE", "EIO.PING-UNANSWERED"])
    }
}

/// The socket.io 0.9 handshake body (`GET /socket.io/1/` → `sid:heartbeat:close:transports`,
/// socket.io-spec 0.9 §Handshake): good bodies round-trip, bad ones give their rule at the field.
@Suite struct SocketIO09HandshakeTests {
    @Test(
        arguments: [
            ("4d4f185e96a7b:15:25:websocket,xhr-polling", 15, 25, ["websocket", "xhr-polling"]),
            ("abc:60:60:websocket", 60, 60, ["websocket"]),
            (
                "abc:::websocket,flashsocket,htmlfile,xhr-polling,jsonp-polling", nil, nil,
                ["websocket", "flashsocket", "htmlfile", "xhr-polling", "jsonp-polling"]
            ),
            ("abc:0:25:websocket", 0, 25, ["websocket"]),
        ] as [(String, Int?, Int?, [String])])
    func goodBodiesRoundTrip(text: String, heartbeat: Int?, close: Int?, transports: [String]) {
        let (handshake, findings) = SocketIO09Handshake.decode(Array(text.utf8))
        #expect(findings.isEmpty, "\(findings)")
        #expect(
            handshake?.heartbeatTimeout == heartbeat && handshake?.closeTimeout == close
                && handshake?.transports == transports)
        #expect(handshake?.encoded == text)
        #expect(handshake?.json["transports"] == .array(transports.map(JSONValue.string)))
    }

    @Test(
        arguments: [
            ("abc:15:25", "SIO.V09-HANDSHAKE-INVALID", 0, false),
            (":15:25:websocket", "SIO.V09-HANDSHAKE-INVALID", 0, false),
            ("abc:15:25:websocket:extra", "SIO.V09-HANDSHAKE-INVALID", 0, false),
            ("abc:1x:25:websocket", "SIO.V09-HANDSHAKE-INVALID", 4, false),
            ("abc:15:-1:websocket", "SIO.V09-HANDSHAKE-INVALID", 7, false),
            ("abc:15:+2:websocket", "SIO.V09-HANDSHAKE-INVALID", 7, false),
            // A colon splits before a combining mark too, as the server's split(':') splits code
            // units (as Characters, `:\u{301}` was one and the body had three fields).
            ("abc:15:\u{301}25:websocket", "SIO.V09-HANDSHAKE-INVALID", 7, false),
            ("abc:15:25:xhr-polling,jsonp-polling", "SIO.V09-HANDSHAKE-NO-WEBSOCKET", 10, true),
            ("abc:15:25:", "SIO.V09-HANDSHAKE-NO-WEBSOCKET", 10, true),
        ] as [(String, String, Int, Bool)])
    func badBodiesGiveTheirRule(text: String, rule: String, offset: Int, stillParsed: Bool) {
        let (handshake, findings) = SocketIO09Handshake.decode(Array(text.utf8))
        #expect(findings.map(\.ruleID.rawValue) == [rule], "\(findings)")
        #expect(findings.first?.offset == offset)
        #expect((handshake != nil) == stillParsed)
    }

    @Test func invalidUTF8IsReportedAtItsByte() {
        let (handshake, findings) = SocketIO09Handshake.decode(
            Array("abc:15:".utf8) + [0xff] + Array(":websocket".utf8))
        #expect(
            handshake == nil && findings.map(\.ruleID.rawValue) == ["SIO.TEXT-NOT-UTF8"] && findings.first?.offset == 7)
    }
}

/// A packet of a long-poll body shows its size, not its bytes (a login's carry its password).
@Suite struct PollPacketFormattingTests {
    @Test func everyFormShowsTheSizeAndNotTheBytes() throws {
        let event = Array(#"42["login",{"username":"alice","password":"hunter2-secret"}]"#.utf8)
        let packet = try #require(EngineIOPayload.decode(EngineIOPayload.encodeText([event])).packets.first)
        #expect(packet.bytes == event)
        var dumped = ""
        dump(packet, to: &dumped)
        for text in ["\(packet)", String(reflecting: packet), dumped, "\([packet])"] {
            #expect(!text.contains("hunter2") && text.contains("\(event.count) bytes"), "\(text)")
            #expect(!text.contains(event.prefix(6).map(String.init).joined(separator: ", ")), "\(text)")
        }
    }
}
