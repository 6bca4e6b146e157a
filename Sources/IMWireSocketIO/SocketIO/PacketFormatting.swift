import IMWireCore

// A socket.io packet carries the application's events, logins among them: JMessage's login
// (its password hash) and c_init (its signature) are socket.io EVENTs. Formatted (`print`,
// interpolation, `String(reflecting:)`, `dump`), a packet shows every field as the default
// form writes it, its JSON with each credential (`CredentialFields`: a string under a key such
// as `password` or `signature`) as its length, and text that holds one as its length only
// (issue 37: nothing leaked). Binary attachments and data show as their length. Encoding,
// decoding and equality are unchanged.

extension SocketIOPacket: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `SocketIOPacket(type: EVENT, namespace: "/", …,
    /// data: ["login",{"username":"alice","password":32 bytes}], …)`.
    public var description: String {
        """
        SocketIOPacket(type: \(type.name), namespace: \(String(reflecting: namespace)), query: \
        \(String(reflecting: query)), id: \(String(reflecting: id)), attachments: \
        \(String(reflecting: attachments)), data: \(data.map { CredentialFields.formatted($0) } ?? "nil"), \
        dataOffset: \(dataOffset), buffers: \(lengths(buffers)))
        """
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "type": type, "namespace": namespace, "query": query as Any, "id": id as Any,
                "attachments": attachments as Any,
                "data": data.map { CredentialFields.lengths(in: $0) } as Any, "dataOffset": dataOffset,
                "buffers": buffers.map { "\($0.count) bytes" },
            ], displayStyle: .struct)
    }

    /// Whether the packet's JSON holds a credential.
    var holdsCredential: Bool { data.map(CredentialFields.holdsCredential) ?? false }
}

extension SocketIO09Packet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every field, the JSON with its credentials as their length, and `data` as its length when
    /// the packet holds one: `SocketIO09Packet(type: message, …, data: 48 bytes, …)`.
    public var description: String {
        let shownData = holdsCredential ? CredentialFields.length(data) : String(reflecting: data)
        return """
            SocketIO09Packet(type: \(type.name), id: \(String(reflecting: id)), ackWithData: \(ackWithData), \
            endpoint: \(String(reflecting: endpoint)), data: \(shownData), dataOffset: \(dataOffset), json: \
            \(json.map { CredentialFields.formatted($0) } ?? "nil"), eventName: \(String(reflecting: eventName)), \
            args: \
            \(args.map { "[" + $0.map { CredentialFields.formatted($0) }.joined(separator: ", ") + "]" } ?? "nil"), \
            ackID: \(String(reflecting: ackID)), errorReason: \(String(reflecting: errorReason)), errorAdvice: \
            \(String(reflecting: errorAdvice)))
            """
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "type": type, "id": id as Any, "ackWithData": ackWithData, "endpoint": endpoint,
                "data": holdsCredential ? CredentialFields.length(data) : data, "dataOffset": dataOffset,
                "json": json.map { CredentialFields.lengths(in: $0) } as Any, "eventName": eventName as Any,
                "args": args.map { $0.map { CredentialFields.lengths(in: $0) } } as Any, "ackID": ackID as Any,
                "errorReason": errorReason as Any, "errorAdvice": errorAdvice as Any,
            ], displayStyle: .struct)
    }

    /// Whether the JSON the packet carries (`json`, `args`, or `data` read as JSON) holds a
    /// credential (NIM's login among them).
    var holdsCredential: Bool {
        if let json, CredentialFields.holdsCredential(json) { return true }
        if let args, args.contains(where: { CredentialFields.holdsCredential($0) }) { return true }
        guard let parsed = try? JSONParser.parse(Array(data.utf8)) else { return false }
        return CredentialFields.holdsCredential(parsed)
    }
}

// An engine.io packet's data is a socket.io packet's text (or binary): text that reads as a
// socket.io packet holding a credential shows as its length, binary data always does.
extension EngineIOPacket.Payload: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `text("40")`, `text(52 bytes)` for a login, `binary(12 bytes)`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(holdsCredential ? CredentialFields.length(text) : String(reflecting: text)))"
        case .binary(let bytes): "binary(\(bytes.count) bytes)"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        switch self {
        case .text(let text):
            Mirror(
                self, children: ["text": holdsCredential ? CredentialFields.length(text) : text], displayStyle: .enum)
        case .binary(let bytes): Mirror(self, children: ["binary": "\(bytes.count) bytes"], displayStyle: .enum)
        }
    }

    /// Whether the text reads as a socket.io packet whose JSON holds a credential.
    private var holdsCredential: Bool {
        guard case .text(let text) = self, let packet = SocketIOPacket.decode(Array(text.utf8)).0 else { return false }
        return packet.holdsCredential
    }
}

/// `[12 bytes, 3 bytes]`.
private func lengths(_ buffers: [[UInt8]]) -> String {
    "[" + buffers.map { "\($0.count) bytes" }.joined(separator: ", ") + "]"
}

// A packet cut from a long-poll body is raw bytes, a login's among them: it shows its size only.
extension EngineIOPayload.Packet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Packet(42 bytes, binaryFrame: false, offset: 3)`.
    public var description: String { "Packet(\(bytes.count) bytes, binaryFrame: \(binaryFrame), offset: \(offset))" }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: ["bytes": "\(bytes.count) bytes", "binaryFrame": binaryFrame, "offset": offset],
            displayStyle: .struct)
    }
}
