import NIOCore

/// A plain-HTTP proxy client's requests, in explicit mode: each names its server in absolute
/// form (`GET http://host:port/path HTTP/1.1`, RFC 9112 §3.2.2), which a proxy turns into the
/// origin form (`GET /path HTTP/1.1`) before the server sees it, as mitmproxy's regular mode
/// does; headers and bodies pass unchanged. A connection is dialled to the first request's
/// server, so a later request on it for another server is refused (the connection closed: the
/// client opens another). Past a request that upgrades, or one whose body is chunked, the rest
/// passes as it is.
final class AbsoluteFormRequests: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Request heads longer than this are passed on as they are, and so is the rest.
    static let maxHeadBytes = 64 << 10

    private enum State {
        case head
        case body(remaining: Int)
        case passThrough
    }

    private let server: (host: String, port: Int)
    private var state = State.head
    private var pending = ByteBuffer()
    /// A request for another server: why (the proxy reports it; the connection is closed).
    var onOtherServer: (String) -> Void = { _ in }

    init(server: (host: String, port: Int)) {
        self.server = server
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        onOtherServer = { _ in }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .passThrough = state { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        pending.writeBuffer(&bytes)
        while pending.readableBytes > 0 {
            switch state {
            case .passThrough:
                pass(pending.readableBytes, context: context)
            case .body(let remaining):
                let count = min(remaining, pending.readableBytes)
                pass(count, context: context)
                state = remaining == count ? .head : .body(remaining: remaining - count)
            case .head:
                guard let end = Self.endOfHead(pending.readableBytesView) else {
                    guard pending.readableBytes > Self.maxHeadBytes else { return }  // the rest of the head comes later
                    state = .passThrough
                    continue
                }
                guard readHead(length: end + 4, context: context) else { return }
            }
        }
        pending.clear()  // all passed on: what was read does not pile up over a long connection
    }

    /// Passes the head of `length` bytes on, rewritten; false when the connection was closed.
    private func readHead(length: Int, context: ChannelHandlerContext) -> Bool {
        var head = pending.readSlice(length: length) ?? ByteBuffer()
        let view = head.readableBytesView
        let lineLength = (view.firstIndex { $0 == 13 || $0 == 10 } ?? view.endIndex) - view.startIndex
        let line = String(decoding: view.prefix(lineLength), as: UTF8.self)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        var out = head
        if parts.count == 3, let (host, port, origin) = Self.absoluteForm(parts[1]) {
            guard host.lowercased() == server.host.lowercased(), port == server.port else {
                onOtherServer("a request for \(host):\(port) on its connection to \(server.host):\(server.port)")
                context.close(promise: nil)
                return false
            }
            // Only the request line changes: the headers' bytes pass as they came.
            out = context.channel.allocator.buffer(capacity: head.readableBytes)
            out.writeString("\(parts[0]) \(origin) \(parts[2])")
            head.moveReaderIndex(forwardBy: lineLength)
            out.writeBuffer(&head)
        }
        context.fireChannelRead(wrapInboundOut(out))
        state = Self.next(afterHead: String(decoding: view, as: UTF8.self).lowercased())
        return true
    }

    private func pass(_ count: Int, context: ChannelHandlerContext) {
        guard count > 0, let slice = pending.readSlice(length: count) else { return }
        context.fireChannelRead(wrapInboundOut(slice))
    }

    /// What follows a request head (lowercased): its Content-Length body, or everything when it
    /// upgrades or its body is chunked.
    private static func next(afterHead head: String) -> State {
        let lines = head.split(separator: "\r\n")
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.hasPrefix(name + ":") }.map {
                $0.dropFirst(name.count + 1).filter { $0 != " " && $0 != "\t" }
            }
        }
        if header("upgrade") != nil || header("transfer-encoding").map({ $0.contains("chunked") }) == true {
            return .passThrough
        }
        let length = header("content-length").flatMap { Int($0) } ?? 0
        return length > 0 ? .body(remaining: length) : .head
    }

    /// `http://host[:port]/path?query` → host, port (80 when none), `/path?query`.
    static func absoluteForm(_ target: Substring) -> (host: String, port: Int, origin: String)? {
        guard target.count > 7, target.prefix(7).lowercased() == "http://" else { return nil }
        let rest = target.dropFirst(7)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var origin = String(rest[authorityEnd...])
        if !origin.hasPrefix("/") { origin = "/" + origin }
        guard !authority.contains("@") else { return nil }  // credentials in the URL: not served
        if authority.hasPrefix("[") ? !authority.hasSuffix("]") : authority.contains(":") {
            return ClientOpening.authority(authority).map { ($0.0, $0.1, origin) }
        }
        var host = authority
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return host.isEmpty ? nil : (String(host), 80, origin)
    }

    /// Where `\r\n\r\n` begins, if it is there.
    static func endOfHead(_ view: ByteBufferView) -> Int? {
        var index = view.startIndex
        while index + 3 < view.endIndex {
            if view[index] == 13, view[index + 1] == 10, view[index + 2] == 13, view[index + 3] == 10 {
                return index - view.startIndex
            }
            index += 1
        }
        return nil
    }
}
