import IMWireCore
import IMWireReconnect
import IMWireRegistry

/// What the reconnect judge (ReconnectCheck.swift) reads of one ended connection that it judges:
/// one with a dialect session, a time, and a client to group it by. It waits, like the report,
/// in the spool past `CheckOptions.reportsInMemory`, so a large capture does not keep every
/// connection's facts on the heap until its end.
package struct JudgeInput: Sendable, Equatable {
    /// The connection's id.
    let connection: String
    package let dialect: Dialect
    /// The client's address (`ConnectionInfo.client`).
    let client: String?
    let firstTime: Int64
    let lastTime: Int64?
    let closed: Bool
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    let openAtCaptureEnd: Bool
    let closeCode: Int?
    /// The capture had the connection's transport bytes, so pings were visible.
    let hasTransportBytes: Bool
    package let facts: SessionFacts
    /// A transcript's line of the login (`facts.loginFrame`), where the judge's findings point.
    let loginLine: Int?
    /// The rules of the connection's own findings that judge findings defer to
    /// (`Checker.judgeFindingsReportedBy`).
    package let deferredRules: Set<RuleID>

    /// Who the judge groups the connection with: the dialect and the id its login names, else
    /// the client's host; nil when neither is known (the connection is not judged).
    static func clientKey(dialect: Dialect, facts: SessionFacts, client: String?) -> String? {
        guard let who = facts.client.map({ "id " + $0 }) ?? client.map({ "host " + Checker.host($0) }) else {
            return nil
        }
        return "\(dialect.rawValue) \(who)"
    }

    package var clientKey: String { Self.clientKey(dialect: dialect, facts: facts, client: client) ?? "" }

    /// Who the connection's early requests are judged with (`Checker.judgeEarlyRequests`): the
    /// client's host, since a connection re-sending before its login names no user yet; the
    /// client key when the capture has no address. Nil when it has nothing to carry or to match.
    package var carryKey: String? {
        guard !facts.earlyRequests.isEmpty || !facts.unansweredAtEnd.isEmpty else { return nil }
        return hostKey ?? clientKey
    }

    /// The dialect and the client's host, when the capture has the client's address.
    var hostKey: String? { client.map { "\(dialect.rawValue) host \(Checker.host($0))" } }

    /// The policy a logged-in connection announces for its host (`hostKey`), which stands for
    /// the login-less connections of that host (`Checker.HostAnnouncements`, a merge's
    /// `Checker.HostPolicies`).
    package var announcedPolicy: (host: String, name: String)? {
        guard facts.client != nil, let host = hostKey, let name = facts.policyName else { return nil }
        return (host, name)
    }
}

/// A judged connection as the judge sorts it: its client key's hash, then its place in the
/// report (`ReportOrder.packed`: the order the capture opened connections, a session after the
/// connection that began it), then its number. 24 bytes, big-endian, so that they sort as bytes.
struct JudgeKey {
    static let size = ThreeWords.size
    let hash: Int
    let order: Int
    let number: Int

    init(hash: Int, order: Int, number: Int) {
        self.hash = hash
        self.order = order
        self.number = number
    }

    init(_ record: [UInt8]) { (hash, order, number) = ThreeWords.words(record) }

    var record: [UInt8] { ThreeWords.record(hash, order, number) }
}

/// Three integers as a 24-byte record, big-endian so that records sort as bytes in
/// `SortedRuns` (and, all three non-negative but the first, as the integers do): `JudgeKey`,
/// `SessionPlace`, `SessionKeyRecord`, the judge's `LoginPlace`.
enum ThreeWords {
    static let size = 24

    static func record(_ first: Int, _ second: Int, _ third: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: size)
        writer.append(UInt64(truncatingIfNeeded: first), .big)
        writer.append(UInt64(second), .big)
        writer.append(UInt64(third), .big)
        return writer.bytes
    }

    static func words(_ record: [UInt8]) -> (Int, Int, Int) {
        record.withReader { reader in
            (
                Int(truncatingIfNeeded: reader.readUInt64() ?? 0), Int(truncatingIfNeeded: reader.readUInt64() ?? 0),
                Int(truncatingIfNeeded: reader.readUInt64() ?? 0)
            )
        }
    }
}

