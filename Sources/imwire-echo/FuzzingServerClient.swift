import IMWireCore
import IMWireNIO
import IMWireWebSocket
import NIOCore
import NIOPosix

/// A client connection that did not reach the WebSocket stage, or a bad argument.
struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// Sends every text and binary message back as it came (compressed again when
/// permessage-deflate is in force; the writer masks it), and fulfils `result` with the first
/// text message when the connection ends. The reader answers pings and closes.
final class ClientSessionHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketEvent
    typealias OutboundOut = WebSocketOutbound

    private let result: EventLoopPromise<String?>
    private var firstText: String?

    init(result: EventLoopPromise<String?>) { self.result = result }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .message(let message) = unwrapInboundIn(data) else { return }
        if firstText == nil, message.kind == .text { firstText = String(decoding: message.payload, as: UTF8.self) }
        context.writeAndFlush(wrapOutboundOut(.message(message.kind, message.payload)), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        result.succeed(firstText)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation (`IMWireError`, websocket.violation): the reader has sent its close frame and closes the channel.
    }
}

/// The Autobahn|Testsuite client loop against `wstest -m fuzzingserver` at `url`
/// (`ws://HOST:PORT`): `/getCaseCount`, then `/runCase?case=N&agent=AGENT` for every case,
/// echoing each message, then `/updateReports?agent=AGENT`, one connection at a time. The client
/// offers permessage-deflate with `client_max_window_bits`, so the server may limit its window.
func runFuzzingServerClient(url: String, agent: String) throws {
    guard url.hasPrefix("ws://") else { throw ClientError(description: "\(url): only ws://HOST:PORT is supported") }
    let authority = url.dropFirst("ws://".count).split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
    guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
        throw ClientError(description: "\(url): no port")
    }
    let host = String(authority[..<colon])
    // As the echo server: category 9 sends messages up to 16 MiB, some in 64-byte fragments.
    let limits = Limits(
        maxFrameSize: 16 << 20, maxMessageSize: 16 << 20, maxFragments: 1 << 20, maxDecompressedSize: 16 << 20)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }

    /// One WebSocket session at `target`; the first text message the server sent.
    func session(_ target: String) throws -> String? {
        let handshake = try WebSocketClientHandshake(
            host: authority, target: target, deflateOffers: [PerMessageDeflateOffer(clientMaxWindowBits: .anyValue)])
        let result = group.next().makePromise(of: String?.self)
        let channel = try ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // A refused or broken handshake fails `result`; the channel is closed.
                    try channel.pipeline.syncOperations.addWebSocketClientUpgrade(handshake, limits: limits) {
                        channel, _ in
                        try channel.pipeline.syncOperations.addHandler(ClientSessionHandler(result: result))
                    }
                    .whenFailure { result.fail($0) }
                }
            }
            .connect(host: host, port: port).wait()
        try channel.closeFuture.wait()
        return try result.futureResult.wait()
    }

    guard let countText = try session("/getCaseCount"), let count = Int(countText), count >= 0 else {
        throw ClientError(description: "/getCaseCount answered no case count")
    }
    print("\(count) cases")
    for number in stride(from: 1, through: count, by: 1) {
        do { _ = try session("/runCase?case=\(number)&agent=\(agent)") } catch {
            // The case's verdict is the server's to give; a failed handshake is part of it.
            print("case \(number): \(error)")
        }
        if number % 50 == 0 || number == count { print("ran case \(number) of \(count)") }
    }
    // The server writes its reports before it answers with a close.
    _ = try session("/updateReports?agent=\(agent)")
}
