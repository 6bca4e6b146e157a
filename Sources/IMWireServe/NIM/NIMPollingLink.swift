import IMWireCore
import IMWireSocketIO
import NIOCore

/// One client's socket.io 0.9 xhr-polling session, as the 0.9 server runs it: what the server
/// sends waits in a queue for the client's next GET (held open until there is something to
/// send, or `pollingSeconds`: then a noop `8::`), several packets in the `\u{fffd}<length>\u{fffd}`
/// payload framing; what the client sends comes as the bodies of its POSTs (answered `1`). The
/// first GET gets the connect `1::`; a heartbeat `2::` is queued every 25 s; a session whose
/// client sends no GET for the close timeout ends. Used on the server's event loop only.
final class NIMPollingLink: NIMLink {
    let id: Int
    let number: Int
    /// The socket.io session id, and the host of the client that opened it.
    let sid: String
    let host: String
    var account: String?
    private unowned let cloud: NIMCloud
    private let eventLoop: EventLoop
    private var queue: [SocketIO09Packet] = []
    private var queuedBytes = 0
    /// The client's GET waiting for packets, and when it is answered empty.
    private var held: HeldAnswer?
    private var holding: Scheduled<Void>?
    private var heartbeat: Scheduled<Void>?
    /// Ends the session when no GET comes (armed whenever none is held).
    private var closeTimer: Scheduled<Void>?
    /// Not ended; `closing`: a disconnect `0::` queued, the session ends once it is sent.
    private(set) var isOpen = true
    private var closing = false

    /// How long a GET is held open with nothing to send (socket.io 0.9's `polling duration`).
    static let pollingSeconds: Int64 = 20

    /// `id` and `number`: those of the connection of the session's first GET.
    init(id: Int, number: Int, sid: String, host: String, cloud: NIMCloud, eventLoop: EventLoop) {
        self.id = id
        self.number = number
        self.sid = sid
        self.host = host
        self.cloud = cloud
        self.eventLoop = eventLoop
        queue = [SocketIO09Packet(type: .connect)]
        scheduleHeartbeat()
    }

    /// A GET: answered at once with what is queued, else held.
    func get(_ answer: HeldAnswer) {
        closeTimer?.cancel()
        // A newer poll takes the place of one still held (the 0.9 server answers the old one empty).
        if let previous = held { previous.send(Self.answer([SocketIO09Packet(type: .noop)])) }
        held = answer
        answer.onClosed = { [weak self, weak answer] in
            guard let self, held === answer else { return }
            held = nil
            holding?.cancel()
            armCloseTimer()
        }
        if !queue.isEmpty { return flush() }
        holding?.cancel()
        holding = eventLoop.assumeIsolated().scheduleTask(in: .seconds(Self.pollingSeconds)) { [weak self] in
            self?.write(SocketIO09Packet(type: .noop))
        }
    }

    /// A POST: its packets go to the cloud; a body socket.io cannot read ends the session (as a
    /// violation closes a WebSocket link).
    func post(_ body: [UInt8]) -> HTTPAnswer {
        var socketLimits = Limits.default
        socketLimits.maxMessageSize = cloud.limits.messageBytes
        let decoded = SocketIO09Decoder.decode(body, limits: socketLimits)
        if let violation = decoded.findings.first(where: { $0.severity == .error }) {
            drop()
            return HTTPAnswer(status: 400, contentType: "text/plain; charset=UTF-8", body: violation.message)
        }
        cloud.receive(decoded.packets, on: self)
        return HTTPAnswer(status: 200, contentType: "text/plain; charset=UTF-8", body: "1")
    }

    /// The client's `?disconnect`: the session ends, answered with a disconnect.
    func disconnect() -> HTTPAnswer {
        end()
        return Self.answer([SocketIO09Packet(type: .disconnect)])
    }

    func write(_ packet: SocketIO09Packet) {
        guard isOpen, !closing else { return }
        queue.append(packet)
        queuedBytes += packet.encoded.utf8.count
        // A client that does not poll has what waits for it bounded, as a WebSocket client that does not read.
        if queuedBytes > cloud.limits.unsentBytes { return drop() }
        flush()
    }

    func drop() {
        held?.drop()
        end()
    }

    /// socket.io's disconnect `0::`, sent with the next answer; the session ends with it.
    func close(code: Int, reason: String) {
        guard isOpen, !closing else { return }
        queue.append(SocketIO09Packet(type: .disconnect))
        closing = true
        flush()
    }

    func after(_ milliseconds: Int, _ body: @escaping () -> Void) {
        if milliseconds <= 0 { return body() }
        eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) { [weak self] in
            if self?.isOpen == true { body() }
        }
    }

    /// Answers the held GET with everything queued.
    private func flush() {
        guard let answer = held, !queue.isEmpty else { return }
        held = nil
        holding?.cancel()
        answer.send(Self.answer(queue))
        queue = []
        queuedBytes = 0
        if closing { return end() }
        armCloseTimer()
    }

    private func armCloseTimer() {
        guard isOpen else { return }
        closeTimer?.cancel()
        closeTimer = eventLoop.assumeIsolated().scheduleTask(in: .seconds(Int64(NIMCloud.heartbeatTimeout))) {
            [weak self] in
            self?.end()
        }
    }

    /// socket.io 0.9's server heartbeat `2::`, which the client echoes in a POST.
    private func scheduleHeartbeat() {
        heartbeat = eventLoop.assumeIsolated().scheduleTask(in: .seconds(NIMCloud.heartbeatIntervalSeconds)) {
            [weak self] in
            guard let self, isOpen else { return }
            write(SocketIO09Packet(type: .heartbeat))
            scheduleHeartbeat()
        }
    }

    private func end() {
        guard isOpen else { return }
        isOpen = false
        for timer in [holding, heartbeat, closeTimer] { timer?.cancel() }
        held = nil
        queue = []
        cloud.disconnected(self)
    }

    private static func answer(_ packets: [SocketIO09Packet]) -> HTTPAnswer {
        HTTPAnswer(status: 200, contentType: "text/plain; charset=UTF-8", body: SocketIO09Payload.encode(packets))
    }
}
