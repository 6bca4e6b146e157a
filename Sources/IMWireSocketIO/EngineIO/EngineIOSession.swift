import IMWireCore

/// Follows the engine.io 3 / socket.io 4 transport of one WebSocket connection: the open
/// handshake first, client pings answered by pongs within pingTimeout and sent at least every
/// pingInterval + pingTimeout, which side sends which packet, the server's CONNECT before the
/// client's events, and binary packets joined with their attachments. Time is an input (µs).
/// Findings carry no location; the dialect session adds it.
public struct EngineIOSession: Sendable {
    /// A socket.io packet complete with its attachments, ready for the dialect.
    public struct Completed: Sendable, Hashable {
        public var packet: SocketIOPacket
        /// The frame where the packet started (attachments may follow in later frames).
        public var frameIndex: Int
    }

    private struct Waiting: Sendable {
        var packet: SocketIOPacket
        var frameIndex: Int
    }

    public private(set) var handshake: EngineIOHandshake?
    private var sawServerMessage = false
    private var openTime: Int64?
    private var lastPing: Int64?
    private var pendingPing: (time: Int64, frame: Int)?
    private var connected: Set<String> = []
    private var reportedEarlyEvent: Set<String> = []
    private var waiting: [Direction: Waiting] = [:]

    public init() {}

    private static func gap(_ from: Int64, _ to: Int64) -> Int64? {
        let (value, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? nil : value
    }

    private static func ms(_ micros: Int64) -> String { "\(micros / 1000) ms" }

    /// Observes one decoded message; returns the socket.io packets it completes and the
    /// transport findings it causes.
    public mutating func observe(
        _ message: EngineIOMessage, direction: Direction, timeMicros time: Int64, frameIndex: Int
    )
        -> (completed: [Completed], findings: [Finding])
    {
        var findings: [Finding] = []
        var completed: [Completed] = []
        expirePing(before: time, into: &findings)
        guard let packet = message.engineIO else { return ([], findings) }
        if direction == .receive, !sawServerMessage {
            sawServerMessage = true
            let probe = packet.type == .pong && packet.text == "probe"
            if packet.type != .open, !probe {
                findings.append(
                    SocketIORules.eioOpenNotFirst.finding("the server's first packet is \(packet.type.name)", at: 0))
            }
        }
        switch (packet.type, direction) {
        case (.open, .send), (.pong, .send), (.ping, .receive), (.upgrade, .receive):
            findings.append(
                SocketIORules.eioWrongDirection.finding(
                    "\(packet.type.name) from the \(direction == .send ? "client" : "server")", at: 0))
        case (.open, .receive):
            if let value = packet.handshake {
                handshake = value
                openTime = time
            }
        case (.ping, .send):
            if let handshake, let last = lastPing ?? openTime, let gap = Self.gap(last, time),
                gap > (handshake.pingInterval + handshake.pingTimeout) * 1000
            {
                findings.append(
                    SocketIORules.eioPingLate.finding(
                        """
                        \(Self.ms(gap)) since the last ping; pingInterval \
                        \(handshake.pingInterval) + pingTimeout \(handshake.pingTimeout) ms
                        """, at: 0
                    ))
            }
            if packet.text != "probe" {
                lastPing = time
                pendingPing = (time, frameIndex)
            }
        case (.pong, .receive):
            if packet.text != "probe" { pendingPing = nil }
        default:
            break
        }
        // Attachments of a binary packet arrive as binary message packets.
        if packet.type == .message, let data = packet.binary {
            if var pending = waiting[direction] {
                pending.packet.buffers.append(data)
                if pending.packet.buffers.count >= pending.packet.attachments ?? 0 {
                    waiting[direction] = nil
                    completed.append(Completed(packet: pending.packet, frameIndex: pending.frameIndex))
                } else {
                    waiting[direction] = pending
                }
            } else {
                findings.append(
                    SocketIORules.sioBinaryUnexpected.finding("a binary message with no binary packet waiting", at: 0))
            }
            return (completed, findings)
        }
        if let waiting = waiting.removeValue(forKey: direction) {
            findings.append(
                SocketIORules.sioAttachmentMissing.finding(
                    """
                    \(waiting.packet.summary) (frame \(waiting.frameIndex)) got \
                    \(waiting.packet.buffers.count) of \(waiting.packet.attachments ?? 0) attachments
                    """,
                    at: 0))
        }
        guard let socketIO = message.socketIO else { return (completed, findings) }
        switch (socketIO.type, direction) {
        case (.connect, .receive):
            connected.insert(socketIO.namespace)
        case (.event, .send), (.binaryEvent, .send):
            // socket.io-client 2.x buffers emits until the server's CONNECT (`40` for "/").
            let namespace = socketIO.namespace
            if !connected.contains(namespace), reportedEarlyEvent.insert(namespace).inserted {
                findings.append(
                    SocketIORules.sioEventBeforeConnect.finding(
                        "EVENT on \(namespace) before the server's CONNECT", at: 0))
            }
        default:
            break
        }
        if socketIO.type.isBinary, (socketIO.attachments ?? 0) > 0 {
            waiting[direction] = Waiting(packet: socketIO, frameIndex: frameIndex)
        } else {
            completed.append(Completed(packet: socketIO, frameIndex: frameIndex))
        }
        return (completed, findings)
    }

    private mutating func expirePing(before time: Int64, into findings: inout [Finding]) {
        guard let handshake, let pending = pendingPing, let gap = Self.gap(pending.time, time),
            gap > handshake.pingTimeout * 1000
        else { return }
        pendingPing = nil
        findings.append(
            SocketIORules.eioPingUnanswered.finding(
                "the ping of frame \(pending.frame) got no pong within pingTimeout \(handshake.pingTimeout) ms", at: 0))
    }

    /// The connection ended at `time`.
    public mutating func finish(atMicros time: Int64?) -> [Finding] {
        var findings: [Finding] = []
        if let time { expirePing(before: time, into: &findings) }
        for direction in Direction.allCases {
            if let waiting = waiting.removeValue(forKey: direction) {
                findings.append(
                    SocketIORules.sioAttachmentMissing.finding(
                        """
                        \(waiting.packet.summary) (frame \(waiting.frameIndex)) \
                        still waits for attachments at the end
                        """, at: 0))
            }
        }
        return findings
    }
}
