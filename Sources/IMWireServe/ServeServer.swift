import Dispatch
import IMWireCheck
import IMWireCore
import NIOCore
import NIOPosix

/// Where `imwire serve` listens, what it plays, and its bounds.
public struct ServeConfiguration: Sendable {
    /// An IPv4 address: grading finds each connection's findings by its client's IPv4 address and port.
    public var listenHost: String
    /// 0: any free port (`ServeServer.start` returns the one bound).
    public var listenPort: Int
    public var scenario: Scenario
    /// Seeds the ids the server gives out (conversations, messages, session tokens).
    public var seed: UInt64
    public var limits: ServeLimits
    /// The suite's cases (`imwire serve --scenarios`), `DIALECT/NAME` each, in the order they
    /// run, and this scenario's place among them, from 0: what `GET /imwire/case` answers.
    public var cases: [String]
    public var caseIndex: Int

    public init(
        listenHost: String = "127.0.0.1", listenPort: Int, scenario: Scenario, seed: UInt64 = 1,
        limits: ServeLimits = ServeLimits(),
        cases: [String]? = nil, caseIndex: Int = 0
    ) {
        self.listenHost = listenHost
        self.listenPort = listenPort
        self.scenario = scenario
        self.seed = seed
        self.limits = limits
        self.cases = cases ?? [scenario.dialect.rawValue + "/" + scenario.name]
        self.caseIndex = caseIndex
    }
}

/// What one server holds at most: beyond a bound, a new connection is closed at once, a
/// request is answered with an error, a message is not kept.
public struct ServeLimits: Sendable, Hashable {
    /// Connections open at once.
    public var connections: Int
    /// Users (LeanCloud peer ids, JMessage user names, yun2win uids) with a session at once.
    public var users: Int
    /// Conversations (JMessage: groups; yun2win: sessions).
    public var conversations: Int
    /// Messages kept per conversation for history (the oldest go first).
    public var historyPerConversation: Int
    /// Bytes of an HTTP request head, and of one WebSocket message.
    public var headBytes: Int
    public var messageBytes: Int
    /// Seconds a new connection has to send its whole request head (or its first MQTT bytes):
    /// beyond it, 408 and a close (a slowloris client holds no connection longer).
    public var headSeconds: Int
    /// Bytes written to a connection and not yet taken by its client: beyond it, a client that
    /// does not read is dropped (its pushes would pile up in memory).
    public var unsentBytes: Int

    public init(
        connections: Int = 1_000, users: Int = 1_000, conversations: Int = 10_000, historyPerConversation: Int = 100,
        headBytes: Int = 16 << 10,
        messageBytes: Int = 1 << 20, unsentBytes: Int = 4 << 20, headSeconds: Int = 10
    ) {
        self.headSeconds = headSeconds
        self.connections = connections
        self.users = users
        self.conversations = conversations
        self.historyPerConversation = historyPerConversation
        self.headBytes = headBytes
        self.messageBytes = messageBytes
        self.unsentBytes = unsentBytes
    }
}

/// An offline IM cloud for one dialect (LeanCloud: its router and its RTM WebSocket in
/// `lc.protobuf2.3`, `lc.proto2base64.3` and `lc.json.3`; JMessage: engine.io 3 / socket.io 2
/// over WebSocket; NIM: its LBS and socket.io 0.9 over WebSocket or xhr-polling; yun2win: MQTT over WebSocket
/// and plain TCP) on one address, playing a `Scenario`:
/// each connection's bytes both ways go to a `LiveCheck`, as the proxy's do, and what the server
/// did goes to a `ServeLog`; `ServeGrading` turns both into grades when the run ends.
///
/// All state lives on one event loop (one thread): the cloud's users and conversations need
/// no lock, and the same client steps give the same ids and replies in every run.
public final class ServeServer: @unchecked Sendable {
    public let configuration: ServeConfiguration
    private let live: LiveCheck
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let clock: @Sendable () -> Int64
    private var serverChannel: Channel?
    private var cloud: (any ServedCloud)?
    private let lock = DispatchSemaphore(value: 1)
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    private var children: [ObjectIdentifier: Channel] = [:]
    private let events = ServeLog()
    /// Connections accepted so far (on the event loop).
    private var accepts = 0
    private var endedByClient = false

    /// `clock`: milliseconds since the epoch, for the server's timestamps and the log.
    public init(configuration: ServeConfiguration, live: LiveCheck, clock: @escaping @Sendable () -> Int64) {
        self.configuration = configuration
        self.live = live
        self.clock = clock
    }

