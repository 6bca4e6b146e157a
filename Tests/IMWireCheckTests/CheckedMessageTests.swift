import Foundation
import IMWire
import Testing

/// `imwire show`: every message of every sample capture, decoded, with its findings.
@Suite struct CheckedMessageTests {
    static let samples: [String] = Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: "")
        .filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".pcapng") || $0.hasSuffix(".har") }
        .filter { !$0.contains("/real/") }

    @Test(arguments: samples)
    func everyMessageOfASampleIsShownDecoded(_ path: String) throws {
        var options = CheckOptions()
        options.describesMessages = true
        // a TLS recording (Fixtures/captures/tls/) is read with the key log beside it
        let keyLog = String(path.dropLast(".pcapng".count)) + ".keylog"
        if path.hasSuffix(".pcapng"), FileManager.default.fileExists(atPath: keyLog) {
            options.tlsKeyLog = try KeyLogFiles.load([keyLog])
        }
        let checker = Checker(options: options)
        var messages: [CheckedMessage] = []
        checker.onMessage = { messages.append($0) }
        let report = try checker.check(try CaptureFile.open(path), named: path)
        #expect(!messages.isEmpty)
        // One entry per message the report counts, connection by connection.
        for connection in report.connections {
            #expect(messages.filter { $0.connection == connection.id }.count == connection.messages, "\(connection.id)")
        }
        for message in messages where message.dialect != nil {
            // Decoded, or the dialect says why not.
            #expect(
                message.canonicalJSON != nil || !message.findings.isEmpty, "\(message.connection) #\(message.frame)")
            #expect(message.summary != nil)
        }
    }

    @Test func theFindingsOfAMessageAreTheReportsOnItsFrame() throws {
        let path = "\(repositoryRoot)/Fixtures/captures/leancloud-broken.jsonl"
        var options = CheckOptions()
        options.describesMessages = true
        let checker = Checker(options: options)
        var duplicate: [CheckedMessage] = []
        checker.onMessage = { if $0.reports("LC.DUPLICATE-I") { duplicate.append($0) } }
        let report = try checker.check(try CaptureFile.open(path), named: path, unreadableThrows: false)
        let reported = report.allFindings.filter { $0.ruleID == "LC.DUPLICATE-I" }
        #expect(duplicate.map(\.frame) == reported.compactMap(\.location.frameIndex))
        #expect(duplicate.first?.canonicalJSON?["i"] != nil)
    }
}
