import IMWireCheck
import IMWireCore

/// A grade, as Autobahn|Testsuite gives them, worst last.
public enum ServeGrade: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Everything as the protocol and the vendor's policy require.
    case ok = "OK"
    /// Only warnings: what real clients are seen to do, or what the reference is unsure of.
    case nonStrict = "NON-STRICT"
    case failed = "FAILED"
    /// The client never did what the scenario acts on (it never sent, so a send error was never given).
    case unimplemented = "UNIMPLEMENTED"

    public static func < (lhs: ServeGrade, rhs: ServeGrade) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One client's result in one scenario.
public struct ServeCaseResult: Sendable, Hashable {
    /// The user it logged in as (or its address when it never logged in).
    public var client: String
    public var scenario: String
    /// Every message valid, requests answered, pushes acknowledged, login first.
    public var protocolGrade: ServeGrade
    /// What the vendor's policy requires here: reconnect or not, its delays and flag, heartbeats.
    public var behaviourGrade: ServeGrade
    /// The worse of the two (UNIMPLEMENTED when the scenario never acted).
    public var grade: ServeGrade
    /// From its first connection's accept to its last one's close.
    public var durationMs: Int64
    /// Its connections' numbers in the run.
    public var connections: [Int]
    /// Why each grade is not OK: a line per finding or expectation missed.
    public var reasons: [String]
}

