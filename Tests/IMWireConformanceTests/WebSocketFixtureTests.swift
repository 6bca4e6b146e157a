import IMWire
import Testing

/// The WebSocket golden fixtures (Autobahn port, handshakes, bad inputs) all verify.
@Suite struct WebSocketFixtureTests {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/IMWireConformanceTests/<file>
        return parts.joined(separator: "/") + "/Fixtures/websocket"
    }()

    @Test func everyWebSocketFixtureVerifies() {
        let results = FixtureVerifier.verify(directory: Self.directory)
        #expect(results.count >= 150)
        for result in results where !result.passed {
            Issue.record("\(result.path): \(result.problems.joined(separator: "; ").prefix(500))")
        }
    }

    @Test func layersArePresent() {
        let results = FixtureVerifier.verify(directory: Self.directory)
        for layer in ["/frame/", "/message/", "/handshake/"] {
            #expect(results.contains { $0.path.contains(layer) }, "no \(layer) fixtures")
        }
    }
}
