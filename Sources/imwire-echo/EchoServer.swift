import IMWireCore
import IMWireNIO
import IMWireWebSocket
import NIOCore
import NIOPosix

/// Reads the client's opening handshake, answers 101 (or 400) and replaces itself with
/// IMWireNIO's WebSocket handlers and the echo.
final class UpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: Limits
    private var head: [UInt8] = []
    /// A bad request was answered with 400: what follows is ignored.
    private var rejected = false

    init(limits: Limits) { self.limits = limits }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !rejected else { return }
        head += unwrapInboundIn(data).readableBytesView
        guard let end = HTTPHead.endOfHead(head) else {
            if head.count > 16 << 10 { reject(context: context) }
            return
        }
        var findings: [Finding] = []
        guard let request = WebSocketHandshake.parseRequest(Array(head[..<end]), findings: &findings),
            request.method == "GET",
            let key = request.key
        else { return reject(context: context) }
        let deflate = PerMessageDeflateParameters(accepting: request.deflateOffers)
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        response += "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n"
        if let deflate { response += "Sec-WebSocket-Extensions: \(deflate.headerValue)\r\n" }
        response += "\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)

        let configuration = WebSocketChannelConfiguration(role: .server, permessageDeflate: deflate, limits: limits)
        do {
            let handlers: [ChannelHandler] = [
                WebSocketFrameReader(configuration), try WebSocketFrameWriter(configuration), EchoHandler(),
            ]
            try context.pipeline.syncOperations.addHandlers(handlers, position: .after(self))
        } catch {
            context.close(promise: nil)
            return
        }
        let rest = head[end...]
        head = []
        if !rest.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: rest))) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func reject(context: ChannelHandlerContext) {
        rejected = true
        head = []
        let response = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)
        context.close(mode: .output, promise: nil)
    }
}

/// Sends every text and binary message back as it came (compressed again when
/// permessage-deflate is in force); the reader answers pings and closes.
final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketEvent
    typealias OutboundOut = WebSocketOutbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .message(let message) = unwrapInboundIn(data) else { return }
        context.writeAndFlush(wrapOutboundOut(.message(message.kind, message.payload)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A violation (`IMWireError`, websocket.violation): the reader has sent its close frame and closes the channel.
    }
}

/// Binds the echo server on 127.0.0.1 and serves until the process ends.
func serveEcho(port: Int) throws {
    // Autobahn's 9.* cases send 16 MiB messages, some in 64-byte fragments.
    let limits = Limits(
        maxFrameSize: 16 << 20, maxMessageSize: 16 << 20, maxFragments: 1 << 20, maxDecompressedSize: 16 << 20)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let server = try ServerBootstrap(group: group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(UpgradeHandler(limits: limits))
            }
        }
        .bind(host: "127.0.0.1", port: port).wait()
    print("imwire-echo listening on 127.0.0.1:\(server.localAddress?.port ?? port)")
    try server.closeFuture.wait()
}
