import IMWireCapture
import IMWireCore

/// Checks the connections it is given, each on its own: transport (WebSocket or raw TCP),
/// dialect session, and every finding on the way. A `Checker` runs one or, with `jobs`, several
/// of these; nothing here looks across connections.
final class ConnectionChecker {
    let options: CheckOptions
    var onMessage: ((_ connection: String, _ info: ConnectionInfo, _ time: Int64, _ message: WireMessage) -> Void)?
    var onClose: ((_ connection: String, _ time: Int64, _ code: Int?) -> Void)?
    // @exclusivity(unchecked): one thread at a time reads and changes this object, and the
    // runtime's access checks on these properties were about 9% of a capture check (perf).
    /// The connections being read, by their number: every event looks its connection up, and
    /// an integer key spares hashing the id string each time.
    @exclusivity(unchecked) private var connections: [Int: ConnectionState] = [:]
    /// Those read to their end (their decoding state let go), by their number.
    let ended: EndedConnections

    init(options: CheckOptions) {
        self.options = options
        ended = EndedConnections(options: options)
    }

    /// The connection of the last event: consecutive events of one connection are the rule.
    @exclusivity(unchecked) private var lastConnection: ConnectionState?

    private func connection(_ id: String, number: Int) -> ConnectionState {
        if let last = lastConnection, last.number == number { return last }
        let conn: ConnectionState
        if let existing = connections[number] {
            conn = existing
        } else {
            conn = ConnectionState(id: id, number: number, limits: options.limits)
            connections[number] = conn
        }
        lastConnection = conn
        return conn
    }

    /// Ends every connection still open: frames cut short, requests still pending.
    func finishConnections() {
        let open = connections.values
        connections = [:]
        lastConnection = nil
        for conn in open {
            if !conn.closed { finishTransport(conn, at: EventPlace(time: conn.lastTime ?? 0)) }
            end(conn)
        }
    }

    private func end(_ conn: ConnectionState) {
        ended.end(conn)
        connections[conn.number] = nil
        if lastConnection === conn { lastConnection = nil }
    }

    private func add(_ finding: Finding, to connection: ConnectionState, line: Int?, frame: Int? = nil) {
        connection.add(finding, options: options, line: line, frame: frame)
    }

    /// A problem the capture reader found in connection `number`.
    func consume(problem finding: Finding, number: Int) {
        guard let id = finding.location.connection else { return }
        if let conn = connections[number] {
            add(finding, to: conn, line: finding.location.line, frame: finding.location.frameIndex)
        } else {  // the `Checker` routes problems only to connections that have begun
            ended.add(finding, to: number, id: id, line: finding.location.line, frame: finding.location.frameIndex)
        }
    }

    /// An event of connection `number` (numbered by the `Checker` in the order the capture
    /// opened connections, from 0).
    func consume(_ event: CaptureEvent, number: Int) {
        // Nothing of a connection follows its last event (`CloseInfo.isLast`): the `Checker`
        // gives a later event with the same id a number of its own.
        let conn = connection(event.connection, number: number)
        let frame: Int? = if case .message = event.kind { conn.messages + 1 } else { nil }
        if let time = event.time {
            if let last = conn.lastTime, time < last {
                let finding = CaptureRules.timeBackwards.finding("time \(time) µs after \(last) µs")
                add(finding, to: conn, line: event.line, frame: frame)
            }
            conn.firstTime = conn.firstTime ?? time
            conn.lastTime = max(conn.lastTime ?? time, time)
        }
        let time = event.time ?? conn.lastTime ?? 0
        switch event.kind {
        case .open(let info):
            conn.info = info
            for finding in info.url.map(DialectSessions.urlFindings) ?? [] { add(finding, to: conn, line: event.line) }
            conn.dialect = options.dialect ?? DialectSessions.dialect(for: info)
            conn.session = conn.dialect.map { DialectSessions.make($0, info: info, options: options) }
        case .message(let message):
            deliver(message, to: conn, time: time, line: event.line, frame: conn.messages + 1)
            if conn.session != nil {
                conn.account.decoded += message.payload.count
            } else {
                conn.account.skip(message.payload.count, because: "no decoder for the connection's dialect")
            }
        case .stream(let direction, let bytes):
            stream(bytes, direction: direction, to: conn, at: EventPlace(time: time, line: event.line, packet: event.packet))
        case .gap(let direction, let count):
            conn.brokenDirections.insert(direction)
            conn.account.lost += count
            let side = direction == .send ? "client → server" : "server → client"
            add(CaptureRules.tcpGap.finding("\(count) bytes missing (\(side)); the rest of this direction is not decoded"),
                to: conn, line: nil, frame: event.packet)
        case .close(let info):
            finishTransport(conn, at: EventPlace(time: time, line: event.line, packet: event.packet))
            conn.closed = true
            conn.closeCode = info.code ?? conn.closeCode
            conn.openAtCaptureEnd = info.captureEnded
            if !info.captureEnded { onClose?(conn.id, time, conn.closeCode) }
            if info.isLast { end(conn) }
        }
    }

