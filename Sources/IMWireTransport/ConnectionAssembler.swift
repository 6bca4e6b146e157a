import IMWireCore
import IMWireTLS

/// Where in its source (a capture file, a live run) a connection input comes from.
public struct InputPlace: Sendable {
    /// Microseconds, as the capture gives them.
    public var time: Int64
    /// The line of a JSONL transcript or a HAR file.
    public var line: Int?
    /// The packet number in a pcap or pcapng file.
    public var packet: Int?

    package init(time: Int64, line: Int? = nil, packet: Int? = nil) {
        self.time = time
        self.line = line
        self.packet = packet
    }
}

/// Where a connection's report goes among a capture's: after TCP connection `number` (whose own
/// report, if it has one, comes first), the `session`-th socket.io session that began on it.
package struct ConnectionOrder: Comparable, Hashable, Sendable {
    package var number: Int
    /// 0 for the TCP connection itself.
    package var session: Int

    package init(number: Int, session: Int = 0) {
        self.number = number
        self.session = session
    }

    package static func < (a: ConnectionOrder, b: ConnectionOrder) -> Bool {
        (a.number, a.session) < (b.number, b.session)
    }

    /// One integer that sorts as the order does (sessions per connection below 2^20).
    package var packed: Int { number << 20 | session }
}

/// A connection as a reader of messages sees it: a TCP connection (or a transcript's connection),
/// or a socket.io session whose handshake, long-polls and WebSocket came over several TCP
/// connections. Made and changed by a `ConnectionAssembler`; a consumer keeps its own state for
/// the connection in an array at `slot`, typed and found without hashing.
public final class LogicalConnection {
    public let id: String
    /// TCP connections in the order the capture opened them, from 0; sessions from
    /// `ConnectionAssembler.sessionNumberBase` on.
    public let number: Int
    /// Dense and reused: no other connection of the assembler has this slot until this one has
    /// ended (`ConnectionEvents.ended`), and slots count from 0, so a consumer's per-connection
    /// state fits an array indexed by it, as long as the most connections open at once.
    public let slot: Int
    package let order: ConnectionOrder
    @exclusivity(unchecked) public internal(set) var info = ConnectionInfo()
    /// The framing its messages come in, when the transport recognised one.
    @exclusivity(unchecked) public internal(set) var framing: Framing?
    /// A session's TCP connections, in the order they joined (empty for a TCP connection).
    @exclusivity(unchecked) package internal(set) var tcpConnections: [String] = []
    @exclusivity(unchecked) public internal(set) var messages = 0
    /// Every byte of the connection by fate; final once the connection has ended.
    @exclusivity(unchecked) package internal(set) var account = ByteAccount()
    @exclusivity(unchecked) public internal(set) var firstTime: Int64?
    @exclusivity(unchecked) public internal(set) var lastTime: Int64?
    /// The capture showed the connection's end (a close or FIN/RST), or its session went idle.
    public internal(set) var closed: Bool {
        get { isClosed }
        set { isClosed = newValue }
    }
    /// The capture ended with the connection still open (no FIN or RST, no close line).
    @exclusivity(unchecked) package internal(set) var openAtCaptureEnd = false
    /// What the connection's TLS handshake showed and whether it was decrypted; nil for a
    /// connection in the clear.
    @exclusivity(unchecked) public internal(set) var tls: TLSFacts?
    /// The WebSocket close code, when a close frame carried one.
    @exclusivity(unchecked) public internal(set) var closeCode: Int?
    /// The capture has the connection's transport bytes (pcap, `stream` lines), so WebSocket
    /// control frames such as pings are visible, not only messages.
    @exclusivity(unchecked) package internal(set) var hasTransportBytes = false
    /// A TCP connection whose every byte and message went to sessions: nothing of its own.
    @exclusivity(unchecked) package internal(set) var isAbsorbed = false
    /// Its close was told (`ConnectionEvents.closed`).
    @exclusivity(unchecked) var closeTold = false
    // `closed` is read for every message from the consumer's module, where a stored property's
    // accesses are checked at run time (swift_beginAccess) whatever `@exclusivity` says here;
    // behind accessors the check is this module's, unchecked.
    @exclusivity(unchecked) private var isClosed = false

