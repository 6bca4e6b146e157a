import Foundation
import IMWire
import Testing

@testable import IMWireCheck

/// With `--jobs`, a file's socket.io connections are spread over the lanes by client address
/// (`Checker.spreadsSessions`): the report must stay the same, a session whose connections come
/// from two addresses must be caught and the file checked again, and a session's end after its
/// idle time must not depend on which other connections ended meanwhile.
@Suite struct SpreadSessionsTests {
    /// A transcript line of stream bytes.
    static func stream(_ conn: String, _ t: Double, _ dir: String, _ text: String) -> String {
        #"{"type":"stream","conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(Array(text.utf8)))"}"#
    }

    /// One long-poll of engine.io session `sid` on its own TCP connection from `client`: the
    /// handshake when `handshake`, else a poll answered with a noop.
    static func poll(_ conn: String, client: String, sid: String, at t: Double, handshake: Bool) -> [String] {
        let request =
            handshake
            ? "GET /socket.io/?EIO=3&transport=polling&t=\(conn) HTTP/1.1\r\nHost: h\r\n\r\n"
            : "GET /socket.io/?EIO=3&transport=polling&sid=\(sid)&t=\(conn) HTTP/1.1\r\nHost: h\r\n\r\n"
        let packet =
            handshake
            ? #"0{"sid":"\#(sid)","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"# : "6"
        let body = "\(packet.utf8.count):\(packet)"
        return [
            #"{"type":"open","conn":"\#(conn)","t":\#(t),"client":"\#(client)","server":"10.9.9.9:80"}"#,
            stream(conn, t, "send", request),
            stream(conn, t + 0.01, "receive", "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"),
            #"{"type":"close","conn":"\#(conn)","t":\#(t + 0.02)}"#,
        ]
    }

    /// `clients` sessions, each of three long-polls from its own address, interleaved; session 0's
    /// later polls come from `strayClient` when it is given.
    static func transcript(clients: Int, strayClient: String? = nil) -> [String] {
        var lines: [String] = []
        for round in 0..<3 {
            for client in 0..<clients {
                let address = round > 0 && client == 0 ? strayClient ?? "10.0.0.\(client):1" : "10.0.0.\(client):1"
                lines += poll(
                    "c\(client)-\(round)", client: address, sid: "s\(client)", at: Double(round * 10 + client),
                    handshake: round == 0)
            }
        }
        return lines
    }

    /// Checks transcript `lines` from file `name`, as `imwire check FILE --jobs` does, and with a
    /// spreading checker of `jobs` lanes whose `sessionsSpanLanes` is returned.
    static func check(
        _ lines: [String], jobs: Int, options: CheckOptions = CheckOptions(), name: String = #function
    ) throws -> (report: String, spanned: Bool) {
        let path = NSTemporaryDirectory() + "imwire-spread-\(getpid())-\(name.prefix { $0.isLetter }).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = JSONReport.render(try Checker.check(path: path, options: options, jobs: jobs), threshold: .info)
        let checker = Checker(options: options, jobs: jobs)
        checker.spreadsSessions = true
        _ = try checker.check(try CaptureFile.open(path), named: path)
        return (report, checker.sessionsSpanLanes)
    }

    @Test func sessionsFromManyAddressesAreSpreadAndTheReportStaysTheSame() throws {
        let lines = Self.transcript(clients: 16)
        let one = try Self.check(lines, jobs: 1)
        #expect(one.report.contains("engine.io sid=s15"))
        #expect(!one.spanned)
        for jobs in [2, 3] {
            let spread = try Self.check(lines, jobs: jobs)
            #expect(!spread.spanned, "jobs \(jobs)")
            #expect(spread.report == one.report, "jobs \(jobs)")
        }
        // Spread, not all in lane 0: every lane began sessions.
        let checker = Checker(jobs: 2)
        checker.spreadsSessions = true
        for (index, line) in lines.enumerated() {
            if let item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: .default) {
                checker.consume(item)
            }
        }
        _ = checker.finish(source: "inline")
        #expect(checker.sessionsBegunByLane.allSatisfy { $0 > 0 }, "\(checker.sessionsBegunByLane)")
    }

    @Test func aSessionFromTwoAddressesIsCheckedAgainWithOneLane() throws {
        // Of two lanes, 10.1.2.4's is not 10.0.0.0's.
        let lines = Self.transcript(clients: 4, strayClient: "10.1.2.4:1")
        let one = try Self.check(lines, jobs: 1)
        let two = try Self.check(lines, jobs: 2)
        #expect(two.spanned)
        #expect(two.report == one.report)
        // Session s0 is one session, its three polls together, as one lane sees it.
        #expect(one.report.components(separatedBy: "\"engine.io sid=s0\"").count == 2)
    }

    /// Sessions enough that their records, one to a run (`reportsInMemory` 0), are merged level
    /// by level (`SortedRuns.fanIn`): the report is the same, and a session from two addresses
    /// is still caught.
    @Test func sessionsInMergedRunsGiveTheSameReport() throws {
        var spooled = CheckOptions()
        spooled.reportsInMemory = 0
        for stray in [nil, "10.1.2.4:1"] {
            let lines = Self.transcript(clients: 200, strayClient: stray)
            let one = try Self.check(lines, jobs: 1)
            for jobs in [1, 2] {
                let other = try Self.check(lines, jobs: jobs, options: spooled)
                #expect(other.report == one.report, "jobs \(jobs), stray \(stray ?? "none")")
                #expect(other.spanned == (jobs > 1 && stray != nil), "jobs \(jobs), stray \(stray ?? "none")")
            }
        }
    }

    /// A poll of a session idle past `sessionIdleMicros` begins a new session, whether or not
    /// another connection ended in between (as one lane would see it, but not another). The
    /// connections end as a packet capture's do (`CloseInfo.isLast`); a transcript's close is not
    /// its connection's last event.
    @Test func aSessionIdleTooLongEndsWhateverElseEnded() throws {
        let first = Self.poll("a", client: "10.0.0.1:1", sid: "s", at: 0, handshake: true)
        let late = Self.poll("b", client: "10.0.0.1:1", sid: "s", at: 200, handshake: false)
        let other = Self.poll("x", client: "10.0.0.2:1", sid: "t", at: 150, handshake: true)
        let (s, t) = ("engine.io sid=s", "engine.io sid=t")
        for (lines, expected) in [(first + late, [s, s]), (first + other + late, [s, t, s])] {
            let checker = Checker()
            for (index, line) in lines.enumerated() {
                guard var item = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: .default) else {
                    continue
                }
                if case .event(var event) = item, case .close(var info) = event.kind {
                    info.isLast = true
                    event.kind = .close(info)
                    item = .event(event)
                }
                checker.consume(item)
            }
            let ids = checker.finish(source: "inline").connections.map(\.id)
            #expect(ids == expected)
        }
    }
}
