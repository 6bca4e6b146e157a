import IMWireCheck
import IMWireCore
import IMWireMQTT
import IMWireProxy
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// Echoes what it reads.
private final class Echo: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.writeAndFlush(data, promise: nil)
    }
}

/// Collects what it reads until `count` bytes came, then fulfils its promise.
private final class Collect: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let count: Int
    let done: EventLoopPromise<[UInt8]>
    var bytes: [UInt8] = []
    init(count: Int, done: EventLoopPromise<[UInt8]>) {
        self.count = count
        self.done = done
    }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        bytes += Array(unwrapInboundIn(data).readableBytesView)
        if bytes.count >= count { done.succeed(bytes) }
    }
    func channelInactive(context: ChannelHandlerContext) {
        done.succeed(bytes)
    }
}

/// `ProxyServer` on 127.0.0.1 between a NIO client and a NIO echo server.
@Suite struct ProxyServerTests {
    @Test func forwardsUnchangedAndChecksLive() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let echo = try ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Echo()) }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        defer { try? echo.close().wait() }

        let found = NIOLockedValueBox<[String]>([])
        let live = try LiveCheck(options: CheckOptions(), now: { 1_000_000 })
        live.onFinding { finding, _ in found.withLockedValue { $0.append(finding.ruleID.rawValue) } }
        let proxy = ProxyServer(
            configuration: ProxyConfiguration(
                listenHost: "127.0.0.1", listenPort: 0, upstreamHost: "127.0.0.1",
                upstreamPort: echo.localAddress?.port ?? 0,
                maxConnections: 1),
            live: live)
        let port = try proxy.start()

        // An MQTT CONNECT, then a SUBSCRIBE whose fixed-header flags are 0000 (MQTT-3.8.1-1), then 100 KiB more.
        var sent = MQTTPacketEncoder.encode(.connect(MQTTConnect(keepAlive: 30, clientID: "c1")))
        sent += [0x80, 0x08, 0x00, 0x01, 0x00, 0x03, 0x61, 0x2f, 0x62, 0x00]
        sent += MQTTPacketEncoder.encode(
            .publish(MQTTPublish(topic: "a/b", payload: (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })))
        let done = group.next().makePromise(of: [UInt8].self)
        let count = sent.count
        let client = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collect(count: count, done: done))
                }
            }
            .connect(host: "127.0.0.1", port: port).wait()
        try client.writeAndFlush(ByteBuffer(bytes: sent)).wait()
        let echoed = try done.futureResult.wait()
        try client.close().wait()
        proxy.wait()
        let report = try live.finish(source: "proxy")

        #expect(echoed == sent)
        #expect(report.connections.count == 1)
        #expect(found.withLockedValue { $0 }.contains("MQTT.FIXED-HEADER-FLAGS"))
        #expect(report.allFindings.map(\.ruleID.rawValue).contains("MQTT.FIXED-HEADER-FLAGS"))
    }

    @Test func aRefusingUpstreamClosesTheClientWithAFinding() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        // A port nothing listens on: bound, then closed.
        let closed = try ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).wait()
        let refusing = closed.localAddress?.port ?? 1
        try closed.close().wait()

        let live = try LiveCheck(options: CheckOptions(), now: { 1_000_000 })
        let proxy = ProxyServer(
            configuration: ProxyConfiguration(
                listenHost: "127.0.0.1", listenPort: 0, upstreamHost: "127.0.0.1", upstreamPort: refusing,
                maxConnections: 1),
            live: live)
        let port = try proxy.start()
        let done = group.next().makePromise(of: [UInt8].self)
        let client = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collect(count: 1, done: done))
                }
            }
            .connect(host: "127.0.0.1", port: port).wait()
        #expect(try done.futureResult.wait().isEmpty)  // closed, nothing received
        try? client.close().wait()
        proxy.wait()
        let report = try live.finish(source: "proxy")
        #expect(report.captureFindings.map(\.ruleID.rawValue) == ["PROXY.UPSTREAM-UNREACHABLE"])
    }

    @Test func aDurationStopsTheProxyWithNoConnection() throws {
        let live = try LiveCheck(options: CheckOptions(), now: { 1_000_000 })
        let proxy = ProxyServer(
            configuration: ProxyConfiguration(
                listenHost: "127.0.0.1", listenPort: 0, upstreamHost: "127.0.0.1", upstreamPort: 9), live: live)
        _ = try proxy.start()
        let started = ContinuousClock.now
        proxy.wait(duration: 0.2)
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(try live.finish(source: "proxy").connections.isEmpty)
    }
}