    init(id: String, number: Int, slot: Int, order: ConnectionOrder) {
        self.id = id
        self.number = number
        self.slot = slot
        self.order = order
    }

    package var isSession: Bool { number >= ConnectionAssembler.sessionNumberBase }
}

/// What a `ConnectionAssembler` tells its consumer, in capture order. Methods rather than an
/// enum of events: the arguments are lent, not copied into a value and out again for every
/// message. Every method has an empty default.
public protocol ConnectionEvents: AnyObject {
    /// The capture named what the connection is (a transcript's open line).
    func opened(_ connection: LogicalConnection, at place: InputPlace)
    /// A WebSocket upgrade was answered; the connection's `info` has what it negotiated.
    func upgraded(_ connection: LogicalConnection, _ upgrade: WebSocketUpgrade, at place: InputPlace)
    /// A message; `frame` is its number in the connection (transcripts) or its packet (pcap);
    /// `via` is the TCP connection that carried it when the connection is a session. The
    /// connection's `framing` is set by then when the transport recognised one.
    func message(
        _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?)
    /// A finding of the capture or the transport, on the frame given when it has one.
    func finding(_ finding: Finding, of connection: LogicalConnection, at place: InputPlace, frame: Int?)
    /// A WebSocket ping frame (a LeanCloud client's heartbeat).
    func ping(_ direction: Direction, of connection: LogicalConnection, at place: InputPlace)
    /// The capture shows the connection closing (not merely the capture's end): its first
    /// WebSocket close frame, else the end of its TCP connection. Told once per connection.
    func closed(_ connection: LogicalConnection, at place: InputPlace)
    /// Nothing more of the connection will come: its account is final.
    func ended(_ connection: LogicalConnection)
}

extension ConnectionEvents {
    public func opened(_ connection: LogicalConnection, at place: InputPlace) {}
    public func upgraded(_ connection: LogicalConnection, _ upgrade: WebSocketUpgrade, at place: InputPlace) {}
    public func message(
        _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
    ) {}
    public func finding(_ finding: Finding, of connection: LogicalConnection, at place: InputPlace, frame: Int?) {}
    public func ping(_ direction: Direction, of connection: LogicalConnection, at place: InputPlace) {}
    public func closed(_ connection: LogicalConnection, at place: InputPlace) {}
    public func ended(_ connection: LogicalConnection) {}
}

/// The transport layer over a whole capture: each connection's events through its own
/// `ConnectionDecoder`, and socket.io sessions gathered across TCP connections by their `sid`
/// (the handshake and long-polls whose exchanges name it, the WebSocket whose URL names it), so
/// that a consumer (the checker, `imwire convert`) sees logical connections, each message once,
/// in capture order, with an exact account of every byte. A session ends when no TCP connection
/// has carried it for `sessionIdleMicros` of capture time, or at `finish`.
public final class ConnectionAssembler {
    package let limits: Limits
    /// How long a session may go without a TCP connection of its own open before it ends
    /// (engine.io's longest silence, pingInterval 25 s + pingTimeout 60 s, with room to spare).
    package static let sessionIdleMicros: Int64 = 120_000_000
    /// Sessions are numbered from here, far past any capture's TCP connections.
    package static let sessionNumberBase = 1 << 42

    /// One connection of the capture and what carries it.
    private final class Carrier {
        let connection: LogicalConnection
        @exclusivity(unchecked) var transport: ConnectionDecoder?
        /// The session this connection carries from its WebSocket upgrade on.
        @exclusivity(unchecked) var joined: LogicalConnection?
        /// The sessions it carried HTTP exchanges of, and their bytes.
        @exclusivity(unchecked) var sessionsTouched: [LogicalConnection] = []
        @exclusivity(unchecked) var movedBytes = 0
        /// The connection's TLS, when the client's first bytes began a TLS handshake: its
        /// stream bytes are decrypted before the transport decoder reads them.
        @exclusivity(unchecked) var tls: TLSConnection?
        /// Whether the client's first bytes have been looked at for TLS.
        @exclusivity(unchecked) var tlsDecided = false
        /// Stream bytes after a gap in a TLS connection, by direction: never decrypted (the
        /// record boundaries are lost with the gap).
        @exclusivity(unchecked) var tlsBroken: Set<Direction> = []
        @exclusivity(unchecked) var tlsSkippedAfterGap = 0
        /// Bytes the capture lost in a TLS connection's gaps.
        @exclusivity(unchecked) var tlsLost = 0
        /// An explicit proxy's CONNECT or SOCKS5 exchange before the client's first byte of
        /// its own: held until it is decided, then consumed (counted as decoded).
        @exclusivity(unchecked) var tunnel = TunnelOpening()
        /// The sessions that began on it: the last one's `ConnectionOrder.session`.
        @exclusivity(unchecked) var sessionsBegun = 0

