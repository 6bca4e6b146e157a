import Foundation
import IMWireCore
import Testing

@testable import IMWireTLS

/// A real TLS session recorded by make_fixtures.py: the relay's chunks both ways, the client's key log,
/// and what each side wrote.
struct Fixture: Sendable {
    struct Meta: Decodable, Sendable {
        var version: String
        var suite: String
        var resumed: Bool
        var c2s: String
        var s2c: String
        var alpn: String?
        var sni: String
        var hrr: Bool
        var keyUpdates: Int?
        var renegotiations: Int?
        var earlyData: Bool?
    }

    static let names = [
        "tls12-aes128gcm", "tls12-aes256gcm", "tls12-chacha20", "tls12-ecdsa-aes256gcm", "tls12-ecdsa-chacha20",
        "tls12-resumed", "tls13-aes256gcm",
        "tls13-aes128gcm-keyupdate", "tls13-chacha20", "tls13-hrr", "tls12-renegotiation",
        "tls13-early-data", "tls12-renegotiation-refused",
    ]

    /// OpenSSL's suite names (what the peers printed) to IANA's.
    static let ianaNames = [
        "ECDHE-RSA-AES128-GCM-SHA256": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "ECDHE-RSA-AES256-GCM-SHA384": "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-RSA-CHACHA20-POLY1305": "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305": "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    ]

    let name: String
    let chunks: [(Direction, [UInt8])]
    let keyLog: String
    let meta: Meta

    init(_ name: String) throws {
        self.name = name
        // .copy("Resources") keeps the folder: find it whatever the platform's bundle layout
        let probe = try #require(
            Bundle.module.url(forResource: name, withExtension: "chunks", subdirectory: "Resources"))
        let base = probe.deletingLastPathComponent()
        let blob = [UInt8](try Data(contentsOf: base.appendingPathComponent(name + ".chunks")))
        var chunks: [(Direction, [UInt8])] = []
        var index = 0
        while index + 5 <= blob.count {
            var length = 0
            for byte in blob[(index + 1)..<(index + 5)] { length = length << 8 | Int(byte) }
            let direction: Direction = blob[index] == UInt8(ascii: "c") ? .send : .receive
            chunks.append((direction, Array(blob[(index + 5)..<(index + 5 + length)])))
            index += 5 + length
        }
        self.chunks = chunks
        keyLog = try String(contentsOf: base.appendingPathComponent(name + ".keylog"), encoding: .utf8)
        meta = try JSONDecoder().decode(Meta.self, from: Data(contentsOf: base.appendingPathComponent(name + ".json")))
    }

    var ianaSuite: String { Self.ianaNames[meta.suite] ?? meta.suite }

    /// The findings a clean run of this session has (sorted): a renegotiation is worth a warning; a refused
    /// one adds the server's warning alert no_renegotiation and the client's fatal handshake_failure.
    var expectedRules: [String] {
        if name.hasSuffix("-refused") { return ["TLS.ALERT", "TLS.ALERT-WARNING", "TLS.RENEGOTIATION"] }
        return (meta.renegotiations ?? 0) > 0 ? ["TLS.RENEGOTIATION"] : []
    }

    /// The whole stream of one direction.
    func stream(_ direction: Direction) -> [UInt8] {
        chunks.filter { $0.0 == direction }.flatMap { $0.1 }
    }

    /// The client random of the ClientHello (first record of the client stream).
    var clientRandom: [UInt8] { Array(stream(.send)[11..<43]) }
}

/// What a connection produced over a whole run.
struct Run {
    var events: [TLSEvent] = []
    var connection: TLSConnection

    var findings: [Finding] { IMWireTLSTests.findings(events) }
    func plaintext(_ direction: Direction) -> [UInt8] { IMWireTLSTests.plaintext(events, direction) }
    func rules() -> [String] { findings.map(\.ruleID.rawValue) }
    /// Rule IDs sorted: the order of findings across the two directions is not part of the contract.
    func sortedRules() -> [String] { rules().sorted() }
}

/// Feeds chunks in order and finishes.
func run(_ chunks: [(Direction, [UInt8])], keys: TLSKeyStore) -> Run {
    var result = Run(connection: TLSConnection(keys: keys))
    for (direction, bytes) in chunks { result.events += result.connection.feed(bytes, direction: direction) }
    result.events += result.connection.finish()
    return result
}

func store(_ text: String) throws -> TLSKeyStore {
    TLSKeyStore(try TLSKeyLog(parsing: text))
}

/// Chunks of two whole streams, client first (the order the connection must not depend on).
func wholeStreams(_ client: [UInt8], _ server: [UInt8]) -> [(Direction, [UInt8])] {
    [(.send, client), (.receive, server)]
}

/// Records of a stream: (offset, bytes).
func records(_ stream: [UInt8]) -> [(offset: Int, bytes: [UInt8])] {
    var out: [(Int, [UInt8])] = []
    var index = 0
    while index + 5 <= stream.count {
        let length = Int(stream[index + 3]) << 8 | Int(stream[index + 4])
        guard index + 5 + length <= stream.count else { break }
        out.append((index, Array(stream[index..<(index + 5 + length)])))
        index += 5 + length
    }
    return out
}
