import Dispatch
import IMWireCore
import IMWireDialect
import IMWireIO
import IMWireReconnect
import IMWireRegistry

/// What spans connections, judged once every connection has been read, so that connections can
/// be checked independently (in any order, on several threads): the dialect rules about a
/// client that logs in again after its session was ended, and the reconnect judge
/// (Spec/reconnect.md §6).
extension Checker {
    /// One client's connections in report order: each one's number, and what the judge reads of
    /// it (`input(i)`), read from where it waits (the spool, a merge's store) each time the judge
    /// needs it: a client can have hundreds of thousands of connections, and a check keeps even
    /// their numbers in memory only up to a point (`IntegerList`).
    package struct Client {
        let count: Int
        private let numberAt: (Int) -> Int
        private let load: (Int) -> JudgeInput

        package init(numbers: [Int], input: @escaping (Int) -> JudgeInput) {
            count = numbers.count
            numberAt = { numbers[$0] }
            load = input
        }

        init(numbers: IntegerList, input: @escaping (Int) -> JudgeInput) {
            count = numbers.count
            numberAt = { numbers[$0] }
            load = input
        }

        /// Connection `index`'s number.
        func number(_ index: Int) -> Int { numberAt(index) }

        /// Connection `index`'s input, read again.
        func input(_ index: Int) -> JudgeInput { load(index) }
    }

    /// Groups the connections by client (dialect and the id its login names, else the client's
    /// address), then checks each client's connections in order. Each judged connection left
    /// a key (its client's hash and its number) as it ended; merged in order from the lanes'
    /// sorted runs, they bring one hash's connections together, whose inputs are then read
    /// (from the spool, where they wait) as the judge reaches them: of one client (per thread)
    /// only the first of its numbers and times stay in memory, the rest wait in files (the
    /// clients are judged on as many threads as the check has lanes, each taking its share of
    /// the hashes).
    func judgeAcrossConnections(_ connections: AllEndedConnections) {
        Self.judgeAcrossConnections(connections, options: options)
    }

