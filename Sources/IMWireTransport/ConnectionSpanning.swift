import IMWireCore
import IMWireTLS

/// Connections that must be read together: what a reader spreading connections over several
/// assemblers (`Checker`'s lanes) keeps in one.
extension ConnectionAssembler {
    /// Whether a connection may belong to a socket.io session that other connections carry too
    /// (its handshake and long-polls), judged from its opening: a WebSocket whose URL is
    /// socket.io's. A reader spreading connections over several assemblers keeps those together.
    package static func maySpanConnections(_ opening: ConnectionInfo) -> Bool {
        opening.url?.contains("socket.io/") ?? false
    }

    /// The same, judged from its client's first bytes: an HTTP request for socket.io
    /// (`/socket.io/` in its target), or TLS, whose plaintext may be one.
    package static func maySpanConnections(clientFirstBytes bytes: [UInt8]) -> Bool {
        if TLSConnection.looksLikeTLS(bytes) { return true }
        // Read in place with memchr: with several lanes this runs on the reading thread, for
        // every new connection (Foundation's generic `firstRange` was 1.5% of a check there).
        return bytes.withUnsafeBytes { raw in
            guard let space = raw.firstIndex(of: 0x20, in: 0..<min(16, raw.count)) else { return false }
            var end = space + 1
            while end < raw.count, raw[end] != 0x20, raw[end] != 0x0d { end += 1 }
            return raw.firstIndex(of: socketIOPath, in: (space + 1)..<end) != nil
        }
    }

    private static let socketIOPath = Array("socket.io/".utf8)
}
