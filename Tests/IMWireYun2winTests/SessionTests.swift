import IMWireCore
import IMWireMQTT
import Testing

@testable import IMWireYun2win

/// Builds the bytes of a yun2win conversation.
enum Wire {
    static let uuid = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

    static func connect(uid: String = "u1", reconnect: Bool = false, platform: Yun2winPlatform = .web) -> [UInt8] {
        MQTTPacketEncoder.encode(
            .connect(
                MQTTConnect(
                    version: platform.mqttVersion, keepAlive: platform.keepAlive,
                    clientID: "\(reconnect ? 1 : 0)\(platform.digit)\(uuid)",
                    username: uid, password: Array("token".utf8))))
    }
    static func connack(_ code: UInt8) -> [UInt8] { MQTTPacketEncoder.encode(.connack(MQTTConnack(returnCode: code))) }
    static func server(_ json: String) -> [UInt8] { publish("y2w/u1", json) }
    static func send(_ id: String, session: String = "p2p_2") -> [UInt8] {
        publish(
            "y2w/session/\(session)",
            #"{"cmd":"sendMessage","y2wMessageId":"\#(id)","mts":1,"message":{"syncs":[{"type":0}]}}"#)
    }
    static func update(_ id: String, session: String = "p2p_2") -> [UInt8] {
        publish(
            "y2w/session/\(session)",
            #"""
            {"cmd":"updateSession","y2wMessageId":"\#(id)","mts":1,\#
            "members":[{"uid":"u1","isDel":false}],"force":true,"message":{}}
            """#)
    }
    static func ack(_ id: String, _ code: Int, mts: Bool = false) -> [UInt8] {
        server(#"{"y2wMessageId":"\#(id)","returnCode":\#(code)\#(mts ? #","mts":9"# : "")}"#)
    }
    static let pingreq = MQTTPacketEncoder.encode(.pingreq)
    static let pingresp = MQTTPacketEncoder.encode(.pingresp)
    static let disconnect = MQTTPacketEncoder.encode(.disconnect)

    static func publish(_ topic: String, _ json: String) -> [UInt8] {
        MQTTPacketEncoder.encode(.publish(MQTTPublish(topic: topic, payload: Array(json.utf8))))
    }
}

/// Runs (seconds, direction, bytes) through a connection; returns the warning/error rule IDs.
func run(
    _ events: [(Double, Direction, [UInt8])], kicked: Set<String> = [], end: Double? = nil,
    connection: Yun2winConnection
) -> [String] {
    var findings: [Finding] = []
    for (index, event) in events.enumerated() {
        findings +=
            connection.observe(event.2, direction: event.1, timeMicros: Int64(event.0 * 1_000_000), frameIndex: index)
            .observation.findings
    }
    findings += connection.finish(atMicros: end.map { Int64($0 * 1_000_000) }, frameIndex: events.count)
    return findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue)
}

func run(_ events: [(Double, Direction, [UInt8])], kicked: Set<String> = [], end: Double? = nil) -> [String] {
    let connection = Yun2winConnection(kickedUIDs: kicked)
    return run(events, end: end, connection: connection)
}

@Suite("yun2win session")
struct SessionTests {
    static let established: [(Double, Direction, [UInt8])] = [
        (0, .send, Wire.connect()), (0.1, .receive, Wire.connack(0)),
        (0.2, .receive, Wire.server(#"{"returnCode":11}"#)),
    ]

    @Test func cleanSessionHasNoFindings() {
        let connection = Yun2winConnection()
        let result = run(
            Self.established + [
                (1, .send, Wire.send("m1")), (1.2, .receive, Wire.ack("m1", 20)),
                (200, .send, Wire.pingreq), (200.1, .receive, Wire.pingresp),
                (201, .send, Wire.disconnect),
            ], end: 202, connection: connection)
        #expect(result == [])
        #expect(connection.tracker.phase == .disconnected)
    }

    /// A sendMessage whose mts is a string is one defect: its own finding, and its ack is still
    /// matched (not an ACK-WITHOUT-REQUEST); unanswered, its timeout is information only.
    @Test func aMalformedCommandIsReportedOnce() {
        let malformed = Wire.publish(
            "y2w/session/p2p_2",
            #"{"cmd":"sendMessage","y2wMessageId":"m1","mts":"soon","message":{"syncs":[{"type":0}]}}"#)
        let answered = run(Self.established + [(1, .send, malformed), (1.2, .receive, Wire.ack("m1", 20))], end: 2)
        #expect(answered == ["Y2W.MTS-INVALID"])
        let connection = Yun2winConnection()
        _ = run(Self.established + [(1, .send, malformed)], end: 30, connection: connection)
        let unanswered = connection.finish(atMicros: 30_000_000, frameIndex: 5)
        #expect(unanswered.allSatisfy { $0.ruleID != Yun2winRules.sendUnanswered.id || $0.severity == .info })
    }

    @Test func publishBeforeAcceptIsReported() {
        #expect(
            run([
                (0, .send, Wire.connect()), (0.1, .receive, Wire.connack(0)), (0.2, .send, Wire.send("m1")),
                (0.3, .receive, Wire.ack("m1", 20)),
            ]) == ["Y2W.PUBLISH-BEFORE-ESTABLISHED"])
    }

    @Test func firstPacketAndDirection() {
        #expect(
            run([(0, .send, Wire.pingreq), (0.1, .send, Wire.connect()), (0.2, .send, Wire.connack(0))])
                == ["Y2W.FIRST-PACKET-NOT-CONNECT", "Y2W.WRONG-DIRECTION"])
        #expect(
            run([(0, .send, Wire.connect()), (0.1, .receive, Wire.server(#"{"returnCode":11}"#))]) == [
                "Y2W.SERVER-BEFORE-CONNACK"
            ])
        #expect(run(Self.established + [(1, .send, Wire.connect())]) == ["Y2W.SECOND-CONNECT"])
    }

    @Test func acksAreMatchedByMessageID() {
        #expect(run(Self.established + [(1, .send, Wire.send("m1"))], end: 20) == ["Y2W.SEND-UNANSWERED"])
        #expect(
            run(Self.established + [(1, .send, Wire.send("m1")), (12, .receive, Wire.ack("m1", 20))])
                == ["Y2W.SEND-UNANSWERED", "Y2W.ACK-WITHOUT-REQUEST"])
        #expect(run(Self.established + [(1, .receive, Wire.ack("zz", 20))]) == ["Y2W.ACK-WITHOUT-REQUEST"])
        #expect(
            run(
                Self.established + [
                    (1, .send, Wire.send("m1")), (1.1, .send, Wire.send("m1")), (1.2, .receive, Wire.ack("m1", 20)),
                ])
                == ["Y2W.DUPLICATE-MESSAGE-ID"])
        // Still in time when the capture ends: info only.
        #expect(run(Self.established + [(1, .send, Wire.send("m1"))], end: 2) == [])
    }

    @Test(arguments: [26, 27, 28])
    func resendNeedsAnUpdateSession(code: Int) {
        let mts = code != 26
        #expect(
            run(
                Self.established + [
                    (1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", code, mts: mts)),
                    (1.2, .send, Wire.send("m2")), (1.3, .receive, Wire.ack("m2", 20)),
                ])
                == ["Y2W.RESEND-WITHOUT-UPDATE-SESSION"])
        #expect(
            run(
                Self.established + [
                    (1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", code, mts: mts)),
                    (1.2, .send, Wire.update("u1")), (1.3, .receive, Wire.ack("u1", 20)),
                    (1.4, .send, Wire.send("m2")), (1.5, .receive, Wire.ack("m2", 20)),
                ]) == [])
        // Another session is not affected.
        #expect(
            run(
                Self.established + [
                    (1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", code, mts: mts)),
                    (1.2, .send, Wire.send("m2", session: "group_9")), (1.3, .receive, Wire.ack("m2", 20)),
                ]) == [])
    }

    @Test func kickedClientMustNotReconnectAutomatically() {
        let first = Yun2winConnection()
        let kicked = run(
            Self.established + [(5, .receive, Wire.server(#"{"returnCode":10}"#)), (5.1, .send, Wire.send("m1"))],
            connection: first)
        #expect(kicked == ["Y2W.COMMAND-AFTER-KICK"])
        #expect(first.kickedUIDs == ["u1"])
        #expect(first.tracker.phase == .kicked)

        // The next connection: an automatic reconnect (prefix 1, same uid) is reported; a fresh login
        // (prefix 0) is not.
        #expect(
            run([(7, .send, Wire.connect(reconnect: true))], kicked: first.kickedUIDs) == ["Y2W.RECONNECT-AFTER-KICK"])
        #expect(run([(7, .send, Wire.connect(reconnect: false))], kicked: first.kickedUIDs) == [])
        #expect(run([(7, .send, Wire.connect(uid: "u2", reconnect: true))], kicked: first.kickedUIDs) == [])
    }

    @Test func aQoS1PushMustBePubackedWithinTheTimeout() {
        let push = MQTTPacketEncoder.encode(
            .publish(
                MQTTPublish(
                    qos: .atLeastOnce, topic: "y2w/u1", packetID: 7,
                    payload: Array(
                        #"{"cmd":"sendMessage","y2wMessageId":"p","mts":1,"message":{"syncs":[{"type":0}]}}"#.utf8))))
        let puback = MQTTPacketEncoder.encode(.puback(packetID: 7))
        let other = MQTTPacketEncoder.encode(.puback(packetID: 8))
        // Acknowledged: nothing; acknowledged with another id, or not at all, 11 s on: the rule.
        #expect(run(Self.established + [(1, .receive, push), (1.1, .send, puback), (12, .send, Wire.pingreq)]) == [])
        #expect(
            run(Self.established + [(1, .receive, push), (1.1, .send, other), (12, .send, Wire.pingreq)]) == [
                "Y2W.PUBLISH-NOT-ACKNOWLEDGED"
            ])
        #expect(run(Self.established + [(1, .receive, push)], end: 12) == ["Y2W.PUBLISH-NOT-ACKNOWLEDGED"])
        // The connection ends within the timeout: no verdict.
        #expect(run(Self.established + [(1, .receive, push)], end: 5) == [])
    }

    @Test func keepAliveIsHonoured() {
        // Android: 30 s keep-alive, the server allows 45 s of silence.
        let android = [
            (0.0, Direction.send, Wire.connect(platform: .android)), (0.1, .receive, Wire.connack(0)),
            (0.2, .receive, Wire.server(#"{"returnCode":11}"#)),
        ]
        #expect(
            run(android + [(44, .send, Wire.pingreq), (88, .send, Wire.pingreq)]).filter { $0.hasPrefix("Y2W") } == [])
        #expect(run(android + [(46, .send, Wire.pingreq)]).filter { $0.hasPrefix("Y2W") } == ["Y2W.KEEPALIVE-EXCEEDED"])
        // A client silent until the connection ends (the server closes it after 1.5 × keep-alive).
        #expect(run(android, end: 60).filter { $0.hasPrefix("Y2W") } == ["Y2W.KEEPALIVE-EXCEEDED"])
        #expect(run(android, end: 40).filter { $0.hasPrefix("Y2W") } == [])
    }

    @Test func refusedConnection() {
        #expect(
            run([(0, .send, Wire.connect()), (0.1, .receive, Wire.connack(5)), (0.2, .send, Wire.send("m1"))]) == [
                "Y2W.AFTER-REFUSAL"
            ])
    }

    @Test func extremeCaptureTimesDoNotTrap() {
        let connection = Yun2winConnection()
        let times: [Int64] = [Int64.min, Int64.max, Int64.min, 0, Int64.max]
        let events = Self.established.map(\.2) + [Wire.send("m1"), Wire.pingreq]
        var findings: [Finding] = []
        for (index, bytes) in events.enumerated() {
            findings +=
                connection.observe(
                    bytes, direction: index == 1 || index == 2 ? .receive : .send,
                    timeMicros: times[index % times.count], frameIndex: index
                ).observation.findings
        }
        findings += connection.finish(atMicros: Int64.max, frameIndex: events.count)
        #expect(findings.contains { $0.ruleID == Yun2winRules.sendUnanswered.id })
    }

    @Test func anyChunkingGivesTheSameFindings() {
        var events: [(Double, Direction, [UInt8])] =
            Self.established + [
                (1, .send, Wire.send("m1")),
                (1.1, .receive, Wire.ack("m1", 26)),
                (1.2, .send, Wire.send("m2")),
            ]
        let whole = run(events, end: 30)
        // Split every message into single bytes (a packet spread over many frames).
        events = events.flatMap { event in event.2.map { (event.0, event.1, [$0]) } }
        #expect(run(events, end: 30) == whole)
        #expect(whole == ["Y2W.RESEND-WITHOUT-UPDATE-SESSION", "Y2W.SEND-UNANSWERED"])
    }

    // The genuine web SDK (y2wIMSDK.min.js, Nov 2016) hands a matched ack's 22, 26, 27, 28, 30 and
    // 31 to onFailure(code): a refused send is named with its code; 26/27/28 ask for an
    // updateSession, part of the demos' normal flow, so they are information.
    @Test(arguments: [
        (22, "Y2W.SEND-REFUSED", Severity.warning), (30, "Y2W.SEND-REFUSED", .warning),
        (31, "Y2W.SEND-REFUSED", .warning),
        (26, "Y2W.SESSION-OUT-OF-SYNC", .info), (27, "Y2W.SESSION-OUT-OF-SYNC", .info),
        (28, "Y2W.SESSION-OUT-OF-SYNC", .info),
    ])
    func refusedSendIsNamed(code: Int, rule: String, severity: Severity) throws {
        let connection = Yun2winConnection()
        var findings: [Finding] = []
        let events =
            Self.established + [
                (1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", code, mts: code == 27 || code == 28)),
            ]
        for (index, event) in events.enumerated() {
            findings +=
                connection.observe(
                    event.2, direction: event.1, timeMicros: Int64(event.0 * 1_000_000), frameIndex: index
                ).observation.findings
        }
        #expect(findings.map(\.ruleID.rawValue) == [rule])
        let refused = try #require(findings.first)
        #expect(refused.severity == severity)
        #expect(refused.message.contains("refused with \(code) "))
        #expect(refused.message.contains("onFailure(\(code))"))
        #expect(refused.location.frameIndex == 4)
    }

    @Test func successAndCodecReportedCodesAreNoRefusal() {
        #expect(run(Self.established + [(1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", 20))]) == [])
        // 21 is client-local and 42 in no table: the codec names them, the session does not again.
        #expect(
            run(Self.established + [(1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", 21))]) == [
                "Y2W.CLIENT-LOCAL-CODE-ON-WIRE"
            ])
        #expect(
            run(Self.established + [(1, .send, Wire.send("m1")), (1.1, .receive, Wire.ack("m1", 42))]) == [
                "Y2W.RETURN-CODE-UNKNOWN"
            ])
    }

    // The genuine web SDK answers a kick with DISCONNECT and reports disconnected(100, 10): the
    // kick is named (information), once, and the DISCONNECT is no command after the kick.
    @Test func kickIsNamedOnce() {
        let kick = Wire.server(#"{"returnCode":10}"#)
        for tail: [(Double, Direction, [UInt8])] in [
            [(5, .receive, kick), (5.1, .send, Wire.disconnect)], [(5, .receive, kick), (5.1, .receive, kick)],
        ] {
            let connection = Yun2winConnection()
            var findings: [Finding] = []
            for (index, event) in (Self.established + tail).enumerated() {
                findings +=
                    connection.observe(
                        event.2, direction: event.1, timeMicros: Int64(event.0 * 1_000_000), frameIndex: index
                    ).observation.findings
            }
            findings += connection.finish(atMicros: 6_000_000, frameIndex: 5)
            #expect(findings.map(\.ruleID.rawValue) == ["Y2W.KICKED"])
            #expect(findings.first?.severity == .info)
            #expect(findings.first?.location.frameIndex == 3)
        }
    }
}
