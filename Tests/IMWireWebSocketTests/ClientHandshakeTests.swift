import IMWireCore
import Testing

@testable import IMWireWebSocket

/// RFC 6455 §1.2's example key and the accept value it gives.
private let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="
private let rfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

private func text(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) }

/// The request of RFC 6455 §1.2, built with its key, subprotocols chat and superchat.
private func rfcHandshake(deflate: [PerMessageDeflateOffer] = []) throws -> WebSocketClientHandshake {
    try WebSocketClientHandshake(
        host: "server.example.com", target: "/chat", protocols: ["chat", "superchat"], deflateOffers: deflate,
        origin: "http://example.com",
        key: rfcKey)
}

/// A 101 answering the RFC request, with `extra` fields after the accept.
private func upgrade(_ extra: [String], accept: String = rfcAccept) -> [UInt8] {
    text(
        [
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: \(accept)",
        ] + extra)
}

/// Compiles only for `Sendable` types.
private func requireSendable<T: Sendable>(_: T.Type) {}

@Suite struct ClientHandshakeBuilder {
    @Test func theHandshakeTypesAreSendable() {
        requireSendable(WebSocketClientHandshake.self)
        requireSendable(WebSocketNegotiation.self)
        requireSendable(IMWireError.self)
    }

    @Test func rfcExampleRequestByteForByte() throws {
        let handshake = try rfcHandshake()
        let expected =
            """
            GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://example.com\r\n\
            Sec-WebSocket-Protocol: chat, superchat\r\nSec-WebSocket-Version: 13\r\n\r\n
            """
        #expect(handshake.request == Array(expected.utf8))
        #expect(handshake.expectedAccept == rfcAccept)
        // The capture checker finds nothing wrong with it.
        var findings: [Finding] = []
        let parsed = WebSocketHandshake.parseRequest(handshake.request, findings: &findings)
        #expect(findings.isEmpty, "\(findings)")
        #expect(parsed?.protocols == ["chat", "superchat"])
    }

    @Test func deflateOffersAndExtraHeadersFollowTheVersion() throws {
        let handshake = try WebSocketClientHandshake(
            host: "rtm.example:8443", target: "/ws?v=3",
            deflateOffers: [
                PerMessageDeflateOffer(
                    serverNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: .value(12)),
                PerMessageDeflateOffer(clientMaxWindowBits: .anyValue),
            ],
            headers: [.init("User-Agent", "imwire-test/1"), .init("Authorization", "Bearer abc")], key: rfcKey)
        let expected =
            """
            GET /ws?v=3 HTTP/1.1\r\nHost: rtm.example:8443\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
            Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; \
            server_max_window_bits=10; client_max_window_bits=12, permessage-deflate; \
            client_max_window_bits\r\nUser-Agent: imwire-test/1\r\nAuthorization: Bearer abc\r\n\r\n
            """
        #expect(String(decoding: handshake.request, as: UTF8.self) == expected)
        var findings: [Finding] = []
        let parsed = WebSocketHandshake.parseRequest(handshake.request, findings: &findings)
        #expect(findings.isEmpty, "\(findings)")
        #expect(parsed?.deflateOffers == handshake.deflateOffers)
    }

    @Test func theDefaultKeyIsSixteenRandomBytes() throws {
        let first = try WebSocketClientHandshake(host: "a.example")
        let second = try WebSocketClientHandshake(host: "a.example")
        #expect(try Base64.decode(first.key).count == 16)
        #expect(first.key != second.key)
        #expect(first.request != second.request)
        // A seeded generator gives the same key every time.
        var one = SplitMix(state: 7)
        var two = SplitMix(state: 7)
        #expect(WebSocketClientHandshake.randomKey(using: &one) == WebSocketClientHandshake.randomKey(using: &two))
    }

    @Test(arguments: [
        ("target", "WS.HANDSHAKE-MALFORMED"), ("header", "WS.HANDSHAKE-MALFORMED"),
        ("own-field", "WS.HANDSHAKE-MALFORMED"),
        ("protocol", "WS.HANDSHAKE-MALFORMED"), ("key", "WS.HANDSHAKE-KEY"), ("window", "PMD.PARAMETER-INVALID"),
    ])
    func invalidRequestsAreRefused(_ problem: String, _ rule: String) throws {
        let error = try #require(throws: IMWireError.self) {
            switch problem {
            case "target": _ = try WebSocketClientHandshake(host: "a.example", target: "/x y")
            case "header":
                _ = try WebSocketClientHandshake(host: "a.example", headers: [.init("X-Evil", "a\r\nHost: b")])
            case "own-field":
                _ = try WebSocketClientHandshake(host: "a.example", headers: [.init("sec-websocket-key", rfcKey)])
            case "protocol": _ = try WebSocketClientHandshake(host: "a.example", protocols: ["chat, superchat"])
            case "key": _ = try WebSocketClientHandshake(host: "a.example", key: "c2hvcnQ=")
            default:
                _ = try WebSocketClientHandshake(
                    host: "a.example", deflateOffers: [PerMessageDeflateOffer(serverMaxWindowBits: 16)])
            }
        }
        #expect(error.code == .webSocketHandshakeRequest)
        #expect(error.ruleIDs == [rule], "\(error)")
    }
}

