import IMWireCapture
import IMWireCore

/// A message waiting for its connection's dialect, with where it was in the capture.
struct HeldMessage {
    var message: CapturedMessage
    var time: Int64
    var line: Int?
    var frame: Int
}

/// What the checker knows about one connection while it reads the capture.
final class ConnectionState {
    let id: String
    var info = ConnectionInfo()
    var dialect: Dialect?
    var session: (any DialectSession)?
    /// What the session showed about reconnects, kept when the session was let go at the
    /// connection's last event (`retire`); the session's own while it lives.
    private var retiredFacts: RetiredFacts?
    var reconnectFacts: ReconnectFacts? { session?.reconnectFacts ?? retiredFacts?.facts }
    /// The session was finished and let go: nothing more of the connection follows.
    private(set) var isRetired = false
    var undecidable = false
    /// Raw TCP bytes that arrived before the dialect could be recognised (an MQTT CONNECT split
    /// over segments): held, then delivered in order once it is (`ConnectionChecker.deliver`).
    var held: [HeldMessage] = []
    var messages = 0
    var account = ByteAccount()
    var firstTime: Int64?
    var lastTime: Int64?
    var closed = false
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    var openAtCaptureEnd = false
    /// The WebSocket close code, when a close frame carried one.
    var closeCode: Int?
    /// The capture has the connection's transport bytes (pcap, `stream` lines), so WebSocket
    /// control frames such as pings are visible, not only messages.
    var hasTransportBytes = false
    /// Reads the transport streams (pcap TCP, transcript `stream` lines) into messages.
    var transport: TransportReader
    /// Directions whose stream lost bytes: the rest of them cannot be framed again.
    var brokenDirections: Set<Direction> = []
    var findings: [Finding] = []
    var droppedFindings = 0
    /// The decoded messages in order, for the HTML report's sequence diagram (capped).
    var timeline: [TimelineEntry] = []
    var timelineDropped = 0

    init(id: String, limits: Limits) {
        self.id = id
        transport = TransportReader(limits: limits)
    }

    /// Records a finding as `options` resolve it. `frame` and `line` are where the event being
    /// handled sits; a finding about an earlier frame (an unanswered request) keeps its own frame
    /// and gets no line.
    func add(_ finding: Finding, options: CheckOptions, line: Int?, frame: Int? = nil) {
        guard var resolved = options.resolve(finding) else { return }
        resolved.location.connection = id
        if resolved.location.frameIndex == nil { resolved.location.frameIndex = frame }
        if resolved.location.line == nil, resolved.location.frameIndex == frame { resolved.location.line = line }
        if findings.count < options.limits.maxFindingsPerConnection {
            findings.append(resolved)
        } else {
            droppedFindings += 1
        }
    }

    /// Finishes the session of a connection the capture has no more events for and lets it go,
    /// keeping its findings and reconnect facts: a large capture's memory then grows with what the
    /// report says about each connection, not with each connection's decoding state.
    func retire(options: CheckOptions) {
        guard !isRetired else { return }
        isRetired = true
        guard var session else { return }
        self.session = nil
        for finding in session.finish(at: lastTime) { add(finding, options: options, line: nil) }
        retiredFacts = RetiredFacts(facts: session.reconnectFacts)
    }

    /// `summary` is only worked out when the entry is kept (`limit` is 0 unless a diagram is drawn).
    func record(frame: Int, time: Int64, direction: Direction, summary: @autoclosure () -> String, limit: Int) {
        guard timeline.count < limit else {
            if limit > 0 { timelineDropped += 1 }
            return
        }
        timeline.append(TimelineEntry(frame: frame, time: time, direction: direction, summary: summary()))
    }
}

/// Boxed, so a connection that never retires does not carry the room of its facts inline.
private final class RetiredFacts {
    let facts: ReconnectFacts
    init(facts: ReconnectFacts) { self.facts = facts }
}
