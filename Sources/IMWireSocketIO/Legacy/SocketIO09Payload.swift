/// Several socket.io 0.9 packets in one WebSocket text message, as the 0.9.11 client's
/// `parser.encodePayload` writes them: one packet as it is, several each preceded by
/// `\u{fffd}<length>\u{fffd}`, the length counted in UTF-16 code units (JavaScript's
/// `String.length`), which is what `SocketIO09Decoder` reads back.
public enum SocketIO09Payload {
    public static func encode(_ packets: [SocketIO09Packet]) -> String {
        guard packets.count != 1 else { return packets[0].encoded }
        return packets.map { packet in
            let text = packet.encoded
            return "\u{fffd}\(text.utf16.count)\u{fffd}\(text)"
        }.joined()
    }
}
