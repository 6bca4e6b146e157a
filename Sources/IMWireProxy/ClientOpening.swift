import IMWireTLS
import NIOCore

/// What a proxied client's first bytes say, read before its connection is joined to a server:
/// the server it asks for (an HTTP CONNECT request or a SOCKS5 CONNECT, in explicit mode,
/// answered once the proxy has tried that server), then, when the proxy terminates TLS, its
/// ClientHello (the SNI the leaf certificate names and the upstream handshake is sent with, the
/// ALPN it offers). It reads by itself (the channel's autoRead is off until the connection is
/// joined), and once it knows, leaves the pipeline, passing on every byte it did not consume to
/// the handlers the proxy put after it.
package final class ClientOpening: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    /// How the client asked for its server, so that the answer is in the same protocol.
    enum Request: Sendable {
        case connect
        case socks5
        /// A plain-HTTP proxy request (`GET http://host/path`): no answer of the proxy's own.
        case absoluteForm
    }

    /// Requests and ClientHellos longer than this are not read further.
    static let maxOpeningBytes = 64 << 10
    /// How long a client has for its request, and then for its ClientHello: a client that sends
    /// its opening a byte at a time (slowloris) or not at all must not hold a connection for ever.
    package static let defaultDeadline = TimeAmount.seconds(10)

    private enum Stage {
        case request
        case awaitingUpstream(Request)
        case hello
        case done
    }

    private var stage: Stage
    private let sniffsTLS: Bool
    private var buffer = ByteBuffer()
    private var context: ChannelHandlerContext?
    /// SOCKS5: the greeting is answered.
    private var greeted = false
    private let deadline: TimeAmount
    /// The stage's deadline, while the client's bytes are awaited.
    private var deadlineTask: Scheduled<Void>?
    /// Explicit mode: the server the client asks for (the proxy then calls `answer`).
    package var onTarget: (_ host: String, _ port: Int) -> Void = { _, _ in }
    /// The opening is over (once, unless refused): the client's ClientHello, or nil when its
    /// first bytes are not TLS or the proxy does not terminate TLS.
    package var onHello: (TLSClientHello?) -> Void = { _ in }
    /// A request the proxy does not serve (answered, and the client's connection closed): why.
    package var onRefused: (String) -> Void = { _ in }
    /// Plain-HTTP proxy requests: a later request on the connection for another server (the
    /// connection closed): why. Handed to the `AbsoluteFormRequests` the opening puts after it.
    package var onOtherServer: (String) -> Void = { _ in }

    /// `explicit`: read a CONNECT or SOCKS5 request first. `sniffsTLS`: then read the ClientHello.
    /// `deadline`: how long each of the two may take.
    package init(explicit: Bool, sniffsTLS: Bool, deadline: TimeAmount = defaultDeadline) {
        stage = explicit ? .request : .hello
        self.sniffsTLS = sniffsTLS
        self.deadline = deadline
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive {
            startDeadline(context: context)
            context.read()
        }
    }

    /// Out of the pipeline (left, or the channel closed): the callbacks go, and with them the
    /// proxy's per-connection state they hold (they also hold this handler: a cycle otherwise).
    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        deadlineTask?.cancel()
        deadlineTask = nil
        onTarget = { _, _ in }
        onHello = { _ in }
        onRefused = { _ in }
        onOtherServer = { _ in }
    }

    package func channelActive(context: ChannelHandlerContext) {
        startDeadline(context: context)
        context.read()
        context.fireChannelActive()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        guard case .done = stage else {
            buffer.writeBuffer(&bytes)
            return
        }
        context.fireChannelRead(data)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        switch stage {
        case .done: context.fireChannelReadComplete()
        case .awaitingUpstream: break
        case .request, .hello:
            advance(context: context)
            if case .done = stage { return }
            if case .awaitingUpstream = stage { return }
            if buffer.readableBytes > Self.maxOpeningBytes {
                return refuse("its first \(buffer.readableBytes) bytes end no request", context: context)
            }
            context.read()
        }
    }

    /// Explicit mode: the proxy tried the server the client asked for. Answers the client and
    /// goes on (to its ClientHello, or done), or closes.
    package func answer(connected: Bool) {
        guard let context, case .awaitingUpstream(let request) = stage else { return }
        switch (request, connected) {
        case (.connect, true): write("HTTP/1.1 200 Connection established\r\n\r\n", context: context)
        case (.socks5, true): write([5, 0, 0, 1, 0, 0, 0, 0, 0, 0], context: context)
        case (.absoluteForm, true): return finishHello(nil, context: context)  // HTTP in clear: the request goes on
        case (.connect, false), (.absoluteForm, false):
            write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context: context)
            return close(context: context)
        case (.socks5, false):
            write([5, 5, 0, 1, 0, 0, 0, 0, 0, 0], context: context)  // 5: connection refused (RFC 1928 §6)
            return close(context: context)
        }
        context.flush()
        guard sniffsTLS else { return finishHello(nil, context: context) }
        stage = .hello
        advance(context: context)
        if case .hello = stage {
            startDeadline(context: context)
            context.read()
        }
    }

    /// The stage's clock starts (the request's at accept, the ClientHello's once the tunnel is
    /// answered; the proxy's own dial in between is not the client's time).
    private func startDeadline(context: ChannelHandlerContext) {
        deadlineTask?.cancel()
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadlineTask = context.eventLoop.scheduleTask(in: deadline) { bound.value.deadlinePassed() }
    }

    /// Out of time: a request not whole is refused (an HTTP client is told 408); a client that
    /// has sent nothing where a ClientHello was awaited is not speaking TLS first, and passes
    /// through; a ClientHello not whole is refused.
    private func deadlinePassed() {
        deadlineTask = nil
        guard let context else { return }
        let seconds = deadline.nanoseconds / 1_000_000_000
        switch stage {
        case .request:
            let socks = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) == 5
            if !socks {
                write(
                    "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context: context)
            }
            refuse(
                """
                no whole \(socks ? "SOCKS5" : "CONNECT") request within \
                \(seconds) s (\(buffer.readableBytes) bytes of it)
                """,
                context: context)
        case .hello where buffer.readableBytes == 0:
            finishHello(nil, context: context)
        case .hello:
            refuse("no whole ClientHello within \(seconds) s (\(buffer.readableBytes) bytes of it)", context: context)
        case .awaitingUpstream, .done:
            break
        }
    }

    /// Reads what the stage needs from the buffer; moves on when it is there.
    private func advance(context: ChannelHandlerContext) {
        switch stage {
        case .request: readRequest(context: context)
        case .hello: readHello(context: context)
        case .awaitingUpstream, .done: break
        }
    }

    private func readRequest(context: ChannelHandlerContext) {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        first == 5 ? readSOCKS5(context: context) : readConnect(context: context)
    }

    /// RFC 1928: a greeting (version 5, its methods), answered at once with "no
    /// authentication" (0) when offered, then a request (CONNECT to an IPv4 address, a name or an
    /// IPv6 address), answered once the server is tried.
    private func readSOCKS5(context: ChannelHandlerContext) {
        if !greeted {
            let bytes = Array(buffer.readableBytesView.prefix(257))
            guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else { return }
            guard bytes[2..<(2 + Int(bytes[1]))].contains(0) else {
                write([5, 0xFF], context: context)
                return refuse("a SOCKS5 client without the no-authentication method", context: context)
            }
            // The client waits for this before it sends its request.
            write([5, 0], context: context)
            context.flush()
            buffer.moveReaderIndex(forwardBy: 2 + Int(bytes[1]))
            greeted = true
        }
        let request = Array(buffer.readableBytesView.prefix(262))
        guard request.count >= 5 else { return }
        let addressLength: Int
        switch request[3] {
        case 1: addressLength = 4
        case 3: addressLength = 1 + Int(request[4])
        case 4: addressLength = 16
        default:
            write([5, 8, 0, 1, 0, 0, 0, 0, 0, 0], context: context)  // 8: address type not supported
            return refuse("a SOCKS5 request with address type \(request[3])", context: context)
        }
        guard request.count >= 4 + addressLength + 2 else { return }
        guard request[0] == 5, request[1] == 1 else {
            write([5, 7, 0, 1, 0, 0, 0, 0, 0, 0], context: context)  // 7: command not supported
            return refuse("a SOCKS5 command \(request[1]) (only CONNECT is proxied)", context: context)
        }
        let address = Array(request[4..<(4 + addressLength)])
        let host: String
        switch request[3] {
        case 1: host = address.map(String.init).joined(separator: ".")
        case 3: host = String(decoding: address.dropFirst(), as: UTF8.self)
        default:
            host = stride(from: 0, to: 16, by: 2).map {
                String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16)
            }.joined(separator: ":")
        }
        let portAt = 4 + addressLength
        let port = Int(request[portAt]) << 8 | Int(request[portAt + 1])
        guard port > 0, !host.isEmpty else {  // nothing to dial (found by the ProxyOpening fuzz target)
            write([5, 4, 0, 1, 0, 0, 0, 0, 0, 0], context: context)  // 4: host unreachable
            return refuse("a SOCKS5 request for \(host.isEmpty ? "an empty name" : "port 0")", context: context)
        }
        buffer.moveReaderIndex(forwardBy: portAt + 2)
        awaitUpstream(.socks5)
        onTarget(host, port)
    }

    /// RFC 9110 §9.3.6: `CONNECT host:port HTTP/1.1`, headers, a blank line. Or a plain-HTTP
    /// request in absolute form (RFC 9112 §3.2.2), left in the buffer for the server, rewritten
    /// by an `AbsoluteFormRequests` put after this handler.
    private func readConnect(context: ChannelHandlerContext) {
        let view = buffer.readableBytesView
        guard let length = AbsoluteFormRequests.endOfHead(view) else { return }
        let end = view.startIndex + length
        let lineEnd = view[view.startIndex..<end].firstIndex { $0 == 13 || $0 == 10 } ?? end
        let requestLine = String(decoding: view[view.startIndex..<lineEnd], as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        if parts.count == 3, parts[0] != "CONNECT", let (host, port, _) = AbsoluteFormRequests.absoluteForm(parts[1]) {
            let requests = AbsoluteFormRequests(server: (host, port))
            requests.onOtherServer = onOtherServer
            do { try context.pipeline.syncOperations.addHandler(requests, position: .after(self)) } catch {
                return close(context: context)
            }
            awaitUpstream(.absoluteForm)
            return onTarget(host, port)
        }
        guard parts.count == 3, parts[0] == "CONNECT", let (host, port) = Self.authority(parts[1]) else {
            write("HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context: context)
            // Quoted without its query, which may carry a token.
            let quoted = requestLine.split(separator: "?", maxSplits: 1).first.map { String($0.prefix(80)) } ?? ""
            return refuse(
                """
                \"\(quoted)\(quoted.count < requestLine.count ? "…" : "")\": imwire \
                proxy in explicit mode takes CONNECT host:port, http:// requests and SOCKS5
                """, context: context)
        }
        buffer.moveReaderIndex(forwardBy: length + 4)
        awaitUpstream(.connect)
        onTarget(host, port)
    }

    /// `host:port` or `[v6]:port`.
    static func authority(_ text: Substring) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            return nil
        }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return host.isEmpty ? nil : (String(host), port)
    }

    /// The ClientHello: handshake records (content type 22) until its body is whole. Anything
    /// else, or one that does not parse, is not TLS the proxy can terminate: it passes through.
    private func readHello(context: ChannelHandlerContext) {
        let bytes = Array(buffer.readableBytesView)
        guard let first = bytes.first else { return }
        guard first == 22 else { return finishHello(nil, context: context) }
        var handshake: [UInt8] = []
        var offset = 0
        while offset + 5 <= bytes.count {
            guard bytes[offset] == 22 else { return finishHello(nil, context: context) }
            let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            guard offset + 5 + length <= bytes.count else { return }
            handshake += bytes[(offset + 5)..<(offset + 5 + length)]
            offset += 5 + length
            if handshake.count >= 4 {
                let bodyLength = Int(handshake[1]) << 16 | Int(handshake[2]) << 8 | Int(handshake[3])
                guard handshake[0] == 1 else { return finishHello(nil, context: context) }
                if handshake.count >= 4 + bodyLength {
                    return finishHello(
                        try? TLSClientHello(body: Array(handshake[4..<(4 + bodyLength)])), context: context)
                }
            }
        }
    }

    private func awaitUpstream(_ request: Request) {
        deadlineTask?.cancel()
        deadlineTask = nil
        stage = .awaitingUpstream(request)
    }

    private func finishHello(_ hello: TLSClientHello?, context: ChannelHandlerContext) {
        stage = .done
        onHello(hello)
        leave(context: context)
    }

    private func leave(context: ChannelHandlerContext) {
        deadlineTask?.cancel()
        deadlineTask = nil
        stage = .done
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Leaving: the bytes it read and did not consume go to the next handler.
    package func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        stage = .done
        if buffer.readableBytes > 0 {
            let rest = buffer
            buffer = ByteBuffer()
            context.fireChannelRead(wrapInboundOut(rest))
            context.fireChannelReadComplete()
        }
        context.leavePipeline(removalToken: removalToken)
    }

    private func refuse(_ why: String, context: ChannelHandlerContext) {
        onRefused(why)
        close(context: context)
    }

    private func close(context: ChannelHandlerContext) {
        deadlineTask?.cancel()
        deadlineTask = nil
        stage = .done
        buffer.clear()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }

    private func write(_ text: String, context: ChannelHandlerContext) {
        write(Array(text.utf8), context: context)
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }
}