    /// Binds the listen address and starts accepting; returns the port bound.
    public func start() throws -> Int {
        guard let cloud = Self.cloud(for: configuration, clock: clock, log: events) else {
            throw IMWireError(.serveNoCloud, Self.noCloud(configuration.scenario), path: configuration.scenario.name)
        }
        self.cloud = cloud
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try accepted(channel, cloud: cloud) }
            }
        let channel = try bootstrap.bind(host: configuration.listenHost, port: configuration.listenPort).wait()
        serverChannel = channel
        return channel.localAddress?.port ?? configuration.listenPort
    }

    /// One dialect's cloud: what it answers (for `imwire serve --help`) and how it is made.
    package struct Cloud: Sendable {
        package let dialect: Dialect
        package let answers: String
        let make:
            @Sendable (ScenarioPlayer, ServeConfiguration, @escaping @Sendable () -> Int64, ServeLog) -> any ServedCloud
    }

    /// The clouds `imwire serve` plays scenarios with, one per dialect.
    package static let clouds: [Cloud] = [
        Cloud(
            dialect: .leancloud,
            answers: """
                LeanCloud's router (GET /v1/route, naming this address) and its RTM \
                WebSocket in lc.protobuf2.3, lc.proto2base64.3 and lc.json.3 (sessions, \
                conversations, messages delivered between clients, history, heartbeats)
                """
        ) { LeanCloudCloud(scenario: $0, seed: $1.seed, limits: $1.limits, clock: $2, log: $3) },
        Cloud(
            dialect: .nim,
            answers: """
                NIM's LBS and socket.io 0.9 over WebSocket or xhr-polling \
                (login, sync, messages pushed between accounts, heartbeats)
                """
        ) { NIMCloud(scenario: $0, seed: $1.seed, limits: $1.limits, clock: $2, log: $3) },
        Cloud(
            dialect: .jmessage,
            answers: """
                JMessage's engine.io 3 / socket.io 2 WebSocket (c_init, login, sync, \
                one-to-one and group messages pushed between clients, heartbeats)
                """
        ) { JMessageCloud(scenario: $0, seed: $1.seed, limits: $1.limits, clock: $2, log: $3) },
        Cloud(
            dialect: .yun2win,
            answers: """
                yun2win's gate and MQTT over WebSocket and plain TCP (CONNECT and the accept \
                command, commands acknowledged and delivered to the session's members)
                """
        ) { Yun2winCloud(scenario: $0, limits: $1.limits, clock: $2, log: $3) },
    ]

    /// The cloud of the scenario's dialect; nil when no cloud plays it (`Scenario.parse` refuses
    /// such a scenario, `Scenario.init` does not).
    static func cloud(for configuration: ServeConfiguration, clock: @escaping @Sendable () -> Int64, log: ServeLog) -> (
        any ServedCloud
    )? {
        clouds.first { $0.dialect == configuration.scenario.dialect }?.make(
            ScenarioPlayer(configuration.scenario), configuration, clock, log)
    }

    /// Why `cloud(for:)` gave nothing.
    static func noCloud(_ scenario: Scenario) -> String { "no cloud plays \(scenario.dialect) scenarios" }

    private func accepted(_ channel: Channel, cloud: any ServedCloud) throws {
        lock.wait()
        let refused = stopping || children.count >= configuration.limits.connections
        if !refused { children[ObjectIdentifier(channel)] = channel }
        lock.signal()
        if refused {
            channel.close(promise: nil)
            return
        }
        func endpoint(_ address: SocketAddress?) -> (address: [UInt8], port: UInt16) {
            guard let address, case .v4(let v4) = address else { return ([], UInt16(address?.port ?? 0)) }
            let host = v4.address.sin_addr.s_addr.bigEndian
            return (
                [UInt8(host >> 24), UInt8(host >> 16 & 0xff), UInt8(host >> 8 & 0xff), UInt8(host & 0xff)],
                UInt16(address.port ?? 0)
            )
        }
        let client = endpoint(channel.remoteAddress)
        let server = endpoint(channel.localAddress)
        accepts += 1
        let id = accepts
        let number = cloud.scenario.accepted()
        let clientName = client.address.map(String.init).joined(separator: ".") + ":\(client.port)"
        events.append(.accepted(connection: id, client: clientName, timeMs: clock()))
        let tap = ServeTap(
            live: live, open: { [live] in live.open(client: client, server: server) },
            ended: { [self] in
                events.append(.closed(connection: id, timeMs: clock()))
                lock.wait()
                children[ObjectIdentifier(channel)] = nil
                lock.signal()
            })
        try channel.pipeline.syncOperations.addHandler(tap)
        let host = client.address.map(String.init).joined(separator: ".")
        let refusal =
            cloud.holdsPollingSession(from: host)
            ? nil : cloud.scenario.actions(.accept, connection: number).first { $0.act == .drop }
        if let refusal {
            tap.commit()
            events.append(.acted(connection: id, act: .drop, trigger: .accept, timeMs: clock()))
            // Refused: reset (SO_LINGER 0) before any byte, at once or after `afterMs`, as the mocks
            // the vendors' SDKs were recorded with refused them (Tests/VendorSDKs/*/server.py).
            channel.eventLoop.scheduleTask(in: .milliseconds(Int64(refusal.afterMs))) {
                let reset =
                    (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                    ?? channel.eventLoop.makeSucceededVoidFuture()
                reset.whenComplete { _ in channel.close(promise: nil) }
            }
            return
        }
        let control = { [self] (method: String, path: String) in
            self.control(method: method, path: path, connection: id)
        }
        try channel.pipeline.syncOperations.addHandler(
            HTTPOpening(id: id, number: number, cloud: cloud, limits: configuration.limits, tap: tap, control: control))
    }

    /// The case-switching protocol (`Spec/serve.md` §5): `GET /imwire/cases`, `/imwire/case` and
    /// `/imwire/endCase`, answered on any dialect's address. Its connections are no client's:
    /// they leave the log (and so the grades and the idle count). nil: no such request.
    private func control(method: String, path: String, connection: Int) -> (
        answer: HTTPAnswer, then: (@Sendable () -> Void)?
    )? {
        guard path.hasPrefix("/imwire/") else { return nil }
        events.forget(connection: connection)
        let cases = configuration.cases
        let index = configuration.caseIndex
        func json(_ members: [(String, JSONValue)], status: Int = 200) -> HTTPAnswer {
            HTTPAnswer(
                status: status, contentType: "application/json",
                body: JSONWriter.string(.object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))))
        }
        let name = JSONValue.string(cases[index])
        switch (method, path) {
        case ("GET", "/imwire/cases"):
            return (json([("cases", .array(cases.map { .string($0) }))]), nil)
        case ("GET", "/imwire/case"):
            let scenario = configuration.scenario
            let reconnect = scenario.expectation.reconnect.map { JSONValue.bool($0) } ?? .null
            return (
                json([
                    ("case", .number(JSONNumber(index + 1))), ("of", .number(JSONNumber(cases.count))), ("name", name),
                    ("summary", .string(scenario.summary)), ("reconnect", reconnect),
                ]), nil
            )
        case ("GET", "/imwire/endCase"):
            let next = index + 1 < cases.count ? JSONValue.string(cases[index + 1]) : .null
            lock.wait()
            endedByClient = true
            lock.signal()
            // No new connection reaches this case: the client's next request waits for the next case's listener.
            serverChannel?.close(promise: nil)
            // After the answer is written: `stop` waits for the event loop, so not on it.
            return (json([("ended", name), ("next", next)]), { DispatchQueue.global().async { self.stop() } })
        default:
            return (
                json(
                    [
                        (
                            "error",
                            .string(
                                "no such request: \(method) \(path) (GET /imwire/cases, /imwire/case, /imwire/endCase)")
                        )
                    ], status: 404), nil
            )
        }
    }

    /// Whether a client ended the run with `GET /imwire/endCase`.
    public var endedByRequest: Bool {
        lock.wait()
        defer { lock.signal() }
        return endedByClient
    }

    /// What the server did so far (on any thread).
    public var log: [ServeEvent] { events.events }

    /// The newest of `log`.
    public var lastEvent: ServeEvent? { events.last }

    /// Connections open now.
    public var openConnections: Int {
        lock.wait()
        defer { lock.signal() }
        return children.count
    }

    /// Blocks until the server stops.
    public func wait() {
        stopped.wait()
        stopped.signal()
    }

    /// Stops accepting and closes every connection. Safe to call more than once, from any thread.
    public func stop() {
        lock.wait()
        if stopping {
            lock.signal()
            return
        }
        stopping = true
        let open = Array(children.values)
        lock.signal()
        try? serverChannel?.close().wait()
        for channel in open { try? channel.close().wait() }
        try? group.syncShutdownGracefully()
        stopped.signal()
    }
}

