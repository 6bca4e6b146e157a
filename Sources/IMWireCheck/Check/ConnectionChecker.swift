import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireIO
import IMWireRegistry
import IMWireTransport

/// Checks the connections it is given: the transport layer (`ConnectionAssembler`) turns their
/// events into the messages of logical connections (a socket.io session spanning TCP connections
/// is one), each message goes through the dialect of its connection, and every finding is kept
/// for the report. A `Checker` runs one or, with `jobs`, several of these; nothing here looks
/// across connections except the assembler's sessions (the `Checker` gives one checker every TCP
/// connection that may carry one).
final class ConnectionChecker: ConnectionEvents {
    let options: CheckOptions
    /// The transport layer of every connection this checker is given.
    private let assembler: ConnectionAssembler
    /// Those read to their end (their decoding state let go), by their number.
    let ended: EndedConnections

    /// `lane` of `lanes` checkers side by side: their sessions are numbered apart.
    init(options: CheckOptions, lane: Int = 0, of lanes: Int = 1) {
        self.options = options
        assembler = ConnectionAssembler(limits: options.limits, keyLog: options.tlsKeyLog)
        assembler.sessionNumbers = (lane, lanes)
        ended = EndedConnections(options: options)
        self.lane = lane
        sessionKeys = SortedRuns(recordSize: SessionKeyRecord.size, runLength: options.recordsInMemory)
    }

    /// Whether the hash of every session key begun here is kept (`sessionKeys`).
    var recordsSessionKeys = false {
        didSet {
            assembler.onSessionBegun =
                recordsSessionKeys
                ? { [sessionKeys, lane] hash in sessionKeys.append(SessionKeyRecord(hash: hash, lane: lane).bytes) }
                : nil
        }
    }

    /// When `recordsSessionKeys`, a `SessionKeyRecord` for each session begun here, in sorted
    /// runs: sessions grow with the capture.
    let sessionKeys: SortedRuns
    private let lane: Int

    /// Secrets the capture carries (a pcapng Decryption Secrets Block), in file order; the
    /// `Checker` reports a key log that does not parse.
    func consume(secrets: DecryptionSecrets) {
        guard secrets.type == DecryptionSecrets.tlsKeyLog else { return }
        assembler.add(keyLog: secrets.data)
    }

    /// A problem the capture reader found in connection `number`.
    func consume(problem finding: Finding, number: Int) {
        guard let id = finding.location.connection else { return }
        if let state = open[number] {
            state.add(finding, options: options, line: finding.location.line, frame: finding.location.frameIndex)
        } else {  // the `Checker` routes problems only to connections that have begun
            ended.add(finding, to: number, id: id, line: finding.location.line, frame: finding.location.frameIndex)
        }
    }

    /// The checker's state of the connections not yet ended, by number (only for capture problems,
    /// which name a connection by its id; events find their state on the connection).
    @exclusivity(unchecked) private var open: [Int: ConnectionState] = [:]

    /// An event of connection `number` (numbered by the `Checker` in the order the capture
    /// opened connections, from 0).
    func consume(_ event: ConnectionInput, number: Int) {
        assembler.consume(event, number: number, to: self)
    }

    /// Ends every connection and session still open: frames cut short, requests still pending.
    func finishConnections() {
        assembler.finish(to: self)
    }

    /// The state of each connection not yet ended, at its `slot`.
    @exclusivity(unchecked) private var states: [ConnectionState?] = []

    private func state(_ connection: LogicalConnection) -> ConnectionState {
        let slot = connection.slot
        if slot < states.count, let state = states[slot] { return state }
        let state = ConnectionState(connection)
        state.onFinding = onFinding
        if slot >= states.count { states += repeatElement(nil, count: slot - states.count + 1) }
        states[slot] = state
        if !connection.isSession { open[connection.number] = state }
        return state
    }

    // MARK: What the transport layer reads (`ConnectionEvents`)