        init(_ connection: LogicalConnection) { self.connection = connection }

        /// The transport decoder, made with the first bytes.
        func transportDecoder(limits: Limits) -> ConnectionDecoder {
            if let transport { return transport }
            let made = ConnectionDecoder(limits: limits)
            transport = made
            return made
        }
    }

    /// A session's bookkeeping: how many of its TCP connections are open, since when none is.
    private final class SessionState {
        let key: SessionKey
        @exclusivity(unchecked) var openMembers = 0
        @exclusivity(unchecked) var idleSince: Int64?
        init(key: SessionKey) { self.key = key }
    }

    @exclusivity(unchecked) private var carriers: [Int: Carrier] = [:]
    /// The slots of the connections not yet ended (`LogicalConnection.slot`).
    @exclusivity(unchecked) private var slots = Slots()
    /// The carrier of the last event: consecutive events of one connection are the rule.
    @exclusivity(unchecked) private var last: Carrier?
    @exclusivity(unchecked) private var sessions: [SessionKey: LogicalConnection] = [:]
    @exclusivity(unchecked) private var sessionStates: [ObjectIdentifier: SessionState] = [:]
    /// The sessions no TCP connection carries now (`openMembers` 0 since `idleSince`): only they
    /// can become idle, so only they are looked at when a connection ends. Looking at every
    /// session there would make a capture with many sessions left open quadratic.
    @exclusivity(unchecked) private var idleSessions: [ObjectIdentifier: LogicalConnection] = [:]
    @exclusivity(unchecked) private var sessionCount = 0
    /// Session numbers: the `sessionNumbers.lane`-th of every `sessionNumbers.lanes`, so that
    /// assemblers side by side (the lanes of a check) never give one number twice.
    package var sessionNumbers = (lane: 0, lanes: 1)
    /// Told the hash of each session's key as the session begins: lanes side by side compare
    /// them, since a session begun in two lanes would be two sessions.
    package var onSessionBegun: ((_ keyHash: Int) -> Void)?

    /// The secrets TLS connections are decrypted with: given up front (key-log files) and added
    /// to as the source reads (pcapng Decryption Secrets Blocks, `add(keyLog:)`).
    package let keys: TLSKeyStore

    public init(limits: Limits = .default, keyLog: TLSKeyLog = TLSKeyLog()) {
        self.limits = limits
        keys = TLSKeyStore(keyLog)
    }

    /// A key log (`SSLKEYLOGFILE` text) the source carries, in its order (a pcapng Decryption
    /// Secrets Block): TLS connections whose handshake comes later are decrypted with it. A key
    /// log that does not parse adds what came before its bad line, and the error is returned for
    /// the caller to report.
    @discardableResult
    public func add(keyLog: [UInt8]) -> IMWireError? {
        do {
            try keys.add(parsing: String(decoding: keyLog, as: UTF8.self))
            return nil
        } catch {
            return error
        }
    }

    private func carrier(_ id: String, number: Int) -> Carrier {
        if let last, last.connection.number == number { return last }
        let carrier: Carrier
        if let known = carriers[number] {
            carrier = known
        } else {
            carrier = Carrier(
                LogicalConnection(id: id, number: number, slot: slots.take(), order: ConnectionOrder(number: number)))
            carriers[number] = carrier
        }
        last = carrier
        return carrier
    }

