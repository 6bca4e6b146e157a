import IMWireFuzzTargets
import NIOCore
import NIOEmbedded
import NIOWebSocket

// libFuzzer entry point of the WebSocket differential target: IMWire's frame decoder against
// swift-nio's WebSocketFrameDecoder on the same bytes in the same pieces. The comparison and the
// allowed differences live in IMWireFuzzTargets (WebSocketDifferential); Fuzz/README.md lists them.

/// swift-nio's frames for the input's pieces, and the error it threw, if any.
func nioFrames(_ input: FuzzInput) -> ([WebSocketDifferential.Frame], WebSocketDifferential.Rejection?) {
    let channel = EmbeddedChannel(
        handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: WebSocketDifferential.maxFrameSize(input))))
    var frames: [WebSocketDifferential.Frame] = []
    var rejection: WebSocketDifferential.Rejection?
    func drain() {
        while let frame = try? channel.readInbound(as: WebSocketFrame.self) {
            var first: UInt8 = frame.fin ? 0x80 : 0
            if frame.rsv1 { first |= 0x40 }
            if frame.rsv2 { first |= 0x20 }
            if frame.rsv3 { first |= 0x10 }
            first |= UInt8(webSocketOpcode: frame.opcode)
            let key = frame.maskKey.map { key in key.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            frames.append(
                WebSocketDifferential.Frame(
                    firstByte: first, maskingKey: key, payload: Array(frame.unmaskedData.readableBytesView)))
        }
    }
    for chunk in WebSocketDifferential.pieces(input) {
        var buffer = channel.allocator.buffer(capacity: chunk.count)
        buffer.writeBytes(chunk)
        do {
            try channel.writeInbound(buffer)
        } catch let error as NIOWebSocketError {
            switch error {
            case .invalidFrameLength: rejection = .invalidFrameLength
            case .fragmentedControlFrame: rejection = .fragmentedControlFrame
            case .multiByteControlFrameLength: rejection = .multiByteControlFrameLength
            }
        } catch {
            rejection = .other("\(error)")
        }
        drain()
        if rejection != nil { break }
    }
    _ = try? channel.finish(acceptAlreadyClosed: true)
    return (frames, rejection)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(Array(UnsafeRawBufferPointer(start: start, count: count)))
    let (frames, rejection) = nioFrames(input)
    let violations =
        WebSocketDifferential.compare(WebSocketDifferential.imwire(input), nio: frames, rejection: rejection)
        + FuzzTarget.webSocketDifferential.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    if !violations.isEmpty { fatalError("WebSocketDifferential: " + violations.joined(separator: "; ")) }
    return 0
}
