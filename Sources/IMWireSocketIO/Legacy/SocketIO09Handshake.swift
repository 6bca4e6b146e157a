import IMWireCore

/// The body of a socket.io 0.9 handshake response (`GET /socket.io/1/`):
/// `sid:heartbeat timeout:close timeout:transports` (timeouts in seconds; empty = disabled).
public struct SocketIO09Handshake: Sendable, Hashable {
    public var sid: String
    public var heartbeatTimeout: Int?
    public var closeTimeout: Int?
    public var transports: [String]

    public init(sid: String, heartbeatTimeout: Int?, closeTimeout: Int?, transports: [String]) {
        self.sid = sid
        self.heartbeatTimeout = heartbeatTimeout
        self.closeTimeout = closeTimeout
        self.transports = transports
    }

    public var encoded: String {
        [
            sid, heartbeatTimeout.map(String.init) ?? "", closeTimeout.map(String.init) ?? "",
            transports.joined(separator: ","),
        ]
        .joined(separator: ":")
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("sid", .string(sid))
        object.append("heartbeatTimeout", heartbeatTimeout.map { .number(JSONNumber($0)) } ?? .null)
        object.append("closeTimeout", closeTimeout.map { .number(JSONNumber($0)) } ?? .null)
        object.append("transports", .array(transports.map(JSONValue.string)))
        return .object(object)
    }

    /// Parses a handshake body; nil with a finding when it is not one.
    public static func decode(_ bytes: [UInt8]) -> (SocketIO09Handshake?, [Finding]) {
        if let bad = PacketText.invalidUTF8(bytes) {
            return (nil, [SocketIORules.textNotUTF8.finding("invalid UTF-8", at: bad)])
        }
        // Split at colons as bytes, as the server's `split(':')` splits code units: no Character
        // breaking (it cost 26,000 instructions a handshake), and a colon before a combining
        // mark still splits.
        var parts: [ArraySlice<UInt8>] = []
        var start = 0
        while let colon = bytes[start...].firstIndex(of: UInt8(ascii: ":")) {
            parts.append(bytes[start..<colon])
            start = colon + 1
        }
        parts.append(bytes[start...])
        func text(_ part: ArraySlice<UInt8>) -> String { String(decoding: part, as: UTF8.self) }
        guard parts.count == 4, !parts[0].isEmpty else {
            return (
                nil,
                [
                    SocketIORules.v09HandshakeInvalid.finding(
                        "\(parts.count) fields, expected sid:heartbeat:close:transports", at: 0)
                ]
            )
        }
        var findings: [Finding] = []
        func seconds(_ index: Int) -> Int? {
            let part = parts[index]
            guard !part.isEmpty else { return nil }
            guard part.allSatisfy(PacketText.isDigit), let value = Int(text(part)) else {
                findings.append(
                    SocketIORules.v09HandshakeInvalid.finding(
                        "timeout \"\(text(part))\" is not a number of seconds", at: part.startIndex))
                return nil
            }
            return value
        }
        let handshake = SocketIO09Handshake(
            sid: text(parts[0]), heartbeatTimeout: seconds(1), closeTimeout: seconds(2),
            transports: parts[3].split(separator: UInt8(ascii: ",")).map(text))
        if !handshake.transports.contains("websocket") {
            findings.append(
                SocketIORules.v09HandshakeNoWebSocket.finding(
                    "transports \"\(text(parts[3]))\"", at: parts[3].startIndex))
        }
        return (findings.contains { $0.severity == .error } ? nil : handshake, findings)
    }
}

/// What a URL says about the socket.io transport under it: a socket.io 0.9 handshake or
/// transport (`/socket.io/1/…`), or an engine.io one (`/socket.io/?EIO=…`).
public enum SocketIOTransport: Sendable, Hashable {
    /// socket.io 0.9's handshake request: `/socket.io/1/` (`?t=…`), answered `sid:heartbeat:close:transports`.
    case v09Handshake
    /// socket.io 0.9: `/socket.io/1/<transport>/<sid>` (`websocket`, `xhr-polling`…).
    case v09(transport: String, sid: String)
    /// engine.io: `/socket.io/?EIO=<n>&transport=<websocket|polling>[&sid=…]`.
    case engineIO(version: Int?, transport: String?, sid: String?)

    /// The socket.io 0.9 transports that carry payloads in HTTP bodies.
    package static let v09PollingTransports: Set<String> = ["xhr-polling", "jsonp-polling", "htmlfile"]

