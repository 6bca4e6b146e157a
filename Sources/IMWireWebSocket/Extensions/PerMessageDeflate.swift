import IMWireCore

/// permessage-deflate parameters in force on a connection (RFC 7692 §7), as the server's
/// response set them. "client" parameters govern what the client compresses (the `.send`
/// direction), "server" parameters what the server compresses (`.receive`).
public struct PerMessageDeflateParameters: Sendable, Hashable, CustomStringConvertible {
    public var serverNoContextTakeover: Bool
    public var clientNoContextTakeover: Bool
    /// 8...15; 15 when the response does not say.
    public var serverMaxWindowBits: Int
    public var clientMaxWindowBits: Int

    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// Whether the sender of `direction` resets its compressor after every message.
    public func noContextTakeover(_ direction: Direction) -> Bool {
        direction == .send ? clientNoContextTakeover : serverNoContextTakeover
    }

    /// The LZ77 window the sender of `direction` may use.
    public func maxWindowBits(_ direction: Direction) -> Int {
        direction == .send ? clientMaxWindowBits : serverMaxWindowBits
    }

    /// The response header value that sets exactly these parameters.
    public var headerValue: String {
        var parts = ["permessage-deflate"]
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if serverMaxWindowBits != 15 { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
        if clientMaxWindowBits != 15 { parts.append("client_max_window_bits=\(clientMaxWindowBits)") }
        return parts.joined(separator: "; ")
    }

    public var description: String { headerValue }
}

/// One permessage-deflate offer from a client (RFC 7692 §7.1).
public struct PerMessageDeflateOffer: Sendable, Hashable {
    /// The `client_max_window_bits` of an offer.
    public enum ClientWindowBits: Sendable, Hashable {
        /// The parameter is absent: the server must not send client_max_window_bits.
        case absent
        /// Present without a value: the client supports any value the server picks.
        case anyValue
        /// The largest window (8...15) the client will compress with.
        case value(Int)
    }

    /// Asks the server to reset its compressor after every message.
    public var serverNoContextTakeover = false
    /// Tells the server the client resets its compressor after every message.
    public var clientNoContextTakeover = false
    /// The largest window (8...15) the server may compress with; nil: any.
    public var serverMaxWindowBits: Int?
    /// Whether and how the client lets the server limit the client's window.
    public var clientMaxWindowBits = ClientWindowBits.absent

    /// An offer with these parameters; `PerMessageDeflateOffer()` offers plain permessage-deflate.
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int? = nil,
        clientMaxWindowBits: ClientWindowBits = .absent
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// The offer as a `Sec-WebSocket-Extensions` element
    /// (`permessage-deflate; client_max_window_bits`), parameters in RFC 7692 §7.1's order.
    public var headerValue: String {
        var parts = [PerMessageDeflate.name]
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if let serverMaxWindowBits { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
        switch clientMaxWindowBits {
        case .absent: break
        case .anyValue: parts.append("client_max_window_bits")
        case .value(let bits): parts.append("client_max_window_bits=\(bits)")
        }
        return parts.joined(separator: "; ")
    }
}

/// Parsing and negotiation of permessage-deflate, with findings for every deviation.
public enum PerMessageDeflate {
    public static let name = "permessage-deflate"

    private static let known = [
        "server_no_context_takeover", "client_no_context_takeover", "server_max_window_bits", "client_max_window_bits",
    ]

    /// Reads the parameters of one `permessage-deflate` item. `isResponse` makes a value for
    /// client_max_window_bits mandatory. Offsets in findings are `baseOffset` + the item's offsets.
    static func readParameters(
        _ item: WebSocketExtensionItem, isResponse: Bool, baseOffset: Int, findings: inout [Finding]
    ) -> (offer: PerMessageDeflateOffer, valid: Bool) {
        var offer = PerMessageDeflateOffer()
        var valid = true
        var seen: [String] = []
        for parameter in item.parameters {
            let at = baseOffset + parameter.offset
            func invalid(_ message: String) {
                valid = false
                findings.append(WebSocketRules.parameterInvalid.finding(message, at: at))
            }
            guard known.contains(parameter.name) else {
                invalid("unknown parameter \(parameter.name)")
                continue
            }
            if seen.contains(parameter.name) {
                invalid("\(parameter.name) given twice")
                continue
            }
            seen.append(parameter.name)
            switch parameter.name {
            case "server_no_context_takeover", "client_no_context_takeover":
                if parameter.value != nil {
                    invalid("\(parameter.name) takes no value")
                    continue
                }
                if parameter.name == "server_no_context_takeover" {
                    offer.serverNoContextTakeover = true
                } else {
                    offer.clientNoContextTakeover = true
                }
            default:
                guard let text = parameter.value else {
                    if parameter.name == "client_max_window_bits", !isResponse {
                        offer.clientMaxWindowBits = .anyValue
                    } else {
                        invalid("\(parameter.name) needs a value")
                    }
                    continue
                }
                guard let bits = windowBits(text) else {
                    invalid("\(parameter.name)=\(text) is not an integer 8...15 without leading zeros")
                    continue
                }
                if bits == 8 {
                    findings.append(
                        WebSocketRules.windowBitsEight.finding(
                            """
                            \(parameter.name)=8: zlib cannot compress raw deflate with an 8-bit \
                            window; IMWire compresses with 9, whose distances stay within 256 bytes
                            """,
                            at: at))
                }
                if parameter.name == "server_max_window_bits" {
                    offer.serverMaxWindowBits = bits
                } else {
                    offer.clientMaxWindowBits = .value(bits)
                }
            }
        }
        return (offer, valid)
    }

