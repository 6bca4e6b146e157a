import IMWireCore
import IMWireIO
import IMWireTransport

/// What can wait in a `ReportSpool`: written with `ReportWriter`, read back with `ReportReader`.
protocol Spoolable {
    func write(to writer: inout ReportWriter)
    /// Nil when the bytes do not hold one.
    static func read(from reader: inout ReportReader) -> Self?
}

/// Where an ended connection's report, or what the reconnect judge reads of it, waits for the
/// end of the capture.
enum Stored<Value: Spoolable> {
    indirect case memory(Value)
    case spooled(ReportSpool, offset: Int, count: Int)

    func load() -> Value {
        switch self {
        case .memory(let value): value
        case .spooled(let spool, let offset, let count): spool.read(offset: offset, count: count)
        }
    }
}

typealias StoredReport = Stored<ConnectionReport>

extension ConnectionReport: Spoolable {
    func write(to writer: inout ReportWriter) { writer.report(self) }
    static func read(from reader: inout ReportReader) -> ConnectionReport? { reader.report() }
}

/// The reports of ended connections in a temporary file, so a capture of any number of
/// connections does not hold them all in memory until its report is written. They are written
/// a batch at a time (`writeSize` bytes: one `pwrite` for many small reports). One spool per
/// `ConnectionChecker`: written on its lane's thread only, read after the checker has
/// finished, from any thread.
final class ReportSpool: @unchecked Sendable {
    private let file: ScratchFile
    private let writeSize: Int
    /// What the file holds: bytes before `size` are in it (or in `unwritten`), `pending` after.
    private var size = 0
    private var pending: [UInt8] = []
    /// Batches the file could not take (a full disk), by their offset: kept in memory instead.
    private var unwritten: [Int: [UInt8]] = [:]

    /// Nil when no file can be made (the reports then stay in memory). `readAhead`: see
    /// `ScratchFile`, for a spool read in about the order it was written.
    init?(name: String = "reports", readAhead: Int = 0, writeSize: Int = 256 << 10) {
        guard let file = ScratchFile(name: name, readAhead: readAhead) else { return nil }
        self.file = file
        self.writeSize = max(1, writeSize)
    }

    /// Appends `value`.
    func store<Value: Spoolable>(_ value: Value) -> Stored<Value> {
        let offset = size + pending.count
        var writer = ReportWriter()
        swap(&writer.bytes, &pending)  // written straight into the batch
        value.write(to: &writer)
        swap(&writer.bytes, &pending)
        let count = size + pending.count - offset
        if pending.count >= writeSize {
            if !file.write(pending, at: size) { unwritten[size] = pending }
            size += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        return .spooled(self, offset: offset, count: count)
    }

    func read<Value: Spoolable>(offset: Int, count: Int) -> Value {
        var reader = ReportReader(bytes(at: offset, count: count))
        guard let value = Value.read(from: &reader), reader.isAtEnd else {
            fatalError("imwire: the report spool is damaged at byte \(offset)")
        }
        return value
    }

    /// A value is never split between batches, so it is in one of them.
    private func bytes(at offset: Int, count: Int) -> [UInt8] {
        if offset >= size { return Array(pending[offset - size..<offset - size + count]) }
        if !unwritten.isEmpty,
            let (start, batch) = unwritten.first(where: { $0.key <= offset && offset < $0.key + $0.value.count })
        {
            return Array(batch[offset - start..<offset - start + count])
        }
        return file.bytes(at: offset, count: count)
    }
}

/// A `ConnectionReport` as bytes: varints (zigzag for signed numbers), length-prefixed UTF-8,
/// a presence byte before each optional, a count before each list.
struct ReportWriter {
    var bytes: [UInt8] = []

    mutating func report(_ report: ConnectionReport) {
        string(report.id)
        string(report.dialect?.rawValue)
        string(report.subprotocol)
        string(report.extensions)
        string(report.client)
        string(report.server)
        int(report.messages)
        int(report.account.decoded)
        list(report.account.skipped.sorted { $0.key < $1.key }) {
            $0.string($1.key)
            $0.int($1.value)
        }
        int(report.account.lost)
        int64(report.firstTime)
        int64(report.lastTime)
        list(report.findings) { $0.finding($1) }
        int(report.droppedFindings)
        list(report.timeline) {
            $0.int($1.frame)
            $0.int64($1.time)
            $0.string($1.direction.rawValue)
            $0.string($1.summary)
            $0.string($1.tcp)
            $0.string($1.json)
            $0.optional($1.payload) { $0.raw($1) }
            $0.int($1.payloadLength)
        }
        int(report.timelineDropped)
        list(report.tcpConnections) { $0.string($1) }
        optional(report.tls) { writer, tls in
            writer.string(tls.version)
            writer.string(tls.suite)
            writer.string(tls.serverName)
            writer.string(tls.alpn)
            writer.int(tls.decrypted ? 1 : 0)
            writer.string(tls.reason)
        }
    }

    mutating func finding(_ finding: Finding) {
        let rule = finding.rule
        string(rule.id.rawValue)
        int(rule.severity.rawValue)
        int(rule.lenientSeverity.rawValue)
        string(rule.layer.rawValue)
        string(rule.dialect?.rawValue)
        string(rule.summary)
        string(rule.specRef)
        int(finding.severity.rawValue)
        string(finding.message)
        int(finding.offset)
        string(finding.location.connection)
        int(finding.location.frameIndex)
        int(finding.location.line)
        int64(finding.location.time)
        string(finding.location.direction?.rawValue)
        string(finding.subject)
    }

