import IMWireCore

/// The secrets an NSS key log gives for one TLS connection (one client random). TLS 1.2 needs
/// `masterSecret`; TLS 1.3 needs the handshake and first application traffic secrets.
package struct TLSSecrets: Sendable, Hashable {
    /// `CLIENT_RANDOM`: the TLS 1.2 (or earlier) master secret, 48 bytes.
    package var masterSecret: [UInt8]?
    /// `CLIENT_HANDSHAKE_TRAFFIC_SECRET`
    package var clientHandshakeTrafficSecret: [UInt8]?
    /// `SERVER_HANDSHAKE_TRAFFIC_SECRET`
    package var serverHandshakeTrafficSecret: [UInt8]?
    /// `CLIENT_TRAFFIC_SECRET_0`
    package var clientTrafficSecret0: [UInt8]?
    /// `SERVER_TRAFFIC_SECRET_0`
    package var serverTrafficSecret0: [UInt8]?
    /// `EXPORTER_SECRET` (kept, not used)
    package var exporterSecret: [UInt8]?
    /// `CLIENT_EARLY_TRAFFIC_SECRET` (kept; 0-RTT data is not decrypted)
    package var clientEarlyTrafficSecret: [UInt8]?
    /// `EARLY_EXPORTER_SECRET` (kept, not used)
    package var earlyExporterSecret: [UInt8]?

    package init() {}

    /// Every field that `other` sets replaces this one's (a later key-log line wins, as in tshark).
    package mutating func merge(_ other: TLSSecrets) {
        if let value = other.masterSecret { masterSecret = value }
        if let value = other.clientHandshakeTrafficSecret { clientHandshakeTrafficSecret = value }
        if let value = other.serverHandshakeTrafficSecret { serverHandshakeTrafficSecret = value }
        if let value = other.clientTrafficSecret0 { clientTrafficSecret0 = value }
        if let value = other.serverTrafficSecret0 { serverTrafficSecret0 = value }
        if let value = other.exporterSecret { exporterSecret = value }
        if let value = other.clientEarlyTrafficSecret { clientEarlyTrafficSecret = value }
        if let value = other.earlyExporterSecret { earlyExporterSecret = value }
    }
}

extension IMWireError.Code {
    /// A key-log line that IMWire cannot read (`line`: its number): a known label with a wrong
    /// field count, bad hex, or a random or secret of the wrong length.
    public static let tlsKeyLog = Self("tls.key-log")
}

extension IMWireError {
    /// `key log line 3: CLIENT_RANDOM needs 2 fields, found 1`; `line` is 1-based in the text parsed.
    package static func keyLog(line: Int, _ reason: String) -> IMWireError {
        IMWireError(.tlsKeyLog, reason, summary: "key log", line: line)
    }
}

/// Secrets from NSS key-log text (`SSLKEYLOGFILE`, Python's `keylog_filename`, Node's `--tls-keylog`,
/// pcapng Decryption Secrets Blocks), indexed by the 32-byte client random.
///
/// Comments (`#`), blank lines and unknown labels are ignored; a malformed line of a known label is
/// an error naming its line. Logs merge in order: a later secret of the same label and random wins.
public struct TLSKeyLog: Sendable, Hashable {
    private var entries: [[UInt8]: TLSSecrets] = [:]

    public init() {}

    /// Parses NSS key-log text.
    public init(parsing text: String) throws(IMWireError) {
        try add(parsing: text)
    }

