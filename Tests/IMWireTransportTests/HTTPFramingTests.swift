import IMWireCore
import IMWireWebSocket
import Testing

@testable import IMWireTransport

/// The framing a request head declares, and whether a head cut short asks for an upgrade.
@Suite struct HTTPFramingTests {
    private func head(_ fields: String) throws -> HTTPHead {
        var findings: [Finding] = []
        let bytes = Array("POST /socket.io/?EIO=3 HTTP/1.1\r\n\(fields)\r\n".utf8)
        let head = try #require(HTTPHead.parse(bytes, baseOffset: 0, maxLength: 8192, findings: &findings))
        #expect(findings.isEmpty)
        return head
    }

    private func invalid(_ framing: HTTPBodyFraming) -> Bool {
        if case .invalid = framing { true } else { false }
    }

    @Test func contentLengthOneFieldOrRepeatedAlike() throws {
        #expect(HTTPBodyFraming.request(try head("Content-Length: 42\r\n")) == .length(42))
        #expect(HTTPBodyFraming.request(try head("content-length:0\r\n")) == .length(0))
        #expect(HTTPBodyFraming.request(try head("Content-Length: 7, 7\r\n")) == .length(7))
        #expect(HTTPBodyFraming.request(try head("Content-Length: 7\r\nContent-Length: 7\r\n")) == .length(7))
        #expect(HTTPBodyFraming.request(try head("Host: a\r\n")) == HTTPBodyFraming.none)
        #expect(HTTPBodyFraming.request(try head("Transfer-Encoding: gzip, chunked\r\n")) == .chunked)
        #expect(HTTPBodyFraming.request(try head("Upgrade: websocket\r\nContent-Length: 3\r\n")) == .awaitingUpgrade)
        for bad in [
            "Content-Length: 7, 8", "Content-Length: +7", "Content-Length: 0x10", "Content-Length: 1234567890123456789",
            "Content-Length:", "Content-Length: 7\r\nContent-Length: 8",
            "Transfer-Encoding: chunked\r\nContent-Length: 3",
            "Transfer-Encoding: chunked, gzip",
        ] {
            #expect(invalid(HTTPBodyFraming.request(try head(bad + "\r\n"))), "\(bad)")
        }
    }

    @Test func aHeadCutShortMentionsAnUpgradeInAnyCase() {
        #expect(ConnectionDecoder.mentionsUpgrade(Array("GET / HTTP/1.1\r\nHost: a\r\nUPGRADE: websocket".utf8)))
        #expect(ConnectionDecoder.mentionsUpgrade(Array("GET / HTTP/1.1\r\nupgrade:".utf8)))
        #expect(!ConnectionDecoder.mentionsUpgrade(Array("GET / HTTP/1.1\r\nX-Upgrade: websocket".utf8)))
        #expect(!ConnectionDecoder.mentionsUpgrade(Array("GET / HTTP/1.1\r\nupgrade".utf8)))
        #expect(!ConnectionDecoder.mentionsUpgrade(Array("\r\nupgrade".utf8)) && !ConnectionDecoder.mentionsUpgrade([]))
    }

    /// A head read where it lies in the reader's buffer is the head parsed from a copy; one whose
    /// blank line comes past the 16 KiB cap is too long, even when it arrives in one piece.
    @Test func headsInTheBufferAndPastTheCap() throws {
        func read(_ text: String) -> [HTTPReader.Output] {
            var reader = HTTPReader(limits: .default)
            var outputs: [HTTPReader.Output] = []
            reader.feed(Array(text.utf8) + [0x78], framing: { _ in .none }, into: &outputs)
            return outputs
        }
        let text = "GET /a HTTP/1.1\r\nHost: b\r\nX-Long: \(String(repeating: "y", count: 300))\r\n\r\n"
        guard case .head(let head, offset: 0, framing: .none)? = read(text).first else {
            Issue.record("no head")
            return
        }
        var findings: [Finding] = []
        #expect(head == HTTPHead.parse(Array(text.utf8), baseOffset: 0, maxLength: 1 << 14, findings: &findings))
        let tooLong = "GET /a HTTP/1.1\r\nX-Long: \(String(repeating: "y", count: 1 << 14))\r\n\r\n"
        let outputs = read(tooLong)
        guard outputs.count == 1, case .finding(let finding) = outputs[0] else {
            Issue.record("\(outputs)")
            return
        }
        #expect(finding.ruleID == HTTPRules.headTooLong.id && finding.message.contains("16384"))
    }
}
