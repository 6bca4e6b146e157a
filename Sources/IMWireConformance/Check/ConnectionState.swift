import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireReconnect
import IMWireTransport

/// Where a connection's report goes: after TCP connection `number` (whose own report, if it
/// has one, comes first), the `session`-th socket.io session it started.
struct ReportOrder: Comparable, Hashable {
    var number: Int
    /// 0 for the TCP connection itself.
    var session = 0

    static func < (a: ReportOrder, b: ReportOrder) -> Bool { (a.number, a.session) < (b.number, b.session) }

    /// One integer that sorts as the order does (sessions per connection below 2^20).
    var packed: Int { number << 20 | session }
}

/// What the checker knows about one connection while it reads the capture: a TCP connection (or
/// a transcript's connection), or a socket.io session gathered from several TCP connections.
final class ConnectionState {
    let id: String
    /// Its number in the capture (TCP connections in the order they opened; sessions from
    /// `EndedConnections.sessionNumberBase` on).
    let number: Int
    /// Where its report goes among the capture's.
    let order: ReportOrder
    // @exclusivity(unchecked): one thread at a time reads and changes this object, and the
    // runtime's access checks on these properties were about 9% of a capture check (perf).
    @exclusivity(unchecked) var info = ConnectionInfo()
    @exclusivity(unchecked) var dialect: Dialect?
    @exclusivity(unchecked) var session: (any DialectConnection)?
    /// The frame of the last message given to `session`.
    @exclusivity(unchecked) var lastFrame = 0
    @exclusivity(unchecked) var undecidable = false
    /// The framing the connection's messages come in, when a session names it.
    @exclusivity(unchecked) var framing: Framing?
    @exclusivity(unchecked) var messages = 0
    @exclusivity(unchecked) var account = ByteAccount()
    @exclusivity(unchecked) var firstTime: Int64?
    @exclusivity(unchecked) var lastTime: Int64?
    @exclusivity(unchecked) var closed = false
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    @exclusivity(unchecked) var openAtCaptureEnd = false
    /// The WebSocket close code, when a close frame carried one.
    @exclusivity(unchecked) var closeCode: Int?
    /// The capture has the connection's transport bytes (pcap, `stream` lines), so WebSocket
    /// control frames such as pings are visible, not only messages.
    @exclusivity(unchecked) var hasTransportBytes = false
    /// Reads the transport streams (pcap TCP, transcript `stream` lines) into messages; made
    /// with the first bytes.
    @exclusivity(unchecked) private(set) var transport: ConnectionDecoder?
    /// The session this TCP connection carries from its WebSocket upgrade on: everything on it is
    /// the session's.
    @exclusivity(unchecked) var joined: ConnectionState?
    /// The sessions this TCP connection carried HTTP exchanges of.
    @exclusivity(unchecked) var sessionsTouched: [ConnectionState] = []
    /// Bytes of those exchanges, counted in the sessions rather than here.
    @exclusivity(unchecked) var movedBytes = 0
    /// A session: its TCP connections, in the order they joined; how many are open; since when none is.
    @exclusivity(unchecked) var tcpConnections: [String] = []
    @exclusivity(unchecked) var openMembers = 0
    @exclusivity(unchecked) var idleSince: Int64?
    @exclusivity(unchecked) var findings: [Finding] = []
    @exclusivity(unchecked) var droppedFindings = 0
    /// The decoded messages in order, for the HTML report's sequence diagram (capped).
    @exclusivity(unchecked) var timeline: [TimelineEntry] = []
    @exclusivity(unchecked) var timelineDropped = 0

    init(id: String, number: Int, order: ReportOrder, limits: Limits) {
        self.id = id
        self.number = number
        self.order = order
    }

    /// The transport decoder, made on first use.
    func transportDecoder(limits: Limits) -> ConnectionDecoder {
        if let transport { return transport }
        let made = ConnectionDecoder(limits: limits)
        transport = made
        return made
    }

    /// Nothing of its own to report: no message, no finding, no byte left after its sessions took theirs.
    var isEmptyForReport: Bool { messages == 0 && findings.isEmpty && droppedFindings == 0 && account.captured == 0 }

    /// Records a finding as `options` resolve it. `frame` and `line` are where the event being
    /// handled sits; a finding about an earlier frame (an unanswered request) keeps its own frame
    /// and gets no line.
    func add(_ finding: Finding, options: CheckOptions, line: Int?, frame: Int? = nil) {
        guard let placed = Self.place(finding, options: options, connection: id, line: line, frame: frame) else { return }
        if findings.count < options.limits.maxFindingsPerConnection {
            findings.append(placed)
        } else {
            droppedFindings += 1
        }
    }

    /// A finding as `options` resolve it (nil: turned off), placed on connection `id`.
    static func place(_ finding: Finding, options: CheckOptions, connection id: String, line: Int?, frame: Int?) -> Finding? {
        guard var resolved = options.resolve(finding) else { return nil }
        resolved.location.connection = id
        if resolved.location.frameIndex == nil { resolved.location.frameIndex = frame }
        if resolved.location.line == nil, resolved.location.frameIndex == frame { resolved.location.line = line }
        return resolved
    }

    /// Finishes the dialect session (requests still pending, a login never answered) and
    /// returns what it showed about reconnects.
    func finishSession(options: CheckOptions) -> SessionFacts? {
        guard let session else { return nil }
        self.session = nil
        for finding in session.finish(atMicros: lastTime, frameIndex: lastFrame) { add(finding, options: options, line: nil) }
        return session.sessionFacts
    }

    /// `summary` is only worked out when the entry is kept (`limit` is 0 unless a diagram is drawn).
    func record(frame: Int, time: Int64, direction: Direction, summary: @autoclosure () -> String, tcp: String? = nil, limit: Int) {
        guard timeline.count < limit else {
            if limit > 0 { timelineDropped += 1 }
            return
        }
        timeline.append(TimelineEntry(frame: frame, time: time, direction: direction, summary: summary(), tcp: tcp))
    }
}