    /// Raw TCP bytes with no dialect named are held while they may still grow into something
    /// recognisable: from one side only, and up to this many bytes (a CONNECT is far smaller).
    static let holdLimit = 4096

    /// One message for the connection's dialect session (attached on the first message, or on
    /// the first raw segments that together can be recognised).
    private func deliver(_ message: WireMessage, to conn: ConnectionState, time: Int64, line: Int?, frame: Int) {
        guard conn.session == nil, !conn.undecidable else {
            return deliverDecided(message, to: conn, time: time, line: line, frame: frame)
        }
        conn.held.append(HeldMessage(message: message, time: time, line: line, frame: frame))
        let start = conn.held[0]
        let sameSide = conn.held.allSatisfy { $0.message.direction == start.message.direction }
        let mayGrow = options.dialect == nil && conn.dialect == nil && conn.hasTransportBytes && !conn.transport.isWebSocket && sameSide
        let joined = WireMessage(direction: start.message.direction, frameType: start.message.frameType,
                                     payload: conn.held.flatMap(\.message.payload))
        if mayGrow, joined.payload.count < Self.holdLimit, DialectSessions.guess(joined, limits: options.limits) == nil { return }
        releaseHeld(conn, first: sameSide ? joined : start.message)
    }

    /// Attaches the session the held messages call for and delivers them in order.
    private func releaseHeld(_ conn: ConnectionState, first: WireMessage) {
        let held = conn.held
        conn.held = []
        guard let start = held.first else { return }
        attachSession(conn, firstMessage: first, line: start.line, frame: start.frame)
        for item in held {
            if conn.undecidable, conn.hasTransportBytes {  // counted as decoded when they were fed
                conn.account.decoded -= item.message.payload.count
                conn.account.skip(item.message.payload.count, because: "no decoder for the connection's dialect")
            }
            deliverDecided(item.message, to: conn, time: item.time, line: item.line, frame: item.frame)
        }
    }

    private func deliverDecided(_ message: WireMessage, to conn: ConnectionState, time: Int64, line: Int?, frame: Int) {
        onMessage?(conn.id, conn.info, time, message)
        conn.messages += 1
        if conn.closed {
            add(CheckRules.messageAfterClose.finding("message \(conn.messages) after close"), to: conn, line: line, frame: frame)
        }
        guard let session = conn.session else {
            conn.record(frame: frame, time: time, direction: message.direction, summary: "\(message.payload.count) bytes",
                        limit: options.timelineLimit)
            return
        }
        conn.lastFrame = frame
        let findings = session.observe(message, timeMicros: time, frameIndex: frame)
        conn.record(frame: frame, time: time, direction: message.direction,
                    summary: session.lastSummary ?? "\(message.payload.count) bytes", limit: options.timelineLimit)
        for finding in findings { add(finding, to: conn, line: line, frame: frame) }
    }

