import IMWireCore
import Testing

@testable import IMWireWebSocket

func head(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) }

let rfcRequest = [
    "GET /chat HTTP/1.1", "Host: server.example.com", "Upgrade: websocket", "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Origin: http://example.com",
    "Sec-WebSocket-Protocol: lc.protobuf2.3, lc.json.3", "Sec-WebSocket-Version: 13",
    "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits",
]

func response(_ extra: [String]) -> [UInt8] {
    head(
        [
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ] + extra)
}

@Suite struct Handshake {
    @Test func rfcAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func leanCloudHandshakeWithDeflate() {
        let result = WebSocketHandshake.parse(
            request: head(rfcRequest),
            response: response([
                "Sec-WebSocket-Protocol: lc.protobuf2.3",
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10; server_no_context_takeover",
            ]))
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(result.isUpgraded)
        #expect(result.subprotocol == "lc.protobuf2.3")
        #expect(
            result.permessageDeflate
                == PerMessageDeflateParameters(serverNoContextTakeover: true, clientMaxWindowBits: 10))
        #expect(result.requestLength == head(rfcRequest).count)
    }

    @Test func wrongAcceptAndUnofferedProtocol() {
        let bad = head([
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "Sec-WebSocket-Protocol: mqtt",
        ])
        let result = WebSocketHandshake.parse(request: head(rfcRequest), response: bad)
        #expect(
            result.responseFindings.map(\.ruleID.rawValue) == ["WS.HANDSHAKE-ACCEPT", "WS.SUBPROTOCOL-NOT-OFFERED"])
        #expect(!result.isUpgraded)
    }

    @Test func truncatedRequest() {
        let bytes = Array(head(rfcRequest).dropLast(3))
        let result = WebSocketHandshake.parse(request: bytes, response: nil)
        #expect(result.requestFindings.map(\.ruleID.rawValue) == ["WS.HANDSHAKE-TRUNCATED"])
        #expect(result.request == nil)
    }

    @Test func requestProblems() {
        let bytes = head([
            "POST /chat HTTP/1.0", "Host: a", "Upgrade: h2c", "Connection: keep-alive",
            "Sec-WebSocket-Key: short", "Sec-WebSocket-Version: 8",
        ])
        var findings: [Finding] = []
        _ = WebSocketHandshake.parseRequest(bytes, findings: &findings)
        #expect(
            findings.map(\.ruleID.rawValue) == [
                "WS.HANDSHAKE-METHOD", "WS.HANDSHAKE-METHOD", "WS.HANDSHAKE-UPGRADE", "WS.HANDSHAKE-UPGRADE",
                "WS.HANDSHAKE-VERSION", "WS.HANDSHAKE-KEY",
            ])
    }

    @Test func deflateParameterChecks() {
        var request = rfcRequest
        request[request.count - 1] =
            """
            Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=10, \
            permessage-deflate; server_max_window_bits=16, permessage-deflate; foo
            """
        var findings: [Finding] = []
        let parsed = WebSocketHandshake.parseRequest(head(request), findings: &findings)
        #expect(findings.map(\.ruleID.rawValue) == ["PMD.PARAMETER-INVALID", "PMD.PARAMETER-INVALID"])
        #expect(parsed?.deflateOffers.count == 1)
        // The server may not pick a larger window than requested, nor set client_max_window_bits unasked.
        let answer = WebSocketHandshake.parse(
            request: head(request),
            response: response([
                "Sec-WebSocket-Protocol: lc.json.3",
                "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=12",
            ]))
        #expect(answer.responseFindings.map(\.ruleID.rawValue) == ["PMD.PARAMETER-NOT-REQUESTED"])
        #expect(answer.permessageDeflate == nil)
    }

    @Test func aServerAcceptsTheFirstOfferAsItStands() throws {
        let offers = [
            "permessage-deflate": "permessage-deflate",
            "permessage-deflate; client_max_window_bits": "permessage-deflate",
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover":
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
            "permessage-deflate; server_max_window_bits=10; client_max_window_bits=12, permessage-deflate":
                "permessage-deflate; server_max_window_bits=10; client_max_window_bits=12",
        ]
        for (offer, expected) in offers {
            let request = rfcRequest.dropLast() + ["Sec-WebSocket-Extensions: \(offer)"]
            var findings: [Finding] = []
            let parsed = try #require(WebSocketHandshake.parseRequest(head(Array(request)), findings: &findings))
            let accepted = try #require(PerMessageDeflateParameters(accepting: parsed.deflateOffers))
            #expect(accepted.headerValue == expected, "\(offer)")
            // The handshake checker agrees: the answer fits the offer, and sets what was accepted.
            let result = WebSocketHandshake.parse(
                request: head(Array(request)),
                response: response([
                    "Sec-WebSocket-Protocol: lc.protobuf2.3", "Sec-WebSocket-Extensions: \(accepted.headerValue)",
                ]))
            #expect(result.findings.isEmpty, "\(offer): \(result.findings)")
            #expect(result.permessageDeflate == accepted)
        }
        #expect(PerMessageDeflateParameters(accepting: []) == nil)
    }

    @Test func windowBitsEightIsFlagged() {
        let result = WebSocketHandshake.parse(
            request: head(rfcRequest),
            response: response([
                "Sec-WebSocket-Protocol: lc.protobuf2.3",
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=8",
            ]))
        #expect(result.responseFindings.map(\.ruleID.rawValue) == ["PMD.WINDOW-BITS-8"])
        #expect(result.isUpgraded)
        #expect(result.permessageDeflate?.clientMaxWindowBits == 8)
    }

    @Test func extensionHeaderSyntax() throws {
        let items = try WebSocketExtensionHeader.parse(#"permessage-deflate; client_max_window_bits="10" , x-foo"#)
            .get()
        #expect(items.map(\.name) == ["permessage-deflate", "x-foo"])
        #expect(items.first?.parameters.first?.value == "10")
        #expect(throws: WebSocketExtensionHeader.SyntaxError.self) {
            try WebSocketExtensionHeader.parse("permessage-deflate; =1").get()
        }
    }

    @Test func notSwitching() {
        let result = WebSocketHandshake.parse(
            request: head(rfcRequest), response: head(["HTTP/1.1 400 Bad Request", "Content-Length: 0"]))
        #expect(result.responseFindings.map(\.ruleID.rawValue) == ["WS.HANDSHAKE-STATUS"])
        #expect(!result.isUpgraded)
    }
}

