import IMWire
import Testing

@testable import IMWireCheck

/// The checker's reconnect judging (Spec/reconnect.md §6): each client's connections, from the
/// facts the dialect sessions gather, against its policy.
@Suite struct ReconnectCheckTests {
    func lines(_ path: String) throws -> [String] {
        try readText(path).split(separator: "\n").map(String.init)
    }

    func options(policy: String? = nil, off: [String] = []) -> CheckOptions {
        var options = CheckOptions()
        options.reconnectPolicy = policy.flatMap(ReconnectPolicies.named)
        for rule in off { options.ruleActions[RuleID(rule)] = .off }
        return options
    }

    @Test func theLeanCloudSampleYieldsExactlyItsExpectedFindings() throws {
        let expected = try JSONParser.parse(try readText("Fixtures/captures/leancloud-reconnect.expected.json"))
        let findings = (expected["findings"]?.arrayValue ?? []).map { item in
            """
            \(item["connection"]?.stringValue ?? "")#\(item["frame"]?.int64Value ?? 0) \
            \(item["rule"]?.stringValue ?? "")
            """
        }
        let report = try check("Fixtures/captures/leancloud-reconnect.jsonl")
        #expect(report.summary().sorted() == findings.sorted())
        #expect(findings.contains("r5#1 RECONNECT.STORM") && findings.contains("r2#1 RECONNECT.AFTER-TERMINAL"))
    }

    @Test func thePolicyOptionChangesTheSchedule() throws {
        // js-realtime-sdk waits min(2^n, 300) s from the first attempt on: all five re-opens are early.
        let report = try check("Fixtures/captures/leancloud-reconnect.jsonl", options: options(policy: "leancloud-js"))
        let reconnect = report.summary().filter { $0.contains("RECONNECT.") }
        #expect(reconnect.contains("r3#1 RECONNECT.STORM"))
        #expect(!reconnect.contains("r5#1 RECONNECT.STORM"))
        #expect(reconnect.contains("r2#1 RECONNECT.AFTER-TERMINAL"))
    }

    /// `imwire serve`'s refuse, as leancloud-realtime meets it: the router request, then alice
    /// (js/…), who is dropped; each
    /// retry tries the router's server and at once its secondary, both accepted and closed
    /// before a message (no login, no ua); the pairs 1 s then 2 s apart; then she logs in again.
    /// The refused connections are judged by the policy alice announced from the same host
    /// (leancloud-js), whose attempt tries two servers: no finding. From another host they are
    /// nobody's: the vendor's default (leancloud-swift) calls the secondary's try early.
    @Test func refusedConnectionsOfAHostAreJudgedByItsAnnouncedPolicy() throws {
        func login(_ conn: String, _ t: Double, reopen: Bool) -> [String] {
            leanCloudLogin(conn, t, peer: "alice", ua: "js/5.0.0-rc.7", reopen: reopen)
        }
        func capture(refusedFrom host: String) -> [String] {
            // r0: the SDK's router request, a connection of the host with no message either.
            var lines =
                [leanCloudOpen("r0", 0, host: host), leanCloudClose("r0", 0.01)] + login("a1", 0.05, reopen: false)
                + [leanCloudClose("a1", 2)]
            for (conn, t) in [("r1", 3.0), ("r2", 3.003), ("r3", 5.004), ("r4", 5.007)] {
                lines += [leanCloudOpen(conn, t, host: host), leanCloudClose(conn, t + 0.001)]
            }
            return lines + login("a2", 9.01, reopen: true)
        }
        let same = check(lines: capture(refusedFrom: "10.0.0.7")).summary(.info).filter { $0.contains("RECONNECT.") }
        #expect(same.isEmpty)
        let other = check(lines: capture(refusedFrom: "10.0.0.9")).allFindings.filter {
            $0.ruleID.rawValue.hasPrefix("RECONNECT.")
        }
        #expect(other.map(\.ruleID.rawValue) == ["RECONNECT.TOO-EARLY"])
        #expect(other.first?.message.contains("leancloud-swift") == true)
    }

