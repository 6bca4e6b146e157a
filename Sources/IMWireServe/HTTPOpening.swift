import IMWireCore
import IMWireLeanCloud
import IMWireNIO
import IMWireWebSocket
import NIOCore

/// The start of every connection but a refused one: reads the client's HTTP request head and
/// answers it as the vendor's cloud does: LeanCloud's router (`GET /v1/route`) with JSON naming
/// this server's RTM address; a WebSocket upgrade with a LeanCloud subprotocol with 101, after
/// which the WebSocket handlers and the `LeanCloudLink` take the connection over; anything else
/// with 404 (400 when the head is bad or over the limit) and a close.
final class HTTPOpening: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The subprotocols served, in the server's order of preference (LeanCloud's `lc.*.3`).
    static let subprotocols: [(name: String, encoding: LeanCloudEncoding)] = [
        ("lc.protobuf2.3", .protobuf), ("lc.proto2base64.3", .base64), ("lc.json.3", .json),
    ]

    private let id: Int
    private let number: Int
    private let cloud: LeanCloudCloud
    private let limits: ServeLimits
    private var buffered: [UInt8] = []
    /// How much of `buffered` was searched for the head's end (a head sent a byte at a time is
    /// searched once, not once per byte).
    private var searched = 0
    private var done = false

    init(id: Int, number: Int, cloud: LeanCloudCloud, limits: ServeLimits) {
        self.id = id
        self.number = number
        self.cloud = cloud
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        buffered += unwrapInboundIn(data).readableBytesView
        let from = max(0, searched - 3)
        searched = buffered.count
        guard let end = buffered[from...].withUnsafeBytes({ HTTPHead.endOfHead($0) }).map({ $0 + from }) else {
            if buffered.count > limits.headBytes { answer(400, "request head over \(limits.headBytes) bytes", context: context) }
            return
        }
        let head = Array(buffered[..<end])
        let rest = Array(buffered[end...])
        var headFindings: [Finding] = []
        guard let parsed = HTTPHead.parse(head, baseOffset: 0, maxLength: limits.headBytes, findings: &headFindings), headFindings.isEmpty,
            parsed.startLine.count == 3, parsed.startLine[2].hasPrefix("HTTP/1.")
        else {
            return answer(400, headFindings.first?.message ?? "not an HTTP/1.1 request line", context: context)
        }
        let method = parsed.startLine[0]
        let path = parsed.startLine[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if parsed.value("Upgrade")?.lowercased() != "websocket" {
            cloud.scenario.release(number)
            guard method == "GET", path == "/v1/route" else { return answer(404, "not found: \(method) \(path)", context: context) }
            cloud.routed(id)
            // The router's answer (js-realtime-sdk `_fetchRTMServers`): server, secondary, ttl.
            // This server as the client reached it.
            let rtm = "ws://\(context.channel.localAddress?.ipAddress ?? "127.0.0.1"):\(context.channel.localAddress?.port ?? 0)/"
            let body = JSONWriter.string(
                .object(JSONObject(["server": .string(rtm), "secondary": .string(rtm), "ttl": .number(JSONNumber(3600))])))
            return answer(200, body, contentType: "application/json", context: context)
        }
        var findings: [Finding] = []
        guard let request = WebSocketHandshake.parseRequest(head, findings: &findings) else {
            return answer(400, findings.first?.message ?? "bad upgrade request", context: context)
        }
        let errors = findings.filter { $0.severity == .error }
        guard errors.isEmpty, let key = request.key else {
            return answer(400, errors.first?.message ?? "no Sec-WebSocket-Key", context: context)
        }
        guard let chosen = Self.subprotocols.first(where: { request.protocols.contains($0.name) }) else {
            return answer(400, "no LeanCloud subprotocol offered (\(Self.subprotocols.map(\.name).joined(separator: ", ")))", context: context)
        }
        done = true
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\nSec-WebSocket-Protocol: \(chosen.name)\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)), promise: nil)
        var socketLimits = Limits.default
        socketLimits.maxMessageSize = limits.messageBytes
        // Pings are answered by the link (a scenario may withhold the answer), not by the reader.
        let configuration = WebSocketChannelConfiguration(role: .server, limits: socketLimits, answersPings: false)
        let link = LeanCloudLink(id: id, number: number, encoding: chosen.encoding, cloud: cloud)
        do {
            let writer = try WebSocketFrameWriter(configuration)
            try context.pipeline.syncOperations.addHandlers([WebSocketFrameReader(configuration), writer, link], position: .after(self))
        } catch {
            context.close(promise: nil)
            return
        }
        // Frames that came with the head go to the new handlers first (a removed handler's
        // context passes nothing on).
        if !rest.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: rest))) }
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }

    private func answer(_ status: Int, _ body: String, contentType: String = "text/plain; charset=utf-8", context: ChannelHandlerContext) {
        done = true
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found"][status] ?? "Error"
        let text =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        // Half-close and read what the client still sends until its end closes the channel (or
        // 2 s pass): a close with its bytes unread would reset the connection before it read this.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
