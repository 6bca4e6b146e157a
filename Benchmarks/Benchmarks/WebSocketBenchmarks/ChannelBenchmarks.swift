// The IMWireNIO channel handler against swift-nio's NIOWebSocket and hummingbird-project's
// swift-websocket (WSCore, WSCompression), on the same bytes as the codec benchmarks.
//
// Two ways of driving them:
// - EmbeddedChannel, synchronously, one channel for all iterations: IMWireNIO's
//   `WebSocketFrameReader` against `ByteToMessageHandler(NIOWebSocket.WebSocketFrameDecoder)`
//   (the NIO benchmark in WebSocketBenchmarks.swift). hummingbird's swift-websocket decodes with
//   exactly that NIO handler (its client and hummingbird-websocket's server add it in the upgrade),
//   so its frame decoding proper is the swift-nio row.
// - NIOAsyncChannel over a NIOAsyncTestingChannel, as an application reads a connection: a fresh
//   channel per iteration, the frames and a close frame written in as one buffer, read to the end
//   as an async sequence. IMWireNIO: reader and writer, `NIOAsyncChannel<WebSocketEvent,
//   WebSocketOutbound>`, messages counted. hummingbird: the pipeline its upgrade builds (NIO's
//   frame encoder and decoder, `WebSocketProtocolErrorHandler`), then `WebSocketHandler.handle`
//   (the `@_spi(WSInternal)` entry its client and server call after the upgrade) with a handler
//   that counts the data frames of `WebSocketInboundStream`, or the messages of `messages(maxSize:)`
//   under permessage-deflate. swift-nio: that pipeline under NIOAsyncChannel, frames read up to
//   the close frame (hummingbird without its handler).
// The "close frame only" variants measure the per-connection cost (channel, handlers, zlib
// streams, close handshake) that each iteration of the others also includes.
import Benchmark
import HTTPTypes
import IMWireCore
import IMWireNIO
import IMWireWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import WSCompression
@_spi(WSInternal) import WSCore

/// Counts the messages IMWireNIO's reader delivers, without buffering them.
final class EventCounter: ChannelInboundHandler {
    typealias InboundIn = WebSocketEvent
    var messages = 0
    var bytes = 0
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .message(let message) = unwrapInboundIn(data) {
            messages += 1
            bytes += message.payload.count
        }
    }
}

/// The close frame that ends an async iteration, masked when the client sends it.
func closeFrame(masked: Bool) -> [UInt8] {
    let encoder = try! WebSocketMessageEncoder(direction: masked ? .send : .receive, maskingKey: { 0x3c5a_96e1 })
    return encoder.close(.normalClosure)
}

/// `count` JSON-like messages of `size` bytes compressed as server frames with permessage-deflate
/// (context takeover, 15-bit windows: what a plain `permessage-deflate` offer negotiates).
func compressedServerMessages(count: Int, size: Int) -> (bytes: [UInt8], payloadBytes: Int) {
    let encoder = try! WebSocketMessageEncoder(direction: .receive, permessageDeflate: PerMessageDeflateParameters())
    let text = jsonText(size * count + size)
    var out: [UInt8] = []
    var total = 0
    for index in 0..<count {
        // different slices, so the window helps as it does for a real session, not identically
        let start = (index * 977) % (text.count - size)
        let message = Array(text[start..<(start + size)])
        try! encoder.encodeMessage(.binary, message, into: &out)
        total += size
    }
    return (out, total)
}

struct BenchmarkWebSocketContext: WebSocketContext {
    let logger: Logger
}

let benchmarkLogger = Logger(label: "benchmark")

/// One connection through IMWireNIO under NIOAsyncChannel: returns the message bytes read.
func imwireAsync(_ input: ByteBuffer, role: WebSocketRole, deflate: PerMessageDeflateParameters?) async throws -> Int {
    let configuration = WebSocketChannelConfiguration(role: role, permessageDeflate: deflate)
    let channel = try await NIOAsyncTestingChannel { channel in
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(configuration))
        try channel.pipeline.syncOperations.addHandler(try WebSocketFrameWriter(configuration))
    }
    try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).get()
    let asyncChannel = try await channel.eventLoop.submit {
        try NIOAsyncChannel<WebSocketEvent, WebSocketOutbound>(wrappingChannelSynchronously: channel)
    }.get()
    try await channel.writeInbound(input)
    return try await asyncChannel.executeThenClose { inbound, _ in
        var bytes = 0
        for try await event in inbound {
            switch event {
            case .message(let message): bytes += message.payload.count
            case .close: return bytes
            default: break
            }
        }
        return bytes
    }
}

/// The pipeline hummingbird's upgrade builds (NIOTypedWebSocketClientUpgrader, and the server's):
/// NIO's frame encoder and decoder and its protocol error handler, under NIOAsyncChannel.
func nioWebSocketChannel(isServer: Bool) async throws -> (
    NIOAsyncTestingChannel, NIOAsyncChannel<NIOWebSocket.WebSocketFrame, NIOWebSocket.WebSocketFrame>
) {
    let channel = try await NIOAsyncTestingChannel { channel in
        try channel.pipeline.syncOperations.addHandler(NIOWebSocket.WebSocketFrameEncoder())
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(NIOWebSocket.WebSocketFrameDecoder(maxFrameSize: 1 << 14)))
        try channel.pipeline.syncOperations.addHandler(WebSocketProtocolErrorHandler(isServer: isServer))
    }
    try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).get()
    let asyncChannel = try await channel.eventLoop.submit {
        try NIOAsyncChannel<NIOWebSocket.WebSocketFrame, NIOWebSocket.WebSocketFrame>(
            wrappingChannelSynchronously: channel)
    }.get()
    return (channel, asyncChannel)
}

