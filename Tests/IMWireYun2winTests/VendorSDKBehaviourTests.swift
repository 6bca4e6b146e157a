import Foundation
import IMWireCore
import IMWireReconnect
import IMWireYun2win
import Testing

/// What the genuine yun2win web SDK (y2wIMSDK.min.js, Nov 2016, under Node 20) did against
/// Tests/VendorSDKs/yun2win/server.py: the transcripts of Fixtures/captures/vendor-sdk/yun2win
/// (see its manifest.json), replayed connection by connection through the dialect, and the
/// connections through the reconnect judge with the policy the client id names.
@Suite struct Yun2winVendorSDKBehaviourTests {
    struct Connection {
        var id: String
        var messages: [(time: Int64, direction: Direction, bytes: [UInt8])] = []
        var closed: Int64?
    }

    struct Replay {
        /// Rule IDs (every severity) of each connection, in order.
        var rules: [[String]]
        var observations: [ConnectionObservation]
        var facts: [SessionFacts]
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/captures/vendor-sdk/yun2win")

    static func micros(_ value: Any?) -> Int64 {
        Int64((((value as? NSNumber)?.doubleValue ?? 0) * 1_000_000).rounded())
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    static func transcript(_ scenario: String) throws -> [Connection] {
        let text = try String(
            contentsOf: directory.appendingPathComponent("yun2win-\(scenario).jsonl"), encoding: .utf8)
        var connections: [Connection] = []
        for line in text.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(event["conn"] as? String)
            switch event["type"] as? String {
            case "open": connections.append(Connection(id: id))
            case "close": connections[connections.count - 1].closed = micros(event["t"])
            default:
                let direction: Direction = event["dir"] as? String == "send" ? .send : .receive
                connections[connections.count - 1].messages.append(
                    (micros(event["t"]), direction, bytes(event["hex"] as? String ?? "")))
            }
        }
        return connections
    }

    static func replay(_ scenario: String) throws -> Replay {
        var result = Replay(rules: [], observations: [], facts: [])
        var kicked: Set<String> = []
        for connection in try transcript(scenario) {
            let dialect = Yun2winConnection(kickedUIDs: kicked)
            var findings: [Finding] = []
            for (index, message) in connection.messages.enumerated() {
                findings +=
                    dialect.observe(
                        message.bytes, direction: message.direction, timeMicros: message.time, frameIndex: index
                    ).observation.findings
            }
            findings += dialect.finish(atMicros: connection.closed, frameIndex: connection.messages.count)
            kicked = dialect.kickedUIDs
            let facts = dialect.sessionFacts
            result.rules.append(findings.map(\.ruleID.rawValue))
            result.facts.append(facts)
            result.observations.append(
                ConnectionObservation(
                    connection: connection.id, opened: connection.messages.first?.time ?? 0, login: facts.login,
                    keepAlive: facts.keepAlive, ended: connection.closed ?? facts.endTimeMicros,
                    end: facts.end ?? (connection.closed == nil ? .open : .closed(code: nil))))
        }
        return result
    }

    /// The judge's rule IDs under `policy`.
    static func judged(_ replay: Replay, _ policy: ReconnectPolicy) -> [String] {
        ReconnectJudge(policy: policy).judge(replay.observations).map(\.ruleID.rawValue)
    }

    /// From each connection's end to the next one's CONNECT, ms.
    static func gapsMillis(_ replay: Replay) -> [Int64] {
        zip(replay.observations, replay.observations.dropFirst()).map { ($1.opened - ($0.ended ?? $0.opened)) / 1000 }
    }

    @Test func theClientIDNamesTheWebPolicy() throws {
        for scenario in ["clean", "drop", "refuse", "kick", "error", "error-token", "error-uid", "no-accept"] {
            #expect(try Self.replay(scenario).facts.allSatisfy { $0.policyName == "yun2win-web" }, "\(scenario)")
        }
    }

    /// Login, sendMessage and updateSession acked 20, a QoS 1 push (PUBACKed) and a QoS 0 one, DISCONNECT.
    @Test func aCleanSessionHasNoFinding() throws {
        let clean = try Self.replay("clean")
        #expect(clean.rules == [[]])
        #expect(clean.facts[0].end == .clientLogout)
    }