    static func judgeAcrossConnections(_ connections: AllEndedConnections, options: CheckOptions) {
        let captureEnd = connections.lastTime
        let threads = connections.lanes.count
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let announcements = HostAnnouncements(connections)
            forEachGroup(connections, keys: \.judgeKeys, by: \.clientKey, options: options, share: (thread, threads)) {
                client in
                // A client with no login is grouped by its host: its key is the host's.
                judge(
                    client, captureEnd: captureEnd, connections: connections, options: options,
                    hostPolicy: { announcements.policy(forHost: $0.input(0).clientKey) })
            }
        }
        let carryKey: (JudgeInput) -> String = { $0.carryKey ?? "" }
        forEachGroup(connections, keys: \.carryKeys, by: carryKey, options: options) {
            judgeEarlyRequests($0, connections: connections)
        }
    }

    /// Judges the clients `forEachClient` yields (each client's connections in report order),
    /// then the early requests of each group `forEachHost` yields: a merge's, from its shards'
    /// reports.
    package static func judgeAll(
        forEachClient: ((Client) -> Void) -> Void, forEachHost: ((Client) -> Void) -> Void,
        hostPolicies: HostPolicies, captureEnd: Int64?, connections: some JudgedConnections, options: CheckOptions
    ) {
        forEachClient {
            judge(
                $0, captureEnd: captureEnd, connections: connections, options: options,
                hostPolicy: hostPolicies.policy(for:))
        }
        forEachHost { judgeEarlyRequests($0, connections: connections) }
    }

    /// The judged connections of `keys`' runs, group by group of `key`: the runs, merged in
    /// order, bring one hash's connections together, whose inputs are then read (from the
    /// spool, where they wait) and told apart by `key`. `share`: only the hashes that fall to
    /// thread `share.thread` of `share.threads`. A group's numbers past
    /// `CheckOptions.recordsInMemory` wait in a file (`IntegerList`).
    private static func forEachGroup(
        _ connections: AllEndedConnections, keys: KeyPath<EndedConnections, SortedRuns>, by key: (JudgeInput) -> String,
        options: CheckOptions, share: (thread: Int, threads: Int) = (0, 1), _ body: (Client) -> Void
    ) {
        var records = SortedRuns.merged(connections.lanes.map { $0[keyPath: keys] }).lazy.map(JudgeKey.init)
            .makeIterator()
        var next = records.next()
        while let first = next {
            let mine = UInt(bitPattern: first.hash) % UInt(share.threads) == share.thread
            // Usually one client has the hash: its group is these numbers (those with an
            // input). Clients whose keys share a hash are told apart by a second read.
            let numbers = IntegerList(inMemory: options.recordsInMemory)
            var name: String?
            var shared = false
            while let record = next, record.hash == first.hash {
                if mine, let input = connections.judgeInput(record.number) {
                    let key = key(input)
                    if name == nil { name = key } else if key != name { shared = true }
                    numbers.append(record.number)
                }
                next = records.next()
            }
            guard numbers.count > 0 else { continue }
            guard shared else {
                body(Client(numbers: numbers) { connections.judgeInput(numbers[$0])! })
                continue
            }
            for group in split((0..<numbers.count).map { numbers[$0] }, by: { key(connections.judgeInput($0)!) }) {
                body(Client(numbers: group) { connections.judgeInput(group[$0])! })
            }
        }
    }

    /// `numbers` in groups of the same `key`, in order of each group's first.
    private static func split(_ numbers: [Int], by key: (Int) -> String) -> [[Int]] {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for number in numbers {
            let name = key(number)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(number)
        }
        return order.compactMap { groups[$0] }
    }

    /// The policy each host's logged-in clients announce (LeanCloud's `ua`, yun2win's client id),
    /// by dialect and host: the first in report order where they differ. A merge's table; a
    /// check reads them from sorted runs instead (`HostAnnouncements`).
    package struct HostPolicies: Sendable {
        private var names: [String: (order: Int, name: String)] = [:]

        package init() {}

        /// Learns what a connection at `order` in the report (`ReportOrder.packed`, or a
        /// merge's place) announces (`JudgeInput.announcedPolicy`).
        package mutating func learn(_ announced: (host: String, name: String)?, order: Int) {
            guard let (host, name) = announced else { return }
            if let known = names[host], known.order <= order { return }
            names[host] = (order, name)
        }

        func policy(for client: Client) -> ReconnectPolicy? {
            (0..<client.count).lazy.compactMap {
                client.input($0).hostKey.flatMap { self.names[$0]?.name }.flatMap(ReconnectPolicies.named)
            }
            .first
        }
    }

    /// The policies a check's logged-in clients announce for their hosts, read from the lanes'
    /// runs of announcing connections (`EndedConnections.announceKeys`, by the host's hash) as
    /// the clients are judged: asked in the order of the hosts' hashes (the order `forEachGroup`
    /// yields clients in), it keeps only the current hash's announcers, so memory does not grow
    /// with the hosts of the capture.
    final class HostAnnouncements {
        private let connections: AllEndedConnections
        private let records: AnyIterator<[UInt8]>
        private var next: JudgeKey?
        /// The hash last asked for, and its announcing connections in report order.
        private var hash: UInt?
        private var numbers: [Int] = []

        init(_ connections: AllEndedConnections) {
            self.connections = connections
            records = SortedRuns.merged(connections.lanes.map(\.announceKeys))
            next = records.next().map(JudgeKey.init)
        }

        /// The policy `host`'s first logged-in connection in report order announces (its
        /// `JudgeInput.announcedPolicy`), when it names one; `host` as `JudgeInput.hostKey`.
        func policy(forHost host: String) -> ReconnectPolicy? {
            let wanted = UInt(bitPattern: host.hashValue)
            if hash != wanted {
                precondition(hash.map { $0 < wanted } ?? true, "hosts asked for out of their hashes' order")
                numbers.removeAll()
                while let record = next, UInt(bitPattern: record.hash) <= wanted {
                    if UInt(bitPattern: record.hash) == wanted { numbers.append(record.number) }
                    next = records.next().map(JudgeKey.init)
                }
                hash = wanted
            }
            for number in numbers {
                if let (announcing, name) = connections.judgeInput(number)?.announcedPolicy, announcing == host {
                    return ReconnectPolicies.named(name)
                }
            }
            return nil
        }
    }

    /// One client's connections (in report order) judged: the re-login rule, then reconnects.
    /// A client with no login is judged by the policy its host's logged-in clients announce
    /// (`hostPolicy`, from what their connections left as they ended), so the clients' order
    /// does not matter.
    private static func judge(
        _ client: Client, captureEnd: Int64?, connections: some JudgedConnections, options: CheckOptions,
        hostPolicy: (Client) -> ReconnectPolicy?
    ) {
        let summary = ClientSummary(client, options: options)
        guard let dialect = summary.dialect else { return }
        reloginAfterEnd(client, summary, dialect: dialect, connections: connections, dialects: options.dialects)
        judgeReconnects(
            client, summary, dialect: dialect, captureEnd: captureEnd, connections: connections, options: options,
            neighbour: { summary.loggedIn ? nil : hostPolicy(client) })
    }

    /// What one read of a client's inputs gathers for the judgement: what it orders the
    /// connections by and chooses the policy by. A client can have hundreds of thousands of
    /// connections: their times wait in a file past `CheckOptions.recordsInMemory`
    /// (`IntegerList`), and their logins are sorted in runs (`SortedRuns`).
    private struct ClientSummary {
        private(set) var dialect: Dialect?
        private(set) var loggedIn = false
        /// The first policy the client's connections announce (LeanCloud's `ua`, yun2win's client id).
        private(set) var announced: ReconnectPolicy?
        /// Each connection's first time, in report order.
        let opened: IntegerList
        /// The connections with a login (`LoginPlace`), when the dialect has a re-login rule
        /// (`reloginAfterEnd`).
        let logins: SortedRuns

        init(_ client: Client, options: CheckOptions) {
            opened = IntegerList(inMemory: options.recordsInMemory)
            logins = SortedRuns(recordSize: LoginPlace.size, runLength: options.recordsInMemory)
            var wantsLogins = false
            for index in 0..<client.count {
                let input = client.input(index)
                if index == 0 {
                    dialect = input.dialect
                    wantsLogins = options.dialects.definition(input.dialect)?.relogin != nil
                }
                loggedIn = loggedIn || input.facts.client != nil
                if announced == nil { announced = input.facts.policyName.flatMap(ReconnectPolicies.named) }
                opened.append(Int(input.firstTime))
                if wantsLogins, let login = input.facts.login {
                    logins.append(LoginPlace(sent: login.sent, index: index).record)
                }
            }
        }

        /// The connections with a login in order of sending, ties in report order.
        var loginOrder: some Sequence<LoginPlace> { SortedRuns.merged([logins]).lazy.map(LoginPlace.init) }
    }

    /// A connection's login as `ClientSummary` sorts it: when it was sent, then the connection's
    /// index in its client (`ThreeWords`, the time's sign bit flipped so that it sorts as bytes).
    private struct LoginPlace {
        static let size = ThreeWords.size
        let sent: Int64
        let index: Int

        init(sent: Int64, index: Int) {
            self.sent = sent
            self.index = index
        }

        init(_ record: [UInt8]) {
            let (sent, index, _) = ThreeWords.words(record)
            self.sent = Int64(sent ^ Int.min)
            self.index = index
        }

        var record: [UInt8] { ThreeWords.record(Int(sent) ^ Int.min, index, 0) }
    }

    /// The requests before login (`SessionFacts.earlyRequests`) of one host's connections (in
    /// report order, `JudgeInput.carryKey`): a re-send when a connection of the host that ended
    /// at most `carryWindowMicros` before left it unanswered, else the error (once per rule and
    /// connection, as the dialect would have said it at once). By host, not by user: the
    /// connection a JMessage SDK re-sends on after a drop has no login of its own.
    private static func judgeEarlyRequests(_ host: Client, connections: some JudgedConnections) {
        var ended: [(time: Int64, keys: [String])] = []
        for index in 0..<host.count {
            let (number, input) = (host.number(index), host.input(index))
            var reported: Set<RuleID> = []
            for early in input.facts.earlyRequests {
                let time = early.ifNew.location.time ?? input.firstTime
                let carried = ended.contains {
                    $0.time <= time && time - $0.time <= carryWindowMicros && $0.keys.contains(early.key)
                }
                if !carried, !reported.insert(early.ifNew.ruleID).inserted { continue }
                let finding = carried ? early.ifCarried : early.ifNew
                connections.add(
                    finding, to: number, id: input.connection, line: nil, frame: finding.location.frameIndex)
            }
            if !input.facts.unansweredAtEnd.isEmpty {
                ended.removeAll { input.firstTime - $0.time > carryWindowMicros }
                ended.append((input.lastTime ?? input.firstTime, input.facts.unansweredAtEnd))
            }
        }
    }

    /// How long after its connection ended a request may be re-sent: JMessage Web re-sends for
    /// 25 s after the first send (5 sends, ACK_TIMEOUT 5 s), so 30 s.
    static let carryWindowMicros: Int64 = 30_000_000

    /// The findings of `facts`' early requests when the connection is not judged (no client
    /// to group it with): each one as if new, once per rule.
    static func earlyRequestsAlone(_ facts: SessionFacts) -> [Finding] {
        var reported: Set<RuleID> = []
        return facts.earlyRequests.map(\.ifNew).filter { reported.insert($0.ruleID).inserted }
    }

    /// The dialect's re-login rule (`DialectDefinition.relogin`): a login for a client whose
    /// earlier connection ended in a way that forbids logging in again by itself (NIM: kicked 2_5,
    /// or refused at login with 302/417/422; yun2win: kicked 10, then a CONNECT with client id
    /// prefix 1). One finding per ending.
    private static func reloginAfterEnd(
        _ client: Client, _ summary: ClientSummary, dialect: Dialect, connections: some JudgedConnections,
        dialects: Dialects
    ) {
        guard let rule = dialects.definition(dialect)?.relogin else { return }
        var ending: (connection: String, why: String, time: Int64)?
        for login in summary.loginOrder {
            let (number, input) = (client.number(login.index), client.input(login.index))
            let facts = input.facts
            guard let login = facts.login else { continue }
            if let ended = ending, login.sent >= ended.time {
                ending = nil
                if var finding = rule.finding(login, facts.client ?? "?", ended.connection, ended.why) {
                    finding.location = Location(time: login.sent, direction: .send)
                    connections.add(
                        finding, to: number, id: input.connection, line: input.loginLine, frame: facts.loginFrame)
                }
            }
            if let end = facts.end, let why = rule.forbiddingEnding(end), let time = facts.endTimeMicros {
                ending = (input.connection, why, time)
            }
        }
    }

    /// The reconnect judge on one client's connections, with the client's policy: `--policy`
    /// when it names one of the dialect's, else the one the client announces (LeanCloud's `ua`,
    /// yun2win's client id), else (for a client with no login) the one a logged-in client on
    /// its host announces (`neighbour`), else the dialect's default. Each finding says which and why.
    private static func judgeReconnects(
        _ client: Client, _ summary: ClientSummary, dialect: Dialect, captureEnd: Int64?,
        connections: some JudgedConnections, options: CheckOptions, neighbour: () -> ReconnectPolicy?
    ) {
        let policy: ReconnectPolicy
        let why: String
        if let named = options.reconnectPolicies.policy(for: dialect) {
            (policy, why) = (named, "given by --policy")
        } else if let announced = summary.announced {
            (policy, why) = (announced, "the SDK the client announces")
        } else if let neighbour = neighbour() {
            (policy, why) = (neighbour, "the SDK a client on the same host announces: these connections name none")
        } else if let fallback = options.reconnectPolicy(for: dialect) {
            (policy, why) = (fallback, "the vendor's default: the client names no SDK")
        } else {
            return  // a dialect that models no reconnecting
        }
        let judge = ReconnectJudge(policy: policy, options: options.reconnect)
        // Observations made and findings placed as each connection is judged: gathered first,
        // all of one client's would be in memory at once.
        judge.judge(
            count: client.count, opened: { Int64(summary.opened[$0]) },
            observation: {
                let input = client.input($0)
                return Self.observation(input.connection, input)
            }, captureEnd: captureEnd,
            emit: { findings in
                placeJudged(
                    findings, client: client, policy: policy, why: why, connections: connections, options: options)
            })
    }

    /// Puts the judge's findings of `client` on their connections (`index` in `client`), unless
    /// a dialect rule said the same there.
    private static func placeJudged(
        _ findings: [(finding: Finding, index: Int)], client: Client, policy: ReconnectPolicy, why: String,
        connections: some JudgedConnections, options: CheckOptions
    ) {
        for (var finding, index) in findings {
            finding.message += " [judged by \(policy.name): \(why)]"
            let (number, input) = (client.number(index), client.input(index))
            let reported = options.dialects.judgeFindingsReportedBy[finding.ruleID] ?? []
            guard !connections.hasFinding(of: reported, number: number, input: input) else { continue }
            // The judge places a finding in time; one at the login is on the login's message.
            let atLogin = finding.location.time == input.facts.login?.sent
            connections.add(
                finding, to: number, id: input.connection, line: atLogin ? input.loginLine : nil,
                frame: atLogin ? input.facts.loginFrame : finding.location.frameIndex)
        }
    }

    /// One connection as the judge sees it. A connection the capture leaves open has no end; one
    /// that closed ends as its messages said (a kick, a logout…) or with its WebSocket close code.
    static func observation(_ id: String, _ conn: JudgeInput) -> ConnectionObservation {
        let facts = conn.facts
        let closedAt = conn.closed && !conn.openAtCaptureEnd ? conn.lastTime : nil
        let end = facts.end ?? (closedAt == nil ? .open : .closed(code: conn.closeCode.map(Int64.init)))
        return ConnectionObservation(
            connection: id, opened: conn.firstTime, login: facts.login, keepAlive: facts.keepAlive,
            keepAliveVisible: facts.keepAliveInMessages || conn.hasTransportBytes,
            ended: closedAt ?? (facts.end == nil ? nil : facts.endTimeMicros), end: end, linkUp: facts.linkUp != nil)
    }

    /// `10.0.0.1` of `10.0.0.1:51234`, `::1` of `[::1]:443`.
    /// Searched as UTF-8 bytes: by `Character` it cost a new connection's lane choice more than
    /// the rest of it.
    static func host(_ endpoint: String) -> String {
        let bytes = endpoint.utf8
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            return String(endpoint[bytes.index(after: bytes.startIndex)..<close])
        }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), bytes.firstIndex(of: UInt8(ascii: ":")) == colon
        else { return endpoint }
        return String(endpoint[..<colon])
    }
}

