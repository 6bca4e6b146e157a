import Foundation
import IMWire
import Testing

/// The checker's transport layer on transcripts of raw bytes (`stream` lines): an upgrade cut
/// short, and yun2win's MQTT over raw TCP and over WebSocket (MQTT 3.1.1 §6).
struct TransportTests {
    static let request = Array(
        ("""
        GET /mqtt HTTP/1.1\r\nHost: push.example.com\r\nUpgrade: websocket\r\n\
        Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
        Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqttv3.1\r\n\r\n
        """).utf8)
    static let response = Array(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: mqttv3.1\r\n\r\n").utf8)

    static func stream(_ conn: String, _ t: Double, _ dir: String, _ bytes: [UInt8]) -> String {
        #"{"type":"stream","conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(bytes))"}"#
    }

    /// The sample yun2win session's packets: (time, direction, bytes).
    static func yun2winPackets() throws -> [(Double, String, [UInt8])] {
        try readText("Fixtures/captures/yun2win-clean.jsonl").split(separator: "\n").compactMap { line in
            let json = try JSONParser.parse(String(line))
            guard let hex = json["hex"]?.stringValue, let t = json["t"]?.doubleValue, let dir = json["dir"]?.stringValue
            else { return nil }
            return (t, dir, try Hex.decode(hex))
        }
    }

    @Test(arguments: [
        // (request bytes, response bytes, the rule, direction of the finding, its offset)
        (Array(request.dropLast(2)), [UInt8](), "WS.HANDSHAKE-TRUNCATED", "send", request.count - 2),
        // Cut before its Upgrade field, the request is only an HTTP request cut short.
        (Array(request.prefix(40)), [UInt8](), "HTTP.MESSAGE-TRUNCATED", "send", 40),
        (request, Array(response.dropLast(2)), "WS.HANDSHAKE-TRUNCATED", "receive", response.count - 2),
        (request, [UInt8](), "WS.HANDSHAKE-TRUNCATED", "receive", 0),
    ])
    func anUpgradeCutShortIsReported(request: [UInt8], response: [UInt8], rule: String, direction: String, offset: Int)
        throws
    {
        var lines = [Self.stream("h", 0, "send", request)]
        if !response.isEmpty { lines.append(Self.stream("h", 0.1, "receive", response)) }
        let report = check(lines: lines)
        let connection = try #require(report.connections.first)
        let finding = try #require(connection.findings.first)
        #expect(connection.findings.map(\.ruleID.rawValue) == [rule])
        #expect(finding.offset == offset && finding.location.direction?.rawValue == direction)
        #expect(connection.account.decoded == 0)
        #expect(connection.account.skippedTotal == request.count + response.count)
    }

    /// The clean sample's packets cut into 1–7-byte TCP segments check as clean as the sample.
    @Test func yun2winOverRawTCPInAnyChunking() throws {
        var lines: [String] = []
        var size = 1
        for (t, dir, bytes) in try Self.yun2winPackets() {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                lines.append(Self.stream("t", t, dir, Array(bytes[start..<end])))
                start = end
                size = size % 7 + 1
            }
        }
        let report = check(lines: lines)
        #expect(report.connections.first?.dialect == .yun2win)
        #expect(report.summary(.warning).isEmpty)
        #expect(report.connections.first?.account.decoded == (try Self.yun2winPackets()).reduce(0) { $0 + $1.2.count })
        // Messages are MQTT packets, however the segments cut them.
        #expect(report.connections.first?.messages == (try Self.yun2winPackets()).count)
    }

