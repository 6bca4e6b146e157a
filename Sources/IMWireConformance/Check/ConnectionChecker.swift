import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireTransport

/// Checks the connections it is given: each TCP connection's bytes through its transport
/// (`ConnectionDecoder`), each message through the dialect of its connection, and every finding
/// on the way. A socket.io session whose long-polls and WebSocket span TCP connections is
/// checked as one connection: its messages, findings and bytes are gathered under its `sid`,
/// in the order they arrive (the `Checker` puts every TCP connection that may carry one in the
/// same checker, so that order is the capture's). Nothing else looks across connections.
final class ConnectionChecker {
    let options: CheckOptions
    /// Every message as it is read, with the connection it belongs to (`imwire convert`).
    var onMessage: ((_ connection: String, _ info: ConnectionInfo, _ time: Int64, _ message: WireMessage) -> Void)?
    var onClose: ((_ connection: String, _ time: Int64, _ code: Int?) -> Void)?
    // @exclusivity(unchecked): one thread at a time reads and changes this object, and the
    // runtime's access checks on these properties were about 9% of a capture check (perf).
    /// The connections being read, by their number: every event looks its connection up, and
    /// an integer key spares hashing the id string each time.
    @exclusivity(unchecked) private var connections: [Int: ConnectionState] = [:]
    /// socket.io sessions gathered across TCP connections, by their key.
    @exclusivity(unchecked) private var sessions: [SessionKey: ConnectionState] = [:]
    /// Sessions made so far: each gets a number of its own after the TCP connections'.
    @exclusivity(unchecked) private var sessionCount = 0
    /// Those read to their end (their decoding state let go), by their number.
    let ended: EndedConnections

