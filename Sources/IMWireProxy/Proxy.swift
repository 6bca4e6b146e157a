import Dispatch
import IMWireCheck
import IMWireCore
import IMWireTLS
import NIOCore
import NIOPosix
import NIOSSL

/// Where `imwire proxy` listens and forwards, and when it stops.
public struct ProxyConfiguration: Sendable {
    /// Where each accepted connection goes.
    public enum Upstream: Sendable, Hashable {
        /// Every connection to this server (`--upstream`): the client connects to the proxy as if
        /// it were the server.
        case fixed(host: String, port: Int)
        /// Wherever each client asks, with an HTTP CONNECT request or a SOCKS5 CONNECT
        /// (`--explicit`): a client or phone set to use the proxy is followed to every server it
        /// opens (a router's or LBS's answer names the link's address).
        case askedByClient
    }

    public var listenHost: String
    /// 0: any free port (`ProxyServer.start` returns the one bound).
    public var listenPort: Int
    public var upstream: Upstream
    /// Terminate the clients' TLS and open TLS to the servers (nil: bytes pass as they are).
    public var tls: ProxyTLSConfiguration?
    /// Stop once this many proxied connections have closed (nil: never).
    public var maxConnections: Int?
    /// Bytes a side may have written and not yet sent before reading from the other side pauses
    /// (NIO's write buffer water marks: reading resumes below half of it).
    public var writeBufferHighWater: Int
    /// Stream bytes waiting to be checked before reading pauses on every connection.
    public var maxPendingCheckBytes: Int

    public init(
        listenHost: String, listenPort: Int, upstream: Upstream, tls: ProxyTLSConfiguration? = nil,
        maxConnections: Int? = nil,
        writeBufferHighWater: Int = 256 << 10, maxPendingCheckBytes: Int = 16 << 20
    ) {
        self.listenHost = listenHost
        self.listenPort = listenPort
        self.upstream = upstream
        self.tls = tls
        self.maxConnections = maxConnections
        self.writeBufferHighWater = writeBufferHighWater
        self.maxPendingCheckBytes = maxPendingCheckBytes
    }

    /// Every connection to `upstreamHost:upstreamPort`, bytes as they are.
    public init(
        listenHost: String, listenPort: Int, upstreamHost: String, upstreamPort: Int, maxConnections: Int? = nil,
        writeBufferHighWater: Int = 256 << 10, maxPendingCheckBytes: Int = 16 << 20
    ) {
        self.init(
            listenHost: listenHost, listenPort: listenPort, upstream: .fixed(host: upstreamHost, port: upstreamPort),
            maxConnections: maxConnections, writeBufferHighWater: writeBufferHighWater,
            maxPendingCheckBytes: maxPendingCheckBytes)
    }
}

/// A TCP man-in-the-middle: every connection accepted on the listen address is joined to a new
/// connection to the upstream (the fixed one, or the one the client asks for in explicit mode),
/// and the bytes of both directions (the plaintext, when it terminates TLS) are
/// forwarded unchanged, each side reading only while the other can take what it reads (bounded
/// write buffers: a slow reader slows its peer's sender, nothing piles up), half-closes passed
/// on. A copy of the bytes goes to a `LiveCheck`. An upstream that refuses gets the client a
/// clean close (FIN) and a `PROXY.UPSTREAM-UNREACHABLE` finding.
public final class ProxyServer: @unchecked Sendable {
    public let configuration: ProxyConfiguration
    private let live: LiveCheck
    private let group: MultiThreadedEventLoopGroup
    private var serverChannel: Channel?
    private let lock = DispatchSemaphore(value: 1)
    private var children: [ObjectIdentifier: Channel] = [:]
    private var closedConnections = 0
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    private var interception: TLSInterception?

    public init(configuration: ProxyConfiguration, live: LiveCheck, threads: Int = 1) {
        self.configuration = configuration
        self.live = live
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
    }

