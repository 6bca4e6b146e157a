import Foundation
import IMWireCheck
import IMWireCore
import IMWireServe
import Testing

/// `Sources/IMWireNIO/IMWireNIO.docc/LeanCloudClient.md`: its code is `LeanCloudClient.swift`,
/// word for word, and it runs against `imwire serve`'s LeanCloud cloud on 127.0.0.1.
@Suite("IMWireNIO DocC: a LeanCloud client")
struct LeanCloudClientArticleTests {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = testsDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The article's one Swift code block is the snippet file.
    @Test func theArticleShowsTheCodeThatRuns() throws {
        let article = try String(
            contentsOf: Self.root.appending(path: "Sources/IMWireNIO/IMWireNIO.docc/LeanCloudClient.md"),
            encoding: .utf8)
        let code = try String(contentsOf: Self.testsDirectory.appending(path: "LeanCloudClient.swift"), encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```\n")[0]
        }
        #expect(blocks == [code])
    }

    /// The client logs in, starts a conversation, sends, gets its ack and closes: no finding on
    /// either side, and the server grades its protocol OK.
    @Test(.timeLimit(.minutes(1))) func theClientSendsAMessageAndIsGradedOK() async throws {
        let scenario = try Scenario.parse(
            Array(#"{"dialect": "leancloud", "summary": "every request answered", "actions": []}"#.utf8),
            name: "answer", file: "inline")
        let run = try ServeRun(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()

        let sent = try await sendOneMessage(
            host: "127.0.0.1", port: port, appID: "app", peer: "alice", to: "bob", text: "hi")

        run.server.stop()
        let outcome = try run.finish()
        #expect(sent.messageID.isEmpty == false)
        #expect(sent.findings.isEmpty, "\(sent.findings)")
        #expect(outcome.results.map(\.client) == ["alice"])
        #expect(outcome.results.first?.protocolGrade == .ok, "\(outcome.results.first?.reasons ?? [])")
        #expect(outcome.report.allFindings.filter { $0.severity >= .warning }.isEmpty, "\(outcome.report.allFindings)")
    }
}