    /// How long a session may go without a TCP connection of its own open before it is ended
    /// (engine.io's longest silence, pingInterval 25 s + pingTimeout 60 s, with room to spare).
    static let sessionIdleMicros: Int64 = 120_000_000

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
            conn = ConnectionState(id: id, number: number, order: ReportOrder(number: number), limits: options.limits)
            connections[number] = conn
        }
        lastConnection = conn
        return conn
    }

    /// Ends every connection and session still open: frames cut short, requests still pending.
    func finishConnections() {
        let open = connections.values.sorted { $0.number < $1.number }
        connections = [:]
        lastConnection = nil
        for conn in open {
            if !conn.closed { finishTransport(conn, at: EventPlace(time: conn.lastTime ?? 0)) }
            end(conn)
        }
        for session in sessions.values.sorted(by: { $0.order < $1.order }) { endSession(session) }
        sessions = [:]
    }

    private func end(_ conn: ConnectionState) {
        if let transport = conn.transport {
            var account = transport.account
            account.decoded -= min(conn.movedBytes, account.decoded)  // counted in its sessions
            conn.account.add(account)
        }
        if conn.undecidable { conn.account.unread(conn.account.decoded, because: Self.noDecoder) }
        connections[conn.number] = nil
        if lastConnection === conn { lastConnection = nil }
        if let session = conn.joined {
            // Everything of a connection that joined a session is the session's.
            session.account.add(conn.account)
            session.openMembers -= 1
            if session.openMembers == 0 { session.idleSince = conn.lastTime }
            ended.absorb(conn.number)
            return
        }
        for session in conn.sessionsTouched { session.openMembers -= 1; if session.openMembers == 0 { session.idleSince = conn.lastTime } }
        if conn.sessionsTouched.isEmpty || !conn.isEmptyForReport {
            ended.end(conn)
        } else {
            ended.absorb(conn.number)  // all it carried was its sessions'
        }
        endIdleSessions(now: conn.lastTime)
    }

    /// Ends the sessions no TCP connection has carried for `sessionIdleMicros`.
    private func endIdleSessions(now: Int64?) {
        guard let now, !sessions.isEmpty else { return }
        for (key, session) in sessions where session.openMembers == 0 {
            if let since = session.idleSince, now - since > Self.sessionIdleMicros {
                sessions[key] = nil
                endSession(session)
            }
        }
    }

    private func endSession(_ session: ConnectionState) {
        session.closed = session.openMembers == 0
        session.openAtCaptureEnd = session.openMembers > 0
        if session.undecidable { session.account.unread(session.account.decoded, because: Self.noDecoder) }
        ended.end(session)
    }

    static let noDecoder = "no decoder for the connection's dialect"

    private func add(_ finding: Finding, to connection: ConnectionState, line: Int?, frame: Int? = nil) {
        connection.add(finding, options: options, line: line, frame: frame)
    }

    /// A problem the capture reader found in connection `number`.
    func consume(problem finding: Finding, number: Int) {
        guard let id = finding.location.connection else { return }
        if let conn = connections[number] {
            add(finding, to: conn.joined ?? conn, line: finding.location.line, frame: finding.location.frameIndex)
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
            conn.dialect = options.dialect ?? DialectSessions.dialect(forInfo: info)
            conn.session = conn.dialect.map { DialectSessions.make($0, info: info, options: options) }
        case .message(let message):
            deliver(message, to: conn, time: time, line: event.line, frame: conn.messages + 1)
            conn.account.decoded += message.payload.count
        case .stream(let direction, let bytes):
            stream(bytes, direction: direction, to: conn, at: EventPlace(time: time, line: event.line, packet: event.packet))
        case .gap(let direction, let count):
            conn.hasTransportBytes = true
            conn.transportDecoder(limits: options.limits).gap(count, direction: direction)
            let side = direction == .send ? "client → server" : "server → client"
            add(CaptureRules.tcpGap.finding("\(count) bytes missing (\(side)); the rest of this direction is not decoded"),
                to: conn.joined ?? conn, line: nil, frame: event.packet)
        case .close(let info):
            finishTransport(conn, at: EventPlace(time: time, line: event.line, packet: event.packet))
            conn.closed = true
            conn.closeCode = info.code ?? conn.closeCode
            conn.openAtCaptureEnd = info.captureEnded
            if let session = conn.joined {
                session.closeCode = info.code ?? conn.closeCode ?? session.closeCode
                session.lastTime = max(session.lastTime ?? time, time)
            }
            if !info.captureEnded { onClose?(conn.joined?.id ?? conn.id, time, conn.closeCode) }
            if info.isLast { end(conn) }
        }
    }

    /// One message for a connection (or session): its dialect session reads it, found from the
    /// framing the transport recognised, else from the first message (`CHECK.DIALECT-GUESSED`).
    private func deliver(_ message: WireMessage, to conn: ConnectionState, via tcp: ConnectionState? = nil, framing: Framing? = nil,
                         time: Int64, line: Int?, frame: Int) {
        if conn.session == nil, !conn.undecidable { attachSession(conn, framing: framing, firstMessage: message, line: line, frame: frame) }
        onMessage?(conn.id, conn.info, time, message)
        conn.messages += 1
        if conn.closed {
            add(CheckRules.messageAfterClose.finding("message \(conn.messages) after close"), to: conn, line: line, frame: frame)
        }
        let carrier = tcp.map(\.id)
        guard let session = conn.session else {
            conn.record(frame: frame, time: time, direction: message.direction, summary: "\(message.payload.count) bytes",
                        tcp: carrier, limit: options.timelineLimit)
            return
        }
        conn.lastFrame = frame
        let findings = session.observe(message, timeMicros: time, frameIndex: frame)
        conn.record(frame: frame, time: time, direction: message.direction,
                    summary: session.lastSummary ?? "\(message.payload.count) bytes", tcp: carrier, limit: options.timelineLimit)
        for finding in findings { add(finding, to: conn, line: line, frame: frame) }
    }

    /// Where in the capture an event comes from.
    private struct EventPlace {
        var time: Int64
        var line: Int?
        var packet: Int?
    }

    /// Transport bytes of one direction, through the connection's `ConnectionDecoder`.
    private func stream(_ bytes: [UInt8], direction: Direction, to conn: ConnectionState, at place: EventPlace) {
        conn.hasTransportBytes = true
        let transport = conn.transportDecoder(limits: options.limits)
        handle(transport.feed(bytes, direction: direction), conn: conn, at: place, direction: direction)
    }

    /// The connection's transport ends: what it held goes out, units cut short are reported.
    private func finishTransport(_ conn: ConnectionState, at place: EventPlace) {
        guard let transport = conn.transport else { return }
        handle(transport.finish(), conn: conn, at: place, direction: nil)
    }

    private func handle(_ events: [TransportEvent], conn: ConnectionState, at place: EventPlace, direction: Direction?) {
        func located(_ finding: Finding) -> Finding {
            var copy = finding
            copy.location.time = copy.location.time ?? place.time
            copy.location.direction = copy.location.direction ?? direction
            return copy
        }
        for event in events {
            switch event {
            case .message(let message):
                let target = conn.joined ?? conn
                deliver(message, to: target, via: conn.joined == nil ? nil : conn, framing: conn.transport?.framing,
                        time: place.time, line: place.line, frame: place.packet ?? target.messages + 1)
            case .polled(let message, let key, let framing):
                let target = key.map { session($0, via: conn, time: place.time) } ?? conn
                deliver(message, to: target, via: target === conn ? nil : conn, framing: framing, time: place.time, line: place.line,
                        frame: place.packet ?? target.messages + 1)
            case .upgrade(let upgrade):
                upgraded(upgrade, conn: conn, place: place, located: located)
            case .exchange(let exchange):
                guard let key = exchange.session else { continue }
                let target = session(key, via: conn, time: place.time)
                target.account.decoded += exchange.wireBytes
                conn.movedBytes += exchange.wireBytes
            case .close(_, let code):
                (conn.joined ?? conn).closeCode = code ?? (conn.joined ?? conn).closeCode
                conn.closeCode = code ?? conn.closeCode
            case .ping(let direction):
                (conn.joined ?? conn).session?.observePing(direction, timeMicros: place.time)
            case .finding(let finding, let key):
                let target = key.map { session($0, via: conn, time: place.time) } ?? conn.joined ?? conn
                add(located(finding), to: target, line: place.line, frame: place.packet ?? target.messages + 1)
            }
        }
    }

    /// The WebSocket handshake was answered: what it negotiated names the dialect, and a URL
    /// that names a socket.io session makes the connection that session's.
    private func upgraded(_ upgrade: WebSocketUpgrade, conn: ConnectionState, place: EventPlace, located: (Finding) -> Finding) {
        conn.info.subprotocol = upgrade.subprotocol ?? conn.info.subprotocol
        conn.info.url = upgrade.url ?? conn.info.url
        if let key = conn.transport?.session {
            let session = session(key, via: conn, time: place.time)
            conn.joined = session
            session.info.subprotocol = session.info.subprotocol ?? conn.info.subprotocol
            session.info.url = conn.info.url
            session.hasTransportBytes = true
        }
        let target = conn.joined ?? conn
        for finding in upgrade.findings { add(located(finding), to: target, line: place.line, frame: place.packet) }
        if upgrade.upgraded, target.session == nil, target.dialect == nil,
           let dialect = options.dialect ?? DialectSessions.dialect(forInfo: target.info) ?? conn.transport?.framing.flatMap(DialectSessions.dialect(for:)) {
            target.dialect = dialect
            target.session = DialectSessions.make(dialect, info: target.info, options: options)
        }
    }

    /// The session of `key`, made when this is its first sight; `tcp` carries part of it.
    private func session(_ key: SessionKey, via tcp: ConnectionState, time: Int64) -> ConnectionState {
        let session: ConnectionState
        if let known = sessions[key] {
            session = known
        } else {
            sessionCount += 1
            session = ConnectionState(id: key.description, number: EndedConnections.sessionNumberBase + sessionCount,
                                      order: ReportOrder(number: tcp.number, session: sessionCount), limits: options.limits)
            session.info = ConnectionInfo(client: tcp.info.client, server: tcp.info.server)
            session.framing = key.framing
            session.firstTime = time
            sessions[key] = session
        }
        if !tcp.sessionsTouched.contains(where: { $0 === session }), tcp.joined !== session {
            tcp.sessionsTouched.append(session)
            session.openMembers += 1
            session.idleSince = nil
        }
        if !session.tcpConnections.contains(tcp.id) { session.tcpConnections.append(tcp.id) }
        session.firstTime = min(session.firstTime ?? time, time)
        session.lastTime = max(session.lastTime ?? time, time)
        return session
    }

    /// The dialect for a connection's first message: `--dialect`, what the connection names, the
    /// framing the transport recognised, else a guess from the message itself.
    private func attachSession(_ conn: ConnectionState, framing: Framing?, firstMessage: WireMessage, line: Int?, frame: Int?) {
        var dialect = options.dialect ?? conn.dialect ?? (framing ?? conn.framing).flatMap(DialectSessions.dialect(for:))
        if dialect == nil, let guessed = DialectSessions.guess(firstMessage, limits: options.limits) {
            dialect = guessed
            add(CheckRules.dialectGuessed.finding("decoding as \(guessed.rawValue): the first message decodes cleanly"),
                to: conn, line: line, frame: frame)
        }
        conn.dialect = dialect
        conn.session = dialect.map { DialectSessions.make($0, info: conn.info, options: options) }
        if conn.session == nil {
            conn.undecidable = true
            add(CheckRules.unknownDialect.finding(
                "no subprotocol or dialect, and no decoder recognises the first message; messages are counted, not decoded"),
                to: conn, line: line, frame: frame)
        }
    }
}
