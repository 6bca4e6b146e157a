import IMWireCompression
import IMWireCore

/// The client's side of the opening handshake (RFC 6455 §4.1): builds the upgrade request and
/// validates the server's answer to it.
///
/// The request is checked by `WebSocketHandshake.parseRequest` and the response by the same
/// code as `WebSocketHandshake.parse` (the capture checker), with the same rule IDs
/// (`WebSocketRules`): a live client and a check of its capture agree on every finding.
///
/// ```swift
/// let handshake = try WebSocketClientHandshake(host: "rtm.example", target: "/chat", protocols: ["chat"],
///                                             deflateOffers: [PerMessageDeflateOffer(clientMaxWindowBits: .anyValue)])
/// try await socket.write(handshake.request)
/// let reply = try await socket.readUntilHeadEnds()   // HTTPHead.endOfHead(_:) tells when
/// let negotiated = try handshake.validate(response: reply)
/// ```
public struct WebSocketClientHandshake: Sendable, Hashable {
    /// One extra header field of the request.
    public struct Header: Sendable, Hashable {
        /// The field name, a token (RFC 9110 §5.1).
        public var name: String
        /// The field value, without CR, LF or NUL.
        public var value: String

        /// A field `name: value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `Host`: the server's host, with `:port` when not the scheme's default.
    public let host: String
    /// The request-target: path and query (`/chat?v=3`).
    public let target: String
    /// `Sec-WebSocket-Key`: the base64 of 16 bytes.
    public let key: String
    /// `Sec-WebSocket-Protocol`, in the client's order of preference (none: the header is left out).
    public let protocols: [String]
    /// permessage-deflate offers, in order of preference (none: compression is not offered).
    public let deflateOffers: [PerMessageDeflateOffer]
    /// `Origin`, for a browser-like client.
    public let origin: String?
    /// Further header fields, after the handshake's own.
    public let headers: [Header]
    /// The request head, byte for byte: CRLF line ends, the blank line included.
    public let request: [UInt8]

    /// Fields the handshake writes itself (an extra `Header` may not repeat them).
    private static let ownFields = [
        "Host", "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol",
        "Sec-WebSocket-Accept", "Origin",
    ]

