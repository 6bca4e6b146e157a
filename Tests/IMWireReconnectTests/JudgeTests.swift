import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import IMWireYun2win
import Testing

@testable import IMWireReconnect

/// Hand-made connection lists of one client, judged against a policy.
@Suite struct JudgeTests {
    /// A connection that logs in at once and ends at `end` seconds.
    func session(
        _ id: String, _ open: Double, _ end: Double?, _ how: ConnectionEnd, flag: Bool? = false,
        loggedIn: Bool = true, keepAlive: [Double]? = nil
    ) -> ConnectionObservation {
        let alive = keepAlive ?? Array(stride(from: open + 20, to: end ?? open, by: 20))
        return ConnectionObservation(
            connection: id, opened: µs(open),
            login: LoginObservation(
                sent: µs(open + 0.05), reconnectFlag: flag, accepted: loggedIn ? µs(open + 0.1) : nil),
            keepAlive: KeepAliveLog(alive.map(µs)), ended: end.map(µs), end: how)
    }

    func rules(_ findings: [Finding]) -> [String] { findings.map { "\($0.location.connection ?? "?") \($0.ruleID)" } }

    @Test func aCleanReconnectPassesUnderEachLeanCloudPolicy() {
        let connections = [
            session("c1", 0, 100, .closed(code: 1006)),
            session("c2", 102.5, 200, .clientLogout, flag: true),
            session("c3", 300, nil, .open, flag: false),
        ]
        for policy in [LeanCloudPolicies.swift, LeanCloudPolicies.js, LeanCloudPolicies.java] {
            #expect(ReconnectJudge(policy: policy).judge(connections, captureEnd: µs(320)).isEmpty, "\(policy.name)")
        }
    }

    @Test func fiveReconnectsInHalfASecondAreAStormForYun2winWeb() {
        var connections = [session("c0", 0, 10, .lost, flag: false)]
        for index in 1...5 {
            let start = 10 + Double(index) * 0.1
            connections.append(session("c\(index)", start, start + 0.05, .lost, flag: true, loggedIn: false))
        }
        let findings = ReconnectJudge(policy: Yun2winPolicies.web).judge(connections)
        #expect(rules(findings) == ["c1 RECONNECT.STORM"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("5 reconnects") == true)
    }

    @Test func oneEarlyReconnectIsTooEarlyNotAStorm() {
        let connections = [session("a", 0, 100, .closed(code: 1006)), session("b", 100.2, nil, .open, flag: true)]
        #expect(rules(ReconnectJudge(policy: LeanCloudPolicies.js).judge(connections)) == ["b RECONNECT.TOO-EARLY"])
        // Swift reconnects at once after a drop: the same capture is fine for it.
        #expect(ReconnectJudge(policy: LeanCloudPolicies.swift).judge(connections).isEmpty)
    }

    @Test func theAttemptNumberFollowsTheSchedule() {
        // JS: 1, 2, 4 s. The third retry comes 2.1 s after the second failed: too early for 4 s.
        let connections = [
            session("a", 0, 50, .lost), session("b", 51.1, 51.2, .lost, flag: true, loggedIn: false),
            session("c", 53.3, 53.4, .lost, flag: true, loggedIn: false), session("d", 55.5, nil, .open, flag: true),
        ]
        #expect(rules(ReconnectJudge(policy: LeanCloudPolicies.js).judge(connections)) == ["d RECONNECT.TOO-EARLY"])
    }

    @Test func aFlaggedReconnectAfterAKickIsAnError() {
        let connections = [session("a", 0, 60, .kicked(code: 4111)), session("b", 61, nil, .open, flag: true)]
        let findings = ReconnectJudge(policy: LeanCloudPolicies.swift).judge(connections)
        #expect(rules(findings) == ["b RECONNECT.AFTER-TERMINAL"])
        #expect(findings.first?.severity == .error)
        let yun2win = [session("a", 0, 60, .kicked(code: 10)), session("b", 62, nil, .open, flag: true)]
        #expect(rules(ReconnectJudge(policy: Yun2winPolicies.android).judge(yun2win)) == ["b RECONNECT.AFTER-TERMINAL"])
        // A fresh login (r=false) after the kick is the user's: no finding.
        let fresh = [session("a", 0, 60, .kicked(code: 4111)), session("b", 61, nil, .open, flag: false)]
        #expect(ReconnectJudge(policy: LeanCloudPolicies.swift).judge(fresh).isEmpty)
    }