    /// Three packets in one segment are three messages; a packet over two segments is one.
    @Test func mqttMessagesArePacketsNotSegments() throws {
        let packets = try Self.yun2winPackets()
        let client = packets.filter { $0.1 == "send" }.map(\.2)
        let server = packets.filter { $0.1 == "receive" }.map(\.2)
        var lines = [Self.stream("m", 0, "send", client[0] + client[1] + client[2])]
        let rest = Array(client.dropFirst(3).joined())
        lines.append(Self.stream("m", 0.1, "send", Array(rest.prefix(rest.count / 2))))
        lines.append(Self.stream("m", 0.2, "send", Array(rest.dropFirst(rest.count / 2))))
        lines.append(Self.stream("m", 0.3, "receive", Array(server.joined())))
        let report = check(lines: lines)
        #expect(report.connections.first?.messages == packets.count)
        #expect(!report.allFindings.contains { $0.ruleID.rawValue.hasPrefix("MQTT.") })
    }

    /// A data frame after this side's close is reported and still read: its message counts, and
    /// a transcript converted from the stream keeps it, so checking the transcript finds the same.
    @Test func aMessageAfterCloseIsKept() throws {
        let json = Array(#"{"cmd":"echo","i":1}"#.utf8)
        let client = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x0102_0304 })
        let close = client.close(.normalClosure)
        let request = Array(
            ("""
            GET / HTTP/1.1\r\nHost: rtm.example\r\nUpgrade: websocket\r\n\
            Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
            Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: lc.json.3\r\n\r\n
            """).utf8)
        let response = Array(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: lc.json.3\r\n\r\n")
                .utf8)
        let lines = [
            Self.stream("c", 0, "send", request), Self.stream("c", 0.1, "receive", response),
            Self.stream("c", 0.2, "send", close + (try client.message(.text, json))),
        ]
        let report = check(lines: lines)
        #expect(report.allFindings.map(\.ruleID.rawValue).contains("WS.FRAME-AFTER-CLOSE"))
        #expect(report.connections.first?.messages == 1)
        let file = NSTemporaryDirectory() + "imwire-after-close-\(UUID().uuidString).jsonl"
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var converted: [String] = []
        CaptureConverter.transcript(from: try CaptureFile.open(file)) { converted.append($0) }
        #expect(converted.count == 3, "\(converted)")  // open, close, message
        // The transcript has the close before the message: checking it finds the message after the close.
        #expect(check(lines: converted).allFindings.map(\.ruleID.rawValue).contains("CHECK.MESSAGE-AFTER-CLOSE"))
        #expect(converted.contains { $0.contains(#"\"cmd\":\"echo\""#) })
    }

    /// The same session over WebSocket (subprotocol mqttv3.1): client frames masked, each packet
    /// in two binary frames (a continuation), and the dialect found from the subprotocol alone.
    @Test func yun2winOverWebSocketFromTheSubprotocol() throws {
        let client = try WebSocketMessageEncoder(direction: .send, fragmentSize: 24, maskingKey: { 0x1234_5678 })
        let server = try WebSocketMessageEncoder(direction: .receive, fragmentSize: 24)
        var lines = [Self.stream("w", 0, "send", Self.request), Self.stream("w", 0, "receive", Self.response)]
        for (t, dir, bytes) in try Self.yun2winPackets() {
            let encoder = dir == "send" ? client : server
            lines.append(Self.stream("w", t, dir, try encoder.message(.binary, bytes)))
        }
        let report = check(lines: lines)
        let connection = try #require(report.connections.first)
        #expect(connection.dialect == .yun2win && connection.subprotocol == "mqttv3.1")
        #expect(report.summary(.warning).isEmpty)
        #expect(connection.messages == (try Self.yun2winPackets()).count)

        // The same bytes in text frames: reported (those that are not UTF-8 as such too).
        var text = [Self.stream("x", 0, "send", Self.request), Self.stream("x", 0, "receive", Self.response)]
        for (t, dir, bytes) in try Self.yun2winPackets() {
            text.append(Self.stream("x", t, dir, try (dir == "send" ? client : server).message(.text, bytes)))
        }
        let textReport = check(lines: text)
        #expect(textReport.allFindings.contains { $0.ruleID == "MQTT.WEBSOCKET-TEXT-FRAME" })
    }
}
