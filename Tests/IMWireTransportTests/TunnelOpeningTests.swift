import IMWireCore
import Testing

@testable import IMWireTransport

/// What passes a `TunnelOpening` fed `chunks` in order: each direction's bytes joined.
private func passed(_ chunks: [(Direction, [UInt8])]) -> (opening: TunnelOpening, client: [UInt8], server: [UInt8]) {
    var opening = TunnelOpening()
    var (client, server): ([UInt8], [UInt8]) = ([], [])
    for (direction, bytes) in chunks {
        for (out, data) in opening.feed(bytes, direction: direction) {
            if out == .send { client += data } else { server += data }
        }
    }
    for (out, data) in opening.release() {
        if out == .send { client += data } else { server += data }
    }
    return (opening, client, server)
}

@Suite struct TunnelOpeningTests {
    private let upgrade = Array("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n".utf8)

    /// RFC 9110 §9.3.6: the CONNECT request and its 200 are consumed; the tunnel's bytes pass.
    @Test func aConnectExchangeIsConsumedInPieces() {
        let request = Array("CONNECT rtm.example.com:443 HTTP/1.1\r\nHost: rtm.example.com:443\r\n\r\n".utf8)
        let answer = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
        let result = passed([
            (.send, Array(request[..<3])), (.send, Array(request[3...])), (.receive, Array(answer[..<10])),
            (.receive, Array(answer[10...]) + [0x81]), (.send, upgrade),
        ])
        #expect(result.client == upgrade && result.server == [0x81])
        #expect(result.opening.consumed == request.count + answer.count)
    }

    /// RFC 1928: greeting, method 0, CONNECT to a name, success: all consumed.
    @Test func aSOCKS5ExchangeIsConsumed() {
        let name = Array("localhost".utf8)
        let result = passed([
            (.send, [5, 1, 0]), (.receive, [5, 0]), (.send, [5, 1, 0, 3, UInt8(name.count)] + name + [0x1F, 0x90]),
            (.receive, [5, 0, 0, 1, 0, 0, 0, 0, 0, 0]), (.send, [0x16, 3, 1]),
        ])
        #expect(result.client == [0x16, 3, 1] && result.server.isEmpty)
        #expect(result.opening.consumed == 3 + 2 + 5 + name.count + 2 + 10)
    }

    /// Not an opening, or one the proxy refused: every byte passes as it came.
    @Test(arguments: [
        [(Direction.send, Array("GET / HTTP/1.1\r\n\r\n".utf8))],
        [
            (.send, Array("CONNECT a:1 HTTP/1.1\r\n\r\n".utf8)),
            (.receive, Array("HTTP/1.1 502 Bad Gateway\r\n\r\n".utf8)),
        ],
        [(.send, [5, 1, 0]), (.receive, [5, 0xFF])],
        [(.send, [0x10, 12, 0, 4]), (.receive, [0x20, 2, 0, 0])],
        [(.receive, [1, 2, 3]), (.send, Array("CONNECT".utf8))],
    ])
    func anythingElsePassesUnchanged(chunks: [(Direction, [UInt8])]) {
        let result = passed(chunks)
        #expect(result.client == chunks.filter { $0.0 == .send }.flatMap(\.1))
        #expect(result.server == chunks.filter { $0.0 == .receive }.flatMap(\.1))
        #expect(result.opening.consumed == 0)
    }
}