    @Test func aQuickLoginAfterAWrongPasswordLooksAutomaticWhereThereIsNoFlag() {
        let nim = [
            session("a", 0, 1, .loginRejected(code: 302, waitMicros: nil), flag: nil, loggedIn: false),
            session("b", 2.6, nil, .open, flag: nil),
        ]
        #expect(rules(ReconnectJudge(policy: NIMPolicies.web).judge(nim)) == ["b RECONNECT.AFTER-TERMINAL-SUSPECTED"])
        let later = [nim[0], session("b", 300, nil, .open, flag: nil)]
        #expect(ReconnectJudge(policy: NIMPolicies.web).judge(later).isEmpty)
        let kicked = [session("a", 0, 10, .kicked(code: 1), flag: nil), session("b", 11, nil, .open, flag: nil)]
        #expect(
            rules(ReconnectJudge(policy: JMessagePolicies.web).judge(kicked)) == [
                "b RECONNECT.AFTER-TERMINAL-SUSPECTED"
            ])
    }

    @Test func aReconnectWithoutTheFlagAfterASessionIsFlagged() {
        let connections = [session("a", 0, 100, .closed(code: 1006)), session("b", 100.1, nil, .open, flag: false)]
        #expect(
            rules(ReconnectJudge(policy: LeanCloudPolicies.swift).judge(connections)) == ["b RECONNECT.FLAG-MISSING"])
        // Before any session the flag is not expected.
        let first = [session("a", 0, 1, .lost, loggedIn: false), session("b", 1.1, nil, .open, flag: false)]
        #expect(ReconnectJudge(policy: LeanCloudPolicies.swift).judge(first).isEmpty)
        // Unknown (nil) is not judged.
        let unknown = [session("a", 0, 100, .closed(code: 1006)), session("b", 100.1, nil, .open, flag: nil)]
        #expect(ReconnectJudge(policy: LeanCloudPolicies.swift).judge(unknown).isEmpty)
    }

    @Test func javaGivesUpAfterThreeRetries() {
        var connections = [session("c0", 0, 10, .lost)]
        var time = 10.0
        for (index, delay) in [2.0, 4.0, 8.0, 8.0].enumerated() {
            time += delay
            connections.append(session("c\(index + 1)", time, time + 0.1, .lost, flag: true, loggedIn: false))
            time += 0.1
        }
        #expect(
            rules(ReconnectJudge(policy: LeanCloudPolicies.java).judge(connections)) == ["c4 RECONNECT.BUDGET-EXCEEDED"]
        )
    }

    @Test func theServerWaitOf416IsHonoured() {
        let limited = session("a", 0, 1, .loginRejected(code: 416, waitMicros: µs(30)), flag: nil, loggedIn: false)
        let early = [limited, session("b", 5, nil, .open, flag: nil)]
        let findings = ReconnectJudge(policy: NIMPolicies.web).judge(early)
        #expect(rules(findings) == ["b RECONNECT.TOO-EARLY"])
        #expect(findings.first?.message.contains("the server asked to wait 30 s") == true)
        #expect(
            ReconnectJudge(policy: NIMPolicies.web).judge([limited, session("b", 31.5, nil, .open, flag: nil)]).isEmpty)
    }

    @Test func goawayAndLogoutDoNotCountAsRetries() {
        let connections = [
            session("a", 0, 10, .goaway), session("b", 10.01, 20, .clientLogout, flag: true),
            session("c", 20.01, nil, .open, flag: false),
        ]
        #expect(ReconnectJudge(policy: LeanCloudPolicies.js).judge(connections).isEmpty)
    }

    @Test func silentConnectionsMissTheirHeartbeats() {
        let nim = [session("a", 0, 200, .clientLogout, flag: nil, keepAlive: [30, 60, 150])]
        let findings = ReconnectJudge(policy: NIMPolicies.web).judge(nim)
        #expect(rules(findings) == ["a RECONNECT.HEARTBEAT-MISSING"])
        #expect(findings.first?.location.time == µs(60))
        let open = [session("a", 0, nil, .open, flag: nil, keepAlive: [])]
        #expect(
            rules(ReconnectJudge(policy: NIMPolicies.web).judge(open, captureEnd: µs(100))) == [
                "a RECONNECT.HEARTBEAT-MISSING"
            ])
        #expect(ReconnectJudge(policy: NIMPolicies.web).judge(open).isEmpty)
        // yun2win counts any client packet, every keep-alive period.
        let mqtt = [session("m", 0, 700, .clientLogout, flag: false, keepAlive: [290, 580])]
        #expect(ReconnectJudge(policy: Yun2winPolicies.web).judge(mqtt).isEmpty)
        #expect(rules(ReconnectJudge(policy: Yun2winPolicies.android).judge(mqtt)) == ["m RECONNECT.HEARTBEAT-MISSING"])
        // JMessage has no modelled heartbeat.
        #expect(ReconnectJudge(policy: JMessagePolicies.web).judge(open, captureEnd: µs(1000)).isEmpty)
    }

    @Test func overlappingAndShuffledConnectionsAndExtremeTimesDoNotTrap() {
        let overlapping = [session("a", 0, 100, .lost), session("b", 50, nil, .open, flag: true)]
        #expect(ReconnectJudge(policy: LeanCloudPolicies.js).judge(overlapping.reversed()).isEmpty)
        let extreme = [
            ConnectionObservation(
                connection: "x", opened: Int64.min,
                login: LoginObservation(sent: Int64.min, reconnectFlag: nil, accepted: Int64.min),
                keepAlive: KeepAliveLog([Int64.min, Int64.max]), ended: Int64.max,
                end: .loginRejected(code: 416, waitMicros: Int64.max)),
            ConnectionObservation(connection: "y", opened: Int64.max, login: nil, ended: nil, end: .open),
        ]
        for policy in ReconnectPolicies.all { _ = ReconnectJudge(policy: policy).judge(extreme, captureEnd: Int64.max) }
    }

    @Test func aKeepAliveLogRemembersOnlyWhatTheJudgeNeeds() {
        var log = KeepAliveLog()
        for time: Int64 in [10, 20, 50, 55] { log.record(time) }
        #expect(log.count == 4 && log.first == 10 && log.last == 55)
        #expect(log.longestGap?.start == 20 && log.longestGap?.length == 30)
        #expect(log.longestSilence(from: 0, to: 100) == (start: 55, length: 45))
        #expect(KeepAliveLog().longestSilence(from: 5, to: 8) == (start: 5, length: 3))
    }
}
