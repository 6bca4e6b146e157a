import IMWireCore
import IMWireTransport
import Testing

/// `ConnectionAssembler.maySpanConnections(clientFirstBytes:)`: which connections a reader with
/// several lanes keeps together, judged from the request target of the client's first bytes.
@Suite struct SpanningConnectionTests {
    @Test func onlyASocketIOTargetOrTLSSpansConnections() {
        func spans(_ text: String) -> Bool {
            ConnectionAssembler.maySpanConnections(clientFirstBytes: Array(text.utf8))
        }
        #expect(spans("GET /socket.io/?EIO=3&transport=polling HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(spans("POST /im/socket.io/?EIO=3 HTTP/1.1\r\n"))
        #expect(spans("GET /socket.io/"))  // the target cut short by the capture
        #expect(!spans("GET /ws HTTP/1.1\r\nReferer: http://a/socket.io/\r\n\r\n"))  // not in the target
        #expect(!spans("GET /socket.io HTTP/1.1\r\n"))  // no slash after it
        #expect(!spans("GET /a\r\nsocket.io/ HTTP/1.1"))  // the target ends at the CR
        #expect(!spans("VERYLONGMETHODNAME /socket.io/ HTTP/1.1\r\n"))  // no space in the first 16 bytes
        #expect(!spans(""))
        #expect(!spans("GET "))
        #expect(ConnectionAssembler.maySpanConnections(clientFirstBytes: [0x16, 0x03, 0x01, 0x00, 0x05, 0x01]))
    }
}
