import IMWireCore

/// socket.io 0.9 packets without a dialect and their canonical JSON: one text message (or
/// xhr-polling body) is `{"packets": […]}`. NIM's codec writes its packets through it.
package struct SocketIO09CanonicalCodec: CanonicalCodec, WireCodec {
    package var limits: Limits

    package init(limits: Limits = .default) { self.limits = limits }

    package static let definition = CanonicalCodecDefinition(
        name: "socketio.0.9", jsonForm: #"socket.io 0.9 packets, as {"packets": […]}, an array or one packet."#,
        unit: { _ in .textFrame },
        make: { _ in SocketIO09CanonicalCodec() })

    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        canonicalFrame(bytes, as: input)
    }

    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> SocketIO09Decoded {
        SocketIO09Decoder.decode(bytes, limits: limits)
    }

    /// One text message of the packets (the U+FFFD framing for more than one).
    package func encode(_ packets: [SocketIO09Packet]) -> [UInt8] { Array(SocketIO09Payload.encode(packets).utf8) }

    package func canonicalJSON(_ decoded: SocketIO09Decoded) -> JSONValue? {
        decoded.packets.isEmpty ? .none : .some(["packets": .array(decoded.packets.map(SocketIOCanonicalJSON.encode))])
    }

    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        try Self.encode(json) { item throws(IMWireError) in
            try SocketIOCanonicalJSON.decode09(item)
        }
    }

    /// The text message of the items of `json` (`{"packets": […]}`, an array of items, or one
    /// item), each made a packet by `packet`.
    package static func encode(
        _ json: JSONValue, _ packet: (JSONValue) throws(IMWireError) -> SocketIO09Packet
    ) throws(IMWireError) -> CanonicalEncoded {
        let items = json["packets"]?.arrayValue ?? json.arrayValue ?? [json]
        guard !items.isEmpty else { throw IMWireError(.canonicalJSON, "no packet to encode") }
        var packets: [SocketIO09Packet] = []
        for item in items { packets.append(try packet(item)) }
        return CanonicalEncoded(bytes: Array(SocketIO09Payload.encode(packets).utf8), binary: false)
    }
}

/// engine.io 3 packets without a dialect, with the socket.io packet a message carries, and their
/// canonical JSON: one WebSocket message (or polled packet) is `{"engineio": …, "socketio": …}`.
/// JMessage's codec writes its packets through it.
package struct EngineIOCanonicalCodec: CanonicalCodec, WireCodec {
    package var limits: Limits

    package init(limits: Limits = .default) { self.limits = limits }

    package static let definition = CanonicalCodecDefinition(
        name: "engineio.3", jsonForm: #"{"engineio": …, "socketio": …}."#, unit: { _ in .textFrame },
        make: { _ in EngineIOCanonicalCodec() })

    /// `input.binary`: the bytes are a binary frame, else a text message.
    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        canonicalFrame(bytes, as: input)
    }

    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> EngineIOMessage {
        EngineIOMessage.decode(bytes, binaryFrame: input.binary, limits: limits)
    }

    package func encode(_ packet: EngineIOPacket) -> [UInt8] { packet.encoded.bytes }

    package func canonicalJSON(_ message: EngineIOMessage) -> JSONValue? {
        message.engineIO == nil ? .none : .some(SocketIOCanonicalJSON.encode(message))
    }

    /// `{"engineio": …, "socketio": …}` as `decode` gives it (other members, such as what a
    /// dialect reads in the packets, are not needed to write them).
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        guard let engineIO = json["engineio"] else {
            throw IMWireError(.canonicalJSON, "an engineio packet is required")
        }
        var packet = try SocketIOCanonicalJSON.decodeEngineIO(engineIO)
        if let socketIO = json["socketio"], !socketIO.isNull {
            packet.payload = .text(try SocketIOCanonicalJSON.decodeSocketIO(socketIO).encoded)
        }
        let encoded = packet.encoded
        return CanonicalEncoded(bytes: encoded.bytes, binary: encoded.binaryFrame)
    }
}
