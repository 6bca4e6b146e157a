// Frame decoding against swift-nio's WebSocketFrameDecoder and permessage-deflate inflation
// against raw zlib, in the same run and on the same bytes (channel handlers: ChannelBenchmarks.swift).
// Each iteration decodes a batch of `frameCount` frames (or inflates one message), so throughput is
// batches per second.
import Benchmark
import CZlibBaseline
import IMWireCore
import IMWireWebSocket
import NIOCore
import NIOEmbedded
import NIOWebSocket

let frameCount = 1000
let payloadSize = 128

/// Deterministic payload bytes (no randomness in benchmarks either).
func payload(_ size: Int, seed: UInt32) -> [UInt8] {
    var state = seed
    return (0..<size).map { _ in
        state = state &* 1_103_515_245 &+ 12345
        return UInt8(truncatingIfNeeded: state >> 16)
    }
}

/// `frameCount` binary frames of `payloadSize` bytes, masked (client) or not (server).
func frameStream(masked: Bool) -> [UInt8] {
    var out: [UInt8] = []
    for index in 0..<frameCount {
        let header = IMWireWebSocket.WebSocketFrameHeader(
            opcode: .binary, maskingKey: masked ? UInt32(truncatingIfNeeded: index &* 2_654_435_761) : nil)
        IMWireWebSocket.WebSocketFrameEncoder.encode(
            header, payload: payload(payloadSize, seed: UInt32(index)), into: &out)
    }
    return out
}

/// JSON-like text: what IM protocols compress.
func jsonText(_ size: Int) -> [UInt8] {
    let names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    var out = "["
    var index = 0
    while out.utf8.count < size {
        out += """
            {"cmd":"direct","peerId":"\(names[index % names.count])","i":\(index),"msg":"hello \
            \(index * 7919 % 1000)"},
            """
        index += 1
    }
    return Array(out.utf8.prefix(size))
}

/// Counts frames as they leave NIO's decoder, without buffering them.
final class FrameCounter: ChannelInboundHandler {
    typealias InboundIn = NIOWebSocket.WebSocketFrame
    var frames = 0
    var bytes = 0
    var unmask = false
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        frames += 1
        bytes += unmask ? frame.unmaskedData.readableBytes : frame.data.readableBytes
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(3), maxIterations: 100_000)

    // IMWireNIO's channel handler against NIOWebSocket and hummingbird's swift-websocket
    registerChannelBenchmarks(configuration)

    for masked in [false, true] {
        let stream = frameStream(masked: masked)
        let label = masked ? "masked client" : "unmasked server"

        Benchmark("frame decode \(label) 1000x\(payloadSize)B: IMWire", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                var decoder = IMWireWebSocket.WebSocketFrameDecoder(direction: masked ? .send : .receive)
                var bytes = 0
                stream.withUnsafeBytes { raw in
                    decoder.feed(raw) { output in
                        if case .frame(let frame) = output { bytes &+= frame.payload.count }
                    }
                }
                blackHole(bytes)
            }
        }

        Benchmark("frame decode \(label) 1000x\(payloadSize)B: swift-nio", configuration: configuration) { benchmark in
            let counter = FrameCounter()
            counter.unmask = masked
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(NIOWebSocket.WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
            try channel.pipeline.syncOperations.addHandler(counter)
            let buffer = ByteBuffer(bytes: stream)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try channel.writeInbound(buffer)
            }
            benchmark.stopMeasurement()
            blackHole(counter.bytes)
            _ = try channel.finish(acceptAlreadyClosed: true)
        }
    }

    // permessage-deflate: one 64 KiB JSON-like message, compressed, server_no_context_takeover
    // so every iteration inflates independently on both sides.
    let deflate = PerMessageDeflateParameters(serverNoContextTakeover: true)
    let text = jsonText(64 << 10)
    let encoder = try! WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
    // Binary, so IMWire does no UTF-8 check and both sides do the same work: inflate.
    let compressedFrame = try! encoder.message(.binary, text)
    let shortLength = compressedFrame[1] & 0x7f
    let headerLength = shortLength == 126 ? 4 : shortLength == 127 ? 10 : 2
    let compressedPayload = Array(compressedFrame.dropFirst(headerLength)) + [0x00, 0x00, 0xff, 0xff]

    Benchmark(
        "pmd inflate 64KiB JSON (\(compressedFrame.count)B compressed): IMWire frame+inflate",
        configuration: configuration
    ) { benchmark in
        var decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(direction: .receive, permessageDeflate: deflate, emitsFrames: false))
        for _ in benchmark.scaledIterations {
            var size = 0
            compressedFrame.withUnsafeBytes { raw in
                decoder.feed(raw) { event in
                    if case .message(let message) = event { size = message.payload.count }
                }
            }
            precondition(size == text.count)
            blackHole(size)
        }
    }

    Benchmark("pmd inflate 64KiB JSON (\(compressedFrame.count)B compressed): raw zlib", configuration: configuration) {
        benchmark in
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        _ = CZlibBaseline_inflateInit2(stream, -15)
        var output = [UInt8](repeating: 0, count: text.count + 1024)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            inflateReset(stream)
            var produced = 0
            compressedPayload.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    stream.pointee.next_in = UnsafeMutablePointer(
                        mutating: input.bindMemory(to: Bytef.self).baseAddress)
                    stream.pointee.avail_in = uInt(input.count)
                    stream.pointee.next_out = out.bindMemory(to: Bytef.self).baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    _ = inflate(stream, Z_SYNC_FLUSH)
                    produced = out.count - Int(stream.pointee.avail_out)
                }
            }
            precondition(produced == text.count)
            blackHole(produced)
        }
        benchmark.stopMeasurement()
        inflateEnd(stream)
        stream.deallocate()
    }
}
