import Foundation
import IMWire
import Testing

/// `imwire convert` keeps what the checker judges: a sample checked as a transcript, converted to
/// pcapng and checked again, gives the same findings (frame numbers aside: a pcapng counts
/// packets), and so does a pcapng converted to a transcript.
@Suite struct ConvertTests {
    static let samples = [
        "leancloud-clean", "leancloud-broken", "leancloud-reconnect", "leancloud-websocket",
        "nim-login-sync-send-kicked",
        "jmessage-group-803005", "yun2win-clean", "yun2win-kicked-reconnect",
    ]

    var options: CheckOptions {
        var options = CheckOptions()
        options.dialectOptions[JMessageSessionOptions.self].secret = "master-secret-1"
        return options
    }

    func rules(_ report: CheckReport) -> [String] {
        report.connections.flatMap(\.findings).map(\.ruleID.rawValue).sorted()
    }

    func temporaryFile(_ bytes: [UInt8], _ suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "imwire-convert-\(UUID().uuidString)\(suffix)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: samples)
    func aTranscriptAsPcapngChecksTheSame(name: String) throws {
        let path = "Fixtures/captures/\(name).jsonl"
        let pcapng = CaptureConverter.pcapng(from: try CaptureFile.open("\(repositoryRoot)/\(path)"))
        let file = try temporaryFile(pcapng, ".pcapng")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let original = try check(path, options: options)
        let converted = try check(file, options: options)
        #expect(rules(converted) == rules(original))
        #expect(converted.connections.map(\.messages) == original.connections.map(\.messages))
    }

    @Test func aPcapngAsATranscriptChecksTheSame() throws {
        for path in ["Fixtures/captures/leancloud-real.pcapng"] {
            var lines: [String] = []
            CaptureConverter.transcript(from: try CaptureFile.open("\(repositoryRoot)/\(path)")) { lines.append($0) }
            let original = try check(path)
            #expect(lines.contains { $0.hasPrefix(#"{"type":"close""#) })
            // The endpoints go with each open line, and come back as the connection's.
            let open = try #require(lines.first { $0.hasPrefix(#"{"type":"open""#) })
            let info = try #require(original.connections.first)
            #expect(open.contains(#""client":"\#(info.client ?? "?")","server":"\#(info.server ?? "?")""#))
            #expect(check(lines: lines).connections.first?.client == info.client)
            #expect(rules(check(lines: lines)) == rules(original))
            #expect(check(lines: lines).connections.map(\.messages) == original.connections.map(\.messages))
        }
    }

    /// Found by the HAR fuzz target (Fuzz/FailCases/HAR/crash-7ebe58d2…): a subprotocol with a
    /// comma became a list in the synthesized 101 response, which refused the upgrade and lost
    /// the connection's messages; CR/LF or a space in it or in the URL broke the head the same way.
    @Test(arguments: ["lc.protobuf2.3, x", "lc.protobuf2.3\r\nX-Injected: 1", "lc protobuf"])
    func aSubprotocolThatIsNoTokenKeepsTheMessages(subprotocol: String) throws {
        let open =
            #"{"type":"open","conn":"c1","t":0,"subprotocol":"# + JSONWriter.string(.string(subprotocol))
            + #","url":"wss://rtm.example/a b\r\nX: y"}"#
        let lines = [
            open, #"{"conn":"c1","t":0.1,"dir":"send","hex":"0815"}"#,
            #"{"conn":"c1","t":0.2,"dir":"receive","hex":"0815"}"#,
        ]
        let transcript = try temporaryFile(Array(lines.joined(separator: "\n").utf8), ".jsonl")
        defer { try? FileManager.default.removeItem(atPath: transcript) }
        let pcapng = CaptureConverter.pcapng(from: try CaptureFile.open(transcript))
        let file = try temporaryFile(pcapng, ".pcapng")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let original = check(lines: lines)
        #expect(original.connections.map(\.messages) == [2])
        #expect(try check(file, options: options).connections.map(\.messages) == [2])
    }

    @Test func closesAndOpenEndsSurviveTheRoundTrip() throws {
        // r9 of the reconnect sample is still open when the capture ends: no FIN in the pcapng,
        // no close line in the transcript made from it; every other connection closes.
        let pcapng = CaptureConverter.pcapng(
            from: try CaptureFile.open("\(repositoryRoot)/Fixtures/captures/leancloud-reconnect.jsonl"))
        let file = try temporaryFile(pcapng, ".pcapng")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var lines: [String] = []
        CaptureConverter.transcript(from: try CaptureFile.open(file)) { lines.append($0) }
        let closes = lines.filter { $0.hasPrefix(#"{"type":"close""#) }
        #expect(closes.count == 8)
        #expect(closes.first?.contains(#""code":1000"#) == true)
    }
}