@Suite struct ClientHandshakeValidator {
    @Test func rfcResponseNegotiatesSubprotocolAndDeflate() throws {
        let handshake = try rfcHandshake(deflate: [PerMessageDeflateOffer(clientMaxWindowBits: .anyValue)])
        let head = upgrade([
            "Sec-WebSocket-Protocol: chat",
            "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; client_max_window_bits=10",
        ])
        // The server's first frame came in the same read: an unmasked text frame, not compressed.
        let frame = WebSocketFrameEncoder.frame(WebSocketFrameHeader(opcode: .text), payload: Array("hi".utf8))
        let negotiated = try handshake.validate(response: head + frame)
        #expect(negotiated.subprotocol == "chat")
        #expect(
            negotiated.permessageDeflate
                == PerMessageDeflateParameters(serverNoContextTakeover: true, clientMaxWindowBits: 10))
        #expect(negotiated.responseHeadLength == head.count)
        #expect(negotiated.findings.isEmpty)
        var decoder = negotiated.serverFrameDecoder()
        let events = decoder.feed(Array((head + frame)[negotiated.responseHeadLength...])) + decoder.finish()
        #expect(events.messages.map(\.payload) == [Array("hi".utf8)])
        #expect(events.findings.isEmpty)
        #expect(decoder.offset == head.count + frame.count)
    }

    @Test func noSubprotocolChosenIsAWarningOnly() throws {
        let negotiated = try rfcHandshake().validate(response: upgrade([]))
        #expect(negotiated.subprotocol == nil)
        #expect(negotiated.permessageDeflate == nil)
        #expect(negotiated.findings.map(\.ruleID.rawValue) == ["WS.SUBPROTOCOL-NOT-CHOSEN"])
    }

    /// Each bad response fails with the capture checker's rule, at the offending field.
    @Test(
        arguments: [
            ("wrong accept", "WS.HANDSHAKE-ACCEPT", "Sec-WebSocket-Accept"),
            ("missing upgrade", "WS.HANDSHAKE-UPGRADE", nil),
            ("unoffered subprotocol", "WS.SUBPROTOCOL-NOT-OFFERED", "Sec-WebSocket-Protocol"),
            ("unoffered extension", "WS.EXTENSION-NOT-OFFERED", "Sec-WebSocket-Extensions"),
            ("deflate not offered", "WS.EXTENSION-NOT-OFFERED", "Sec-WebSocket-Extensions"),
            ("bad window bits", "PMD.PARAMETER-INVALID", "Sec-WebSocket-Extensions"),
            ("window not requested", "PMD.PARAMETER-NOT-REQUESTED", "Sec-WebSocket-Extensions"),
            ("refused", "WS.HANDSHAKE-STATUS", nil),
            ("truncated", "WS.HANDSHAKE-TRUNCATED", nil),
        ] as [(String, String, String?)])
    func badResponsesFail(_ problem: String, _ rule: String, _ field: String?) throws {
        let withDeflate = problem != "deflate not offered"
        let handshake = try rfcHandshake(deflate: withDeflate ? [PerMessageDeflateOffer(serverMaxWindowBits: 12)] : [])
        let response: [UInt8]
        switch problem {
        case "wrong accept":
            response = upgrade(["Sec-WebSocket-Protocol: chat"], accept: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        case "missing upgrade":
            response = text([
                "HTTP/1.1 101 Switching Protocols", "Connection: Upgrade", "Sec-WebSocket-Accept: \(rfcAccept)",
                "Sec-WebSocket-Protocol: chat",
            ])
        case "unoffered subprotocol": response = upgrade(["Sec-WebSocket-Protocol: mqtt"])
        case "unoffered extension":
            response = upgrade(["Sec-WebSocket-Protocol: chat", "Sec-WebSocket-Extensions: x-webkit-deflate-frame"])
        case "deflate not offered":
            response = upgrade(["Sec-WebSocket-Protocol: chat", "Sec-WebSocket-Extensions: permessage-deflate"])
        case "bad window bits":
            response = upgrade([
                "Sec-WebSocket-Protocol: chat",
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=16",
            ])
        case "window not requested":
            response = upgrade([
                "Sec-WebSocket-Protocol: chat",
                "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=14",
            ])
        case "refused": response = text(["HTTP/1.1 403 Forbidden", "Content-Length: 0"])
        default: response = Array(upgrade(["Sec-WebSocket-Protocol: chat"]).dropLast(2))
        }
        let error = try #require(throws: IMWireError.self) { try handshake.validate(response: response) }
        #expect(error.code == .webSocketHandshakeResponse)
        #expect(error.ruleIDs == [rule], "\(error)")
        if let field {
            // The offset is inside the named field's line.
            let needle = Array("\r\n\(field):".utf8)
            let lineBreak = try #require(
                (0...(response.count - needle.count)).first { response[$0..<($0 + needle.count)].elementsEqual(needle) }
            )
            let start = lineBreak + 2
            let offset = try #require(error.findings.first?.offset)
            let end = response[start...].firstIndex(of: 0x0d) ?? response.count
            #expect((start..<end).contains(offset), "offset \(offset) outside \(start)..<\(end)")
        }
        if problem == "refused" { #expect(error.handshakeStatus == 403) }
        // The capture checker finds the same in the same bytes.
        let checked = WebSocketHandshake.parse(request: handshake.request, response: response)
        #expect(checked.responseFindings == error.findings)
    }
}