/// Grades each client of a run: the checker's findings on its connections (protocol rules, and
/// the reconnect judge's with the vendor's policy) and the scenario's expectation, against what
/// the server did (`ServeEvent`s).
package enum ServeGrading {
    /// The checker's rules about when a client sends its heartbeats: its SDK's timers, so
    /// behaviour, like the reconnect judge's `RECONNECT.HEARTBEAT-MISSING`, not protocol.
    package static let heartbeatTimingRules: Set<String> = [
        "NIM.HEARTBEAT-LATE", "EIO.PING-LATE", "Y2W.KEEPALIVE-EXCEEDED",
    ]

    package static func grade(scenario: Scenario, report: CheckReport, events: [ServeEvent]) -> [ServeCaseResult] {
        // Each connection's client address, user and times.
        var address: [Int: String] = [:]
        var user: [Int: String] = [:]
        var logins: [(connection: Int, order: Int)] = []
        var opened: [Int: Int64] = [:]
        var closed: [Int: Int64] = [:]
        var acted: [Int: [(act: ScenarioAction.Act, trigger: ScenarioAction.Trigger, order: Int)]] = [:]
        var routed: Set<Int> = []
        var named: [String: Int] = [:]
        var sessionOf: [Int: String] = [:]
        // Events in the order the server did them: `order` says what came after what.
        for (order, event) in events.enumerated() {
            switch event {
            case .accepted(let number, let client, let time):
                address[number] = client
                opened[number] = time
            case .login(let number, let name, _, _):
                user[number] = user[number] ?? name
                logins.append((number, order))
            case .acted(let number, let act, let trigger, _): acted[number, default: []].append((act, trigger, order))
            case .routed(let number, _): routed.insert(number)
            case .closed(let number, let time): closed[number] = time
            case .named(let number, let name):
                // A long-polling session spans connections: the first names it, all belong to it.
                if named[name] == nil { named[name] = number }
                sessionOf[number] = name
            }
        }
        let numbers = address.keys.sorted()
        func host(_ number: Int) -> String { String(address[number]?.split(separator: ":").first ?? "") }
        // A connection without a login belongs, from the same host, to: the client that logs in
        // next when it asked the router (the link follows); else to the one that logged in last
        // before it (a refused reconnect, or one dropped before its login), else to the next one.
        // A request of a polling session belongs to whoever logged in on the session.
        var sessionUser: [String: String] = [:]
        for number in numbers {
            if let name = sessionOf[number], let login = user[number] { sessionUser[name] = sessionUser[name] ?? login }
        }
        var owner: [Int: String] = [:]
        for number in numbers {
            if let name = sessionOf[number], let login = sessionUser[name] {
                owner[number] = login
                continue
            }
            let before = numbers.last { $0 < number && user[$0] != nil && host($0) == host(number) }
            let after = numbers.first { $0 > number && user[$0] != nil && host($0) == host(number) }
            let nearest = routed.contains(number) ? after ?? before : before ?? after
            owner[number] = user[number] ?? nearest.flatMap { user[$0] } ?? address[number]
        }
        // The checker names a connection `client-server`, and `#k` the k-th of the same pair (or as the server
        // logged it: NIM's sessions).
        var numbersOfAddress: [String: [Int]] = [:]
        for number in numbers { numbersOfAddress[address[number]!, default: []].append(number) }
        func connection(of finding: Finding) -> Int? {
            if let id = finding.location.connection, let number = named[id] { return number }
            guard let id = finding.location.connection, let dash = id.firstIndex(of: "-") else { return nil }
            let k = id.lastIndex(of: "#").flatMap { Int(id[id.index(after: $0)...]) } ?? 1
            let candidates = numbersOfAddress[String(id[..<dash])] ?? []
            return k >= 1 && k <= candidates.count ? candidates[k - 1] : nil
        }
        let waived = Set(scenario.expectation.waivedRules)
        var findings: [Int: [Finding]] = [:]
        for finding in report.allFindings where finding.severity >= .warning && !waived.contains(finding.ruleID) {
            if let number = connection(of: finding) { findings[number, default: []].append(finding) }
        }

        var clients: [String] = []
        for number in numbers where !clients.contains(owner[number]!) { clients.append(owner[number]!) }
        return clients.map { client in
            let mine = numbers.filter { owner[$0] == client }
            var protocolGrade = ServeGrade.ok
            var behaviourGrade = ServeGrade.ok
            var reasons: [String] = []
            for number in mine {
                for finding in findings[number] ?? [] {
                    let grade: ServeGrade = finding.severity == .error ? .failed : .nonStrict
                    if finding.rule.layer == .reconnect || heartbeatTimingRules.contains(finding.ruleID.rawValue) {
                        behaviourGrade = max(behaviourGrade, grade)
                    } else {
                        protocolGrade = max(protocolGrade, grade)
                    }
                    reasons.append("connection \(number): \(finding.ruleID) \(finding.severity): \(finding.message)")
                }
            }
            // The server's acts that ended one of its connections, and the client's logins after them
            // (on a later connection, or on the same one when the server left it open: a kick, a
            // login error).
            let faults = mine.flatMap { number in
                (acted[number] ?? []).filter { ScenarioAction(on: $0.trigger, act: $0.act).endsConnection }.map {
                    (connection: number, act: $0.act, order: $0.order)
                }
            }.sorted { $0.order < $1.order }
            let myLogins = logins.filter { mine.contains($0.connection) }
            if let expected = scenario.expectation.reconnect, let first = faults.first, let last = faults.last {
                if expected, !myLogins.contains(where: { $0.order > last.order }) {
                    behaviourGrade = .failed
                    reasons.append(
                        """
                        connection \(last.connection): the server's \(last.act.rawValue) \
                        ended it and the client did not log in again
                        """)
                } else if !expected, let again = myLogins.first(where: { $0.order > first.order }) {
                    behaviourGrade = .failed
                    reasons.append(
                        """
                        connection \(again.connection): the client logged in again after the server's \
                        \(first.act.rawValue) on connection \(first.connection), which its policy forbids
                        """)
                }
            }
            var grade = max(protocolGrade, behaviourGrade)
            if !scenario.actions.isEmpty, mine.allSatisfy({ acted[$0] == nil }) {
                grade = .unimplemented
                let triggers = Set(scenario.actions.map(\.on.rawValue)).sorted().joined(separator: ", ")
                reasons.append("the scenario never acted: the client never did what it waits for (\(triggers))")
            }
            let start = mine.compactMap { opened[$0] }.min() ?? 0
            let end = mine.compactMap { closed[$0] ?? opened[$0] }.max() ?? start
            return ServeCaseResult(
                client: client, scenario: scenario.name, protocolGrade: protocolGrade, behaviourGrade: behaviourGrade,
                grade: grade,
                durationMs: end - start, connections: mine, reasons: reasons)
        }
    }

    /// Autobahn's `index.json` shape: client → scenario → result, with each case's report file.
    package static func index(
        _ results: [ServeCaseResult], reportFile: (ServeCaseResult) -> String?, into existing: JSONObject = JSONObject()
    )
        -> JSONObject
    {
        var index = existing
        for result in results {
            var entry = JSONObject([
                "grade": .string(result.grade.rawValue), "protocol": .string(result.protocolGrade.rawValue),
                "behaviour": .string(result.behaviourGrade.rawValue),
                "durationMs": .number(JSONNumber(result.durationMs)),
                "connections": .array(result.connections.map { .number(JSONNumber($0)) }),
                "reasons": .array(result.reasons.map { .string($0) }),
            ])
            if let file = reportFile(result) { entry.append("report", .string(file)) }
            var cases = index[result.client]?.objectValue ?? JSONObject()
            cases.members.removeAll { $0.key == result.scenario }
            cases.append(result.scenario, .object(entry))
            index.members.removeAll { $0.key == result.client }
            index.append(result.client, .object(cases))
        }
        return index
    }
}