    /// Builds the request. Fields are written in RFC 6455 §1.2's order: Host, Upgrade,
    /// Connection, Sec-WebSocket-Key, Origin, Sec-WebSocket-Protocol, Sec-WebSocket-Version,
    /// then Sec-WebSocket-Extensions and `headers`.
    ///
    /// - Parameters:
    ///   - host: the `Host` field: the server's name, with `:port` when it is not the scheme's.
    ///   - target: the request target: the path and query of the WebSocket URL.
    ///   - protocols: the subprotocols offered (`Sec-WebSocket-Protocol`), in order of preference.
    ///   - deflateOffers: the permessage-deflate offers (`Sec-WebSocket-Extensions`), in order.
    ///   - origin: the `Origin` field, as a browser sends it; nil: none.
    ///   - headers: further fields, after the handshake's own.
    ///   - key: a fresh random key by default (`randomKey()`); give one only to get the same
    ///     bytes every time (tests).
    /// - Throws: `webSocketHandshakeRequest` with the findings that make the request invalid: a
    ///   host, target or field value with CR, LF, NUL, space or a fragment
    ///   (`WS.HANDSHAKE-MALFORMED`), a subprotocol that is not a token, a field the handshake
    ///   writes itself, a key that is not the base64 of 16 bytes (`WS.HANDSHAKE-KEY`), a deflate
    ///   offer with window bits outside 8...15 (`PMD.PARAMETER-INVALID`). Offsets are in the
    ///   request bytes, or nil for a bad argument.
    public init(
        host: String, target: String = "/", protocols: [String] = [], deflateOffers: [PerMessageDeflateOffer] = [],
        origin: String? = nil,
        headers: [Header] = [], key: String = WebSocketClientHandshake.randomKey()
    ) throws(IMWireError) {
        self.host = host
        self.target = target
        self.key = key
        self.protocols = protocols
        self.deflateOffers = deflateOffers
        self.origin = origin
        self.headers = headers
        var problems: [Finding] = []
        func malformed(_ message: String) {
            problems.append(WebSocketRules.handshakeMalformed.finding(message, at: nil))
        }
        func isPrintable(_ text: String) -> Bool { text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7f } }
        if host.isEmpty || !isPrintable(host) || host.utf8.contains(0x20) {
            malformed("host `\(host)` is empty or has a space or control character")
        }
        if !target.hasPrefix("/") || !isPrintable(target) || target.utf8.contains(0x20) || target.contains("#") {
            malformed(
                "target `\(target)` is not a path starting with / without spaces, control characters or a fragment")
        }
        for name in protocols where name.isEmpty || !name.utf8.allSatisfy(WebSocketExtensionHeader.isTokenChar) {
            malformed("subprotocol `\(name)` is not a token")
        }
        if let origin, !isPrintable(origin) { malformed("Origin `\(origin)` has a control character") }
        for header in headers {
            if header.name.isEmpty || !header.name.utf8.allSatisfy(WebSocketExtensionHeader.isTokenChar) {
                malformed("field name `\(header.name)` is not a token")
            } else if Self.ownFields.contains(where: { HTTPHead.sameName($0, header.name) }) {
                malformed("\(header.name) is written by the handshake itself")
            }
            if !header.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }) {
                malformed("the value of \(header.name) has a control character")
            }
        }
        guard problems.isEmpty else { throw IMWireError.webSocketHandshake(request: true, findings: problems) }

        var lines = [
            "GET \(target) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
        ]
        if let origin { lines.append("Origin: \(origin)") }
        if !protocols.isEmpty { lines.append("Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))") }
        lines.append("Sec-WebSocket-Version: 13")
        if !deflateOffers.isEmpty {
            lines.append("Sec-WebSocket-Extensions: \(deflateOffers.map(\.headerValue).joined(separator: ", "))")
        }
        lines += headers.map { "\($0.name): \($0.value)" }
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)

        // The capture checker's own request checks: what it would find in this client's capture.
        var findings: [Finding] = []
        _ = WebSocketHandshake.parseRequest(request, findings: &findings)
        let errors = findings.filter { $0.severity == .error }
        guard errors.isEmpty else { throw IMWireError.webSocketHandshake(request: true, findings: errors) }
    }

    /// A fresh `Sec-WebSocket-Key`: 16 bytes from the system's cryptographically strong
    /// generator, in base64 (RFC 6455 §4.1 item 7: a nonce randomly selected for each connection).
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomKey(using: &generator)
    }

    /// A `Sec-WebSocket-Key` from 16 bytes of `generator`.
    public static func randomKey(using generator: inout some RandomNumberGenerator) -> String {
        let high: UInt64 = generator.next()
        let low: UInt64 = generator.next()
        return Base64.encode(
            (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> UInt64(56 - 8 * (index % 8)))
            })
    }

    /// The `Sec-WebSocket-Accept` the server must answer with: base64(SHA-1(key + GUID)).
    public var expectedAccept: String { WebSocketHandshake.acceptValue(forKey: key) }

    /// Validates the server's response to `request` (RFC 6455 §4.1, the client's checks; RFC
    /// 7692 §5 and §7.1 for permessage-deflate): status 101, Upgrade and Connection tokens,
    /// `Sec-WebSocket-Accept`, a subprotocol among those offered (or none), extensions only as
    /// offered, permessage-deflate parameters valid and answering an offer.
    ///
    /// - Parameter response: the server's first bytes, at least through the blank line ending
    ///   the head (`HTTPHead.endOfHead(_:)` says where that is). Bytes after the head (the
    ///   server's first frames, if they came in the same read) are not looked at: feed them to
    ///   the decoder from `negotiation.responseHeadLength` on.
    /// - Returns: what was agreed, with any findings that do not fail the handshake (such as
    ///   `WS.SUBPROTOCOL-NOT-CHOSEN` when the server picked none of the offered subprotocols).
    /// - Throws: `webSocketHandshakeResponse` with every finding about the response, offsets in
    ///   `response`; `handshakeStatus` tells a refusal (401, 403, a redirect) from a broken 101.
    public func validate(response: [UInt8]) throws(IMWireError) -> WebSocketNegotiation {
        let checked = WebSocketHandshake.parse(request: request, response: response)
        guard checked.isUpgraded, let head = checked.response?.head,
            !checked.responseFindings.contains(where: { $0.severity == .error })
        else {
            throw IMWireError.webSocketHandshake(
                request: false, findings: checked.responseFindings, status: checked.response?.status)
        }
        return WebSocketNegotiation(
            subprotocol: checked.subprotocol, permessageDeflate: checked.permessageDeflate,
            responseHeadLength: head.length,
            findings: checked.responseFindings)
    }
}

