import Foundation
import IMWire
import Testing

/// TLS connections through the whole check: the recordings of Tests/CrossCheck/tls_traffic.py
/// (websockets over TLS, each peer's own key log), checked as tshark decrypts them.
@Suite struct TLSCheckTests {
    static let directory = "Fixtures/captures/tls"

    func keyLog(_ name: String) throws -> TLSKeyLog {
        try KeyLogFiles.load(["\(repositoryRoot)/\(Self.directory)/\(name).keylog"])
    }

    @Test(arguments: ["leancloud-tls12-chacha20", "leancloud-tls13-aes128gcm", "yun2win-mqtt-tls13"])
    func decryptedSessionsAreReadAsInTheClear(name: String) throws {
        var options = CheckOptions()
        options.tlsKeyLog = try keyLog(name)
        let report = try check("\(Self.directory)/\(name).pcapng", options: options)
        let connection = try #require(report.connections.first)
        #expect(report.connections.count == 1)
        #expect(connection.tls?.decrypted == true)
        #expect(connection.tls?.serverName == "localhost")
        #expect(connection.messages == 8)
        #expect(connection.findings.isEmpty)
        // every byte on the wire is accounted for, in wire bytes
        #expect(connection.account.captured == connection.account.decoded)
    }

    /// python-socketio over TLS: a long-poll connection, then the upgraded WebSocket. The session
    /// says it was carried over TLS; each wire byte is counted once, the poll's plaintext in the
    /// session and its TLS framing on its own connection; the decode_error alert that each peer
    /// sends when the other closes without close_notify is not an error.
    @Test(arguments: ["jmessage-socketio-tls12", "jmessage-socketio-tls13"])
    func aSocketIOSessionOverTLS(name: String) throws {
        var options = CheckOptions()
        options.tlsKeyLog = try keyLog(name)
        let path = "\(repositoryRoot)/\(Self.directory)/\(name).pcapng"
        let report = try check(path, options: options)
        let session = try #require(report.connections.first { $0.dialect == .jmessage })
        #expect(session.messages == 27)
        #expect(session.tls?.decrypted == true)
        #expect(report.connections.flatMap(\.findings).map(\.ruleID) == ["TLS.ALERT-AFTER-EOF", "TLS.ALERT-AFTER-EOF"])
        #expect(report.connections.flatMap(\.findings).allSatisfy { $0.severity == .info })
        var wire = 0
        let source = try CaptureFile.open(path)
        while let item = source.next() { if case .event(let event) = item { wire += event.byteCount } }
        #expect(report.connections.map(\.account.captured).reduce(0, +) == wire)
    }

    @Test func withoutAKeyNothingIsDecodedAndOneWarningSaysWhy() throws {
        let report = try check("\(Self.directory)/leancloud-tls13-chacha20.pcapng")
        let connection = try #require(report.connections.first)
        #expect(connection.messages == 0)
        #expect(connection.findings.map(\.ruleID) == ["TLS.NO-KEY"])
        #expect(connection.findings.first?.message.contains("no key for client random") == true)
        #expect(connection.tls?.decrypted == false)
        #expect(connection.account.decoded + connection.account.skippedTotal == connection.account.captured)
        #expect(connection.account.skipped.keys.allSatisfy { $0.hasPrefix("TLS, no key for client random") })
    }

    @Test func aDefectInsideTLSIsFoundAtItsPacket() throws {
        var options = CheckOptions()
        options.tlsKeyLog = try keyLog("leancloud-tls12-defect")
        let report = try check("\(Self.directory)/leancloud-tls12-defect.pcapng", options: options)
        #expect(report.summary() == ["\(report.connections[0].id)#16 LC.RESPONSE-WITHOUT-REQUEST"])
    }

    /// The key log inside the capture as a Decryption Secrets Block gives what --tls-keylog gives, and
    /// every number of checking threads gives the same report.
    @Test func secretsInTheCaptureEqualAKeyLogFile() throws {
        let name = "leancloud-tls13-deflate"
        let path = "\(repositoryRoot)/\(Self.directory)/\(name).pcapng"
        var options = CheckOptions()
        options.tlsKeyLog = try keyLog(name)
        let withFile = try check(path, options: options)

        // The same packets after a Decryption Secrets Block holding the key log.
        var writer = PcapngWriter()
        writer.secrets(try FileByteSource.readAll(path: "\(repositoryRoot)/\(Self.directory)/\(name).keylog"))
        let packets = try PacketCaptureReader.packets(path: path)
        while let item = packets.next() {
            if case .packet(let packet) = item {
                writer.packet(packet.data, linkType: packet.linkType, time: packet.time)
            }
        }
        let injected = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tls-dsb-\(UInt32.random(in: 0...UInt32.max)).pcapng"
        ).path
        try TextFile.write(writer.bytes, to: injected)
        defer { try? FileManager.default.removeItem(atPath: injected) }
        let withBlock = try check(injected)
        #expect(withBlock.connections == withFile.connections)
        #expect(try check(injected, jobs: 2).connections == withFile.connections)
    }

    @Test func aKeyLogThatDoesNotParseIsNamedWithItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bad-\(UInt32.random(in: 0...UInt32.max)).keylog"
        ).path
        try TextFile.write("# comment\nCLIENT_RANDOM zz 00\n", to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try KeyLogFiles.load([path])
            Issue.record("a key log that does not parse was read")
        } catch {
            #expect(error.code == .tlsKeyLog && error.path == path)
            #expect(error.description == "\(path): key log line 2: client random is not hex")
        }
        do { _ = try KeyLogFiles.load(["/nonexistent.keylog"]) } catch {
            #expect(error.description.contains("/nonexistent.keylog"))
        }
    }

    /// A gap in a TLS connection: the gap is lost, what follows in that direction is skipped (its
    /// record boundaries went with the gap), and the account still adds up to the wire's bytes.
    @Test func aGapInATLSConnectionIsAccounted() throws {
        let clientHello =
            """
            16030100c4010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031\
            302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400\
            230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020\
            304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001
            """
        let report = check(lines: [
            #"{"type":"stream","conn":"t","t":0,"dir":"send","hex":"\#(clientHello)"}"#,
            #"{"type":"gap","conn":"t","t":0.1,"dir":"send","length":100}"#,
            #"{"type":"stream","conn":"t","t":0.2,"dir":"send","hex":"1703030003010203"}"#,
            #"{"type":"close","conn":"t","t":0.3}"#,
        ])
        let connection = try #require(report.connections.first)
        #expect(connection.tls != nil)
        #expect(connection.account.lost == 100)
        #expect(connection.account.skipped["TLS after a gap in the capture"] == 8)
        #expect(connection.account.captured == clientHello.count / 2 + 100 + 8)
        #expect(connection.findings.map(\.ruleID).contains("CAPTURE.TCP-GAP"))
    }
}
