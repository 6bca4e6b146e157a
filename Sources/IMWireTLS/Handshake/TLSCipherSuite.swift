/// A protocol version as it appears on the wire (`0x0303` is TLS 1.2, `0x0304` TLS 1.3).
public struct TLSVersion: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let ssl3 = TLSVersion(rawValue: 0x0300)
    public static let tls10 = TLSVersion(rawValue: 0x0301)
    public static let tls11 = TLSVersion(rawValue: 0x0302)
    public static let tls12 = TLSVersion(rawValue: 0x0303)
    public static let tls13 = TLSVersion(rawValue: 0x0304)

    /// `TLS 1.2`, or the hex of an unknown value (GREASE, drafts).
    public var description: String {
        switch rawValue {
        case 0x0300: "SSL 3.0"
        case 0x0301: "TLS 1.0"
        case 0x0302: "TLS 1.1"
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        default: "0x" + hex16(rawValue)
        }
    }
}

/// The AEAD a supported suite encrypts records with.
package enum TLSAEAD: Sendable, Hashable {
    case aes128GCM
    case aes256GCM
    case chacha20Poly1305

    /// Key length in bytes.
    package var keyLength: Int { self == .aes128GCM ? 16 : 32 }
}

/// A cipher suite by its code point, with its IANA name when IMWire knows it and, for the suites
/// IMWire decrypts, the AEAD and hash.
public struct TLSCipherSuite: Sendable, Hashable, CustomStringConvertible {
    public let code: UInt16

    public init(code: UInt16) { self.code = code }

    /// The IANA name (`TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`), or `0xc0ff` for one IMWire does not name.
    public var name: String { Self.names[code] ?? ("0x" + hex16(code)) }
    public var description: String { name }

    /// Whether this is a TLS 1.3 suite (0x13xx).
    public var isTLS13: Bool { code >> 8 == 0x13 }

    /// The AEAD and hash, for the suites IMWire decrypts; nil for the others.
    package var decryption: (aead: TLSAEAD, hash: TLSHash)? {
        switch code {
        case 0x1301, 0xc02f, 0xc02b, 0x009c, 0x009e: (.aes128GCM, .sha256)
        case 0x1302, 0xc030, 0xc02c, 0x009d, 0x009f: (.aes256GCM, .sha384)
        case 0x1303, 0xcca8, 0xcca9, 0xccaa: (.chacha20Poly1305, .sha256)
        default: nil
        }
    }

    private static let names: [UInt16: String] = [
        0x1301: "TLS_AES_128_GCM_SHA256",
        0x1302: "TLS_AES_256_GCM_SHA384",
        0x1303: "TLS_CHACHA20_POLY1305_SHA256",
        0x1304: "TLS_AES_128_CCM_SHA256",
        0x1305: "TLS_AES_128_CCM_8_SHA256",
        0xc02b: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        0xc02c: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        0xc02f: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        0xc030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xcca8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0xcca9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        0xccaa: "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0x009c: "TLS_RSA_WITH_AES_128_GCM_SHA256",
        0x009d: "TLS_RSA_WITH_AES_256_GCM_SHA384",
        0x009e: "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256",
        0x009f: "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384",
        0x0004: "TLS_RSA_WITH_RC4_128_MD5",
        0x0005: "TLS_RSA_WITH_RC4_128_SHA",
        0x000a: "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
        0x002f: "TLS_RSA_WITH_AES_128_CBC_SHA",
        0x0033: "TLS_DHE_RSA_WITH_AES_128_CBC_SHA",
        0x0035: "TLS_RSA_WITH_AES_256_CBC_SHA",
        0x0039: "TLS_DHE_RSA_WITH_AES_256_CBC_SHA",
        0x003c: "TLS_RSA_WITH_AES_128_CBC_SHA256",
        0x003d: "TLS_RSA_WITH_AES_256_CBC_SHA256",
        0x0067: "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256",
        0x006b: "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256",
        0x00ff: "TLS_EMPTY_RENEGOTIATION_INFO_SCSV",
        0x5600: "TLS_FALLBACK_SCSV",
        0xc009: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        0xc00a: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        0xc013: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        0xc014: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        0xc023: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
        0xc024: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
        0xc027: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
        0xc028: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
        0xc09c: "TLS_RSA_WITH_AES_128_CCM",
        0xc09d: "TLS_RSA_WITH_AES_256_CCM",
        0xc0ac: "TLS_ECDHE_ECDSA_WITH_AES_128_CCM",
        0xc0ad: "TLS_ECDHE_ECDSA_WITH_AES_256_CCM",
    ]
}

/// Four lowercase hex digits.
func hex16(_ value: UInt16) -> String {
    let digits = Array("0123456789abcdef")
    return String([12, 8, 4, 0].map { digits[Int((value >> UInt16($0)) & 0xf)] })
}