    /// An event of connection `number` (numbered in the order the capture opened connections;
    /// nothing of a connection follows its last event, `CloseInfo.isLast`).
    public func consume(_ event: ConnectionInput, number: Int, to emit: any ConnectionEvents) {
        let carrier = carrier(event.connection, number: number)
        let conn = carrier.connection
        if let time = event.time {
            if let lastTime = conn.lastTime, time < lastTime {
                let frame: Int? = if case .message = event.kind { conn.messages + 1 } else { nil }
                emit.finding(
                    ConnectionInputRules.timeBackwards.finding("time \(time) µs after \(lastTime) µs"), of: conn,
                    at: InputPlace(time: time, line: event.line, packet: event.packet), frame: frame)
            }
            conn.firstTime = conn.firstTime ?? time
            conn.lastTime = max(conn.lastTime ?? time, time)
        }
        let place = InputPlace(time: event.time ?? conn.lastTime ?? 0, line: event.line, packet: event.packet)
        switch event.kind {
        case .open(let info):
            conn.info = info
            // A HAR's WebSocket whose URL names a socket.io session its long-polls began is part of
            // that session, as the same WebSocket in a pcap is from its upgrade on. (A transcript's
            // connection whose session nothing else began stays what the transcript says.)
            if let url = info.url, let key = ConnectionDecoder.sessionKey(webSocketURL: url), sessions[key] != nil {
                let session = session(key, via: carrier, time: place.time, to: emit)
                carrier.joined = session
                session.info.dialect = session.info.dialect ?? info.dialect
                session.info.subprotocol = session.info.subprotocol ?? info.subprotocol
                session.info.url = url
            }
            emit.opened(carrier.joined ?? conn, at: place)
        case .message(let message):
            let target = carrier.joined ?? conn
            target.messages += 1
            conn.account.decoded += message.payload.count
            emit.message(
                message, of: target, at: place, frame: target.messages, via: carrier.joined == nil ? nil : conn.id)
        case .stream(let direction, let bytes):
            conn.hasTransportBytes = true
            guard carrier.tunnel.isOver else {
                for (direction, bytes) in carrier.tunnel.feed(bytes, direction: direction) {
                    stream(bytes, direction: direction, carrier, place, to: emit)
                }
                conn.account.decoded += carrier.tunnel.consumed
                return
            }
            stream(bytes, direction: direction, carrier, place, to: emit)
        case .gap(let direction, let count):
            conn.hasTransportBytes = true
            releaseTunnel(carrier, place, to: emit)
            if carrier.tls != nil {
                carrier.tlsBroken.insert(direction)
                carrier.tlsLost += count
            } else {
                carrier.transportDecoder(limits: limits).gap(count, direction: direction)
            }
            let side = direction == .send ? "client → server" : "server → client"
            emit.finding(
                ConnectionInputRules.tcpGap.finding(
                    "\(count) bytes missing (\(side)); the rest of this direction is not decoded"),
                of: carrier.joined ?? conn, at: place, frame: event.packet)
        case .streamEnd(let direction):
            // Only TLS looks at a half-close: an alert after it answers the peer's end.
            if carrier.tunnel.isOver, let tls = carrier.tls {
                decrypted(
                    tls.endOfStream(direction), carrier, carrier.transportDecoder(limits: limits), place, to: emit)
            }
        case .close(let info):
            releaseTunnel(carrier, place, to: emit)
            finishTLS(carrier, place, to: emit)
            if let transport = carrier.transport {
                for output in transport.finish() { handle(output, carrier, place, to: emit) }
            }
            conn.closed = true
            conn.closeCode = info.code ?? conn.closeCode
            conn.openAtCaptureEnd = info.captureEnded
            if let session = carrier.joined {
                session.closeCode = info.code ?? conn.closeCode ?? session.closeCode
                session.lastTime = max(session.lastTime ?? place.time, place.time)
            }
            if !info.captureEnded { tellClosed(carrier.joined ?? conn, at: place, to: emit) }
            if info.isLast { end(carrier, to: emit) }
        }
    }

