import Crypto
import IMWireCore

/// A client's upgrade request (RFC 6455 §4.1).
public struct WebSocketUpgradeRequest: Sendable, Hashable {
    package var head: HTTPHead
    public var method: String
    public var target: String
    public var key: String?
    /// `Sec-WebSocket-Protocol`, in the client's order of preference.
    public var protocols: [String]
    /// Every `Sec-WebSocket-Extensions` item offered.
    package var extensions: [WebSocketExtensionItem]
    /// The valid permessage-deflate offers, in order.
    public var deflateOffers: [PerMessageDeflateOffer]
}

/// A server's answer to the upgrade (RFC 6455 §4.2.2).
public struct WebSocketUpgradeResponse: Sendable, Hashable {
    package var head: HTTPHead
    public var status: Int?
    public var subprotocol: String?
    package var extensions: [WebSocketExtensionItem]
}

/// The opening handshake of one connection: both heads, what they negotiated and every finding.
/// Offsets are absolute in each direction's stream (request findings in the client's bytes,
/// response findings in the server's).
public struct WebSocketHandshake: Sendable {
    public var request: WebSocketUpgradeRequest?
    public var response: WebSocketUpgradeResponse?
    /// The subprotocol the server chose (e.g. `lc.protobuf2.3`): it picks the dialect encoding.
    public var subprotocol: String?
    /// permessage-deflate in force, when the server accepted it.
    public var permessageDeflate: PerMessageDeflateParameters?
    /// True when the response is a valid 101 for the request: frames follow.
    public var isUpgraded: Bool
    public var requestFindings: [Finding]
    public var responseFindings: [Finding]

    public var findings: [Finding] { requestFindings + responseFindings }
    /// Whether a conforming server upgrades this request: it parsed and has no error except in
    /// permessage-deflate offers, which a server declines while still upgrading (RFC 7692 §5).
    public var serverAcceptsRequest: Bool {
        request != nil && !requestFindings.contains { $0.severity == .error && !$0.ruleID.rawValue.hasPrefix("PMD.") }
    }
    /// Bytes of the request head: the client's frames begin there.
    package var requestLength: Int? { request?.head.length }
    /// Bytes of the response head: the server's frames begin there.
    package var responseLength: Int? { response?.head.length }

    /// The stream configuration for one direction after this handshake.
    public func streamConfiguration(_ direction: Direction, limits: Limits = .default) -> WebSocketStreamConfiguration {
        WebSocketStreamConfiguration(direction: direction, permessageDeflate: permessageDeflate, limits: limits)
    }

    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// Longest head accepted (bytes).
    package static let maxHeadLength = 16 << 10

