import IMWireCore
import IMWireDialect
import IMWireReconnect
import IMWireTransport

/// What the checker knows about one connection while it reads the capture, beside what the
/// transport layer knows (`connection`): its dialect session, its findings, its diagram.
package final class ConnectionState {
    let connection: LogicalConnection
    // @exclusivity(unchecked): one thread at a time reads and changes this object, so the
    // runtime's access checks on these properties, read for every packet, would buy nothing.
    @exclusivity(unchecked) var dialect: Dialect?
    @exclusivity(unchecked) var session: (any DialectConnection)?
    /// The frame of the last message given to `session`.
    @exclusivity(unchecked) var lastFrame = 0
    /// A transcript's line of each message so far (frames 1, 2, …), for findings about an earlier
    /// message (a request never answered, a push never acknowledged); empty for packet captures,
    /// whose frames are the packets themselves.
    @exclusivity(unchecked) private var frameLines: [Int32] = []
    @exclusivity(unchecked) var undecidable = false
    @exclusivity(unchecked) var findings: [Finding] = []
    @exclusivity(unchecked) var droppedFindings = 0
    /// The decoded messages in order, for the HTML report's sequence diagram (capped).
    @exclusivity(unchecked) var timeline: [TimelineEntry] = []
    @exclusivity(unchecked) var timelineDropped = 0
    /// Told every finding kept, as it is added (`Checker.onFinding`).
    @exclusivity(unchecked) var onFinding: ((Finding) -> Void)?

    init(_ connection: LogicalConnection) {
        self.connection = connection
    }

    var id: String { connection.id }

    /// A message of a transcript was at `line`: kept while frames come in order.
    func message(frame: Int, line: Int?) {
        guard let line, frame == frameLines.count + 1, let compact = Int32(exactly: line) else { return }
        frameLines.append(compact)
    }

    /// The transcript line of message `frame`, when known.
    func line(ofFrame frame: Int) -> Int? {
        frameLines.indices.contains(frame - 1) ? Int(frameLines[frame - 1]) : nil
    }

    /// `finding` with the transcript line of the frame it names, when it has none and it is known.
    func lined(_ finding: Finding) -> Finding {
        guard finding.location.line == nil, let frame = finding.location.frameIndex, let line = line(ofFrame: frame)
        else {
            return finding
        }
        var lined = finding
        lined.location.line = line
        return lined
    }

    /// Records a finding as `options` resolve it. `frame`, `line` and `time` are where the event
    /// being handled sits; a finding about an earlier frame (an unanswered request) keeps its own
    /// frame, and that message's line in a transcript.
    func add(_ finding: Finding, options: CheckOptions, line: Int?, frame: Int? = nil, time: Int64? = nil) {
        let finding = finding.location.frameIndex != frame ? lined(finding) : finding
        guard
            let placed = Self.place(finding, options: options, connection: id, line: line, frame: frame, time: time)
        else {
            return
        }
        if findings.count < options.limits.maxFindingsPerConnection {
            findings.append(placed)
            onFinding?(placed)
        } else {
            droppedFindings += 1
        }
    }

    /// A finding as `options` resolve it (nil: turned off), placed on connection `id`: the one
    /// place the checker completes a location. What the finding's layer knew (a dialect: the
    /// message, time and direction; the judge: the time) stays; `frame`, `time` and `line` fill
    /// what it did not, the line only when the finding is on `frame`.
    package static func place(
        _ finding: Finding, options: CheckOptions, connection id: String, line: Int?, frame: Int?, time: Int64? = nil
    ) -> Finding? {
        guard var resolved = options.resolve(finding) else { return nil }
        resolved.location.connection = id
        if resolved.location.frameIndex == nil { resolved.location.frameIndex = frame }
        if resolved.location.time == nil { resolved.location.time = time }
        if resolved.location.line == nil, resolved.location.frameIndex == frame { resolved.location.line = line }
        return resolved
    }

    /// Finishes the dialect session (requests still pending, a login never answered) and
    /// returns what it showed about reconnects.
    func finishSession(options: CheckOptions) -> SessionFacts? {
        guard let session else { return nil }
        self.session = nil
        for finding in session.finish(atMicros: connection.lastTime, frameIndex: lastFrame) {
            add(finding, options: options, line: nil)
        }
        return session.sessionFacts
    }

    /// `summary` is only worked out when the entry is kept (`limit` is 0 unless a diagram is drawn).
    /// With `details`, the entry keeps `json` and the payload's first bytes as well.
    func record(
        frame: Int, time: Int64, direction: Direction, summary: @autoclosure () -> String, tcp: String? = nil,
        limit: Int,
        details: (json: JSONValue?, payload: [UInt8])? = nil
    ) {
        guard timeline.count < limit else {
            if limit > 0 { timelineDropped += 1 }
            return
        }
        var entry = TimelineEntry(frame: frame, time: time, direction: direction, summary: summary(), tcp: tcp)
        if let details {
            entry.json = details.json.map { JSONWriter.pretty($0) }
            entry.payload = Array(details.payload.prefix(TimelineEntry.payloadLimit))
            entry.payloadLength = details.payload.count
        }
        timeline.append(entry)
    }
}
