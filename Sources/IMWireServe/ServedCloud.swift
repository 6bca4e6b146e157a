import IMWireNIO
import IMWireWebSocket
import NIOCore

/// A dialect's cloud as a connection's opening (`HTTPOpening`) sees it: what it answers to a
/// plain HTTP request (the router, LBS or gate), which WebSocket upgrades it takes, and the
/// handlers that serve the link after the upgrade. Used on the server's event loop only.
protocol ServedCloud: AnyObject, Sendable {
    var scenario: ScenarioPlayer { get }
    var limits: ServeLimits { get }

    /// The answer to a request that is no WebSocket upgrade, or nil (404). `server`: this
    /// server's address as the client reached it (`HOST:PORT`).
    func answer(method: String, path: String, query: String, server: String, connection: Int) -> HTTPAnswer?

    /// Takes an upgrade to `path?query` offering `protocols` on connection `connection`: the
    /// subprotocol to answer with (nil: none), or why it is refused (answered with 400).
    func upgrade(path: String, query: String, protocols: [String], connection: Int) -> Result<String?, UpgradeRefusal>

    /// Whether the WebSocket reader answers pings itself (false: the link does, so that a
    /// scenario can withhold the answer to a heartbeat).
    var answersWebSocketPings: Bool { get }

    /// The handlers for a connection whose first byte is not HTTP's (yun2win's MQTT on plain
    /// TCP), or nil: such a connection is answered as a bad HTTP request (400).
    func rawLinkHandlers(id: Int, number: Int, firstByte: UInt8) -> [ChannelHandler]?

    /// Takes a request of a long-polling transport (NIM's socket.io 0.9 xhr-polling), answered
    /// through `answer` at once or when the server has something to send (a GET held open), and
    /// returns true; false: not one (`answer(method:…)` takes it). `number`: the connection's
    /// number among the run's links, which the cloud gives back (`scenario.release`) unless the
    /// request opens a link.
    func poll(_ request: PolledRequest, answer: HeldAnswer) -> Bool

    /// Whether a long-polling session from the client at `host` is open: a connection from it
    /// may be one of the session's requests, so the scenario's `accept` acts skip it (a refusal
    /// is for a reconnect, not for a request of a session that is alive).
    func holdsPollingSession(from host: String) -> Bool

    /// The handlers after the WebSocket reader and writer, for the link numbered `number` among
    /// the run's links (`id` among all connections) that chose `subprotocol`.
    func linkHandlers(id: Int, number: Int, subprotocol: String?) -> [ChannelHandler]
}

extension ServedCloud {
    func rawLinkHandlers(id: Int, number: Int, firstByte: UInt8) -> [ChannelHandler]? { nil }
    func poll(_ request: PolledRequest, answer: HeldAnswer) -> Bool { false }
    func holdsPollingSession(from host: String) -> Bool { false }
}

/// A plain HTTP request whole, head and body, as a long-polling transport reads it.
struct PolledRequest {
    var method: String
    var path: String
    var query: String
    var body: [UInt8]
    /// The connection's number among all accepted, and among the run's links.
    var connection: Int
    var number: Int
    /// The client's IP address, and the server's event loop (for the cloud's timers).
    var client: String
    var eventLoop: EventLoop
}

/// The answer to a request that a cloud may hold open (a long poll): written once, by `send`,
/// or never when the connection is dropped (`drop`) or closes first (`onClosed` is then called).
/// Used on the server's event loop only.
final class HeldAnswer {
    private let write: (HTTPAnswer) -> Void
    private let close: () -> Void
    private(set) var isDone = false
    /// Called when the client closes the connection before the answer is written.
    var onClosed: (() -> Void)?

    init(write: @escaping (HTTPAnswer) -> Void, close: @escaping () -> Void) {
        self.write = write
        self.close = close
    }

    func send(_ answer: HTTPAnswer) {
        guard !isDone else { return }
        isDone = true
        write(answer)
    }

    /// Closes the connection without an answer.
    func drop() {
        guard !isDone else { return }
        isDone = true
        close()
    }

    /// The connection closed (from `HTTPOpening`).
    func closed() {
        guard !isDone else { return }
        isDone = true
        onClosed?()
    }
}

/// A plain HTTP answer: status, content type and body.
struct HTTPAnswer {
    var status: Int
    var contentType: String
    var body: String
}

/// Why an upgrade is refused (the body of the 400).
struct UpgradeRefusal: Error {
    var reason: String
}

/// A link as the scenario's acts reach it: its numbers, and its timers.
protocol ServedLink: AnyObject {
    /// The connection's number among all accepted (`ServeEvent`'s), from 1.
    var id: Int { get }
    /// Its number among the run's links (the scenario's `connections`), from 1.
    var number: Int { get }
    /// Runs `body` on the event loop after `milliseconds` (at once for 0), if still open then.
    func after(_ milliseconds: Int, _ body: @escaping () -> Void)
}

