import IMWireCore

/// Where the record that carried some plaintext sat in its direction's ciphertext stream, so a caller
/// can map decrypted bytes back to the packet or frame that carried them.
public struct TLSRecordPosition: Sendable, Hashable {
    /// Byte offset of the record's 5-byte header in that direction's TCP stream.
    public var offset: Int
    /// Header plus fragment, in bytes.
    public var length: Int
    /// 0-based number of the record in that direction.
    public var index: Int
    /// Offset of the plaintext's first byte in that direction's decrypted application-data stream.
    public var plaintextOffset: Int

    package init(offset: Int, length: Int, index: Int, plaintextOffset: Int) {
        self.offset = offset
        self.length = length
        self.index = index
        self.plaintextOffset = plaintextOffset
    }
}

/// What feeding a `TLSConnection` produced, in stream order per direction.
public enum TLSEvent: Sendable, Hashable {
    /// Application data decrypted from one record.
    case plaintext(Direction, [UInt8], record: TLSRecordPosition)
    /// A finding; its `offset` is in the ciphertext stream of `location.direction`.
    case finding(Finding)
}

/// Why (part of) a connection was not decrypted.
public enum TLSNotDecryptedReason: Sendable, Hashable, CustomStringConvertible {
    /// The key log has nothing for this client random.
    case noKey(clientRandom: [UInt8])
    /// The key log lacks one secret this connection needs (its NSS label).
    case missingSecret(label: String, clientRandom: [UInt8])
    /// Records did not authenticate under the logged secrets.
    case decryptionFailed
    /// A suite IMWire does not decrypt.
    case unsupportedSuite(TLSCipherSuite)
    /// A version other than TLS 1.2 and 1.3.
    case unsupportedVersion(TLSVersion)
    /// The stream is not TLS, or its record framing was lost.
    case notTLS
    /// A handshake message IMWire could not read, or one missing (e.g. no ClientHello).
    case handshakeMalformed(String)
    /// The stream ended (or the queue bound was hit) before the ServerHello.
    case noServerHello
    /// The stream ended inside a record.
    case truncated
    /// A record of a content type that does not exist.
    case unknownContentType(UInt8)

    public var description: String {
        switch self {
        case .noKey(let random): "no key for client random \(Hex.encode(random))"
        case .missingSecret(let label, let random): "no \(label) for client random \(Hex.encode(random))"
        case .decryptionFailed: "decryption failed"
        case .unsupportedSuite(let suite): "unsupported suite \(suite.name)"
        case .unsupportedVersion(let version): "unsupported version \(version)"
        case .notTLS: "not TLS"
        case .handshakeMalformed(let reason): "handshake malformed: \(reason)"
        case .noServerHello: "no ServerHello"
        case .truncated: "stream ends inside a record"
        case .unknownContentType(let type): "record of unknown content type \(type)"
        }
    }
}

/// Whether a connection's records are decrypted.
public enum TLSDecryptionStatus: Sendable, Hashable, CustomStringConvertible {
    /// Nothing encrypted seen yet (no ServerHello, or keys set but no record opened yet).
    case pending
    /// Records opened under the logged secrets.
    case decrypted
    /// Not decrypted, and why.
    case notDecrypted(TLSNotDecryptedReason)

    public var description: String {
        switch self {
        case .pending: "pending"
        case .decrypted: "decrypted"
        case .notDecrypted(let reason): "not decrypted: \(reason)"
        }
    }
}

/// What the handshake told about a connection, for its report's `tls` member.
public struct TLSFacts: Sendable, Hashable {
    /// Negotiated version (from the ServerHello's supported_versions, else its legacy_version).
    public var version: TLSVersion?
    /// Negotiated suite.
    public var cipherSuite: TLSCipherSuite?
    /// SNI host name from the ClientHello.
    public var serverName: String?
    /// ALPN protocols the client offered.
    public var alpnOffered: [String] = []
    /// ALPN protocol the server chose (ServerHello in 1.2, EncryptedExtensions in 1.3; only when decrypted).
    public var alpn: String?
    /// Versions the client offered in supported_versions (empty: only its legacy_version).
    public var offeredVersions: [TLSVersion] = []
    /// Suites the client offered.
    public var offeredSuites: [TLSCipherSuite] = []
    public var clientRandom: [UInt8]?
    public var serverRandom: [UInt8]?
    /// A HelloRetryRequest was sent.
    public var helloRetryRequest = false
    /// An abbreviated (resumed) handshake: TLS 1.2 without ServerHelloDone, TLS 1.3 with pre_shared_key.
    public var resumed = false
    /// The client offered 0-RTT data (early_data in its ClientHello).
    public var earlyDataOffered = false
    /// KeyUpdate messages seen (both directions).
    public var keyUpdates = 0
    /// Records that failed to authenticate.
    public var failedRecords = 0
    /// Whether the records are decrypted, or why not.
    public var decryption: TLSDecryptionStatus = .pending

    package init() {}
}

/// Byte accounting of one direction: `received == clear + decrypted + skipped + buffered` at all times.
public struct TLSByteCounts: Sendable, Hashable {
    /// Bytes fed.
    public var received = 0
    /// Bytes of records read in clear (handshake before keys, ChangeCipherSpec, clear alerts).
    public var clear = 0
    /// Bytes of records decrypted (headers, nonces and tags included).
    public var decrypted = 0
    /// Bytes not decoded: records without keys, that failed, of unknown type, or not TLS; a truncated tail.
    public var skipped = 0
    /// Bytes waiting for the rest of their record or for the other direction's handshake.
    public var buffered = 0
    /// Application-data plaintext bytes delivered in `.plaintext` events.
    public var plaintext = 0
    /// Why bytes were skipped (the first reason).
    public var skipReason: TLSNotDecryptedReason?

    package init() {}
}