    /// One PINGREQ, 300 s after the client's last packet (the timer restarts on every packet sent).
    @Test func theKeepAliveIsIdleBased300Seconds() throws {
        let keepalive = try Self.replay("keepalive")
        #expect(keepalive.rules == [[]])
        let gap = try #require(keepalive.facts[0].keepAlive.longestGap)
        #expect((300_000_000...301_000_000).contains(gap.length), "\(gap.length) µs")
        #expect(Self.judged(keepalive, Yun2winPolicies.web) == [])
    }

    /// A drop, then RSTs of three attempts: the SDK comes back a fixed 1 s after each close
    /// (`setInterval(_reconnect, reconnectPeriod)`, cleared when the attempt starts), prefix 1.
    @Test(arguments: ["drop", "refuse"])
    func reconnectsEverySecondAfterEachClose(scenario: String) throws {
        let replay = try Self.replay(scenario)
        #expect(replay.rules.allSatisfy { $0.isEmpty }, "\(replay.rules)")
        let gaps = Self.gapsMillis(replay)
        #expect(gaps.count == (scenario == "drop" ? 1 : 4))
        #expect(gaps.allSatisfy { (1000...1100).contains($0) }, "\(gaps)")
        #expect(replay.observations.dropFirst().allSatisfy { $0.login?.reconnectFlag == true })
        #expect(Self.judged(replay, Yun2winPolicies.web) == [])
        if scenario == "refuse" {
            // Another platform's schedule would call the genuine web client a storm.
            #expect(Self.judged(replay, Yun2winPolicies.android) == ["RECONNECT.STORM"])
        }
    }

    /// PUBLISH {"returnCode":10}: the SDK sends DISCONNECT, reports disconnected(100, 10) and
    /// stays away. The kick is named; the DISCONNECT is no command after the kick.
    @Test func aKickIsNamedAndEndsTheChain() throws {
        let kick = try Self.replay("kick")
        #expect(kick.rules == [["Y2W.KICKED"]])
        #expect(kick.facts[0].end == .kicked(code: 10))
    }

    /// CONNACK 7, a retry 1 s later with prefix 0 (never connected), then acks 26 (→ updateSession,
    /// resend) and 31: each refusal is named.
    @Test func refusedLoginAndSendsAreNamed() throws {
        let error = try Self.replay("error")
        #expect(error.rules == [["Y2W.CONNACK-YUN2WIN-MEANING"], ["Y2W.SESSION-OUT-OF-SYNC", "Y2W.SEND-REFUSED"]])
        #expect(error.observations[1].login?.reconnectFlag == false)
        #expect(Self.gapsMillis(error).allSatisfy { (1000...1100).contains($0) })
        #expect(Self.judged(error, Yun2winPolicies.web) == [])
    }

    /// CONNACK 5: the SDK stops; the app's reconnect(token) 6 s later is no automatic reconnect.
    /// CONNACK 4: the SDK stops without a word to the app.
    @Test func terminalLoginCodesStop() throws {
        let token = try Self.replay("error-token")
        #expect(token.rules == [["Y2W.CONNACK-YUN2WIN-MEANING"], []])
        #expect(token.facts[0].end == .loginRejected(code: 5, waitMicros: nil))
        #expect(Self.judged(token, Yun2winPolicies.web) == [])
        let uid = try Self.replay("error-uid")
        #expect(uid.rules == [["Y2W.CONNACK-YUN2WIN-MEANING"]])
        #expect(uid.facts[0].end == .loginRejected(code: 4, waitMicros: nil))
    }

    /// CONNACK 0 and never {"returnCode":11}: the SDK's 10-s timer stopped at CONNACK, so it waits
    /// (25 s recorded) without a retry or a ping; the login is not accepted.
    @Test func withoutReturnCode11TheClientWaits() throws {
        let waiting = try Self.replay("no-accept")
        #expect(waiting.rules == [[]])
        #expect(waiting.facts[0].login?.accepted == nil)
        #expect(waiting.observations.count == 1)
    }
}