    func opened(_ connection: LogicalConnection, at place: InputPlace) {
        let state = state(connection)
        let info = connection.info
        for finding in info.url.map(DialectSessions.urlFindings) ?? [] {
            state.add(finding, options: options, line: place.line)
        }
        // A session's later connections open too: its dialect session goes on.
        guard state.session == nil else { return }
        if let named = info.dialect, options.dialects.definition(named) == nil {
            // A transcript's `dialect` that the table does not have: read as if it named none.
            state.add(CaptureRules.badField.finding("unknown dialect \"\(named)\""), options: options, line: place.line)
        }
        state.dialect = options.dialect ?? DialectSessions.dialect(forInfo: info, in: options.dialects)
        state.session = state.dialect.flatMap { DialectSessions.make($0, info: info, options: options) }
    }

    func upgraded(_ connection: LogicalConnection, _ upgrade: WebSocketUpgrade, at place: InputPlace) {
        let state = state(connection)
        for finding in upgrade.findings {
            state.add(finding, options: options, line: place.line, frame: place.packet, time: place.time)
        }
        if upgrade.upgraded, state.session == nil, state.dialect == nil,
            let dialect = options.dialect ?? DialectSessions.dialect(forInfo: connection.info, in: options.dialects)
                ?? connection.framing.flatMap(options.dialects.dialect(for:))
        {
            state.dialect = dialect
            state.session = DialectSessions.make(dialect, info: connection.info, options: options)
        }
    }

    func message(
        _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
    ) {
        deliver(message, to: state(connection), place: place, frame: frame, via: via)
    }

    func finding(_ finding: Finding, of connection: LogicalConnection, at place: InputPlace, frame: Int?) {
        state(connection).add(finding, options: options, line: place.line, frame: frame)
    }

    func ping(_ direction: Direction, of connection: LogicalConnection, at place: InputPlace) {
        state(connection).session?.observePing(direction, timeMicros: place.time)
    }

    func closed(_ connection: LogicalConnection, at place: InputPlace) {
        let state = state(connection)
        if let code = connection.closeCode, let session = state.session {
            let frame = place.packet ?? state.lastFrame
            for finding in session.observeClose(code: code, timeMicros: place.time, frameIndex: frame) {
                state.add(finding, options: options, line: place.line, frame: frame)
            }
        }
        onClose?(connection.id, place.time, connection.closeCode)
    }

    func ended(_ connection: LogicalConnection) { end(connection) }

    /// Called when a connection closes (not when the capture merely ends), with its WebSocket close code.
    @exclusivity(unchecked) var onClose: ((_ connection: String, _ time: Int64, _ code: Int?) -> Void)?