    /// Many hosts, each with the refused connections above and a logged-in client that announces
    /// leancloud-js on every other host: the host's refused connections take its announcement
    /// (no finding), or the vendor's default where it has none (the secondary's try early). The
    /// announcements are read from sorted runs beside the clients (one record per run here, in
    /// two lanes): the report is the same with either number of lanes.
    @Test func eachHostsRefusedConnectionsTakeThatHostsAnnouncement() throws {
        var lines: [String] = []
        for index in 0..<30 {
            let host = "10.0.\(index).7"
            let ua = index.isMultiple(of: 2) ? "js/5.0.0-rc.7" : nil
            lines += [leanCloudOpen("h\(index)r0", 0, host: host), leanCloudClose("h\(index)r0", 0.01)]
            lines += leanCloudLogin("h\(index)a1", 0.05, peer: "alice\(index)", ua: ua, reopen: false, host: host)
            lines.append(leanCloudClose("h\(index)a1", 2))
            for (conn, t) in [("r1", 3.0), ("r2", 3.003), ("r3", 5.004), ("r4", 5.007)] {
                lines += [
                    leanCloudOpen("h\(index)\(conn)", t, host: host), leanCloudClose("h\(index)\(conn)", t + 0.001),
                ]
            }
        }
        var options = CheckOptions()
        options.reportsInMemory = 1
        var reports: [[String]] = []
        for jobs in [1, 2] {
            let checker = Checker(options: options, jobs: jobs)
            for (index, line) in lines.enumerated() {
                if let item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: options.limits) {
                    checker.consume(item)
                }
            }
            let findings = checker.finish(source: "inline").connections.flatMap { report in
                report.findings.filter { $0.ruleID.rawValue.hasPrefix("RECONNECT.") && report.id.contains("r") }
                    .map { "\(report.id) \($0.ruleID.rawValue) \($0.message.contains("leancloud-swift"))" }
            }
            reports.append(findings)
        }
        let odd = (0..<30).filter { !$0.isMultiple(of: 2) }
        #expect(Set(reports[0].map { $0.prefix { $0 != "r" } }) == Set(odd.map { "h\($0)" }))
        #expect(reports[0].allSatisfy { $0.hasSuffix("RECONNECT.TOO-EARLY true") })
        #expect(reports[1] == reports[0])
    }

    /// A logged-in client is judged by the policy it announces, else by the vendor's default,
    /// never by what a neighbour announces (that stands only for connections with no login):
    /// twenty peers of alice's host, announcing nothing, are each kicked and re-open at once.
    /// Every finding names leancloud-swift, whichever client the checker happens to judge first.
    @Test func aLoggedInClientIsNotJudgedByItsNeighboursPolicy() throws {
        var transcript =
            leanCloudLogin("a1", 0, peer: "alice", ua: "js/5.0.0-rc.7", reopen: false) + [leanCloudClose("a1", 0.5)]
        for index in 0..<20 {
            let (peer, t) = ("bob\(index)", 1 + Double(index) * 0.5)
            transcript += leanCloudLogin("\(peer)-1", t, peer: peer, ua: nil, reopen: false)
            transcript.append(
                leanCloudText("\(peer)-1", t + 0.05, "receive", #"{"cmd":"session","op":"closed","code":4111}"#))
            transcript.append(leanCloudClose("\(peer)-1", t + 0.1))
            transcript += leanCloudLogin("\(peer)-2", t + 0.2, peer: peer, ua: nil, reopen: true)
            transcript.append(leanCloudClose("\(peer)-2", t + 0.3))
        }
        let findings = check(lines: transcript).allFindings.filter { $0.ruleID.rawValue.hasPrefix("RECONNECT.") }
        #expect(findings.count == 20)
        #expect(findings.allSatisfy { $0.message.contains("[judged by leancloud-swift: the vendor's default") })
    }

    // A LeanCloud transcript in lc.json.3, a connection's lines at a time.
    func leanCloudOpen(_ conn: String, _ t: Double, host: String = "10.0.0.7") -> String {
        let port = 50000 + Int(t * 1000)
        return #"""
            {"type":"open","conn":"\#(conn)","t":\#(t),"subprotocol":"lc.json.3",\#
            "client":"\#(host):\#(port)","server":"10.0.0.1:443"}
            """#
    }

    func leanCloudText(_ conn: String, _ t: Double, _ dir: String, _ json: String) -> String {
        #"{"conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","text":\#(JSONWriter.string(.string(json)))}"#
    }

    func leanCloudClose(_ conn: String, _ t: Double) -> String { #"{"type":"close","conn":"\#(conn)","t":\#(t)}"# }

    /// Opens `conn` (from `host`) and logs `peer` in, announcing `ua` (none when nil), accepted
    /// 10 ms later.
    func leanCloudLogin(
        _ conn: String, _ t: Double, peer: String, ua: String?, reopen: Bool, host: String = "10.0.0.7"
    ) -> [String] {
        let announced = ua.map { #","ua":"\#($0)""# } ?? ""
        return [
            leanCloudOpen(conn, t, host: host),
            leanCloudText(
                conn, t, "send",
                #"{"cmd":"session","op":"open","i":1,"appId":"app","peerId":"\#(peer)"\#(announced),"r":\#(reopen)}"#),
            leanCloudText(conn, t + 0.01, "receive", #"{"cmd":"session","op":"opened","i":1}"#),
        ]
    }

    @Test func aDialectRuleThatSaysItFirstKeepsTheJudgeQuiet() throws {
        let path = "Fixtures/captures/yun2win-kicked-reconnect.jsonl"
        #expect(try check(path).summary() == ["y2#1 Y2W.RECONNECT-AFTER-KICK"])
        // With the dialect's rule off, the judge's verdict shows.
        #expect(
            try check(path, options: options(off: ["Y2W.RECONNECT-AFTER-KICK"])).summary() == [
                "y2#1 RECONNECT.AFTER-TERMINAL"
            ])
    }

    @Test func aYun2winReconnectStormIsReported() throws {
        let sample = try lines("Fixtures/captures/yun2win-kicked-reconnect.jsonl")
        // The reconnect's CONNECT (client id prefix 1), replayed every 200 ms after a dropped session.
        let connect = try #require(sample.first { $0.contains("\"conn\": \"y2\"") && $0.contains("\"send\"") })
        var storm = Array(sample.prefix(7)).filter { !$0.contains("7b2272657475726e436f6465223a31307d") }  // no kick
        storm.append("{\"type\": \"close\", \"conn\": \"y1\", \"t\": 60.1}")
        for index in 0..<5 {
            let start = 60.3 + Double(index) * 0.2
            storm.append("{\"type\": \"open\", \"conn\": \"s\(index)\", \"t\": \(start), \"dialect\": \"yun2win\"}")
            storm.append(
                connect.replacing("\"conn\": \"y2\"", with: "\"conn\": \"s\(index)\"").replacing(
                    "\"t\": 61.0", with: "\"t\": \(start)"))
            storm.append("{\"type\": \"close\", \"conn\": \"s\(index)\", \"t\": \(start + 0.05)}")
        }
        // yun2win Web reconnects every 1 s: five re-opens 150 ms after each drop are one storm.
        #expect(check(lines: storm).summary().filter { $0.contains("RECONNECT.") } == ["s0#1 RECONNECT.STORM"])
    }

    /// `lines` with every time of connection `conn` moved by `delta` seconds.
    func shift(_ lines: [String], conn: String, by delta: Double) -> [String] {
        lines.map { line in
            guard let object = try? JSONParser.parse(line).objectValue, object["conn"]?.stringValue == conn,
                let time = object["t"]?.doubleValue
            else { return line }
            var copy = object
            copy["t"] = JSONNumber(time + delta).map(JSONValue.number)
            return JSONWriter.string(.object(copy))
        }
    }

    @Test func aQuickNIMReloginAfterAKickLooksAutomatic() throws {
        // n1 is kicked (2_5) at 40 s and closed at 40.1 s; n2 logs the same account in at 42.05 s.
        // NIM has no reconnect flag: a login soon after a kick is suspect, a late one the user's.
        let sample = try lines("Fixtures/captures/nim-login-sync-send-kicked.jsonl")
        let options = options(off: ["NIM.AUTO-RELOGIN"])
        #expect(check(lines: sample, options: options).summary() == ["n2#2 RECONNECT.AFTER-TERMINAL-SUSPECTED"])
        #expect(check(lines: shift(sample, conn: "n2", by: 600), options: options).summary().isEmpty)
        // NIM.AUTO-RELOGIN says it first.
        #expect(check(lines: sample).summary() == ["n2#2 NIM.AUTO-RELOGIN"])
    }

    @Test func aJMessageLoginSoonAfterAForcedLogoutIsSuspect() throws {
        let sample = try lines("Fixtures/captures/jmessage-group-803005.jsonl")
        // j1 logs in and is forced offline (event_type 1, extra 0: a login elsewhere); j2 logs in again.
        var transcript = Array(sample.prefix(9))
        transcript.append(
            #"""
            {"conn": "j1", "t": 2.0, "dir": "receive", "text": \#
            "42[\"event_notification\",{\"event_id\":77,\"event_type\":1,\#
            \"extra\":0,\"from_uid\":0,\"gid\":0,\"ctime_ms\":1507882401000}]"}
            """#
        )
        transcript.append(
            #"""
            {"conn": "j1", "t": 2.1, "dir": "send", "text": \#
            "42[\"event_notification\",{\"event_id\":77,\"event_type\":1,\"from_uid\":0,\"gid\":0,\"rid\":1003}]"}
            """#
        )
        transcript.append(#"{"type": "close", "conn": "j1", "t": 2.2}"#)
        transcript += sample.prefix(9).map { $0.replacing("\"conn\": \"j1\"", with: "\"conn\": \"j2\"") }
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "master-secret-1"
        func verdict(_ gap: Double) -> [String] {
            check(lines: shift(transcript, conn: "j2", by: 2.2 + gap), options: options).summary().filter {
                $0.contains("RECONNECT.")
            }
        }
        #expect(verdict(1) == ["j2#6 RECONNECT.AFTER-TERMINAL-SUSPECTED"])
        #expect(verdict(60).isEmpty)
    }

    /// ws1 of the WebSocket sample up to `session/opened`, then client pings at `pings` seconds,
    /// then the transport closes at `end`.
    func webSocketSession(pings: [Double], end: Double) throws -> [String] {
        var transcript = Array(try lines("Fixtures/captures/leancloud-websocket.jsonl").prefix(5))
        for time in pings {  // FIN + ping, masked with a zero key, no payload
            transcript.append(
                """
                {"type": "stream", "conn": "ws1", "t": \
                \(time), "dir": "send", "hex": "898000000000"}
                """)
        }
        transcript.append("{\"type\": \"close\", \"conn\": \"ws1\", \"t\": \(end)}")
        return check(lines: transcript).summary().filter { $0.contains("RECONNECT.") }
    }

    @Test func leanCloudPingsAreTheHeartbeatWhereTheCaptureShowsThem() throws {
        // leancloud-swift pings within 180 s (+ 20 s for the pong).
        #expect(try webSocketSession(pings: [150, 300, 450], end: 600) == [])
        #expect(try webSocketSession(pings: [150], end: 600) == ["ws1#0 RECONNECT.HEARTBEAT-MISSING"])
        // A transcript of whole messages cannot show pings: the heartbeat is not judged there.
        let messages = try lines("Fixtures/captures/leancloud-reconnect.jsonl").filter { $0.contains("\"r9\"") }
        #expect(check(lines: messages + ["{\"type\": \"close\", \"conn\": \"r9\", \"t\": 900}"]).summary().isEmpty)
    }

    @Test func echoIsTheHeartbeatOfTheJavaScriptSDK() throws {
        let messages = try lines("Fixtures/captures/leancloud-reconnect.jsonl").filter { $0.contains("\"r9\"") }
        func verdict(echoAt times: [Double]) throws -> [String] {
            // `echo` (cmd 14) from the client, binary protobuf: field 1 = 14.
            let echoes = times.map { "{\"conn\": \"r9\", \"t\": \($0), \"dir\": \"send\", \"hex\": \"080e\"}" }
            let transcript = messages + echoes + ["{\"type\": \"close\", \"conn\": \"r9\", \"t\": 900}"]
            return check(lines: transcript, options: options(policy: "leancloud-js")).summary().filter {
                $0.contains("RECONNECT.")
            }
        }
        #expect(try verdict(echoAt: [100, 280, 460, 640, 820]) == [])
        #expect(try verdict(echoAt: [100]).count == 1)
    }

    @Test func overlappingConnectionsOfOneClientAreNotReconnects() throws {
        // Two tabs: r1 stays open while r2 logs in with r=true.
        let sample = try lines("Fixtures/captures/leancloud-reconnect.jsonl")
        let r1 = sample.filter { $0.contains("\"r1\"") && !$0.contains("\"close\"") && !$0.contains("\"t\": 10.0") }
        let r2 = sample.filter { $0.contains("\"r2\"") }
        #expect(check(lines: r1 + r2).summary().isEmpty)
    }

    @Test func hostsComeFromEndpoints() {
        #expect(Checker.host("10.0.0.1:51234") == "10.0.0.1")
        #expect(Checker.host("[2001:db8::1]:443") == "2001:db8::1")
        #expect(Checker.host("client") == "client")
        // An IPv6 address without brackets has more than one colon: no port to take off.
        #expect(Checker.host("2001:db8::1") == "2001:db8::1")
        #expect(Checker.host("[fe80::1") == "[fe80::1")
        #expect(Checker.host("host-ü:80") == "host-ü")
    }

    @Test func thePolicyOptionPicksTheDialectsPolicy() {
        var options = CheckOptions()
        #expect(options.reconnectPolicy(for: .leancloud)?.name == "leancloud-swift")
        options.reconnectPolicy = ReconnectPolicies.named("leancloud-js")
        #expect(options.reconnectPolicy(for: .leancloud)?.name == "leancloud-js")
        #expect(options.reconnectPolicy(for: .nim)?.name == "nim-web")
    }
}
