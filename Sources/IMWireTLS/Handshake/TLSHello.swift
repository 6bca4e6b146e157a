import IMWireCore

/// What IMWire reads from a ClientHello (RFC 8446 §4.1.2, RFC 5246 §7.4.1.2).
package struct TLSClientHello: Sendable, Hashable {
    package var legacyVersion: TLSVersion
    package var random: [UInt8]
    package var sessionID: [UInt8]
    package var cipherSuites: [TLSCipherSuite]
    /// server_name (RFC 6066 §3): the first host_name entry.
    package var serverName: String?
    /// application_layer_protocol_negotiation (RFC 7301): the protocols offered.
    package var alpn: [String]
    /// supported_versions (RFC 8446 §4.2.1): the versions offered; empty when absent.
    package var supportedVersions: [TLSVersion]
    /// Whether the early_data extension is present (0-RTT offered).
    package var offersEarlyData: Bool
    /// Extension types in order.
    package var extensionTypes: [UInt16]

    /// Parses a ClientHello body (after the 4-byte handshake header). Throws a reason.
    package init(body: [UInt8]) throws(IMWireError) {
        var cursor = TLSCursor(body)
        legacyVersion = TLSVersion(rawValue: try cursor.u16("legacy_version"))
        random = try cursor.bytes(32, "random")
        sessionID = try cursor.vector8("legacy_session_id")
        guard sessionID.count <= 32 else {
            throw IMWireError(.tlsHandshakeSyntax, "legacy_session_id longer than 32 bytes")
        }
        let suites = try cursor.vector16("cipher_suites")
        guard suites.count % 2 == 0, !suites.isEmpty else {
            throw IMWireError(.tlsHandshakeSyntax, "cipher_suites of odd or zero length")
        }
        cipherSuites = stride(from: 0, to: suites.count - 1, by: 2).map {
            TLSCipherSuite(code: UInt16(suites[$0]) << 8 | UInt16(suites[$0 + 1]))
        }
        _ = try cursor.vector8("legacy_compression_methods")
        serverName = nil
        alpn = []
        supportedVersions = []
        offersEarlyData = false
        extensionTypes = []
        guard !cursor.isAtEnd else { return }  // extensions are optional before TLS 1.3
        var extensions = TLSCursor(try cursor.vector16("extensions"))
        guard cursor.isAtEnd else { throw IMWireError(.tlsHandshakeSyntax, "bytes after the extensions") }
        while !extensions.isAtEnd {
            let type = try extensions.u16("extension type")
            var data = TLSCursor(try extensions.vector16("extension data"))
            extensionTypes.append(type)
            switch type {
            case 0:  // server_name
                var list = TLSCursor(try data.vector16("server_name_list"))
                while !list.isAtEnd {
                    let nameType = try list.u8("name_type")
                    let name = try list.vector16("host_name")
                    if nameType == 0, serverName == nil { serverName = String(decoding: name, as: UTF8.self) }
                }
            case 16:  // ALPN
                alpn = try Self.protocolNames(&data)
            case 43:  // supported_versions
                let list = try data.vector8("supported_versions")
                guard list.count % 2 == 0 else {
                    throw IMWireError(.tlsHandshakeSyntax, "supported_versions of odd length")
                }
                supportedVersions = stride(from: 0, to: list.count - 1, by: 2).map {
                    TLSVersion(rawValue: UInt16(list[$0]) << 8 | UInt16(list[$0 + 1]))
                }
            case 42:
                offersEarlyData = true
            default:
                break
            }
        }
    }

    /// protocol_name_list (RFC 7301 §3.1).
    static func protocolNames(_ data: inout TLSCursor) throws(IMWireError) -> [String] {
        var list = TLSCursor(try data.vector16("protocol_name_list"))
        var names: [String] = []
        while !list.isAtEnd {
            names.append(String(decoding: try list.vector8("protocol_name"), as: UTF8.self))
        }
        return names
    }
}