extension JudgeInput: Spoolable {
    func write(to writer: inout ReportWriter) {
        writer.string(connection)
        writer.string(dialect.rawValue)
        writer.string(client)
        writer.int64(firstTime)
        writer.int64(lastTime)
        writer.int(closed ? 1 : 0)
        writer.int(openAtCaptureEnd ? 1 : 0)
        writer.int(closeCode)
        writer.int(hasTransportBytes ? 1 : 0)
        writer.list(deferredRules.map(\.rawValue).sorted()) { $0.string($1) }
        writer.string(facts.client)
        writer.optional(facts.login) { writer, login in
            writer.int64(login.sent)
            writer.int(login.reconnectFlag.map { $0 ? 1 : 0 })
            writer.int64(login.accepted)
        }
        writer.int(facts.loginFrame)
        writer.int(loginLine)
        let log = facts.keepAlive
        writer.int(log.count)
        writer.int64(log.first)
        writer.int64(log.last)
        writer.optional(log.longestGap) {
            $0.int64($1.start)
            $0.int64($1.length)
        }
        writer.int(facts.keepAliveInMessages ? 1 : 0)
        writer.optional(facts.end) { writer, end in
            switch end {
            case .open: writer.int(0)
            case .clientLogout: writer.int(1)
            case .closed(let code):
                writer.int(2)
                writer.int64(code)
            case .lost: writer.int(3)
            case .kicked(let code):
                writer.int(4)
                writer.int64(code)
            case .loginRejected(let code, let wait):
                writer.int(5)
                writer.int64(code)
                writer.int64(wait)
            case .goaway: writer.int(6)
            }
        }
        writer.int64(facts.endTimeMicros)
        writer.string(facts.policyName)
        writer.int64(facts.linkUp)
        writer.list(facts.earlyRequests) { writer, early in
            writer.string(early.key)
            writer.finding(early.ifNew)
            writer.finding(early.ifCarried)
        }
        writer.list(facts.unansweredAtEnd) { $0.string($1) }
    }

    package static func read(from reader: inout ReportReader) -> JudgeInput? {
        guard let connection = reader.string(), let dialect = reader.string().map({ Dialect($0) }),
            let client = reader.optional({ $0.string() }),
            let firstTime = reader.int64(), let lastTime = reader.optional({ $0.int64() }), let closed = reader.bool(),
            let openAtCaptureEnd = reader.bool(), let closeCode = reader.optional({ $0.int() }),
            let hasTransportBytes = reader.bool(), let deferred = reader.list({ $0.string() }),
            let factsClient = reader.optional({ $0.string() }), let login = reader.optional({ $0.login() }),
            let loginFrame = reader.optional({ $0.int() }), let loginLine = reader.optional({ $0.int() }),
            let count = reader.int(),
            let first = reader.optional({ $0.int64() }),
            let last = reader.optional({ $0.int64() }), let gap = reader.optional({ $0.gap() }),
            let keepAliveInMessages = reader.bool(), let end = reader.optional({ $0.connectionEnd() }),
            let endTime = reader.optional({ $0.int64() }), let policyName = reader.optional({ $0.string() }),
            let linkUp = reader.optional({ $0.int64() }), let early = reader.list({ $0.earlyRequest() }),
            let unanswered = reader.list({ $0.string() })
        else { return nil }
        var facts = SessionFacts(keepAliveInMessages: keepAliveInMessages)
        facts.client = factsClient
        facts.login = login
        facts.loginFrame = loginFrame
        facts.keepAlive = KeepAliveLog(count: count, first: first, last: last, longestGap: gap)
        facts.end = end
        facts.endTimeMicros = endTime
        facts.linkUp = linkUp
        facts.earlyRequests = early
        facts.unansweredAtEnd = unanswered
        if let policyName {
            guard ReconnectPolicies.named(policyName) != nil else { return nil }
            facts.policyName = policyName
        }
        return JudgeInput(
            connection: connection, dialect: dialect, client: client, firstTime: firstTime, lastTime: lastTime,
            closed: closed,
            openAtCaptureEnd: openAtCaptureEnd, closeCode: closeCode, hasTransportBytes: hasTransportBytes,
            facts: facts,
            loginLine: loginLine, deferredRules: Set(deferred.map { RuleID($0) }))
    }
}

extension ReportReader {
    fileprivate mutating func bool() -> Bool? {
        switch int() {
        case 0?: false
        case 1?: true
        default: nil
        }
    }

    fileprivate mutating func login() -> LoginObservation? {
        guard let sent = int64(), let flag = optional({ $0.bool() }), let accepted = optional({ $0.int64() }) else {
            return nil
        }
        return LoginObservation(sent: sent, reconnectFlag: flag, accepted: accepted)
    }

    fileprivate mutating func earlyRequest() -> EarlyRequest? {
        guard let key = string(), let ifNew = finding(), let ifCarried = finding() else { return nil }
        return EarlyRequest(key: key, ifNew: ifNew, ifCarried: ifCarried)
    }

    fileprivate mutating func gap() -> (start: Int64, length: Int64)? {
        guard let start = int64(), let length = int64() else { return nil }
        return (start, length)
    }

    fileprivate mutating func connectionEnd() -> ConnectionEnd? {
        switch int() {
        case 0?: return .open
        case 1?: return .clientLogout
        case 2?: return optional({ $0.int64() }).map { .closed(code: $0) }
        case 3?: return .lost
        case 4?: return int64().map { .kicked(code: $0) }
        case 5?:
            guard let code = int64(), let wait = optional({ $0.int64() }) else { return nil }
            return .loginRejected(code: code, waitMicros: wait)
        case 6?: return .goaway
        default: return nil
        }
    }
}