    /// A connection's stream bytes past any tunnel opening: decrypted first when the client's
    /// first bytes begin TLS, then read by the transport decoder.
    private func stream(
        _ bytes: [UInt8], direction: Direction, _ carrier: Carrier, _ place: InputPlace, to emit: any ConnectionEvents
    ) {
        let transport = carrier.transportDecoder(limits: limits)
        if !carrier.tlsDecided, direction == .send || !bytes.isEmpty {
            carrier.tlsDecided = true
            if direction == .send, TLSConnection.looksLikeTLS(bytes) {
                carrier.tls = TLSConnection(keys: keys, limits: limits)
            }
        }
        if let tls = carrier.tls {
            guard !carrier.tlsBroken.contains(direction) else {
                carrier.tlsSkippedAfterGap += bytes.count
                return
            }
            decrypted(tls.feed(bytes, direction: direction), carrier, transport, place, to: emit)
            carrier.connection.tls = tls.facts
        } else {
            transport.feed(bytes, direction: direction) { handle($0, carrier, place, direction: direction, to: emit) }
        }
    }

    /// What a tunnel opening still holds (the connection ended, or lost bytes) is read as it came.
    private func releaseTunnel(_ carrier: Carrier, _ place: InputPlace, to emit: any ConnectionEvents) {
        guard !carrier.tunnel.isOver else { return }
        for (direction, bytes) in carrier.tunnel.release() {
            stream(bytes, direction: direction, carrier, place, to: emit)
        }
    }

    /// Ends every connection and session still open: frames cut short, requests still pending.
    public func finish(to emit: any ConnectionEvents) {
        let open = carriers.values.sorted { $0.connection.number < $1.connection.number }
        carriers = [:]
        last = nil
        for carrier in open {
            if !carrier.connection.closed {
                let place = InputPlace(time: carrier.connection.lastTime ?? 0)
                releaseTunnel(carrier, place, to: emit)
                if let transport = carrier.transport {
                    finishTLS(carrier, place, to: emit)
                    for output in transport.finish() { handle(output, carrier, place, to: emit) }
                }
            }
            end(carrier, to: emit)
        }
        for session in sessions.values.sorted(by: { $0.order < $1.order }) { endSession(session, to: emit) }
        sessions = [:]
        idleSessions = [:]
    }

    private func end(_ carrier: Carrier, to emit: any ConnectionEvents) {
        let conn = carrier.connection
        carriers[conn.number] = nil
        if last === carrier { last = nil }
        if let transport = carrier.transport {
            var account = transport.account
            account.decoded -= min(carrier.movedBytes, account.decoded)  // counted in its sessions
            if let tls = carrier.tls {
                account = Self.ciphertextAccount(of: tls, plaintext: account, afterGaps: carrier.tlsSkippedAfterGap)
                account.lost = carrier.tlsLost
                // Its sessions counted their exchanges' plaintext; the TLS framing around it stays here.
                account.decoded -= min(carrier.movedBytes, account.decoded)
            }
            conn.account.add(account)
        }
        if let session = carrier.joined {
            // Everything of a connection that joined a session is the session's.
            session.account.add(conn.account)
            conn.account = ByteAccount()
        }
        for session in carrier.sessionsTouched { left(session, at: conn.lastTime) }
        // A session carried over TLS says so: the handshake of the first of its connections to end.
        if conn.tls != nil {
            for session in carrier.sessionsTouched + (carrier.joined.map { [$0] } ?? []) where session.tls == nil {
                session.tls = conn.tls
            }
        }
        conn.isAbsorbed =
            carrier.joined != nil
            || (!carrier.sessionsTouched.isEmpty && conn.messages == 0 && conn.account.captured == 0)
        emit.ended(conn)
        slots.free(conn.slot)
        endIdleSessions(now: conn.lastTime, to: emit)
    }

    /// What a TLS connection's records gave: plaintext to the transport decoder (as if it had
    /// come in the clear, at the packet that completed its record), findings to the consumer.
    private func decrypted(
        _ events: [TLSEvent], _ carrier: Carrier, _ transport: ConnectionDecoder, _ place: InputPlace,
        to emit: any ConnectionEvents
    ) {
        for event in events {
            switch event {
            case .plaintext(let direction, let bytes, _):
                transport.feed(bytes, direction: direction) {
                    handle($0, carrier, place, direction: direction, to: emit)
                }
            case .finding(let finding):
                handle(.finding(finding, session: nil), carrier, place, direction: finding.location.direction, to: emit)
            }
        }
    }

