import Foundation
import IMWireCore
import IMWireNIM
import Testing

/// What the genuine NIM Web SDK 8.5.0 sends and does, as recorded in
/// Fixtures/captures/vendor-sdk/nim (issue 32): each packet below is copied from a recording.
@Suite struct NIMVendorSDKTests {
    private func decode(_ text: String, _ direction: Direction = .send) -> NIMMessage {
        NIMCodec.decode(Array(text.utf8), direction: direction)
    }

    /// createCmd adds Q only for a command with a params list; heartbeat has none (nim-clean).
    @Test func heartbeatWithoutQIsWhatTheSDKSends() {
        let message = decode(#"3:::{"SID":1,"CID":2,"SER":0}"#)
        #expect(message.findings.isEmpty, "\(message.findings)")
        guard case .request(let request)? = message.items.first?.nim else {
            Issue.record("no request")
            return
        }
        #expect(request.isHeartbeat && request.params.isEmpty)
        // A command that needs its parameter still does.
        #expect(decode(#"3:::{"SID":2,"CID":3,"SER":1}"#).findings.map(\.ruleID.rawValue) == ["NIM.Q-MISMATCH"])
        #expect(
            decode(#"3:::{"SID":1,"CID":2,"SER":0,"Q":{}}"#).findings.map(\.ruleID.rawValue) == ["NIM.REQUEST-INVALID"])
    }

    /// 4_5 batchMarkRead, sent for every message the SDK receives (nim-clean).
    @Test func batchMarkReadTypesAreTheSDKs() {
        let ack = #"""
            3:::{"SID":4,"CID":5,"SER":6,"Q":[{"t":"byte","v":7},\#
            {"t":"byte","v":2},{"t":"LongArray","v":["800001"]}]}
            """#
        #expect(decode(ack).findings.isEmpty, "\(decode(ack).findings)")
        let other =
            #"""
            3:::{"SID":8,"CID":9,"SER":3,"Q":[{"t":"longArray","v":[1,2]},\#
            {"t":"string","v":"x"},{"t":"StrStrMap","v":{"a":"b"}},{"t":"ph","v":1}]}
            """#
        #expect(decode(other).findings.filter { $0.ruleID.rawValue == "NIM.Q-ITEM-INVALID" }.isEmpty)
        let bad = #"3:::{"SID":4,"CID":5,"SER":6,"Q":[{"t":"byte","v":"7"},{"t":"LongArray","v":["x"]}]}"#
        #expect(decode(bad).findings.map(\.ruleID.rawValue) == ["NIM.Q-ITEM-INVALID", "NIM.Q-ITEM-INVALID"])
    }

    private func loggedIn() -> NIMConnection {
        let connection = NIMConnection()
        _ = connection.observe(Array("1::".utf8), direction: .receive, timeMicros: 0, frameIndex: 1)
        _ = connection.observe(
            Array(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"8":1,"19":"alice"}}]}"#.utf8),
            direction: .send,
            timeMicros: 1000, frameIndex: 2)
        _ = connection.observe(
            Array(#"3:::{"sid":2,"cid":3,"ser":1,"code":200,"r":[]}"#.utf8), direction: .receive, timeMicros: 2000,
            frameIndex: 3)
        return connection
    }

    /// nim-kick: reason 1 ends the session (onKicked → onAuthError); the kick is named.
    @Test func kickIsNamedAndEndsTheSession() {
        let connection = loggedIn()
        let findings = connection.observe(
            Array(#"3:::{"sid":2,"cid":5,"ser":0,"code":200,"r":[16,1,"",0]}"#.utf8), direction: .receive,
            timeMicros: 3_000_000,
            frameIndex: 4
        ).observation.findings
        let kicked = findings.filter { $0.ruleID.rawValue == "NIM.KICKED" }
        #expect(kicked.count == 1)
        #expect(kicked.first?.message.contains("samePlatformKick") == true)
        #expect(connection.endedAccounts["alice"] != nil)
        #expect(connection.sessionFacts.end == .kicked(code: 1))
    }

    /// nim-kick-silent: reason 4 is forceDisconnect + onDisconnect(1): the SDK logs in again by
    /// itself 1.6 s later, which is not a forbidden re-login.
    @Test func silentKickIsFollowedByTheSDKsOwnReconnect() {
        let connection = loggedIn()
        let findings = connection.observe(
            Array(#"3:::{"sid":2,"cid":5,"ser":0,"code":200,"r":[16,4,"",0]}"#.utf8), direction: .receive,
            timeMicros: 3_000_000,
            frameIndex: 4
        ).observation.findings
        #expect(findings.contains { $0.ruleID.rawValue == "NIM.KICKED" && $0.message.contains("reconnects") })
        #expect(connection.endedAccounts["alice"] == nil)
        let next = NIMConnection(endedAccounts: connection.endedAccounts)
        let relogin = next.observe(
            Array(#"3:::{"SID":2,"CID":3,"SER":5,"Q":[{"t":"Property","v":{"8":0,"19":"alice"}}]}"#.utf8),
            direction: .send,
            timeMicros: 4_700_000, frameIndex: 1)
        #expect(!relogin.observation.findings.contains { $0.ruleID.rawValue == "NIM.AUTO-RELOGIN" })
        #expect(NIMWebCodes.kickReconnects(4) && !NIMWebCodes.kickReconnects(1))
    }
}

extension NIMVendorSDKTests {
    /// nim-error: after 416 r=[3] the SDK numbers the next send (SER 7) and drops it locally
    /// inside the lockout, so the send after it goes out with SER 8.
    @Test func aLockoutMaySwallowASER() {
        var tracker = NIMSessionTracker()
        func feed(_ text: String, _ direction: Direction, _ time: Int64) -> [Finding] {
            tracker.observe(
                NIMCodec.decode(Array(text.utf8), direction: direction), direction: direction, timeMicros: time,
                frameIndex: 0)
        }
        _ = feed(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#, .send, 0)
        _ = feed(#"3:::{"sid":2,"cid":3,"ser":1,"code":200,"r":[]}"#, .receive, 1000)
        let msg = #"[{"t":"Property","v":{"0":0,"1":"bob","8":0,"9":"hi","11":"c"}}]"#
        _ = feed(#"3:::{"SID":7,"CID":1,"SER":6,"Q":\#(msg)}"#, .send, 1_000_000)
        _ = feed(#"3:::{"sid":7,"cid":1,"ser":6,"code":416,"r":[3]}"#, .receive, 1_001_000)
        let after = feed(#"3:::{"SID":7,"CID":1,"SER":8,"Q":\#(msg)}"#, .send, 5_000_000)
        #expect(!after.contains { $0.ruleID.rawValue == "NIM.SER-NOT-SEQUENTIAL" })
        // Without a lockout a gap is still reported.
        let gap = feed(#"3:::{"SID":7,"CID":1,"SER":10,"Q":\#(msg)}"#, .send, 9_000_000)
        #expect(gap.contains { $0.ruleID.rawValue == "NIM.SER-NOT-SEQUENTIAL" })
    }
}

/// Replays the transcripts of the genuine SDK's recordings (Fixtures/captures/vendor-sdk/nim,
/// made by Tests/VendorSDKs/nim/record.sh) through the NIM dialect, connection by connection in
/// capture order: the dialect alone finds nothing at warning or above in any of them, and names
/// each kick. (The reconnect judge and the capture layer are checked on the pcapng files by
/// `imwire check`, against manifest.json.)
@Suite struct NIMVendorSDKRecordingTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/captures/vendor-sdk/nim")

    private func replay(_ name: String) throws -> [Finding] {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("\(name).jsonl"), encoding: .utf8)
        var connections: [String: NIMConnection] = [:]
        var ended: [String: String] = [:]
        var findings: [Finding] = []
        var frame = 0
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let conn = object["conn"] as? String
            else { continue }
            frame += 1
            if object["type"] as? String == "open" {
                connections[conn] = NIMConnection(endedAccounts: ended)
                continue
            }
            guard let connection = connections[conn] else { continue }
            if object["type"] as? String == "close" {
                ended.merge(connection.endedAccounts) { _, new in new }
                continue
            }
            guard let payload = object["text"] as? String, let direction = object["dir"] as? String,
                let seconds = object["t"] as? Double
            else { continue }
            findings +=
                connection.observe(
                    Array(payload.utf8), direction: direction == "send" ? .send : .receive,
                    timeMicros: Int64(seconds * 1_000_000),
                    frameIndex: frame
                ).observation.findings
            ended.merge(connection.endedAccounts) { _, new in new }
        }
        return findings
    }

    @Test(arguments: [
        "nim-clean", "nim-drop", "nim-refuse", "nim-kick", "nim-kick-silent", "nim-error", "nim-hb-unanswered",
    ])
    func recordingChecksAsTheSDKBehaves(_ name: String) throws {
        guard FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent("\(name).jsonl").path) else {
            return
        }
        let findings = try replay(name)
        // The only warnings: the two heartbeats the mock left unanswered on purpose.
        let serious = findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue)
        #expect(
            serious == (name == "nim-hb-unanswered" ? ["NIM.REQUEST-UNANSWERED", "NIM.REQUEST-UNANSWERED"] : []),
            "\(name): \(serious)")
        let kicks = findings.filter { $0.ruleID.rawValue == "NIM.KICKED" }.count
        #expect(kicks == (name.hasPrefix("nim-kick") ? 1 : 0))
        let refused = findings.filter { $0.ruleID.rawValue == "NIM.RESPONSE-ERROR" }.count
        #expect(refused == (name == "nim-error" ? 3 : 0))
    }
}

extension NIMVendorSDKTests {
    /// nim-hb-unanswered: the SDK resends the heartbeat the moment the first one times out; a
    /// capture may date the resend just under 5 s later. That is an unanswered heartbeat, not a
    /// reused SER; a second SER 0 well inside the 5 s still is.
    @Test func heartbeatResendAtItsTimeoutIsNotAReusedSER() {
        var tracker = NIMSessionTracker()
        func feed(_ text: String, _ direction: Direction, _ time: Int64) -> [String] {
            tracker.observe(
                NIMCodec.decode(Array(text.utf8), direction: direction), direction: direction, timeMicros: time,
                frameIndex: 0
            )
            .map(\.ruleID.rawValue)
        }
        _ = feed(#"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice"}}]}"#, .send, 0)
        _ = feed(#"3:::{"sid":2,"cid":3,"ser":1,"code":200,"r":[]}"#, .receive, 1000)
        _ = feed(#"3:::{"SID":1,"CID":2,"SER":0}"#, .send, 30_000_000)
        let resend = feed(#"3:::{"SID":1,"CID":2,"SER":0}"#, .send, 34_999_800)
        #expect(resend == ["NIM.REQUEST-UNANSWERED"])
        let early = feed(#"3:::{"SID":1,"CID":2,"SER":0}"#, .send, 36_000_000)
        #expect(early == ["NIM.SER-REUSED"])
    }
}
