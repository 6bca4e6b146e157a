import IMWireCore
import IMWireWebSocket

/// The two directions of an upgraded connection, each through its own streaming WebSocket
/// decoder (permessage-deflate as negotiated); what they emit becomes transport events. A class,
/// so each direction's decoder is changed in place: an `indirect` case had to be copied out and
/// boxed again for every chunk of bytes. Only its connection's owner touches it, so the
/// runtime's exclusivity checks are left out.
final class WebSocketDecoders {
    @exclusivity(unchecked) var client: WebSocketStreamDecoder
    @exclusivity(unchecked) var server: WebSocketStreamDecoder

    init(client: WebSocketStreamDecoder, server: WebSocketStreamDecoder) {
        self.client = client
        self.server = server
    }

    func feed(_ bytes: [UInt8], direction: Direction, into outputs: inout [TransportEvent]) {
        feed(bytes, direction: direction) { outputs.append($0) }
    }

    /// The events `bytes` complete, each handed to `handle` as it comes (no list in between: this
    /// is the path of every WebSocket message).
    func feed(_ bytes: [UInt8], direction: Direction, _ handle: (TransportEvent) -> Void) {
        guard !bytes.isEmpty else { return }
        if direction == .send {
            client.feed(bytes) { if let output = Self.event($0, .send) { handle(output) } }
        } else {
            server.feed(bytes) { if let output = Self.event($0, .receive) { handle(output) } }
        }
    }

    /// Frames cut short in either direction.
    func finish(into outputs: inout [TransportEvent]) {
        client.finish { if let output = Self.event($0, .send) { outputs.append(output) } }
        server.finish { if let output = Self.event($0, .receive) { outputs.append(output) } }
    }

    private static func event(_ event: WebSocketEvent, _ direction: Direction) -> TransportEvent? {
        switch event {
        case .message(let message):
            let type: WireMessage.FrameType = message.kind == .text ? .text : .binary
            return .message(WireMessage(direction: direction, frameType: type, payload: message.payload))
        case .close(let close):
            return .close(direction, code: close.code.map { Int($0.rawValue) })
        case .finding(var finding):
            // The decoder's own direction: a client's frames sent before the 101 are decoded
            // while the server's bytes are read, and must not take their direction.
            finding.location.direction = finding.location.direction ?? direction
            return .finding(finding, session: nil)
        case .frame(let frame):
            // Only control frames arrive here (`withoutFrames`); pongs answer and tell nothing new.
            return frame.opcode == .ping ? .ping(direction) : nil
        }
    }
}