    /// The end of a TLS connection's streams: records cut short, what still waited.
    private func finishTLS(_ carrier: Carrier, _ place: InputPlace, to emit: any ConnectionEvents) {
        guard let tls = carrier.tls else { return }
        decrypted(tls.finish(), carrier, carrier.transportDecoder(limits: limits), place, to: emit)
        carrier.connection.tls = tls.facts
    }

    /// A TLS connection's account in the bytes the capture carried (ciphertext): the records read
    /// in clear or decrypted are decoded, less as many as the transport decoder skipped of their
    /// plaintext (with its reasons); records not decrypted, and bytes after a gap, are skipped.
    static func ciphertextAccount(of tls: TLSConnection, plaintext: ByteAccount, afterGaps: Int) -> ByteAccount {
        var account = ByteAccount()
        for direction in [Direction.send, .receive] {
            let counts = tls.counts(direction)
            account.decoded += counts.clear + counts.decrypted
            account.skip(
                counts.skipped + counts.buffered, because: "TLS, " + (counts.skipReason?.description ?? "not decrypted")
            )
        }
        for (reason, count) in plaintext.skipped { account.unread(count, because: reason) }
        account.skip(afterGaps, because: "TLS after a gap in the capture")
        return account
    }

    private func tellClosed(_ connection: LogicalConnection, at place: InputPlace, to emit: any ConnectionEvents) {
        guard !connection.closeTold else { return }
        connection.closeTold = true
        emit.closed(connection, at: place)
    }

    private func left(_ session: LogicalConnection, at time: Int64?) {
        guard let state = sessionStates[ObjectIdentifier(session)] else { return }
        state.openMembers -= 1
        if state.openMembers == 0 {
            state.idleSince = time
            idleSessions[ObjectIdentifier(session)] = session
        }
    }

    /// Whether no TCP connection has carried `session` for `sessionIdleMicros` at `time`.
    private func isIdle(_ session: LogicalConnection, at time: Int64) -> Bool {
        guard let state = sessionStates[ObjectIdentifier(session)], state.openMembers == 0,
            let since = state.idleSince
        else { return false }
        return time - since > Self.sessionIdleMicros
    }

    /// Ends the sessions no TCP connection has carried for `sessionIdleMicros`.
    private func endIdleSessions(now: Int64?, to emit: any ConnectionEvents) {
        guard let now, !idleSessions.isEmpty else { return }
        let idle = idleSessions.values.compactMap { session -> (SessionKey, LogicalConnection)? in
            guard isIdle(session, at: now), let state = sessionStates[ObjectIdentifier(session)] else { return nil }
            return (state.key, session)
        }
        for (key, session) in idle.sorted(by: { $0.1.order < $1.1.order }) {
            sessions[key] = nil
            idleSessions[ObjectIdentifier(session)] = nil
            endSession(session, to: emit)
        }
    }

    private func endSession(_ session: LogicalConnection, to emit: any ConnectionEvents) {
        let open = sessionStates.removeValue(forKey: ObjectIdentifier(session))?.openMembers ?? 0
        session.closed = open == 0
        session.openAtCaptureEnd = open > 0
        emit.ended(session)
        slots.free(session.slot)
    }