    /// One message for its connection's dialect session: found from what the connection named,
    /// the framing the transport recognised, else from the first message (`CHECK.DIALECT-GUESSED`).
    private func deliver(_ message: WireMessage, to state: ConnectionState, place: InputPlace, frame: Int, via: String?)
    {
        if state.session == nil, !state.undecidable {
            attachSession(state, firstMessage: message, line: place.line, frame: frame)
        }
        if state.connection.closed {
            state.add(
                CheckRules.messageAfterClose.finding("message \(state.connection.messages) after close"),
                options: options, line: place.line, frame: frame)
        }
        guard let session = state.session else {
            state.record(
                frame: frame, time: place.time, direction: message.direction, summary: "\(message.payload.count) bytes",
                tcp: via, limit: options.timelineLimit, details: options.timelineDetails ? (nil, message.payload) : nil)
            onMessage?(
                CheckedMessage(
                    connection: state.id, dialect: nil, frame: frame, timeMicros: place.time,
                    direction: message.direction,
                    frameType: message.frameType, payload: message.payload, tcp: via, summary: nil, canonicalJSON: nil,
                    findings: []))
            return
        }
        state.lastFrame = frame
        state.message(frame: frame, line: place.line)
        let observation = session.observe(message, timeMicros: place.time, frameIndex: frame)
        let findings = observation.findings
        // What is kept or handed out of the message, its credentials replaced unless asked for
        // (a login the dialect could not read: all of it).
        var shown: (json: JSONValue?, payload: [UInt8])? = nil
        func details() -> (json: JSONValue?, payload: [UInt8]) {
            if let shown { return shown }
            let json = observation.canonicalJSON
            let made =
                if options.showSecrets {
                    (json, message.payload)
                } else if options.dialects.definition(session.dialect)?.recognisesUnreadLogin(message, json) == true {
                    SecretRedaction.withhold(json: json, payload: message.payload)
                } else {
                    SecretRedaction.redact(json: json, payload: message.payload)
                }
            shown = made
            return made
        }
        state.record(
            frame: frame, time: place.time, direction: message.direction,
            summary: observation.summary ?? "\(message.payload.count) bytes", tcp: via, limit: options.timelineLimit,
            details: options.timelineDetails && state.timeline.count < options.timelineLimit ? details() : nil)
        for finding in findings { state.add(finding, options: options, line: place.line, frame: frame) }
        if let onMessage {
            onMessage(
                CheckedMessage(
                    connection: state.id, dialect: session.dialect, frame: frame, timeMicros: place.time,
                    direction: message.direction,
                    frameType: message.frameType, payload: details().payload, tcp: via, summary: observation.summary,
                    canonicalJSON: details().json,
                    findings: findings.compactMap {
                        ConnectionState.place(
                            $0, options: options, connection: state.id, line: place.line, frame: frame)
                    }))
        }
    }

    /// Told every finding kept, as it is added (`Checker.onFinding`).
    @exclusivity(unchecked) var onFinding: ((Finding) -> Void)? {
        didSet { ended.onFinding = onFinding }
    }

    /// Called with each message a dialect read, after its findings (`Checker.onMessage`).
    @exclusivity(unchecked) var onMessage: ((CheckedMessage) -> Void)?

    private func attachSession(_ state: ConnectionState, firstMessage: WireMessage, line: Int?, frame: Int?) {
        var dialect =
            options.dialect ?? state.dialect ?? state.connection.framing.flatMap(options.dialects.dialect(for:))
        if dialect == nil, let guessed = options.dialects.recognise(firstMessage, limits: options.limits) {
            dialect = guessed
            state.add(
                CheckRules.dialectGuessed.finding("decoding as \(guessed.rawValue): the first message decodes cleanly"),
                options: options, line: line, frame: frame)
        }
        state.dialect = dialect
        state.session = dialect.flatMap { DialectSessions.make($0, info: state.connection.info, options: options) }
        if state.session == nil {
            state.undecidable = true
            state.add(
                CheckRules.unknownDialect.finding(
                    """
                    no subprotocol or dialect, and no decoder recognises \
                    the first message; messages are counted, not decoded
                    """),
                options: options, line: line, frame: frame)
        }
    }

    /// The connection has ended: its report (or nothing, for a TCP connection its sessions took whole).
    private func end(_ connection: LogicalConnection) {
        let state = state(connection)
        open[connection.number] = nil
        states[connection.slot] = nil
        var account = connection.account
        if state.undecidable { account.unread(account.decoded, because: "no decoder for the connection's dialect") }
        if connection.isAbsorbed, state.findings.isEmpty, state.droppedFindings == 0 {
            ended.absorb(connection.number)
        } else {
            ended.end(state, account: account)
        }
    }
}

/// A session's key, as a lane that began it keeps it: the key's hash, then the lane
/// (`ThreeWords`), so that one key's records sort together.
struct SessionKeyRecord {
    static let size = ThreeWords.size
    let hash: Int
    let lane: Int

    init(hash: Int, lane: Int) {
        self.hash = hash
        self.lane = lane
    }

    init(_ record: [UInt8]) { (hash, lane, _) = ThreeWords.words(record) }

    var bytes: [UInt8] { ThreeWords.record(hash, lane, 0) }
}