/// The first handler of every connection: each byte read and written goes to the live check
/// (read: client to server), in order, before it is handled or sent. The check learns of the
/// connection once `HTTPOpening` knows it is a client's (`commit`): a request of the
/// case-switching protocol is no client's, and is never checked (`discard`).
final class ServeTap: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Undecided: the bytes so far, in order.
        case held([(Direction, [UInt8])])
        case checked(handle: Int)
        case discarded
    }

    private let live: LiveCheck
    private let open: () -> Int
    private var state = State.held([])
    private var ended: (() -> Void)?

    /// `open`: opens the connection in the live check, returning its handle.
    init(live: LiveCheck, open: @escaping () -> Int, ended: @escaping () -> Void) {
        self.live = live
        self.open = open
        self.ended = ended
    }

    /// The connection is a client's: the check gets it, and what it held.
    func commit() {
        guard case .held(let bytes) = state else { return }
        let handle = open()
        state = .checked(handle: handle)
        for (direction, data) in bytes { live.data(handle, direction, data) }
    }

    /// The connection is no client's: the check never sees it.
    func discard() {
        if case .held = state { state = .discarded }
    }

    private func pass(_ direction: Direction, _ bytes: [UInt8]) {
        switch state {
        case .held(var list):
            state = .discarded  // not copied on append
            list.append((direction, bytes))
            state = .held(list)
        case .checked(let handle): live.data(handle, direction, bytes)
        case .discarded: break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pass(.send, Array(unwrapInboundIn(data).readableBytesView))
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        pass(.receive, Array(unwrapOutboundIn(data).readableBytesView))
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Closed before it was told: a client's connection that ended early.
        commit()
        if case .checked(let handle) = state { live.close(handle) }
        ended?()
        ended = nil
        context.fireChannelInactive()
    }
}

extension IMWireError.Code {
    /// A scenario of a dialect no served cloud plays.
    public static let serveNoCloud = Self("serve.no-cloud")
}