    /// Where in the capture an event comes from.
    private struct EventPlace {
        var time: Int64
        var line: Int?
        var packet: Int?
    }

    /// Transport bytes of one direction, through the connection's `TransportReader`.
    private func stream(_ bytes: [UInt8], direction: Direction, to conn: ConnectionState, at place: EventPlace) {
        conn.hasTransportBytes = true
        guard !conn.brokenDirections.contains(direction) else {
            conn.account.skip(bytes.count, because: "after a gap in the stream")
            return
        }
        handle(conn.transport.feed(bytes, direction: direction), conn: conn, at: place, direction: direction)
        if conn.transport.isIgnoring {
            conn.account.skip(bytes.count, because: "not a WebSocket connection, or its upgrade failed")
        } else if conn.undecidable {
            conn.account.skip(bytes.count, because: "no decoder for the connection's dialect")
        } else {
            conn.account.decoded += bytes.count
        }
    }

    /// The connection's transport ends: raw bytes still held for recognition are delivered as
    /// they are, and bytes held for an upgrade that never completed were not decoded after all.
    private func finishTransport(_ conn: ConnectionState, at place: EventPlace) {
        releaseHeld(conn, first: WireMessage(direction: conn.held.first?.message.direction ?? .send, frameType: .binary,
                                                 payload: conn.held.flatMap(\.message.payload)))
        let pending = conn.transport.pendingHandshakeBytes
        if pending > 0 {
            conn.account.decoded -= pending
            conn.account.skip(pending, because: "the connection ended inside its WebSocket upgrade")
        }
        handle(conn.transport.finish(), conn: conn, at: place, direction: nil)
    }

    private func handle(_ outputs: [TransportReader.Output], conn: ConnectionState, at place: EventPlace, direction: Direction?) {
        func located(_ finding: Finding) -> Finding {
            var copy = finding
            copy.location.time = copy.location.time ?? place.time
            copy.location.direction = copy.location.direction ?? direction
            return copy
        }
        for output in outputs {
            switch output {
            case .handshake(let subprotocol, let url, let upgraded, let findings):
                conn.info.subprotocol = subprotocol ?? conn.info.subprotocol
                conn.info.url = url ?? conn.info.url
                for finding in findings + (url.map(DialectSessions.urlFindings) ?? []) {
                    add(located(finding), to: conn, line: place.line, frame: place.packet)
                }
                if upgraded, conn.session == nil, conn.dialect == nil, let dialect = options.dialect ?? DialectSessions.dialect(for: conn.info) {
                    conn.dialect = dialect
                    conn.session = DialectSessions.make(dialect, info: conn.info, options: options)
                }
            case .message(let message):
                deliver(message, to: conn, time: place.time, line: place.line, frame: place.packet ?? conn.messages + conn.held.count + 1)
            case .close(_, let code):
                conn.closeCode = code ?? conn.closeCode
            case .ping(let direction):
                conn.session?.observePing(direction, timeMicros: place.time)
            case .finding(let finding):
                add(located(finding), to: conn, line: place.line, frame: place.packet ?? conn.messages + 1)
            }
        }
    }

    private func attachSession(_ conn: ConnectionState, firstMessage: WireMessage, line: Int?, frame: Int?) {
        var dialect = options.dialect ?? conn.dialect
        if dialect == nil, let guessed = DialectSessions.guess(firstMessage, limits: options.limits) {
            dialect = guessed
            add(CheckRules.dialectGuessed.finding("decoding as \(guessed.rawValue): the first message decodes cleanly"),
                to: conn, line: line, frame: frame)
        }
        conn.dialect = dialect
        conn.session = dialect.map { DialectSessions.make($0, info: conn.info, options: options) }
        if conn.session == nil {
            conn.undecidable = true
            let what = dialect.map { "no \($0.rawValue) decoder yet" } ?? "no subprotocol or dialect, and no decoder recognises the first message"
            add(CheckRules.unknownDialect.finding("\(what); messages are counted, not decoded"), to: conn, line: line, frame: frame)
        }
    }
}
