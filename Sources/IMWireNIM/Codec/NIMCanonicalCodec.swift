import IMWireCore
import IMWireSocketIO

/// NIM Web link messages and their canonical JSON: one WebSocket text message (or xhr-polling
/// body) is `[{"socketio": …, "nim": …}]`, an item per socket.io 0.9 packet.
package struct NIMCanonicalCodec: CanonicalCodec {
    package var limits: Limits

    package init(limits: Limits = .default) { self.limits = limits }

    package static let definition = CanonicalCodecDefinition(
        name: Dialect.nim.rawValue, jsonForm: "the array decode prints, one of its items, or a bare NIM packet.",
        unit: { _ in .textFrame },
        make: { _ in NIMCanonicalCodec() })

    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        NIMCodec(limits: limits).canonicalFrame(bytes, as: input)
    }

    /// The array `decode` prints (`[{"socketio", "nim"}]`) or one of its items; a bare NIM packet
    /// (`{"kind", …}`); or bare socket.io 0.9 packets (`{"type", …}`, alone or as
    /// `{"packets": […]}`). An item's `nim` packet, when present, is what is written.
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        try SocketIO09CanonicalCodec.encode(json) { item throws(IMWireError) in
            if let nim = item["nim"], !nim.isNull {
                return .message(JSONWriter.string(try NIMCanonicalJSON.decode(nim).json))
            } else if let socketIO = item["socketio"] {
                return try SocketIOCanonicalJSON.decode09(socketIO)
            } else if item["kind"] != nil {
                return .message(JSONWriter.string(try NIMCanonicalJSON.decode(item).json))
            }
            return try SocketIOCanonicalJSON.decode09(item)
        }
    }
}
