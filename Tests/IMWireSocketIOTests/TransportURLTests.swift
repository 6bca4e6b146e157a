import IMWireCore
import IMWireSocketIO
import Testing

/// `SocketIOTransport.from(url:)`, which reads a URL as bytes, against the Character-based code
/// it replaced, on URLs put together at random from the pieces that matter (schemes, slashes,
/// `socket.io`, `1`, transports, `?`, `&`, `=`, the parameter names). The two differ only where
/// a combining mark follows a delimiter, which makes a different Character of it; no piece here
/// has one.
@Suite struct TransportURLTests {
    static func reference(url: String, overWebSocket: Bool) -> (SocketIOTransport?, [Finding]) {
        var path = Substring(url)
        let utf8 = Array(url.utf8)
        if let scheme = (0..<max(0, utf8.count - 2)).first(where: {
            utf8[$0] == 58 && utf8[$0 + 1] == 47 && utf8[$0 + 2] == 47
        }) {
            path = Substring(String(decoding: utf8[(scheme + 3)...], as: UTF8.self))
            path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
        }
        let query = path.firstIndex(of: "?").map { path[path.index(after: $0)...] } ?? ""
        if let q = path.firstIndex(of: "?") { path = path[..<q] }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let root = segments.firstIndex(where: { $0 == "socket.io" }) else { return (nil, []) }
        let rest = Array(segments[segments.index(after: root)...])
        if rest.first == "1" {
            if rest.count == 1, !overWebSocket { return (.v09Handshake, []) }
            let expected =
                overWebSocket
                ? "/socket.io/1/websocket/<sid>" : "/socket.io/1/ (handshake) or /socket.io/1/xhr-polling/<sid>"
            let transport = rest.count > 1 ? String(rest[1]) : ""
            let fits =
                rest.count == 3
                && (overWebSocket
                    ? transport == "websocket" : SocketIOTransport.v09PollingTransports.contains(transport))
            guard fits else {
                return (
                    .v09(transport: transport, sid: rest.count > 2 ? String(rest[2]) : ""),
                    [SocketIORules.v09URLInvalid.finding("path \(path) is not \(expected)")]
                )
            }
            return (.v09(transport: transport, sid: String(rest[2])), [])
        }
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            parameters[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let version = parameters["EIO"].flatMap { Int($0) }
        let transport = parameters["transport"]
        var findings: [Finding] = []
        let expected = overWebSocket ? "websocket" : "polling"
        if version != 3 || transport != expected {
            findings.append(
                SocketIORules.eioURLInvalid.finding(
                    "query EIO=\(parameters["EIO"] ?? "absent") transport=\(transport ?? "absent")"))
        }
        return (.engineIO(version: version, transport: transport, sid: parameters["sid"]), findings)
    }

    static let pieces = [
        "wss://", "http://", "://", "host", "weblink.netease.im:443", "/", "//", "socket.io", "1", "websocket",
        "xhr-polling",
        "jsonp-polling", "htmlfile", "polling", "abc", "?", "&", "=", "EIO", "3", "4", "transport", "sid", "t", "x",
        "é", "%2F", "",
    ]

    @Test func bytesReadAsTheCharactersWere() {
        var random = SystemRandomNumberGenerator()
        var urls = [
            "/socket.io/?EIO=3&transport=polling&sid=abc",
            "wss://ws.im.jiguang.cn/socket.io/?EIO=3&transport=websocket&sid=Q_1",
            "/socket.io/1/", "/socket.io/1/?t=1", "/socket.io/1/xhr-polling/abc?t=1", "/socket.io/1/websocket/abc",
            "ws://h", "ws://h?x/socket.io/1/", "/a/socket.io/b?EIO=3&EIO=4&transport", "/socket.io/?=&&EIO==3", "",
        ]
        for _ in 0..<20_000 {
            // Most with a socket.io root, so that the rest of the URL is read at all.
            let root = Bool.random(using: &random) || Bool.random(using: &random) ? "/socket.io/" : ""
            urls.append(
                root
                    + (0..<Int.random(in: 1...14, using: &random)).map { _ in Self.pieces.randomElement(using: &random)!
                    }.joined())
        }
        var socketIO = 0
        for url in urls {
            for overWebSocket in [true, false] {
                let (transport, findings) = SocketIOTransport.from(url: url, overWebSocket: overWebSocket)
                let (expected, expectedFindings) = Self.reference(url: url, overWebSocket: overWebSocket)
                #expect(
                    transport == expected && findings == expectedFindings, "\(url) over WebSocket: \(overWebSocket)")
                if expected != nil { socketIO += 1 }
            }
        }
        #expect(socketIO > 10_000)
    }
}