/// A link that is one connection's channel handler.
protocol ChannelLink: ServedLink {
    var channel: LinkChannel { get }
}

extension ChannelLink {
    func after(_ milliseconds: Int, _ body: @escaping () -> Void) { channel.after(milliseconds, body) }
}

/// What every dialect's link does with its connection the same way: writes bounded for a client
/// that does not read, a dropped connection, a close frame, timers that skip a closed link.
/// Each link keeps one, sets its context in `handlerAdded` and calls `ended()` when inactive.
final class LinkChannel {
    /// Bytes written and not yet taken by the client beyond which it is dropped.
    private let unsentLimit: Int
    private(set) var context: ChannelHandlerContext?
    /// Open, and no close frame sent: this end may still write.
    private(set) var isOpen = true

    init(unsentLimit: Int) {
        self.unsentLimit = unsentLimit
    }

    func added(_ context: ChannelHandlerContext) { self.context = context }
    func removed() { context = nil }
    func ended() { isOpen = false }

    /// Writes `data` from the link's place: a client that does not read has what it has not
    /// taken bounded, and is dropped beyond it (its pushes would pile up in memory).
    func write(_ data: NIOAny) {
        guard isOpen, let context else { return }
        if !context.channel.isWritable,
            let unsent = try? context.channel.syncOptions?.getOption(.bufferedWritableBytes), unsent > unsentLimit
        {
            return drop()
        }
        context.writeAndFlush(data, promise: nil)
    }

    /// Closes the TCP connection without a close frame.
    func drop() {
        guard isOpen, let context else { return }
        context.close(promise: nil)
    }

    /// Sends a WebSocket close frame from the link's place (its next outbound handler is the
    /// WebSocket writer), then writes nothing more (RFC 6455 §5.5.1); the connection closes when
    /// the client answers, or after five seconds.
    func close(code: Int, reason: String) {
        guard let context else { return }
        close(code: code, reason: reason, at: context)
    }

    /// The same from the place of `writer`, the handler before the link whose next outbound
    /// handler is the WebSocket writer (the engine.io, socket.io or MQTT bridge handler).
    func close<Writer: ChannelHandler>(code: Int, reason: String, from writer: Writer.Type) {
        guard let place = try? context?.pipeline.syncOperations.context(handlerType: writer) else { return }
        close(code: code, reason: reason, at: place)
    }

    private func close(code: Int, reason: String, at place: ChannelHandlerContext) {
        guard isOpen, let context else { return }
        place.writeAndFlush(
            NIOAny(WebSocketOutbound.close(CloseCode(UInt16(clamping: code)), reason: reason)), promise: nil)
        isOpen = false
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    func after(_ milliseconds: Int, _ body: @escaping () -> Void) {
        guard let context else { return }
        if milliseconds <= 0 { return body() }
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) { [weak self] in
            if self?.isOpen == true { body() }
        }
    }
}

/// Plays a scenario's actions on a cloud's links: the part of every dialect's cloud that is the same.
struct ScenarioStage {
    let scenario: ScenarioPlayer
    let log: ServeLog
    let clock: @Sendable () -> Int64

    /// Plays the scenario's actions for `trigger` on `link` around the normal `answer`: `error`
    /// answers with `error` instead (an `error` act on a trigger without one withholds),
    /// `withhold` not at all, `delay` late; the other acts (`act`) follow the answer after
    /// their `afterMs`. Each act is logged when it is done (`after` does nothing on a
    /// connection closed by then).
    func play(
        _ trigger: ScenarioAction.Trigger, on link: ServedLink, answer: @escaping () -> Void,
        error: ((Int?, String?) -> Void)? = nil, act: @escaping (ScenarioAction) -> Void
    ) {
        let actions = scenario.actions(trigger, connection: link.number)
        let replacing = actions.first { [.error, .withhold, .delay].contains($0.act) }
        if let replacing {
            switch replacing.act {
            case .error:
                link.after(replacing.afterMs) {
                    logAct(replacing, on: link)
                    error?(replacing.code, replacing.reason)
                }
            case .delay:
                link.after(replacing.afterMs) {
                    logAct(replacing, on: link)
                    answer()
                }
            default: logAct(replacing, on: link)  // withhold
            }
        } else {
            answer()
        }
        // The other acts follow the answer, late as it may be.
        let answeredAfter = replacing?.act == .withhold ? 0 : replacing?.afterMs ?? 0
        for action in actions where ![.error, .withhold, .delay].contains(action.act) {
            link.after(answeredAfter + action.afterMs) {
                logAct(action, on: link)
                act(action)
            }
        }
    }

    func logAct(_ action: ScenarioAction, on link: ServedLink) {
        log.append(.acted(connection: link.id, act: action.act, trigger: action.on, timeMs: clock()))
    }
}