/// Where the judge's findings go: the ended connections of a check, or the connections of
/// merged shard reports (`ReportMerger`).
package protocol JudgedConnections {
    /// Adds a judge finding to connection `number` (named `id`), capped like its own findings,
    /// placed on message `frame` at `line` when it names none (`ConnectionState.place`).
    func add(_ finding: Finding, to number: Int, id: String, line: Int?, frame: Int?)
    /// Whether connection `number` has a finding of one of `rules` (its own, or one added).
    func hasFinding(of rules: Set<RuleID>, number: Int, input: JudgeInput) -> Bool
}

extension AllEndedConnections: JudgedConnections {
    /// What the judge reads of connection `number`; nil when it is not judged.
    func judgeInput(_ number: Int) -> JudgeInput? {
        let (lane, local) = lane(of: number)
        return lane[local].judged?.load()
    }

    func add(_ finding: Finding, to number: Int, id: String, line: Int?, frame: Int?) {
        let (lane, local) = lane(of: number)
        lane.add(finding, to: local, id: id, line: line, frame: frame)
    }

    func hasFinding(of rules: Set<RuleID>, number: Int, input: JudgeInput) -> Bool {
        let (lane, local) = lane(of: number)
        return lane.hasFinding(of: rules, number: local, input: input)
    }
}