/// One connection through NIOWebSocket alone under NIOAsyncChannel: data frames' bytes up to the
/// close frame (no close handshake, no extension, no message assembly: a lower bound).
func nioAsync(_ input: ByteBuffer, isServer: Bool) async throws -> Int {
    let (channel, asyncChannel) = try await nioWebSocketChannel(isServer: isServer)
    try await channel.writeInbound(input)
    return try await asyncChannel.executeThenClose { inbound, _ in
        var bytes = 0
        for try await frame in inbound {
            switch frame.opcode {
            case .binary, .text, .continuation: bytes += frame.unmaskedData.readableBytes
            case .connectionClose: return bytes
            default: break
            }
        }
        return bytes
    }
}

/// One connection through hummingbird's swift-websocket: returns the data bytes its handler read.
func hummingbirdAsync(_ input: ByteBuffer, type: WebSocketType, deflate: Bool) async throws -> Int {
    let (channel, asyncChannel) = try await nioWebSocketChannel(isServer: type == .server)
    var extensions: [any WebSocketExtension] = []
    if deflate {
        // what a client builds from the server's `Sec-WebSocket-Extensions: permessage-deflate`
        let builders = [WebSocketExtensionFactory.perMessageDeflate(noContextTakeover: false).build()]
        extensions = try builders.buildClientExtensions(from: [.secWebSocketExtensions: "permessage-deflate"])
        precondition(extensions.count == 1)
    }
    try await channel.writeInbound(input)
    let counted = Counted()
    _ = try await WSCore.WebSocketHandler.handle(
        type: type, configuration: .init(extensions: extensions, autoPing: .disabled, validateUTF8: false),
        asyncChannel: asyncChannel, context: BenchmarkWebSocketContext(logger: benchmarkLogger)
    ) { inbound, _, _ in
        var bytes = 0
        if deflate {
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .binary(let buffer) = message { bytes += buffer.readableBytes }
            }
        } else {
            for try await frame in inbound { bytes += frame.data.readableBytes }
        }
        counted.set(bytes)
    }
    return counted.get()
}

/// Carries the count out of hummingbird's `@Sendable` handler.
final class Counted: @unchecked Sendable {
    private var value = 0
    private let lock = NIOLock()
    func set(_ value: Int) { lock.withLock { self.value = value } }
    func get() -> Int { lock.withLock { value } }
}

func registerChannelBenchmarks(_ configuration: Benchmark.Configuration) {
    for masked in [false, true] {
        let stream = frameStream(masked: masked)
        let label = masked ? "masked client" : "unmasked server"
        let expected = frameCount * payloadSize

        Benchmark("frame decode \(label) 1000x\(payloadSize)B: IMWireNIO handler", configuration: configuration) {
            benchmark in
            let counter = EventCounter()
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(
                WebSocketFrameReader(WebSocketChannelConfiguration(role: masked ? .server : .client)))
            try channel.pipeline.syncOperations.addHandler(counter)
            let buffer = ByteBuffer(bytes: stream)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try channel.writeInbound(buffer)
            }
            benchmark.stopMeasurement()
            precondition(counter.bytes == expected * benchmark.scaledIterations.count)
            blackHole(counter.bytes)
            _ = try channel.finish(acceptAlreadyClosed: true)
        }

        let close = closeFrame(masked: masked)
        for closeOnly in [false, true] {
            let input = ByteBuffer(bytes: (closeOnly ? [] : stream) + close)
            let what = closeOnly ? "close frame only" : "1000x\(payloadSize)B"
            let want = closeOnly ? 0 : expected
            Benchmark("async \(label) \(what): IMWireNIO NIOAsyncChannel", configuration: configuration) { benchmark in
                for _ in benchmark.scaledIterations {
                    let bytes = try await imwireAsync(input, role: masked ? .server : .client, deflate: nil)
                    precondition(bytes == want, "IMWireNIO read \(bytes) bytes")
                }
            }
            Benchmark("async \(label) \(what): swift-nio NIOAsyncChannel", configuration: configuration) { benchmark in
                for _ in benchmark.scaledIterations {
                    let bytes = try await nioAsync(input, isServer: masked)
                    precondition(bytes == want, "swift-nio read \(bytes) bytes")
                }
            }
            Benchmark("async \(label) \(what): hummingbird WebSocketHandler", configuration: configuration) {
                benchmark in
                for _ in benchmark.scaledIterations {
                    let bytes = try await hummingbirdAsync(input, type: masked ? .server : .client, deflate: false)
                    precondition(bytes == want, "hummingbird read \(bytes) bytes")
                }
            }
        }
    }

    // permessage-deflate: 1000 compressed server messages of 512 bytes (context takeover), which
    // NIOWebSocket cannot read (it has no permessage-deflate).
    let messageSize = 512
    let (compressed, payloadBytes) = compressedServerMessages(count: frameCount, size: messageSize)
    let close = closeFrame(masked: false)
    for closeOnly in [false, true] {
        let input = ByteBuffer(bytes: (closeOnly ? [] : compressed) + close)
        let what = closeOnly ? "close frame only" : "1000x\(messageSize)B (\(compressed.count)B compressed)"
        let want = closeOnly ? 0 : payloadBytes
        Benchmark("async pmd server \(what): IMWireNIO NIOAsyncChannel", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let bytes = try await imwireAsync(input, role: .client, deflate: PerMessageDeflateParameters())
                precondition(bytes == want, "IMWireNIO read \(bytes) bytes")
            }
        }
        Benchmark("async pmd server \(what): hummingbird WebSocketHandler", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let bytes = try await hummingbirdAsync(input, type: .client, deflate: true)
                precondition(bytes == want, "hummingbird read \(bytes) bytes")
            }
        }
    }
}