/// What IMWire reads from a ServerHello or HelloRetryRequest (RFC 8446 §4.1.3, §4.1.4; RFC 5246 §7.4.1.3).
package struct TLSServerHello: Sendable, Hashable {
    /// RFC 8446 §4.1.3: a ServerHello with this random is a HelloRetryRequest (SHA-256 of "HelloRetryRequest").
    package static let helloRetryRequestRandom: [UInt8] = [
        0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
        0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
    ]

    package var legacyVersion: TLSVersion
    package var random: [UInt8]
    package var sessionID: [UInt8]
    package var cipherSuite: TLSCipherSuite
    /// supported_versions' selected_version, when present.
    package var selectedVersion: TLSVersion?
    /// ALPN chosen in the ServerHello (TLS 1.2; TLS 1.3 sends it in EncryptedExtensions).
    package var alpn: String?
    /// Whether the pre_shared_key extension is present (TLS 1.3 resumption, RFC 8446 §4.2.11).
    package var acceptsPreSharedKey: Bool

    /// Whether this is a HelloRetryRequest.
    package var isHelloRetryRequest: Bool { random == Self.helloRetryRequestRandom }

    /// The negotiated version: selected_version if present, else legacy_version.
    package var version: TLSVersion { selectedVersion ?? legacyVersion }

    /// Parses a ServerHello body (after the 4-byte handshake header).
    package init(body: [UInt8]) throws(IMWireError) {
        var cursor = TLSCursor(body)
        legacyVersion = TLSVersion(rawValue: try cursor.u16("legacy_version"))
        random = try cursor.bytes(32, "random")
        sessionID = try cursor.vector8("legacy_session_id_echo")
        guard sessionID.count <= 32 else {
            throw IMWireError(.tlsHandshakeSyntax, "legacy_session_id_echo longer than 32 bytes")
        }
        cipherSuite = TLSCipherSuite(code: try cursor.u16("cipher_suite"))
        _ = try cursor.u8("legacy_compression_method")
        selectedVersion = nil
        alpn = nil
        acceptsPreSharedKey = false
        guard !cursor.isAtEnd else { return }
        var extensions = TLSCursor(try cursor.vector16("extensions"))
        guard cursor.isAtEnd else { throw IMWireError(.tlsHandshakeSyntax, "bytes after the extensions") }
        while !extensions.isAtEnd {
            let type = try extensions.u16("extension type")
            var data = TLSCursor(try extensions.vector16("extension data"))
            switch type {
            case 43: selectedVersion = TLSVersion(rawValue: try data.u16("selected_version"))
            case 16: alpn = try TLSClientHello.protocolNames(&data).first
            case 41: acceptsPreSharedKey = true
            default: break
            }
        }
    }
}

/// The ALPN protocol an EncryptedExtensions message (RFC 8446 §4.3.1) selects, if any.
func encryptedExtensionsALPN(body: [UInt8]) throws(IMWireError) -> String? {
    var cursor = TLSCursor(body)
    var extensions = TLSCursor(try cursor.vector16("extensions"))
    var alpn: String?
    while !extensions.isAtEnd {
        let type = try extensions.u16("extension type")
        var data = TLSCursor(try extensions.vector16("extension data"))
        if type == 16 { alpn = try TLSClientHello.protocolNames(&data).first }
    }
    return alpn
}

extension IMWireError.Code {
    /// A TLS handshake message (a ClientHello, a ServerHello, EncryptedExtensions) that cannot be
    /// parsed: a vector past its end, a length of the wrong parity, bytes after the extensions.
    public static let tlsHandshakeSyntax = Self("tls.handshake-syntax")
}

/// A bounds-checked reader over bytes: every read checks its length and throws instead of trapping.
struct TLSCursor {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func u8(_ what: String) throws(IMWireError) -> UInt8 {
        guard remaining >= 1 else { throw IMWireError(.tlsHandshakeSyntax, "truncated at \(what)") }
        position += 1
        return bytes[position - 1]
    }

    mutating func u16(_ what: String) throws(IMWireError) -> UInt16 {
        guard remaining >= 2 else { throw IMWireError(.tlsHandshakeSyntax, "truncated at \(what)") }
        position += 2
        return UInt16(bytes[position - 2]) << 8 | UInt16(bytes[position - 1])
    }

    mutating func bytes(_ count: Int, _ what: String) throws(IMWireError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw IMWireError(.tlsHandshakeSyntax, "truncated at \(what)") }
        position += count
        return Array(bytes[(position - count)..<position])
    }

    mutating func vector8(_ what: String) throws(IMWireError) -> [UInt8] {
        let length = Int(try u8(what))
        return try bytes(length, what)
    }

    mutating func vector16(_ what: String) throws(IMWireError) -> [UInt8] {
        let length = Int(try u16(what))
        return try bytes(length, what)
    }
}