    /// The session id the URL names, if any.
    public var sid: String? {
        switch self {
        case .v09Handshake: nil
        case .v09(_, let sid): sid
        case .engineIO(_, _, let sid): sid
        }
    }

    /// The transport a URL (or a bare path) names, with a finding when it looks like socket.io
    /// but deviates from what a request over WebSocket (`overWebSocket`) or over HTTP should
    /// ask for; nil when the URL is not a socket.io one at all.
    public static func from(url: String, overWebSocket: Bool = true) -> (SocketIOTransport?, [Finding]) {
        // Read as bytes, as RFC 3986 reads a URL, in place: every request of every socket.io
        // connection passes here, too often to split it by Characters or copy it.
        var url = url
        return url.withUTF8 { from(bytes: $0, overWebSocket: overWebSocket) }
    }

    private static func from(bytes: UnsafeBufferPointer<UInt8>, overWebSocket: Bool) -> (
        SocketIOTransport?, [Finding]
    ) {
        let slash = UInt8(ascii: "/")
        var pathStart = 0
        if let scheme = (0..<max(0, bytes.count - 2)).first(where: {
            bytes[$0] == 58 && bytes[$0 + 1] == slash && bytes[$0 + 2] == slash
        }) {
            pathStart = bytes[(scheme + 3)...].firstIndex(of: slash) ?? bytes.count
        }
        let questionMark = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[pathStart..<(questionMark ?? bytes.count)]
        let query = bytes[(questionMark.map { $0 + 1 } ?? bytes.count)...]
        // The segments after the first `socket.io` one, empty ones skipped; read in place, with
        // no array of slices (an allocation per request, 1% of a check of socket.io traffic).
        var rest: [String]? = nil
        var segmentStart = path.startIndex
        while segmentStart < path.endIndex {
            let segmentEnd = path[segmentStart...].firstIndex(of: slash) ?? path.endIndex
            let segment = path[segmentStart..<segmentEnd]
            if rest != nil {
                if !segment.isEmpty { rest?.append(String(decoding: segment, as: UTF8.self)) }
            } else if same(segment, "socket.io") {
                rest = []
            }
            segmentStart = segmentEnd + 1
        }
        guard let rest else { return (nil, []) }
        if rest.first == "1" {
            if rest.count == 1, !overWebSocket { return (.v09Handshake, []) }
            let expected =
                overWebSocket
                ? "/socket.io/1/websocket/<sid>" : "/socket.io/1/ (handshake) or /socket.io/1/xhr-polling/<sid>"
            let transport = rest.count > 1 ? rest[1] : ""
            let fits =
                rest.count == 3 && (overWebSocket ? transport == "websocket" : v09PollingTransports.contains(transport))
            guard fits else {
                return (
                    .v09(transport: transport, sid: rest.count > 2 ? rest[2] : ""),
                    [
                        SocketIORules.v09URLInvalid.finding(
                            "path \(String(decoding: path, as: UTF8.self)) is not \(expected)")
                    ]
                )
            }
            return (.v09(transport: transport, sid: rest[2]), [])
        }
        // The parameters read: the last of each name counts.
        var (eio, transport, sid): (String?, String?, String?) = (nil, nil, nil)
        var pairStart = query.startIndex
        while pairStart < query.endIndex {
            let pairEnd = query[pairStart...].firstIndex(of: UInt8(ascii: "&")) ?? query.endIndex
            let pair = query[pairStart..<pairEnd]
            pairStart = pairEnd + 1
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = pair[..<(equals ?? pair.endIndex)]
            // Only the three names read make a string (`t=` cache busters and the like do not).
            func value() -> String {
                String(decoding: pair[(equals.map { $0 + 1 } ?? pair.endIndex)...], as: UTF8.self)
            }
            if same(name, "EIO") {
                eio = value()
            } else if same(name, "transport") {
                transport = value()
            } else if same(name, "sid") {
                sid = value()
            }
        }
        let version = eio.flatMap { Int($0) }
        var findings: [Finding] = []
        let expected = overWebSocket ? "websocket" : "polling"
        if version != 3 || transport != expected {
            findings.append(
                SocketIORules.eioURLInvalid.finding("query EIO=\(eio ?? "absent") transport=\(transport ?? "absent")"))
        }
        return (.engineIO(version: version, transport: transport, sid: sid), findings)
    }

    /// Whether `bytes` are `text`'s UTF-8, compared in place.
    private static func same(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && text.withUTF8Buffer { bytes.elementsEqual($0) }
    }
}
