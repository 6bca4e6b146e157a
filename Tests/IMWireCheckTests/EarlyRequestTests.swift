import IMWire
import Testing

/// A JMessage request before c_init is an error, unless the client's earlier connection ended
/// with it unanswered: the Web SDK's ack timer then re-sends it, same rid, on the transport its
/// socket.io client reconnected, before c_init (jmessage-drop-pending; a sync_check pending at
/// the drop has no create_time to show it). The checker decides across connections.
@Suite struct EarlyRequestTests {
    static func open(_ conn: String, _ t: Double) -> [String] {
        [
            #"""
            {"type":"open","conn":"\#(conn)","t":\#(t),"dialect":"jmessage",\#
            "url":"//h/socket.io/?EIO=3&transport=websocket"}
            """#,
            #"""
            {"conn":"\#(conn)","t":\#(t),"dir":"receive","text":"0{\"sid\":\"s\",\#
            \"upgrades\":[],\"pingTimeout\":60000,\"pingInterval\":25000}"}
            """#,
            #"{"conn":"\#(conn)","t":\#(t),"dir":"receive","text":"40"}"#,
        ]
    }

    static func event(_ conn: String, _ t: Double, _ dir: String, _ name: String, _ body: String) -> String {
        let escaped = body.replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","text":"42[\"\#(name)\",\#(escaped)]"}"#
    }

    /// c_init and login of user `alice` (rids 1 and 2), answered.
    static func login(_ conn: String, _ t: Double) -> [String] {
        [
            event(
                conn, t, "send", "c_init",
                #"{"appkey":"k","random_str":"r","signature":"s","timestamp":1,"flag":0,"rid":1}"#),
            event(conn, t, "receive", "ack", #"{"rid":1}"#),
            event(conn, t, "receive", "c_init", #"{"rid":1,"code":0}"#),
            event(conn, t + 0.1, "send", "login", #"{"username":"alice","password":"p","version":"2.5.0","rid":2}"#),
            event(conn, t + 0.1, "receive", "ack", #"{"rid":2}"#),
            event(conn, t + 0.1, "receive", "login", #"{"rid":2,"code":0}"#),
        ]
    }

    static let syncCheck = #"{"sync_key":0,"sync_type":0,"sync_event_key":0,"msg_receipt_key":0,"rid":77}"#

    /// Connection 1 logs in and sends sync_check rid=77, dropped before its ack when `pending`
    /// (else acked and answered); connection 2 sends sync_check rid=77 before its c_init.
    static func capture(pending: Bool) -> [String] {
        var lines = open("a", 0) + login("a", 0.1) + [event("a", 1, "send", "sync_check", syncCheck)]
        if !pending {
            lines += [
                event("a", 1, "receive", "ack", #"{"rid":77}"#),
                event("a", 1, "receive", "sync_check", #"{"rid":77,"code":0}"#),
            ]
        }
        lines.append(#"{"type":"close","conn":"a","t":1.5}"#)
        lines += open("b", 2.5) + [event("b", 6, "send", "sync_check", syncCheck)] + login("b", 6.1)
        lines += [
            event("b", 6.2, "receive", "ack", #"{"rid":77}"#),
            event("b", 6.2, "receive", "sync_check", #"{"rid":77,"code":0}"#),
        ]
        return lines
    }

    /// The rules of connection `id` about requests and the session (not the test's made-up
    /// signature and password).
    static func session(_ report: CheckReport, _ id: String) -> [String]? {
        report.connections.first { $0.id == id }?.findings.map(\.ruleID.rawValue).filter {
            !["JM.SIGNATURE-FORMAT", "JM.PASSWORD-NOT-MD5"].contains($0)
        }
    }

    @Test func aResendFromTheDroppedConnectionIsNotBeforeInit() {
        let report = check(lines: Self.capture(pending: true))
        #expect(Self.session(report, "b") == ["JM.RESEND-BEFORE-LOGIN"])
        #expect(Self.session(report, "a") == ["JM.PENDING-AT-END"])
    }

    /// Judged across connections after the connection ended, the finding still names the
    /// transcript line of the request it is about (b's sync_check), for SARIF regions.
    @Test func aJudgedEarlyRequestKeepsItsLine() throws {
        for (pending, rule) in [(true, "JM.RESEND-BEFORE-LOGIN"), (false, "JM.BEFORE-INIT")] {
            let lines = Self.capture(pending: pending)
            let request =
                try #require(lines.firstIndex { $0.contains(#""conn":"b""#) && $0.contains("sync_check") }) + 1
            let report = check(lines: lines)
            let b = try #require(report.connections.first { $0.id == "b" })
            let finding = try #require(b.findings.first { $0.ruleID.rawValue == rule })
            #expect(finding.location.line == request)
        }
    }

    @Test func theSameRequestWithNothingPendingBeforeItIsBeforeInit() throws {
        let report = check(lines: Self.capture(pending: false))
        #expect(Self.session(report, "b") == ["JM.BEFORE-INIT"])
        let finding = try #require(
            report.connections.first { $0.id == "b" }?.findings.first { $0.ruleID.rawValue == "JM.BEFORE-INIT" })
        #expect(finding.severity == .error)
        #expect(finding.location.frameIndex == 3)
    }

    /// As the genuine SDK does (jmessage-drop-sync): the connection re-sent on never logs in.
    /// It is judged with the connections of its client's host, which the open lines name.
    @Test func aResendOnAConnectionThatNeverLogsInIsJudgedByHost() {
        func capture(host: String, resendAt: Double) -> [String] {
            var first =
                Self.open("a", 0) + Self.login("a", 0.1) + [Self.event("a", 1, "send", "sync_check", Self.syncCheck)]
            first.append(#"{"type":"close","conn":"a","t":1.5}"#)
            var second = Self.open("b", 2.5) + [Self.event("b", resendAt, "send", "sync_check", Self.syncCheck)]
            second += [
                Self.event("b", resendAt, "receive", "ack", #"{"rid":77}"#),
                Self.event("b", resendAt, "receive", "sync_check", #"{"rid":77,"code":0}"#),
            ]
            first[0] = first[0].replacingOccurrences(
                of: #""t":0.0,"#, with: #""t":0.0,"client":"10.0.0.7:50001","server":"10.0.0.1:443","#)
            second[0] = second[0].replacingOccurrences(
                of: #""t":2.5,"#, with: #""t":2.5,"client":"\#(host):50002","server":"10.0.0.1:443","#)
            return first + second
        }
        #expect(Self.session(check(lines: capture(host: "10.0.0.7", resendAt: 6)), "b") == ["JM.RESEND-BEFORE-LOGIN"])
        // Another host, or more than 30 s after the drop: new.
        #expect(Self.session(check(lines: capture(host: "10.0.0.8", resendAt: 6)), "b") == ["JM.BEFORE-INIT"])
        #expect(Self.session(check(lines: capture(host: "10.0.0.7", resendAt: 40)), "b") == ["JM.BEFORE-INIT"])
    }

    /// A connection that never logs in has no client to group it with: the request is new.
    @Test func aConnectionWithNoClientIsJudgedAlone() {
        let lines = Self.open("c", 0) + [Self.event("c", 1, "send", "sync_check", Self.syncCheck)]
        #expect(check(lines: lines).summary() == ["c#3 JM.BEFORE-INIT"])
    }
}