    /// `direction`: the stream whose bytes caused the event (a finding without one is about them).
    private func handle(
        _ event: TransportEvent, _ carrier: Carrier, _ place: InputPlace, direction: Direction? = nil,
        to emit: any ConnectionEvents
    ) {
        let conn = carrier.connection
        switch event {
        case .message(let message):
            let target = carrier.joined ?? conn
            target.messages += 1
            if target.messages == 1, target.framing == nil { target.framing = carrier.transport?.framing }
            emit.message(
                message, of: target, at: place, frame: place.packet ?? target.messages,
                via: carrier.joined == nil ? nil : conn.id)
        case .polled(let message, let key, let framing):
            let target = key.map { session($0, via: carrier, time: place.time, to: emit) } ?? conn
            target.messages += 1
            target.framing = target.framing ?? framing
            emit.message(
                message, of: target, at: place, frame: place.packet ?? target.messages,
                via: target === conn ? nil : conn.id)
        case .upgrade(let upgrade):
            conn.info.subprotocol = upgrade.subprotocol ?? conn.info.subprotocol
            conn.info.extensions = upgrade.permessageDeflate?.headerValue ?? conn.info.extensions
            conn.info.url = upgrade.url ?? conn.info.url
            if let key = carrier.transport?.session {
                let session = session(key, via: carrier, time: place.time, to: emit)
                carrier.joined = session
                session.info.subprotocol = session.info.subprotocol ?? conn.info.subprotocol
                session.info.extensions = conn.info.extensions ?? session.info.extensions
                session.info.url = conn.info.url
                session.hasTransportBytes = true
            }
            let target = carrier.joined ?? conn
            target.framing = target.framing ?? carrier.transport?.framing
            emit.upgraded(target, upgrade, at: place)
        case .exchange(let exchange):
            guard let key = exchange.session else { return }
            let target = session(key, via: carrier, time: place.time, to: emit)
            target.account.decoded += exchange.wireBytes
            carrier.movedBytes += exchange.wireBytes
        case .close(_, let code):
            let target = carrier.joined ?? conn
            target.closeCode = code ?? target.closeCode
            conn.closeCode = code ?? conn.closeCode
            tellClosed(target, at: place, to: emit)
        case .ping(let direction):
            emit.ping(direction, of: carrier.joined ?? conn, at: place)
        case .finding(let finding, let key):
            let target = key.map { session($0, via: carrier, time: place.time, to: emit) } ?? carrier.joined ?? conn
            var located = finding
            located.location.time = located.location.time ?? place.time
            located.location.direction = located.location.direction ?? direction
            emit.finding(located, of: target, at: place, frame: place.packet ?? target.messages + 1)
        }
    }

    /// The session of `key`, made when this is its first sight (or when the one of that key has
    /// been idle too long: the rule `endIdleSessions` applies whenever a connection ends, applied
    /// here too, so the answer does not depend on which other connections ended meanwhile);
    /// `carrier` carries part of it.
    private func session(
        _ key: SessionKey, via carrier: Carrier, time: Int64, to emit: any ConnectionEvents
    ) -> LogicalConnection {
        let tcp = carrier.connection
        let session: LogicalConnection
        if let known = sessions[key], !isIdle(known, at: time) {
            session = known
        } else {
            if let idle = sessions[key] {
                sessions[key] = nil
                idleSessions[ObjectIdentifier(idle)] = nil
                endSession(idle, to: emit)
            }
            onSessionBegun?(key.hashValue)
            carrier.sessionsBegun += 1
            sessionCount += 1
            session = LogicalConnection(
                id: key.description,
                number: Self.sessionNumberBase + sessionCount * sessionNumbers.lanes + sessionNumbers.lane,
                slot: slots.take(), order: ConnectionOrder(number: tcp.number, session: carrier.sessionsBegun))
            session.info = ConnectionInfo(client: tcp.info.client, server: tcp.info.server)
            session.framing = key.framing
            session.firstTime = time
            sessions[key] = session
            sessionStates[ObjectIdentifier(session)] = SessionState(key: key)
        }
        if carrier.joined !== session, !carrier.sessionsTouched.contains(where: { $0 === session }),
            let state = sessionStates[ObjectIdentifier(session)]
        {
            carrier.sessionsTouched.append(session)
            state.openMembers += 1
            state.idleSince = nil
            idleSessions[ObjectIdentifier(session)] = nil
        }
        if !session.tcpConnections.contains(tcp.id) { session.tcpConnections.append(tcp.id) }
        session.firstTime = min(session.firstTime ?? time, time)
        session.lastTime = max(session.lastTime ?? time, time)
        return session
    }
}

/// Small integers handed out and given back, a given-back one first, so that they never
/// outnumber the connections open at once.
struct Slots {
    private var returned: [Int] = []
    private var next = 0

    mutating func take() -> Int {
        if let slot = returned.popLast() { return slot }
        next += 1
        return next - 1
    }

    mutating func free(_ slot: Int) { returned.append(slot) }
}
