import IMWireCore
import IMWireMQTT
import IMWireWebSocket
import NIOCore

/// Decodes MQTT 3.1/3.1.1 packets from a TCP stream with IMWire's strict decoder (any chunking,
/// at most one incomplete packet of at most `Limits.maxFrameSize` buffered, larger packets
/// skipped as they arrive). Each packet goes on as an `MQTTDecodedPacket` with its findings. A
/// packet that violates the protocol (a finding of severity error: malformed, reserved flags, a
/// remaining length that cannot be framed, one over the limit) closes the connection, as MQTT
/// 3.1.1 §4.8 asks of both ends (3.1.1 has no DISCONNECT from the server), after an
/// `IMWireError` (`mqttViolation`) goes down the pipeline; nothing the peer sends traps.
public final class MQTTPacketReader: ChannelInboundHandler {
    /// Bytes as read from the connection.
    public typealias InboundIn = ByteBuffer
    /// Each packet, decoded, with its findings.
    public typealias InboundOut = MQTTDecodedPacket

    private var decoder: MQTTStreamDecoder
    private var closing = false

    /// `options`: the protocol version (nil: learnt from the CONNECT), limits, vendor return codes.
    public init(options: MQTTDecodeOptions = MQTTDecodeOptions()) {
        decoder = MQTTStreamDecoder(options: options)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let buffer = unwrapInboundIn(data)
        let packets = buffer.withUnsafeReadableBytes { decoder.feed($0) }
        deliver(packets, context: context)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if !closing { deliver(decoder.finish(), context: context) }
        context.fireChannelInactive()
    }

    private func deliver(_ packets: [MQTTDecodedPacket], context: ChannelHandlerContext) {
        for packet in packets {
            guard !closing else { return }
            context.fireChannelRead(wrapInboundOut(packet))
            if let violation = packet.findings.first(where: { $0.severity == .error }) {
                closing = true
                context.fireErrorCaught(IMWireError.violation(.mqttViolation, violation, packet: packet.summary))
                context.close(promise: nil)
            }
        }
    }
}

/// Encodes `MQTTPacket` values (MQTT 3.1/3.1.1, minimal remaining-length encoding).
public final class MQTTPacketWriter: ChannelOutboundHandler {
    /// A packet to send.
    public typealias OutboundIn = MQTTPacket
    /// Its bytes.
    public typealias OutboundOut = ByteBuffer

    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = MQTTPacketEncoder.encode(unwrapOutboundIn(data))
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
    }
}

/// MQTT over WebSocket (MQTT 3.1.1 §6): the binary messages of a WebSocket pipeline (after a
/// `WebSocketFrameReader` and a `WebSocketFrameWriter`) as one byte stream, in order, for an
/// `MQTTPacketReader`, and the bytes an `MQTTPacketWriter` writes as one binary message each. A
/// message may hold several packets or part of one (§6: the receiver must not assume alignment);
/// a text message is not MQTT and fails the connection with a close frame 1003 (§6: "If a
/// Client or Server receives a WebSocket frame that is not binary data, it MUST close the
/// network connection"). Other WebSocket events are left to the WebSocket reader.
public final class MQTTWebSocketBridge: ChannelDuplexHandler {
    /// The WebSocket reader's events; only messages are read.
    public typealias InboundIn = WebSocketEvent
    /// The binary messages' payloads.
    public typealias InboundOut = ByteBuffer
    /// MQTT bytes to send.
    public typealias OutboundIn = ByteBuffer
    /// One binary message each, and the close frame of a text message.
    public typealias OutboundOut = WebSocketOutbound

    private var closing = false

    public init() {}

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, case .message(let message) = unwrapInboundIn(data) else { return }
        guard message.kind == .binary else {
            closing = true
            context.writeAndFlush(
                wrapOutboundOut(.close(.unsupportedData, reason: "MQTT travels in binary messages")), promise: nil)
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: message.payload)))
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(
            wrapOutboundOut(.message(.binary, Array(unwrapOutboundIn(data).readableBytesView))), promise: promise)
    }
}
