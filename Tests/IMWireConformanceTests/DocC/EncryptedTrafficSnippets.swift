import Foundation
import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/EncryptedTraffic.md`, run.
@Suite struct DocCSnippetEncryptedTraffic {
    static let capture = repositoryRoot + "/Fixtures/captures/tls/leancloud-tls13-chacha20.pcapng"

    @Test func checkACaptureWithItsKeyLog() throws {
        var options = CheckOptions()
        options.tlsKeyLog = try TLSKeyLog(
            parsing: String(
                contentsOfFile: repositoryRoot + "/Fixtures/captures/tls/leancloud-tls13-chacha20.keylog",
                encoding: .utf8))
        let report = try Checker.check(path: Self.capture, options: options)
        let connection = report.connections[0]
        #expect(connection.tls?.version == "TLS 1.3")
        #expect(connection.tls?.suite == "TLS_CHACHA20_POLY1305_SHA256")
        #expect(connection.dialect == .leancloud)
        #expect(connection.messages == 8)
        #expect(connection.account.captured == 3430 && connection.account.decoded == 3430)
        #expect(connection.findings.isEmpty)
    }

    @Test func aMalformedKeyLogLineIsNamed() {
        #expect(throws: IMWireError.keyLog(line: 2, "client random is not hex")) {
            try TLSKeyLog(parsing: "# a comment\nCLIENT_RANDOM zz 00\n")
        }
    }

    @Test func withoutTheKey() throws {
        let withoutKey = try Checker.check(path: Self.capture)
        let encrypted = withoutKey.connections[0]
        #expect(encrypted.tls?.decrypted == false)
        #expect(encrypted.messages == 0)
        #expect(encrypted.findings.map(\.ruleID) == ["TLS.NO-KEY"])
        #expect(encrypted.account.decoded == 656 && encrypted.account.skipped.values.reduce(0, +) == 2774)
    }
}