/// What a client's opening handshake agreed on, and the coders for the connection after it.
public struct WebSocketNegotiation: Sendable, Hashable {
    /// The subprotocol the server chose; nil when it chose none.
    public var subprotocol: String?
    /// permessage-deflate as the server accepted it; nil when it did not.
    public var permessageDeflate: PerMessageDeflateParameters?
    /// Bytes of the response head: the server's first frame starts at this offset of its stream.
    public var responseHeadLength: Int
    /// Findings about the response that do not fail the handshake (warnings, notes).
    public var findings: [Finding]

    /// A negotiation with these results.
    package init(
        subprotocol: String?, permessageDeflate: PerMessageDeflateParameters?, responseHeadLength: Int,
        findings: [Finding] = []
    ) {
        self.subprotocol = subprotocol
        self.permessageDeflate = permessageDeflate
        self.responseHeadLength = responseHeadLength
        self.findings = findings
    }

    /// The stream configuration of one direction (`.receive`: the server's frames).
    public func streamConfiguration(_ direction: Direction = .receive, limits: Limits = .default)
        -> WebSocketStreamConfiguration
    {
        WebSocketStreamConfiguration(direction: direction, permessageDeflate: permessageDeflate, limits: limits)
    }

    /// A decoder for the server's frames, its offsets counted in the server's stream (the first
    /// byte fed is the one after the response head).
    public func serverFrameDecoder(limits: Limits = .default, emitsFrames: Bool = false) -> WebSocketStreamDecoder {
        var configuration = streamConfiguration(.receive, limits: limits)
        configuration.emitsFrames = emitsFrames
        return WebSocketStreamDecoder(configuration, startOffset: responseHeadLength)
    }

    /// An encoder for the client's messages: masked with a fresh random key per frame unless
    /// `maskingKey` is given, compressed when permessage-deflate was agreed.
    public func clientMessageEncoder(
        compressionLevel: Int = -1, fragmentSize: Int? = nil,
        maskingKey: @escaping () -> UInt32 = WebSocketMasking.randomKey
    ) throws(IMWireError) -> WebSocketMessageEncoder {
        try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: permessageDeflate, compressionLevel: compressionLevel,
            fragmentSize: fragmentSize,
            maskingKey: maskingKey)
    }
}

extension IMWireError.Code {
    /// The request a `WebSocketClientHandshake` was to write is invalid: `findings` say why,
    /// their offsets in the request bytes (nil for an argument).
    public static let webSocketHandshakeRequest = Self("websocket.handshake-request")
    /// The server's answer refuses or breaks the upgrade: `findings` say why, their offsets in
    /// the response bytes; `handshakeStatus` tells a refusal (401, 403, a redirect) from a
    /// broken 101.
    public static let webSocketHandshakeResponse = Self("websocket.handshake-response")
}

extension IMWireError {
    /// An opening handshake that failed, with the findings that make it fail, one after another:
    /// `WebSocket handshake failed (response, status 403): …`. `status`: the response's, when it
    /// has a status line.
    package static func webSocketHandshake(request: Bool, findings: [Finding], status: Int? = nil) -> IMWireError {
        let side = request ? "request" : "response"
        return IMWireError(
            request ? .webSocketHandshakeRequest : .webSocketHandshakeResponse,
            findings.map(\.description).joined(separator: "; "),
            summary: "WebSocket handshake failed (\(side)\(status.map { ", status \($0)" } ?? ""))", findings: findings,
            number: status)
    }

    /// For an upgrade the server refused or broke (`webSocketHandshakeResponse`): the
    /// response's status code, when it has a status line (101 for a broken upgrade).
    public var handshakeStatus: Int? { code == .webSocketHandshakeResponse ? number : nil }
}