@Suite struct HandshakeSyntax {
    @Test func duplicateKeyAndFoldedLine() {
        var findings: [Finding] = []
        let bytes = head([
            "GET / HTTP/1.1", "Host: a", "Upgrade: websocket", "Connection: keep-alive, Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13", " folded continuation",
        ])
        let request = WebSocketHandshake.parseRequest(bytes, findings: &findings)
        #expect(findings.map(\.ruleID.rawValue) == ["WS.HANDSHAKE-MALFORMED", "WS.HANDSHAKE-KEY"])
        #expect(request?.head.length == bytes.count)
    }

    @Test func whitespaceBeforeColonIsRejected() {
        var findings: [Finding] = []
        _ = WebSocketHandshake.parseRequest(head(["GET / HTTP/1.1", "Host : a"]), findings: &findings)
        #expect(findings.first?.ruleID.rawValue == "WS.HANDSHAKE-MALFORMED")
        #expect(findings.first?.offset == 16)
    }

    @Test func fieldNamesMatchWithoutCaseAndValuesLoseTheirOptionalWhitespace() {
        var findings: [Finding] = []
        let request = WebSocketHandshake.parseRequest(
            head([
                "GET / HTTP/1.1", "sec-websocket-PROTOCOL: \t lc.protobuf2.3 ,\tmqtt ,, \t", "X-Note:  caf\u{e9} \t",
                "X-Empty: \t ",
            ]), findings: &findings)
        let fields = try? #require(request?.head)
        #expect(fields?.value("Sec-WebSocket-Protocol") == "lc.protobuf2.3 ,\tmqtt ,,")
        #expect(fields?.listValues("SEC-WEBSOCKET-PROTOCOL") == ["lc.protobuf2.3", "mqtt"])
        #expect(fields?.value("x-note") == "caf\u{e9}")
        #expect(fields?.value("X-EMPTY") == "")
        #expect(fields?.value("X-Not") == nil)
        #expect(fields?.fields("x-notE").first?.valueOffset == 79)  // 16 + 54 + "X-Note:  "
    }

    @Test func headEndIsFoundIncrementally() {
        let bytes = head(rfcRequest) + [0x81, 0x00]
        #expect(HTTPHead.endOfHead(bytes) == bytes.count - 2)
        #expect(HTTPHead.endOfHead(Array(bytes.prefix(20))) == nil)
    }
}