    /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)) (RFC 6455 §4.2.2).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(Array(Insecure.SHA1.hash(data: Array((key + guid).utf8))))
    }

    /// Parses and validates the request (the client's first bytes) and, when given, the response
    /// (the server's first bytes).
    public static func parse(request requestBytes: [UInt8], response responseBytes: [UInt8]?) -> WebSocketHandshake {
        var requestFindings: [Finding] = []
        let request = parseRequest(requestBytes, findings: &requestFindings)
        var handshake = WebSocketHandshake(
            request: request, response: nil, subprotocol: nil, permessageDeflate: nil, isUpgraded: false,
            requestFindings: requestFindings, responseFindings: [])
        if let responseBytes { handshake.validateResponse(responseBytes) }
        return handshake
    }

    /// Validates an upgrade whose heads were parsed already (by an HTTP reader; offsets from each
    /// head's first byte): the same checks as `parse`, without reading the bytes again.
    package static func check(requestHead: HTTPHead, responseHead: HTTPHead) -> WebSocketHandshake {
        var requestFindings: [Finding] = []
        let request = checkRequest(requestHead, findings: &requestFindings)
        var handshake = WebSocketHandshake(
            request: request, response: nil, subprotocol: nil, permessageDeflate: nil, isUpgraded: false,
            requestFindings: requestFindings, responseFindings: [])
        handshake.checkResponse(responseHead)
        return handshake
    }

    /// Parses a request head and checks it.
    package static func parseRequest(_ bytes: [UInt8], findings: inout [Finding]) -> WebSocketUpgradeRequest? {
        guard let head = HTTPHead.parse(bytes, baseOffset: 0, maxLength: maxHeadLength, findings: &findings) else {
            return nil
        }
        return checkRequest(head, findings: &findings)
    }

    /// Checks a parsed request head.
    static func checkRequest(_ head: HTTPHead, findings: inout [Finding]) -> WebSocketUpgradeRequest {
        let method = head.startLine.first ?? ""
        let target = head.startLine.count > 1 ? head.startLine[1] : ""
        let version = head.startLine.count > 2 ? head.startLine[2] : ""
        if method != "GET" {
            findings.append(WebSocketRules.handshakeMethod.finding("method \(method), not GET", at: 0))
        }
        if !isHTTP11OrLater(version) {
            findings.append(
                WebSocketRules.handshakeMethod.finding("version `\(version)`, not HTTP/1.1 or later", at: 0))
        }
        if head.fields("Host").count != 1 {
            findings.append(
                WebSocketRules.handshakeMalformed.finding(
                    "\(head.fields("Host").count) Host fields; exactly one is required", at: 0))
        }
        checkUpgradeFields(head, &findings)
        let versions = head.fields("Sec-WebSocket-Version")
        if versions.count != 1 || versions.first?.value != "13" {
            let seen = versions.map(\.value).joined(separator: ", ")
            findings.append(
                WebSocketRules.handshakeVersion.finding(
                    versions.isEmpty ? "Sec-WebSocket-Version missing" : "Sec-WebSocket-Version `\(seen)`, not 13",
                    at: versions.first?.offset ?? 0))
        }
        let keys = head.fields("Sec-WebSocket-Key")
        var key: String?
        if keys.count != 1 {
            findings.append(
                WebSocketRules.handshakeKey.finding(
                    "\(keys.count) Sec-WebSocket-Key fields; exactly one is required",
                    at: keys.dropFirst().first?.offset ?? 0))
        } else if let field = keys.first {
            key = field.value
            let decoded = try? Base64.decode(field.value)
            if decoded?.count != 16 {
                findings.append(
                    WebSocketRules.handshakeKey.finding(
                        "Sec-WebSocket-Key `\(field.value)` is not the base64 of 16 bytes", at: field.offset))
            }
        }
        let protocols = head.listValues("Sec-WebSocket-Protocol")
        if Set(protocols).count != protocols.count {
            findings.append(
                WebSocketRules.handshakeMalformed.finding(
                    "Sec-WebSocket-Protocol repeats a subprotocol",
                    at: head.fields("Sec-WebSocket-Protocol").first?.offset ?? 0))
        }
        var items: [WebSocketExtensionItem] = []
        var offers: [PerMessageDeflateOffer] = []
        for field in head.fields("Sec-WebSocket-Extensions") {
            let valueOffset = valueStart(field)
            switch WebSocketExtensionHeader.parse(field.value) {
            case .failure(let error):
                findings.append(
                    WebSocketRules.handshakeMalformed.finding(
                        "Sec-WebSocket-Extensions: \(error.reason)", at: valueOffset + error.offset))
            case .success(let parsed):
                for item in parsed {
                    items.append(item)
                    guard item.name == PerMessageDeflate.name else { continue }
                    let (offer, valid) = PerMessageDeflate.readParameters(
                        item, isResponse: false, baseOffset: valueOffset, findings: &findings)
                    if valid { offers.append(offer) }
                }
            }
        }
        return WebSocketUpgradeRequest(
            head: head, method: method, target: target, key: key, protocols: protocols, extensions: items,
            deflateOffers: offers)
    }

    /// Parses the response head and checks it against the request.
    mutating func validateResponse(_ bytes: [UInt8]) {
        var findings: [Finding] = []
        guard let head = HTTPHead.parse(bytes, baseOffset: 0, maxLength: Self.maxHeadLength, findings: &findings) else {
            responseFindings = findings
            return
        }
        checkResponse(head, findings: findings)
    }

    /// Checks a parsed response head against the request (after `findings` its parse gave).
    mutating func checkResponse(_ head: HTTPHead, findings parseFindings: [Finding] = []) {
        var findings = parseFindings
        defer { responseFindings = findings }
        let version = head.startLine.first ?? ""
        let status = head.startLine.count > 1 ? Int(head.startLine[1]) : nil
        var response = WebSocketUpgradeResponse(head: head, status: status, subprotocol: nil, extensions: [])
        defer { self.response = response }
        if !Self.isHTTP11OrLater(version) {
            findings.append(
                WebSocketRules.handshakeMalformed.finding("version `\(version)`, not HTTP/1.1 or later", at: 0))
        }
        guard status == 101 else {
            findings.append(
                WebSocketRules.handshakeStatus.finding(
                    "status \(head.startLine.count > 1 ? head.startLine[1] : "missing"), not 101 Switching Protocols",
                    at: 0))
            return
        }
        var valid = true
        let before = findings.count
        Self.checkUpgradeFields(head, &findings)
        let accepts = head.fields("Sec-WebSocket-Accept")
        if accepts.count != 1 {
            findings.append(
                WebSocketRules.handshakeAccept.finding(
                    "\(accepts.count) Sec-WebSocket-Accept fields; exactly one is required", at: 0))
        } else if let field = accepts.first, let key = request?.key, field.value != Self.acceptValue(forKey: key) {
            findings.append(
                WebSocketRules.handshakeAccept.finding(
                    "Sec-WebSocket-Accept `\(field.value)`, expected `\(Self.acceptValue(forKey: key))`",
                    at: field.offset))
        }
        let offered = request?.protocols ?? []
        let chosen = head.listValues("Sec-WebSocket-Protocol")
        let protocolOffset = head.fields("Sec-WebSocket-Protocol").first?.offset ?? 0
        if chosen.count > 1 {
            findings.append(
                WebSocketRules.subprotocolNotOffered.finding(
                    "the server chose \(chosen.count) subprotocols", at: protocolOffset))
        } else if let only = chosen.first {
            if offered.contains(only) {
                response.subprotocol = only
            } else {
                findings.append(
                    WebSocketRules.subprotocolNotOffered.finding(
                        "subprotocol `\(only)` was not offered (\(offered.joined(separator: ", ")))", at: protocolOffset
                    ))
            }
        } else if !offered.isEmpty {
            findings.append(
                WebSocketRules.subprotocolNotChosen.finding(
                    "none of \(offered.joined(separator: ", ")) was chosen", at: 0))
        }
        let offeredNames = Set((request?.extensions ?? []).map(\.name))
        var deflate: PerMessageDeflateParameters?
        for field in head.fields("Sec-WebSocket-Extensions") {
            let valueOffset = Self.valueStart(field)
            switch WebSocketExtensionHeader.parse(field.value) {
            case .failure(let error):
                findings.append(
                    WebSocketRules.handshakeMalformed.finding(
                        "Sec-WebSocket-Extensions: \(error.reason)", at: valueOffset + error.offset))
            case .success(let items):
                for item in items {
                    response.extensions.append(item)
                    guard offeredNames.contains(item.name) else {
                        findings.append(
                            WebSocketRules.extensionNotOffered.finding(
                                "extension `\(item.name)` was not offered", at: valueOffset + item.offset))
                        continue
                    }
                    guard item.name == PerMessageDeflate.name else { continue }
                    if deflate != nil {
                        findings.append(
                            WebSocketRules.acceptedTwice.finding(
                                "permessage-deflate accepted again", at: valueOffset + item.offset))
                        continue
                    }
                    let (answer, ok) = PerMessageDeflate.readParameters(
                        item, isResponse: true, baseOffset: valueOffset, findings: &findings)
                    guard ok else { continue }
                    deflate = PerMessageDeflate.negotiate(
                        offers: request?.deflateOffers ?? [], response: answer,
                        responseOffset: valueOffset + item.offset, findings: &findings)
                }
            }
        }
        valid = !findings[before...].contains { $0.severity == .error }
        if valid {
            subprotocol = response.subprotocol
            permessageDeflate = deflate
        }
        isUpgraded = valid && request != nil
    }

    static func checkUpgradeFields(_ head: HTTPHead, _ findings: inout [Finding]) {
        if !head.listContains("Upgrade", token: "websocket") {
            findings.append(
                WebSocketRules.handshakeUpgrade.finding(
                    "Upgrade `\(head.value("Upgrade") ?? "")` does not name websocket",
                    at: head.fields("Upgrade").first?.offset ?? 0))
        }
        if !head.listContains("Connection", token: "upgrade") {
            findings.append(
                WebSocketRules.handshakeUpgrade.finding(
                    "Connection `\(head.value("Connection") ?? "")` lacks the upgrade token",
                    at: head.fields("Connection").first?.offset ?? 0))
        }
    }

    static func isHTTP11OrLater(_ version: String) -> Bool {
        if version == "HTTP/1.1" { return true }  // nearly every message: no splitting
        guard version.hasPrefix("HTTP/") else { return false }
        let number = version.dropFirst(5).split(separator: ".")
        guard number.count == 2, let major = Int(number[0]), let minor = Int(number[1]) else { return false }
        return major > 1 || (major == 1 && minor >= 1)
    }

    static func valueStart(_ field: HTTPHead.Field) -> Int { field.valueOffset }
}
