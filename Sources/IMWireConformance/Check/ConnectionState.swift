import IMWireCapture
import IMWireCore

/// What the checker knows about one connection while it reads the capture.
final class ConnectionState {
    let id: String
    var info = ConnectionInfo()
    var dialect: Dialect?
    var session: (any DialectSession)?
    var undecidable = false
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

    func record(frame: Int, time: Int64, direction: Direction, summary: String, limit: Int) {
        guard timeline.count < limit else {
            if limit > 0 { timelineDropped += 1 }
            return
        }
        timeline.append(TimelineEntry(frame: frame, time: time, direction: direction, summary: summary))
    }
}