    /// Binds the listen address and starts accepting; returns the port bound. Throws an
    /// `IMWireError` when the TLS configuration cannot be used (a key log that cannot be
    /// written, an upstream CA file that cannot be read).
    public func start() throws -> Int {
        let configuration = self.configuration
        interception = try configuration.tls.map { tls throws(IMWireError) in try TLSInterception(tls) }
        let water = ChannelOptions.Types.WriteBufferWaterMark(
            low: configuration.writeBufferHighWater / 2, high: configuration.writeBufferHighWater)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: water)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    // In place before the first read: NIO reads a client's bytes up to its EOF
                    // even with autoRead off, and the client side holds them until it is joined.
                    let clientSide = Glue(direction: .send, maxPending: configuration.maxPendingCheckBytes)
                    try channel.pipeline.syncOperations.addHandler(clientSide)
                    accepted(channel, clientSide, water: water)
                }
            }
        let channel = try bootstrap.bind(host: configuration.listenHost, port: configuration.listenPort).wait()
        serverChannel = channel
        return channel.localAddress?.port ?? configuration.listenPort
    }

    /// Blocks until the proxy stops: `stop`, `maxConnections` closed connections, or `duration`
    /// seconds when given.
    public func wait(duration: Double? = nil) {
        if let duration { DispatchQueue.global().asyncAfter(deadline: .now() + duration) { [self] in stop() } }
        stopped.wait()
        stopped.signal()
    }

    /// Stops accepting, closes every proxied connection (their last bytes forwarded first) and
    /// the event loops. Safe to call more than once and from any thread.
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
        // Each closed pair told the check before its close completed; the loops are idle now.
        try? group.syncShutdownGracefully()
        stopped.signal()
    }

    private func accepted(_ client: Channel, _ clientSide: Glue, water: ChannelOptions.Types.WriteBufferWaterMark) {
        lock.wait()
        let refused = stopping
        if !refused { children[ObjectIdentifier(client)] = client }
        lock.signal()
        if refused {
            client.close(promise: nil)
            return
        }
        let side = NIOLoopBound(clientSide, eventLoop: client.eventLoop)
        if case .fixed(let host, let port) = configuration.upstream, interception == nil {
            // Nothing to read first: the upstream is dialled at once, the client's bytes held.
            return connect(client, side.value, host: host, port: port, water: water) { [self] server in
                join(client, side.value, server)
            }
        }
        open(client, side.value, water: water)
    }

    /// Reads what the client's first bytes say (`ClientOpening`), then dials: explicit mode
    /// dials the server the client asks for and answers it; TLS interception puts a TLS server
    /// handler with a leaf for the client's SNI before the client's side and a TLS client
    /// handler (the same SNI, its ALPN) before the server's, once the ClientHello is read.
    private func open(_ client: Channel, _ clientSide: Glue, water: ChannelOptions.Types.WriteBufferWaterMark) {
        let explicit = configuration.upstream == .askedByClient
        let opening = ClientOpening(explicit: explicit, sniffsTLS: interception != nil)
        let loop = client.eventLoop
        let state = NIOLoopBound(OpeningState(), eventLoop: loop)
        let side = NIOLoopBound(clientSide, eventLoop: loop)
        let ended = NIOLoopBound(
            { [self] in
                guard !state.value.ended else { return }
                state.value.ended = true
                connectionEnded(client)
            }, eventLoop: loop)
        // A client that leaves before it is joined ends here (a joined one when both sides close).
        client.closeFuture.whenComplete { _ in if !state.value.joined { ended.value() } }
        if case .fixed(let host, let port) = configuration.upstream { state.value.target = (host, port) }
        opening.onTarget = { [self] host, port in
            state.value.target = (host, port)
            let failed = {
                opening.answer(connected: false)
                ended.value()
            }
            connect(client, side.value, host: host, port: port, water: water, failed: failed) { server in
                state.value.server = server
                opening.answer(connected: true)
            }
        }
        opening.onRefused = { [self] why in
            live.problem(
                LiveRules.requestRefused.finding(
                    "\(Self.describe(client.remoteAddress)): \(why); the client's connection was closed"))
            ended.value()
        }
        // Closing the client's connection ends it as a client's own close would.
        opening.onOtherServer = { [self] why in
            live.problem(
                LiveRules.serverSwitch.finding(
                    "\(Self.describe(client.remoteAddress)): \(why); the client's connection was closed"))
        }
        opening.onHello = { [self] hello in
            guard let (host, port) = state.value.target else { return }
            var upstreamTLS: (serverName: String?, alpn: [String])?
            if let hello, let interception {
                let name = hello.serverName ?? host
                let alpn = TLSInterception.protocols(offered: hello.alpn)
                do {
                    let context = try interception.serverContext(host: name, alpn: alpn)
                    try client.pipeline.syncOperations.addHandler(
                        NIOSSLServerHandler(context: context), position: .after(opening))
                } catch {
                    live.problem(
                        LiveRules.tlsHandshakeFailed.finding("\(name): \(error); the client's connection was closed"))
                    client.close(promise: nil)
                    return
                }
                side.value.onError = { [self] error in
                    reportTLS(error, leg: "the client \(Self.describe(client.remoteAddress))", name: name)
                }
                upstreamTLS = (CertificateAuthority.ipAddressBytes(name) == nil ? name : nil, alpn)
            }
            let joinTo = { [self] (server: Channel) in
                // The client left (or failed its handshake) while the server was being dialled.
                guard !state.value.ended, client.isActive else {
                    server.close(promise: nil)
                    return
                }
                if let upstreamTLS, let interception {
                    do {
                        let context = try interception.clientContext(alpn: upstreamTLS.alpn)
                        try server.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: upstreamTLS.serverName),
                            position: .first)
                    } catch {
                        live.problem(
                            LiveRules.tlsHandshakeFailed.finding(
                                "\(host):\(port): \(error); the client's connection was closed"))
                        server.close(promise: nil)
                        client.close(promise: nil)
                        return
                    }
                }
                state.value.joined = true
                let serverSide = join(client, side.value, server)
                if upstreamTLS != nil {
                    serverSide?.onError = { [self] error in
                        reportTLS(error, leg: "the upstream \(host):\(port)", name: upstreamTLS?.serverName ?? host)
                    }
                }
            }
            if let server = state.value.server {
                joinTo(server)
            } else {
                let failed = {
                    side.value.refuse(client)
                    ended.value()
                }
                connect(client, side.value, host: host, port: port, water: water, failed: failed) { server in
                    joinTo(server)
                }
            }
        }
        do { try client.pipeline.syncOperations.addHandler(opening, position: .first) } catch {
            client.close(promise: nil)
        }
    }

    /// Dials `host:port` for `client`; on success calls `connected` (on the client's loop); on
    /// failure reports it, then calls `failed`, or by default closes the client cleanly and ends it.
    private func connect(
        _ client: Channel, _ clientSide: Glue, host: String, port: Int,
        water: ChannelOptions.Types.WriteBufferWaterMark,
        failed: (() -> Void)? = nil, connected: @escaping (Channel) -> Void
    ) {
        let clientAddress = client.remoteAddress
        let upstream = ClientBootstrap(group: client.eventLoop)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelOption(.autoRead, value: false)
            .channelOption(.writeBufferWaterMark, value: water)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port)
        let side = NIOLoopBound(clientSide, eventLoop: client.eventLoop)
        let otherwise = failed.map { NIOLoopBound($0, eventLoop: client.eventLoop) }
        let reply = NIOLoopBound(connected, eventLoop: client.eventLoop)
        upstream.whenComplete { [self] result in
            switch result {
            case .success(let server):
                reply.value(server)
            case .failure(let error):
                live.problem(
                    LiveRules.upstreamUnreachable.finding(
                        """
                        \(host):\(port) refused the connection of \(Self.describe(clientAddress)): \
                        \(error); the client's connection was closed
                        """))
                if let otherwise {
                    otherwise.value()
                } else {
                    // A clean close: FIN, then what the client sent (or sends) is read and dropped
                    // until its FIN, so that no unread byte makes the kernel answer with a reset.
                    side.value.refuse(client)
                    connectionEnded(client)
                }
            }
        }
    }

    /// A failed TLS handshake (or a TLS error later), once per leg.
    private func reportTLS(_ error: Error, leg: String, name: String) {
        let hint: String
        if "\(error)".lowercased().contains("certificate") {
            hint =
                leg.hasPrefix("the client")
                ? " (does the client trust the IMWire CA?)"
                : " (does the proxy trust the server's certificate? name its CA, or do not verify a test server)"
        } else {
            hint = ""
        }
        live.problem(
            LiveRules.tlsHandshakeFailed.finding(
                "TLS with \(leg) for \(name): \(error)\(hint); the connection was closed"))
    }

    /// `127.0.0.1:50432`, `[::1]:50432`.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "a client" }
        let host = ip.contains(":") ? "[\(ip)]" : ip
        return "\(host):\(address.port ?? 0)"
    }

    /// Joins the client's channel to the server's: returns the server's side, nil when it failed.
    @discardableResult
    private func join(_ client: Channel, _ clientSide: Glue, _ server: Channel) -> Glue? {
        let handle = live.open(
            client: Self.endpoint(client.remoteAddress), server: Self.endpoint(server.remoteAddress))
        let pair = ProxiedPair(live: live, handle: handle) { [self] in connectionEnded(client) }
        let serverSide = Glue(direction: .receive, maxPending: configuration.maxPendingCheckBytes)
        serverSide.pair = pair
        serverSide.partner = clientSide
        do {
            try server.pipeline.syncOperations.addHandler(serverSide)
        } catch {
            client.close(promise: nil)
            server.close(promise: nil)
            connectionEnded(client)  // never joined: nothing else ends it
            return nil
        }
        clientSide.join(pair: pair, partner: serverSide)
        // Reading starts now that both sides are joined; each read passes through `Glue.read`.
        do {
            try client.syncOptions?.setOption(.autoRead, value: true)
            try server.syncOptions?.setOption(.autoRead, value: true)
        } catch {
            client.close(promise: nil)
            server.close(promise: nil)
        }
        return serverSide
    }

    private func connectionEnded(_ client: Channel) {
        lock.wait()
        children[ObjectIdentifier(client)] = nil
        closedConnections += 1
        let reached = configuration.maxConnections.map { closedConnections >= $0 } ?? false
        lock.signal()
        if reached { DispatchQueue.global().async { self.stop() } }
    }

    /// IPv4 address bytes and port (none for other addresses: the check synthesises them).
    static func endpoint(_ address: SocketAddress?) -> (address: [UInt8], port: UInt16) {
        guard let address, case .v4(let v4) = address else {
            return ([], UInt16(truncatingIfNeeded: address?.port ?? 0))
        }
        let raw = v4.address.sin_addr.s_addr  // network byte order in memory
        let bytes = withUnsafeBytes(of: raw) { Array($0) }
        return (bytes, UInt16(truncatingIfNeeded: address.port ?? 0))
    }
}

/// A client's connection while its first bytes are read: where it goes, its server once dialled.
final class OpeningState {
    var target: (host: String, port: Int)?
    var server: Channel?
    var joined = false
    var ended = false
}