    /// Parses NSS key-log bytes (a file, a pcapng DSB): must be UTF-8 (the format is ASCII).
    public init(parsing bytes: [UInt8]) throws(IMWireError) {
        try add(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// Number of client randoms with at least one secret.
    public var count: Int { entries.count }

    /// Whether no secret was read.
    public var isEmpty: Bool { entries.isEmpty }

    /// Client randoms with secrets (unordered).
    package var clientRandoms: [[UInt8]] { Array(entries.keys) }

    /// The secrets logged for `clientRandom` (32 bytes), if any.
    package func secrets(forClientRandom clientRandom: [UInt8]) -> TLSSecrets? {
        entries[clientRandom]
    }

    /// Adds (or replaces) secrets for a client random.
    package mutating func add(_ secrets: TLSSecrets, clientRandom: [UInt8]) {
        entries[clientRandom, default: TLSSecrets()].merge(secrets)
    }

    /// Adds every entry of `other` after this log's own (other's secrets win on a clash).
    public mutating func merge(_ other: TLSKeyLog) {
        for (random, secrets) in other.entries { add(secrets, clientRandom: random) }
    }

    /// Parses more NSS key-log text into this log. On an error, lines before it have been added.
    public mutating func add(parsing text: String) throws(IMWireError) {
        var lineNumber = 0
        // "\r\n" is one Character in Swift: split on both so that Windows key logs read too
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let label = fields.first, !label.hasPrefix("#") else { continue }
            guard let kind = Label(rawValue: String(label)) else { continue }  // unknown labels: ignored
            guard fields.count == 3 else {
                throw IMWireError.keyLog(line: lineNumber, "\(label) needs 2 fields, found \(fields.count - 1)")
            }
            let random = try Self.hex(fields[1], line: lineNumber, what: "client random")
            guard random.count == 32 else {
                throw IMWireError.keyLog(
                    line: lineNumber, "\(label): client random of \(random.count) bytes (32 expected)")
            }
            let secret = try Self.hex(fields[2], line: lineNumber, what: "secret")
            var secrets = TLSSecrets()
            switch kind {
            case .clientRandom:
                guard secret.count == 48 else {
                    throw IMWireError.keyLog(
                        line: lineNumber, "CLIENT_RANDOM: master secret of \(secret.count) bytes (48 expected)")
                }
                secrets.masterSecret = secret
            default:
                // TLS 1.3 secrets are Hash.length: 32 (SHA-256) or 48 (SHA-384)
                guard secret.count == 32 || secret.count == 48 else {
                    throw IMWireError.keyLog(
                        line: lineNumber, "\(label): secret of \(secret.count) bytes (32 or 48 expected)")
                }
                kind.set(secret, in: &secrets)
            }
            add(secrets, clientRandom: random)
        }
    }

    private enum Label: String {
        case clientRandom = "CLIENT_RANDOM"
        case clientHandshake = "CLIENT_HANDSHAKE_TRAFFIC_SECRET"
        case serverHandshake = "SERVER_HANDSHAKE_TRAFFIC_SECRET"
        case clientTraffic0 = "CLIENT_TRAFFIC_SECRET_0"
        case serverTraffic0 = "SERVER_TRAFFIC_SECRET_0"
        case exporter = "EXPORTER_SECRET"
        case clientEarly = "CLIENT_EARLY_TRAFFIC_SECRET"
        case earlyExporter = "EARLY_EXPORTER_SECRET"

        func set(_ secret: [UInt8], in secrets: inout TLSSecrets) {
            switch self {
            case .clientRandom: secrets.masterSecret = secret
            case .clientHandshake: secrets.clientHandshakeTrafficSecret = secret
            case .serverHandshake: secrets.serverHandshakeTrafficSecret = secret
            case .clientTraffic0: secrets.clientTrafficSecret0 = secret
            case .serverTraffic0: secrets.serverTrafficSecret0 = secret
            case .exporter: secrets.exporterSecret = secret
            case .clientEarly: secrets.clientEarlyTrafficSecret = secret
            case .earlyExporter: secrets.earlyExporterSecret = secret
            }
        }
    }

    private static func hex(_ field: Substring, line: Int, what: String) throws(IMWireError) -> [UInt8] {
        guard field.utf8.count % 2 == 0, field.utf8.allSatisfy({ isHexDigit($0) }) else {
            throw IMWireError.keyLog(line: line, "\(what) is not hex")
        }
        do {
            return try Hex.decode(String(field))
        } catch {
            throw IMWireError.keyLog(line: line, "\(what) is not hex")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}

/// The key log a set of connections reads: a class so that a capture reader can add secrets
/// (pcapng Decryption Secrets Blocks) while connections that share it are still open, as tshark
/// does. Not thread-safe: one reader owns it.
public final class TLSKeyStore {
    public private(set) var log: TLSKeyLog

    public init(_ log: TLSKeyLog = TLSKeyLog()) {
        self.log = log
    }

    /// Adds a parsed log after what is already there.
    public func add(_ other: TLSKeyLog) {
        log.merge(other)
    }

    /// Parses and adds NSS key-log text (e.g. a DSB's payload). On error nothing after the bad line is added.
    public func add(parsing text: String) throws(IMWireError) {
        try log.add(parsing: text)
    }

    /// The secrets for a 32-byte client random, if any.
    package func secrets(forClientRandom clientRandom: [UInt8]) -> TLSSecrets? {
        log.secrets(forClientRandom: clientRandom)
    }
}

// A key log decrypts every connection it names: formatted (`print`, interpolation,
// `String(reflecting:)`, `dump`), it shows which secrets it holds and how long they are, never
// their bytes.
extension TLSSecrets: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The labels set and their lengths: `TLSSecrets(masterSecret: 48 bytes)`.
    package var description: String {
        "TLSSecrets(" + lengths.map { "\($0.label): \($0.count) bytes" }.joined(separator: ", ") + ")"
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror {
        Mirror(
            self, children: lengths.map { (label: $0.label, value: "\($0.count) bytes" as Any) }, displayStyle: .struct)
    }

    private var lengths: [(label: String, count: Int)] {
        let fields: [(String, [UInt8]?)] = [
            ("masterSecret", masterSecret), ("clientHandshakeTrafficSecret", clientHandshakeTrafficSecret),
            ("serverHandshakeTrafficSecret", serverHandshakeTrafficSecret),
            ("clientTrafficSecret0", clientTrafficSecret0),
            ("serverTrafficSecret0", serverTrafficSecret0), ("exporterSecret", exporterSecret),
            ("clientEarlyTrafficSecret", clientEarlyTrafficSecret), ("earlyExporterSecret", earlyExporterSecret),
        ]
        return fields.compactMap { label, bytes in bytes.map { (label, $0.count) } }
    }
}

extension TLSKeyLog: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How many client randoms have secrets: `TLSKeyLog(2 client randoms)`.
    public var description: String { "TLSKeyLog(\(counted(count, "client random")))" }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["clientRandoms": count], displayStyle: .struct) }
}