    /// "1*DIGIT" 8...15 without leading zeros (RFC 7692 §7.1.2.1).
    static func windowBits(_ text: String) -> Int? {
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            text.utf8.first != UInt8(ascii: "0"),
            text.utf8.count <= 2, let value = Int(text), (8...15).contains(value)
        else { return nil }
        return value
    }

    /// The parameters a response sets, checked against the client's offers (RFC 7692 §7.1):
    /// client_max_window_bits only if some offer allowed it, server_max_window_bits no larger
    /// than an offer asked for, and at least one offer compatible with the whole response.
    static func negotiate(
        offers: [PerMessageDeflateOffer], response: PerMessageDeflateOffer, responseOffset: Int,
        findings: inout [Finding]
    ) -> PerMessageDeflateParameters {
        var parameters = PerMessageDeflateParameters(
            serverNoContextTakeover: response.serverNoContextTakeover,
            clientNoContextTakeover: response.clientNoContextTakeover,
            serverMaxWindowBits: response.serverMaxWindowBits ?? 15, clientMaxWindowBits: 15)
        if case .value(let bits) = response.clientMaxWindowBits { parameters.clientMaxWindowBits = bits }

        let compatible = offers.contains { offer in
            if offer.serverNoContextTakeover, !response.serverNoContextTakeover { return false }
            if let asked = offer.serverMaxWindowBits, (response.serverMaxWindowBits ?? 15) > asked { return false }
            if case .value(let given) = response.clientMaxWindowBits {
                switch offer.clientMaxWindowBits {
                case .absent: return false
                case .anyValue: return true
                case .value(let limit): return given <= limit
                }
            }
            return true
        }
        if !compatible {
            findings.append(
                WebSocketRules.parameterNotRequested.finding(
                    "the response `\(parameters.headerValue)` answers none of the \(offers.count) offers",
                    at: responseOffset))
        }
        return parameters
    }
}

extension PerMessageDeflateParameters {
    /// The parameters a server's `Sec-WebSocket-Extensions` value sets for permessage-deflate,
    /// without checking them against an offer; nil when the value has no valid
    /// permessage-deflate item.
    public init?(responseHeader value: String) {
        guard case .success(let items) = WebSocketExtensionHeader.parse(value),
            let item = items.first(where: { $0.name == PerMessageDeflate.name })
        else { return nil }
        var findings: [Finding] = []
        let (answer, valid) = PerMessageDeflate.readParameters(
            item, isResponse: true, baseOffset: 0, findings: &findings)
        guard valid else { return nil }
        var bits = 15
        if case .value(let given) = answer.clientMaxWindowBits { bits = given }
        self.init(
            serverNoContextTakeover: answer.serverNoContextTakeover,
            clientNoContextTakeover: answer.clientNoContextTakeover,
            serverMaxWindowBits: answer.serverMaxWindowBits ?? 15, clientMaxWindowBits: bits)
    }
}

extension PerMessageDeflateParameters {
    /// What a server sets by accepting the first of a client's offers as it stands (RFC 7692
    /// §7.1): server_no_context_takeover and server_max_window_bits when the offer asks for
    /// them, client_no_context_takeover when the client announced it, client_max_window_bits
    /// only when the offer gave it a value (a bare `client_max_window_bits` leaves the client's
    /// window at 15). nil when there is no offer. `headerValue` is the response's
    /// `Sec-WebSocket-Extensions` value.
    public init?(accepting offers: [PerMessageDeflateOffer]) {
        guard let offer = offers.first else { return nil }
        var clientBits = 15
        if case .value(let bits) = offer.clientMaxWindowBits { clientBits = bits }
        self.init(
            serverNoContextTakeover: offer.serverNoContextTakeover,
            clientNoContextTakeover: offer.clientNoContextTakeover,
            serverMaxWindowBits: offer.serverMaxWindowBits ?? 15, clientMaxWindowBits: clientBits)
    }
}