    mutating func int64(_ value: Int64) { Varint.write(UInt64(bitPattern: value << 1 ^ value >> 63), into: &bytes) }
    mutating func int(_ value: Int) { int64(Int64(value)) }
    mutating func string(_ value: String) {
        int(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
    mutating func raw(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }
    private mutating func present(_ present: Bool) -> Bool {
        bytes.append(present ? 1 : 0)
        return present
    }
    mutating func int64(_ value: Int64?) { if present(value != nil), let value { int64(value) } }
    mutating func int(_ value: Int?) { if present(value != nil), let value { int(value) } }
    mutating func string(_ value: String?) { if present(value != nil), let value { string(value) } }
    mutating func optional<T>(_ value: T?, _ write: (inout Self, T) -> Void) {
        if present(value != nil), let value { write(&self, value) }
    }
    mutating func list<T>(_ values: [T], _ write: (inout Self, T) -> Void) {
        int(values.count)
        for value in values { write(&self, value) }
    }
}

/// Reads what `ReportWriter` wrote; nil where the bytes do not hold it.
package struct ReportReader {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { position == bytes.count }

    package mutating func report() -> ConnectionReport? {
        guard let id = string(), let dialect = optional({ $0.string() }), let subprotocol = optional({ $0.string() }),
            let extensions = optional({ $0.string() }), let client = optional({ $0.string() }),
            let server = optional({ $0.string() }),
            let messages = int(),
            let decoded = int(), let skipped = list({ $0.skipped() }), let lost = int(),
            let firstTime = optional({ $0.int64() }), let lastTime = optional({ $0.int64() }),
            let findings = list({ $0.finding() }),
            let droppedFindings = int(), let timeline = list({ $0.timelineEntry() }), let timelineDropped = int(),
            let tcpConnections = list({ $0.string() }), let tls = optional({ $0.tlsSummary() })
        else { return nil }
        var account = ByteAccount()
        account.decoded = decoded
        for (reason, count) in skipped { account.skipped[reason] = count }
        account.lost = lost
        return ConnectionReport(
            id: id, dialect: dialect.map { Dialect($0) }, subprotocol: subprotocol, extensions: extensions,
            client: client,
            server: server,
            messages: messages, account: account, firstTime: firstTime, lastTime: lastTime, findings: findings,
            droppedFindings: droppedFindings, timeline: timeline, timelineDropped: timelineDropped,
            tcpConnections: tcpConnections,
            tls: tls)
    }

    private mutating func tlsSummary() -> TLSSummary? {
        guard let version = optional({ $0.string() }), let suite = optional({ $0.string() }),
            let serverName = optional({ $0.string() }),
            let alpn = optional({ $0.string() }), let decrypted = int(), let reason = optional({ $0.string() })
        else { return nil }
        return TLSSummary(
            version: version, suite: suite, serverName: serverName, alpn: alpn, decrypted: decrypted == 1,
            reason: reason)
    }

    private mutating func skipped() -> (String, Int)? {
        guard let reason = string(), let count = int() else { return nil }
        return (reason, count)
    }

    package mutating func finding() -> Finding? {
        guard let id = string(), let strict = severity(), let lenient = severity(),
            let layer = string().flatMap(Layer.init),
            let dialect = optional({ $0.string() }), let summary = string(), let specRef = string(),
            let findingSeverity = severity(), let message = string(), let offset = optional({ $0.int() }),
            let connection = optional({ $0.string() }), let frameIndex = optional({ $0.int() }),
            let line = optional({ $0.int() }),
            let time = optional({ $0.int64() }), let direction = optional({ $0.string() }),
            let subject = optional({ $0.string() })
        else { return nil }
        let rule = Rule(
            RuleID(id), strict, lenient: lenient, layer: layer, dialect: dialect.map { Dialect($0) },
            summary: summary, specRef: specRef)
        var finding = Finding(rule: rule, message: message, offset: offset, subject: subject)
        finding.severity = findingSeverity
        finding.location = Location(
            connection: connection, frameIndex: frameIndex, line: line, time: time,
            direction: direction.flatMap(Direction.init))
        return finding
    }

    private mutating func timelineEntry() -> TimelineEntry? {
        guard let frame = int(), let time = int64(), let direction = string().flatMap(Direction.init),
            let summary = string(),
            let tcp = optional({ $0.string() }), let json = optional({ $0.string() }),
            let payload = optional({ $0.raw() }),
            let payloadLength = int()
        else { return nil }
        return TimelineEntry(
            frame: frame, time: time, direction: direction, summary: summary, tcp: tcp, json: json, payload: payload,
            payloadLength: payloadLength)
    }

    private mutating func severity() -> Severity? { int().flatMap(Severity.init(rawValue:)) }

    mutating func int64() -> Int64? {
        let read = bytes.withUnsafeBytes { Varint.read($0, at: position) }
        guard case .value(let raw, let length, _) = read else { return nil }
        position += length
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func int() -> Int? { int64().flatMap { Int(exactly: $0) } }

    mutating func string() -> String? {
        guard let count = int(), count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
    }

    mutating func raw() -> [UInt8]? {
        guard let count = int(), count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// `.some(nil)` for an absent value, nil for bytes that do not hold one.
    mutating func optional<T>(_ read: (inout Self) -> T?) -> T?? {
        guard position < bytes.count else { return nil }
        position += 1
        switch bytes[position - 1] {
        case 0: return .some(nil)
        case 1: return read(&self).map { .some($0) }
        default: return nil
        }
    }

    package mutating func list<T>(_ read: (inout Self) -> T?) -> [T]? {
        guard let count = int(), count >= 0, count <= bytes.count - position else { return nil }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = read(&self) else { return nil }
            values.append(value)
        }
        return values
    }
}
