import IMWireCore
import IMWireDialect
import IMWireMQTT
import IMWireNIO
import IMWireSocketIO
import IMWireWebSocket
import NIOCore
import NIOEmbedded

enum NIOFuzzing {
    /// What reaches the end of a pipeline, in order.
    enum Event: Equatable {
        case webSocket(WebSocketEvent)
        case mqtt(MQTTDecodedPacket)
        case engineIO(EngineIOMessage)
        case socketIO09(SocketIO09Decoded)
        case dialect(DialectEvent)
        /// An error fired down the pipeline (a violation), as text.
        case error(String)
        case inactive
    }

    /// The last handler of a pipeline: records what reaches it (errors are not passed on, so
    /// the channel keeps none to throw).
    final class Recorder<Value>: ChannelInboundHandler {
        typealias InboundIn = Value
        private let wrap: (Value) -> Event
        private(set) var events: [Event] = []

        init(_ wrap: @escaping (Value) -> Event) { self.wrap = wrap }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) { events.append(wrap(unwrapInboundIn(data))) }
        func errorCaught(context: ChannelHandlerContext, error: any Error) { events.append(.error("\(error)")) }
        func channelInactive(context: ChannelHandlerContext) { events.append(.inactive) }
    }

    /// The dialect handlers' clock: 10 ms more at each reading, from a fixed start (the same
    /// readings for the same events), or always the start (`stepping` off).
    final class Clock: @unchecked Sendable {
        private var readings: Int64 = 0
        private let stepping: Bool
        init(stepping: Bool) { self.stepping = stepping }
        func now() -> Int64 {
            if stepping { readings += 1 }
            return 1_700_000_000_000_000 + readings * 10_000
        }
    }

    /// The pipeline an input picks. Variant 0: `WebSocketFrameReader` and `WebSocketFrameWriter`
    /// (extra bit 0 the role: server, reading a client's masked frames, or client; extra bits 1-2
    /// permessage-deflate: none, defaults, no context takeover, 9-bit windows; extra bit 3 every
    /// frame delivered). Variant 1: `MQTTPacketReader` (extra bits 1-2 the version: learnt from
    /// the CONNECT, 3.1, 3.1.1, learnt with yun2win's CONNACK codes; extra bit 3 over WebSocket,
    /// through `MQTTWebSocketBridge`). Variant 2: over WebSocket, `EngineIOPacketHandler` (extra
    /// bit 1 clear) or `SocketIO09PacketHandler` (set); extra bits 2-3 permessage-deflate as
    /// variant 0's bits 1-2. Variant 3: over WebSocket, `DialectMessageHandler` of the dialect
    /// of extra bits 1-2 (LeanCloud, NIM, JMessage, yun2win), or for yun2win with extra bit 3
    /// `DialectStreamHandler` on the raw stream (its MQTT on TCP).
    struct Pipeline {
        let input: FuzzInput

        var variant: Int { input.variant }
        var role: WebSocketRole { input.extra & 1 == 0 ? .server : .client }
        var overWebSocket: Bool { variant != 1 || input.extra & 8 != 0 }
        var dialect: Dialect { [.leancloud, .nim, .jmessage, .yun2win][input.extra >> 1 & 3] }
        /// yun2win's MQTT on the raw stream: each chunk read is its own message.
        var isStream: Bool { variant == 3 && dialect == .yun2win && input.extra & 8 != 0 }

        var deflate: PerMessageDeflateParameters? {
            let choice = variant == 0 ? input.extra >> 1 & 3 : variant == 2 ? input.extra >> 2 & 3 : 0
            switch choice {
            case 1: return PerMessageDeflateParameters()
            case 2: return PerMessageDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true)
            case 3: return PerMessageDeflateParameters(serverMaxWindowBits: 9, clientMaxWindowBits: 9)
            default: return nil
            }
        }

        var webSocket: WebSocketChannelConfiguration {
            WebSocketChannelConfiguration(
                role: role, permessageDeflate: deflate, limits: input.limits,
                emitsFrames: variant == 0 && input.extra & 8 != 0)
        }

        /// The direction of what this end writes (`.send`: a client's, masked).
        var outbound: Direction { role == .server ? .receive : .send }

        /// A connected channel with the pipeline's handlers, then `recorder`.
        func channel() throws -> (EmbeddedChannel, () -> [Event]) {
            let channel = EmbeddedChannel()
            let pipeline = channel.pipeline.syncOperations
            if overWebSocket && !isStream {
                try pipeline.addHandler(WebSocketFrameReader(webSocket))
                try pipeline.addHandler(WebSocketFrameWriter(webSocket))
            }
            let events: () -> [Event]
            switch variant {
            case 0:
                let recorder = Recorder<WebSocketEvent> { .webSocket($0) }
                try pipeline.addHandler(recorder)
                events = { recorder.events }
            case 1:
                if overWebSocket { try pipeline.addHandler(MQTTWebSocketBridge()) }
                let version: MQTTVersion? = [nil, .v3_1, .v3_1_1, nil][input.extra >> 1 & 3]
                let codes: Set<UInt8> = input.extra >> 1 & 3 == 3 ? [6, 7] : []
                try pipeline.addHandler(
                    MQTTPacketReader(
                        options: MQTTDecodeOptions(version: version, limits: input.limits, vendorConnackCodes: codes)))
                let recorder = Recorder<MQTTDecodedPacket> { .mqtt($0) }
                try pipeline.addHandler(recorder)
                events = { recorder.events }
            case 2 where input.extra & 2 == 0:
                try pipeline.addHandler(EngineIOPacketHandler(limits: input.limits))
                let recorder = Recorder<EngineIOMessage> { .engineIO($0) }
                try pipeline.addHandler(recorder)
                events = { recorder.events }
            case 2:
                try pipeline.addHandler(SocketIO09PacketHandler(limits: input.limits))
                let recorder = Recorder<SocketIO09Decoded> { .socketIO09($0) }
                try pipeline.addHandler(recorder)
                events = { recorder.events }
            default:
                let context = DialectContext(limits: input.limits, namesMessages: true, describesMessages: true)
                let clock = Clock(stepping: !isStream)
                if isStream {
                    try pipeline.addHandler(
                        DialectStreamHandler(dialect: dialect, role: role, context: context, now: { clock.now() }))
                } else {
                    try pipeline.addHandler(
                        DialectMessageHandler(dialect: dialect, role: role, context: context, now: { clock.now() }))
                }
                let recorder = Recorder<DialectEvent> { .dialect($0) }
                try pipeline.addHandler(recorder)
                events = { recorder.events }
            }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            return (channel, events)
        }
    }

    /// What a pipeline did with the bytes: what reached its end, what it wrote, whether it was
    /// still open after the last byte.
    struct Outcome {
        var events: [Event]
        var written: [UInt8]
        var openAfterInput: Bool
        /// The events before the pipeline closed the channel (the rest come of its end).
        var eventsBeforeClose: Int
    }

    /// Feeds `pieces` to a fresh pipeline while it is open, then closes it.
    static func run(_ pipeline: Pipeline, _ pieces: [ArraySlice<UInt8>]) -> Outcome? {
        guard let (channel, events) = try? pipeline.channel() else { return nil }
        var written: [UInt8] = []
        func drain() {
            while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
        }
        for piece in pieces where channel.isActive {
            _ = try? channel.writeInbound(ByteBuffer(bytes: piece))
            drain()
        }
        let open = channel.isActive
        let before = events().count
        _ = try? channel.close().wait()
        channel.embeddedEventLoop.run()
        drain()
        return Outcome(events: events(), written: written, openAfterInput: open, eventsBeforeClose: before)
    }

    /// A peer's bytes through IMWireNIO's channel handlers on an `EmbeddedChannel` (no socket;
    /// every handler of IMWireNIO can be driven this way), the pipeline picked by the variant and
    /// extra bits (`Pipeline`), then the channel closed by the application (an `EmbeddedChannel`
    /// has no peer to end the stream: the WebSocket reader's report of a stream cut inside a
    /// frame is left to the `WebSocket` target).
    ///
    /// Invariants: never traps; the bytes fed whole and fed in 1-17-byte pieces give the same
    /// events at the pipeline's end, write the same frames (unmasked: a client's masking keys
    /// are random) and leave the channel open or closed alike (yun2win on the raw stream: the
    /// same bytes delivered and the same findings, as each chunk is a message of its own);
    /// nothing reaches the end after the channel went inactive; a violation closes the channel;
    /// what a WebSocket pipeline writes decodes without an error at the peer, with at most one
    /// close frame, and nothing after it; no frame, message or fragment count past the limits;
    /// no MQTT packet decoded past `maxFrameSize`; no socket.io packet's attachments past
    /// `maxMessageSize`.
    static func handlers(_ input: FuzzInput) -> [String] {
        let pipeline = Pipeline(input: input)
        guard let whole = run(pipeline, [input.payload[...]]), let pieces = run(pipeline, input.chunks) else {
            return ["the pipeline cannot be set up"]
        }
        var violations: [String] = []
        if pipeline.isStream {
            if streamed(whole.events) != streamed(pieces.events) {
                violations.append("fed in pieces, other bytes or findings")
            }
        } else if whole.events != pieces.events {
            violations.append("fed in pieces, \(pieces.events.count) events; whole, \(whole.events.count)")
        }
        if whole.openAfterInput != pieces.openAfterInput {
            violations.append("fed in pieces, the channel is \(pieces.openAfterInput ? "open" : "closed")")
        }
        if let inactive = whole.events.firstIndex(of: .inactive), inactive != whole.events.count - 1 {
            violations.append("\(whole.events.count - 1 - inactive) events after the channel went inactive")
        }
        if whole.events.prefix(whole.eventsBeforeClose).contains(where: { if case .error = $0 { true } else { false } }
        ), whole.openAfterInput {
            violations.append("a violation left the channel open")
        }
        if pipeline.overWebSocket && !pipeline.isStream {
            let frames = writtenFrames(whole.written, pipeline)
            if frames != writtenFrames(pieces.written, pipeline) {
                violations.append("fed in pieces, other frames written")
            }
            violations += frames.violations
        } else if whole.written != pieces.written {
            violations.append("fed in pieces, other bytes written")
        }
        violations += withinLimits(whole.events, input.limits)
        return violations
    }

    /// The raw stream's events without their chunking: the bytes read, and the findings (sorted:
    /// a finding's frame is the chunk it was read in, and the yun2win tracker orders the
    /// commands pending at the end by frame, those of one frame as its dictionary holds them).
    static func streamed(_ events: [Event]) -> [String] {
        var bytes: [UInt8] = []
        var findings: [String] = []
        for case .dialect(let event) in events {
            switch event {
            case .message(let message):
                bytes += message.message.payload
                findings += message.findings.map { "\($0.ruleID) \($0.offset.map(String.init) ?? "-") \($0.message)" }
            case .finished(let end): findings += end.map { "end: \($0.ruleID) \($0.message)" }
            }
        }
        return [Hex.encode(bytes)] + findings.sorted()
    }

    /// The frames a WebSocket pipeline wrote, as its peer reads them (opcode, FIN, unmasked
    /// payload), and what is wrong with them.
    struct WrittenFrames: Equatable {
        var frames: [[UInt8]] = []
        var violations: [String] = []
    }

    static func writtenFrames(_ bytes: [UInt8], _ pipeline: Pipeline) -> WrittenFrames {
        var decoder = WebSocketStreamDecoder(
            WebSocketStreamConfiguration(
                direction: pipeline.outbound, permessageDeflate: pipeline.deflate, limits: .default, emitsFrames: true))
        var written = WrittenFrames()
        var closed = false
        for event in decoder.feed(bytes) + decoder.finish() {
            switch event {
            case .frame(let frame):
                if closed { written.violations.append("a \(frame.header.opcode) frame written after the close frame") }
                closed = closed || frame.header.opcode == .close
                written.frames.append([frame.header.opcode.rawValue, frame.header.fin ? 1 : 0] + frame.payload)
            case .finding(let finding) where finding.severity == .error:
                written.violations.append("the peer refuses what the pipeline wrote: \(finding)")
            default: break
            }
        }
        return written
    }

    static func withinLimits(_ events: [Event], _ limits: Limits) -> [String] {
        var violations: [String] = []
        for event in events {
            switch event {
            case .webSocket(let event): violations += WebSocketFuzzing.withinLimits([event], limits)
            case .mqtt(let packet) where packet.packet != nil && packet.length > limits.maxFrameSize + 5:
                violations.append("an MQTT packet of \(packet.length) bytes was decoded past maxFrameSize")
            case .engineIO(let message):
                let attached = message.socketIO?.buffers.reduce(0) { $0 + $1.count } ?? 0
                if attached > limits.maxMessageSize {
                    violations.append("\(attached) bytes of attachments passed maxMessageSize")
                }
            default: break
            }
        }
        return violations
    }
}
