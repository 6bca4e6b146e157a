import Foundation
import IMWire
import IMWireProxy
import Testing

/// The triggers of `RuleCoverageTests`: per layer, one minimal input per rule that no fixture or
/// sample capture expects, written from the protocol facts, with the builders they use.

// MARK: - input builders

/// Transcript lines (Spec/capture-jsonl.md).
private enum T {
    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    static func open(_ conn: String, _ t: Double = 0, dialect: String) -> String {
        #"{"type":"open","conn":"\#(conn)","t":\#(t),"dialect":"\#(dialect)"}"#
    }
    static func open(_ conn: String, _ t: Double = 0, subprotocol: String) -> String {
        #"{"type":"open","conn":"\#(conn)","t":\#(t),"subprotocol":"\#(subprotocol)"}"#
    }
    static func text(_ conn: String, _ t: Double, _ dir: String, _ text: String) -> String {
        #"{"conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","text":\#(quote(text))}"#
    }
    static func hex(_ conn: String, _ t: Double, _ dir: String, _ hex: String) -> String {
        #"{"conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","hex":"\#(hex)"}"#
    }
    static func stream(_ conn: String, _ t: Double, _ dir: String, _ bytes: [UInt8]) -> String {
        #"{"type":"stream","conn":"\#(conn)","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(bytes))"}"#
    }
    static func close(_ conn: String, _ t: Double) -> String {
        #"{"type":"close","conn":"\#(conn)","t":\#(t)}"#
    }
    static func findings(_ lines: [String], options: CheckOptions = CheckOptions()) -> [Finding] {
        check(lines: lines, options: options).allFindings
    }
}

/// Bytes written to a temporary file and checked as a capture.
private func checkFile(_ bytes: [UInt8], suffix: String, options: CheckOptions = CheckOptions()) throws -> [Finding] {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "imwire-rule-\(UUID().uuidString)\(suffix)"
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try check(path, options: options).allFindings
}

/// pcap (draft-ietf-opsawg-pcap) and pcapng (draft-ietf-opsawg-pcapng) files, little-endian.
private enum Pcap {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xff) } }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    static func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(v >> (8 * $0) & 0xff) } }

    /// File header: magic, version, thiszone, sigfigs, snaplen, link type (101: raw IP).
    static func file(major: Int = 2, minor: Int = 4, snap: Int = 65535, linkType: Int = 101, _ records: [UInt8]...)
        -> [UInt8]
    {
        [0xd4, 0xc3, 0xb2, 0xa1] + le16(major) + le16(minor) + le32(0) + le32(0) + le32(snap) + le32(linkType)
            + records.flatMap { $0 }
    }
    /// Record header (seconds, microseconds, included, original length) and the packet.
    static func record(_ data: [UInt8], included: Int? = nil, original: Int? = nil, seconds: Int = 1_700_000_000)
        -> [UInt8]
    {
        le32(seconds) + le32(0) + le32(included ?? data.count) + le32(original ?? data.count) + data
    }
    /// IPv4 10.0.0.1 → 10.0.0.2; flags/fragment offset 0x4000 is DF, not a fragment.
    static func ipv4(protocol number: UInt8 = 6, flagsAndOffset: Int = 0x4000, _ payload: [UInt8]) -> [UInt8] {
        [0x45, 0] + be16(20 + payload.count) + be16(1) + be16(flagsAndOffset) + [64, number] + be16(0) + [
            10, 0, 0, 1, 10, 0, 0, 2,
        ] + payload
    }
    /// TCP 50000 → 443, data offset 5 words, PSH|ACK unless told.
    static func tcp(seq: Int, flags: UInt8 = 0x18, _ payload: [UInt8]) -> [UInt8] {
        be16(50000) + be16(443) + be32(seq) + be32(0) + [0x50, flags] + be16(65535) + be16(0) + be16(0) + payload
    }

    /// A pcapng block: type, total length, body padded to 32 bits, total length again.
    static func block(_ type: Int, _ body: [UInt8]) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        return le32(type) + le32(padded.count + 12) + padded + le32(padded.count + 12)
    }
    static func section(major: Int = 1) -> [UInt8] {
        block(0x0a0d_0d0a, [0x4d, 0x3c, 0x2b, 0x1a] + le16(major) + le16(0) + [UInt8](repeating: 0xff, count: 8))
    }
    static func interface(options: [UInt8] = []) -> [UInt8] { block(1, le16(101) + le16(0) + le32(0) + options) }
    static func enhanced(interface: Int, _ data: [UInt8]) -> [UInt8] {
        block(6, le32(interface) + le32(0) + le32(0) + le32(data.count) + le32(data.count) + data)
    }
}

/// RFC 6455 handshake (the §1.3 example key and accept) and frames.
private enum WS {
    static func request(
        protocols: String? = "lc.json.3", extensions: String? = nil, upgrade: String = "websocket",
        host: String = "Host: server.example.com"
    ) -> [UInt8] {
        var head = "GET /chat HTTP/1.1\r\n\(host)\r\nUpgrade: \(upgrade)\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let protocols { head += "Sec-WebSocket-Protocol: \(protocols)\r\n" }
        if let extensions { head += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        return Array((head + "\r\n").utf8)
    }
    static func response(protocol chosen: String? = "lc.json.3", extensions: String? = nil) -> [UInt8] {
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
        if let chosen { head += "Sec-WebSocket-Protocol: \(chosen)\r\n" }
        if let extensions { head += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        return Array((head + "\r\n").utf8)
    }
    static func handshake(_ request: [UInt8], _ response: [UInt8]) -> [Finding] {
        WebSocketHandshake.parse(request: request, response: response).findings
    }
    /// A frame under 126 bytes; `mask` with a zero key leaves the payload as it is.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: Bool = false) -> [UInt8] {
        [(fin ? 0x80 : 0) | opcode, (mask ? 0x80 : 0) | UInt8(payload.count)] + (mask ? [0, 0, 0, 0] : []) + payload
    }
    static func text(_ text: String, mask: Bool) -> [UInt8] { frame(1, Array(text.utf8), mask: mask) }
    /// An upgraded connection `c` speaking lc.json.3.
    static func upgraded(_ conn: String = "w") -> [String] {
        [T.stream(conn, 0, "send", request()), T.stream(conn, 0.05, "receive", response())]
    }
}

/// MQTT 3.1.1 packets (§2.2.3 remaining length, §3.3 PUBLISH).
private enum MQTT {
    static func remainingLength(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value % 128)
            value /= 128
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
    static func string(_ text: String) -> [UInt8] { Pcap.be16(text.utf8.count) + Array(text.utf8) }
    static func publish(_ topic: String, _ json: String) -> String {
        let body = string(topic) + Array(json.utf8)
        return Hex.encode([0x30] + remainingLength(body.count) + body)
    }
    /// PUBLISH at QoS 1 with packet id `id`.
    static func publishQoS1(_ topic: String, id: UInt16, _ json: String) -> String {
        let body = string(topic) + [UInt8(id >> 8), UInt8(id & 0xff)] + Array(json.utf8)
        return Hex.encode([0x32] + remainingLength(body.count) + body)
    }
    /// CONNECT "MQTT" level 4, flags user name + password + clean session, keep-alive 60 s,
    /// client id "c1", user "u1001", password "t".
    static let connect = "1018 00044d515454 04 c2 003c 00026331 00057531303031 000174"
    static let connackAccepted = "20020000"
    static let pingreq = "c000"
    /// yun2win: the server accepts the session with {"returnCode":11} on the user's topic.
    static let accepted = publish("y2w/u1001", #"{"returnCode":11}"#)
    static func sendMessage(_ id: String) -> String {
        publish(
            "y2w/session/p2p_2001",
            #"""
            {"cmd":"sendMessage","y2wMessageId":"\#(id)","mts":1479460000000,\#
            "message":{"syncs":[{"type":0},{"type":1,"sessionId":"p2p_2001"}],"pns":{"msg":"hi"}}}
            """#
        )
    }
    /// A yun2win session up to the server's acceptance, frames 1-4.
    static let established = [
        T.open("y", dialect: "yun2win"), T.hex("y", 0, "send", connect), T.hex("y", 0.1, "receive", connackAccepted),
        T.hex("y", 0.2, "receive", accepted),
    ]
}

/// engine.io 3 / socket.io (JMessage) and socket.io 0.9 (NIM) texts.
private enum SIO {
    static let eioOpen = #"0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":5000}"#
    /// A JMessage connection after engine.io open and socket.io CONNECT, frames 1-2.
    static func jmessage(_ conn: String = "j", _ t: Double = 0) -> [String] {
        [T.open(conn, t, dialect: "jmessage"), T.text(conn, t, "receive", eioOpen), T.text(conn, t, "receive", "40")]
    }
    static let nimLogin =
        #"""
        3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"4":"Chrome","6":190,\#
        "9":1,"13":"dev-1","18":"app-key-1","19":"alice","40":"8.5.0","1000":"token-1"}}]}
        """#
    static let nimLoggedIn = #"3:::{"sid":2,"cid":3,"ser":1,"code":200,"r":[{"102":"c"},[],{}]}"#
}

private enum LC {
    static let open = #"{"cmd":"session","op":"open","appId":"appid","peerId":"tom","i":1,"ua":"js/5.0.0"}"#
    static let opened = #"{"cmd":"session","op":"opened","peerId":"tom","i":1}"#
    /// A LeanCloud JSON session up to session/opened, frames 1-2.
    static func session(_ conn: String = "l", _ t: Double = 0) -> [String] {
        [
            T.open(conn, t, subprotocol: "lc.json.3"), T.text(conn, t + 0.01, "send", open),
            T.text(conn, t + 0.05, "receive", opened),
        ]
    }
}

// MARK: - triggers by layer

extension RuleCoverageTests {
    static let captureTriggers: [Trigger] = [
        // A transcript line whose dir is neither send nor receive.
        Trigger("CAPTURE.JSONL-BAD-FIELD") { T.findings([#"{"conn":"c","t":1,"dir":"sideways","hex":"00"}"#]) },
        // A line longer than Limits.maxLineLength (64 here).
        Trigger("CAPTURE.LINE-TOO-LONG") {
            var options = CheckOptions()
            options.limits.maxLineLength = 64
            let long = T.text("c", 0, "send", String(repeating: "x", count: 200))
            return try checkFile(
                Array((long + "\n" + T.hex("c", 1, "send", "00") + "\n").utf8), suffix: ".jsonl", options: options)
        },
        // t goes from 5 to 4 on one connection.
        Trigger("CAPTURE.TIME-BACKWARDS", frame: 2) {
            T.findings([
                T.open("c", subprotocol: "lc.json.3"), T.text("c", 5, "receive", "{}"), T.text("c", 4, "receive", "{}"),
            ])
        },
        // pcap version 3.0: only 2.4 exists.
        Trigger("CAPTURE.BAD-FILE-HEADER", offset: 4) { try checkFile(Pcap.file(major: 3, minor: 0), suffix: ".pcap") },
        // A pcap file ending 10 bytes into a 16-byte record header.
        Trigger("CAPTURE.TRUNCATED-FILE", offset: 24) {
            try checkFile(Pcap.file([UInt8](repeating: 0, count: 10)), suffix: ".pcap")
        },
        // A record announcing 100000 bytes under a 65535-byte snaplen.
        Trigger("CAPTURE.RECORD-TOO-LARGE", offset: 24) {
            try checkFile(Pcap.file(Pcap.record([1, 2, 3, 4], included: 100_000)), suffix: ".pcap")
        },
        // A record of 40 bytes captured from a 1500-byte packet.
        Trigger("CAPTURE.PACKET-TRUNCATED") {
            try checkFile(Pcap.file(Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1, [])), original: 1500)), suffix: ".pcap")
        },
        // A pcapng block whose total length (13) is not a multiple of 4.
        Trigger("CAPTURE.PCAPNG-BLOCK-LENGTH", offset: 32) {
            try checkFile(
                Pcap.section() + Pcap.le32(6) + Pcap.le32(13) + [UInt8](repeating: 0, count: 8), suffix: ".pcapng")
        },
        // A pcapng block of type 0x99, which no version defines.
        Trigger("CAPTURE.PCAPNG-UNKNOWN-BLOCK", offset: 28) {
            try checkFile(Pcap.section() + Pcap.block(0x99, []), suffix: ".pcapng")
        },
        // An enhanced packet block naming interface 0 before any Interface Description Block.
        Trigger("CAPTURE.PCAPNG-NO-INTERFACE", offset: 36) {
            try checkFile(
                Pcap.section() + Pcap.enhanced(interface: 0, Pcap.ipv4(Pcap.tcp(seq: 1, [0x41]))), suffix: ".pcapng")
        },
        // if_tsresol (option 9) must be 1 byte; this one has 2.
        Trigger("CAPTURE.PCAPNG-BAD-OPTION", offset: 44) {
            let options = Pcap.le16(9) + Pcap.le16(2) + [6, 0, 0, 0] + Pcap.le16(0) + Pcap.le16(0)
            return try checkFile(Pcap.section() + Pcap.interface(options: options), suffix: ".pcapng")
        },
        // Link type 147 (LINKTYPE_USER0), which IMWire does not read.
        Trigger("CAPTURE.LINKTYPE-UNSUPPORTED") {
            try checkFile(Pcap.file(linkType: 147, Pcap.record([0x45, 0, 0, 20])), suffix: ".pcap")
        },
        // An IP header whose version nibble is 5.
        Trigger("CAPTURE.IP-MALFORMED", frame: 1) {
            try checkFile(Pcap.file(Pcap.record([0x55] + [UInt8](repeating: 0, count: 19))), suffix: ".pcap")
        },
        // An IPv4 TCP packet with More Fragments set.
        Trigger("CAPTURE.IP-FRAGMENT", frame: 1) {
            try checkFile(
                Pcap.file(Pcap.record(Pcap.ipv4(flagsAndOffset: 0x2000, Pcap.tcp(seq: 1, [0x41])))), suffix: ".pcap")
        },
        // Protocol 6 with 8 bytes: shorter than a TCP header.
        Trigger("CAPTURE.TCP-MALFORMED", frame: 1) {
            try checkFile(Pcap.file(Pcap.record(Pcap.ipv4([UInt8](repeating: 0, count: 8)))), suffix: ".pcap")
        },
        // The same sequence number twice with different bytes ("GET " then "PUT ").
        Trigger("CAPTURE.TCP-OVERLAP-CONFLICT", frame: 2) {
            try checkFile(
                Pcap.file(
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1000, Array("GET ".utf8)))),
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1000, Array("PUT ".utf8))))), suffix: ".pcap")
        },
        // A byte sent after the connection's RST (RST|ACK): still that connection's.
        Trigger("CAPTURE.TCP-AFTER-END", frame: 3) {
            try checkFile(
                Pcap.file(
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1000, Array("GET ".utf8)))),
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1004, flags: 0x14, []))),
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1004, Array("/".utf8))))), suffix: ".pcap")
        },
        // A byte after the connection went without a packet for over an hour (Limits.tcpIdleSeconds).
        Trigger("CAPTURE.TCP-IDLE", frame: 2) {
            try checkFile(
                Pcap.file(
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1000, Array("GET ".utf8)))),
                    Pcap.record(Pcap.ipv4(Pcap.tcp(seq: 1004, Array("/".utf8))), seconds: 1_700_003_601)),
                suffix: ".pcap")
        },
        // A gap line: bytes of the client's stream were lost.
        Trigger("CAPTURE.TCP-GAP") {
            T.findings(WS.upgraded() + [#"{"type":"gap","conn":"w","t":1,"dir":"send","length":100}"#])
        },
        // A HAR whose only entry was upgraded (101) but carries no _webSocketMessages.
        Trigger("CAPTURE.HAR-NO-WEBSOCKET-MESSAGES") {
            let har = #"""
                {"log":{"version":"1.2","entries":[{"request":{"method":"GET",\#
                "url":"wss://example.com/"},"response":{"status":101}}]}}
                """#
            return try checkFile(Array(har.utf8), suffix: ".har")
        },
        // A _webSocketMessages item whose type is neither send nor receive.
        Trigger("CAPTURE.HAR-BAD-MESSAGE") {
            let har =
                #"""
                {"log":{"version":"1.2","entries":[{"request":{"method":"GET",\#
                "url":"wss://example.com/"},"response":{"status":101},\#
                "_webSocketMessages":[{"type":"sideways","time":1,"opcode":1,"data":"x"}]}]}}
                """#
            return try checkFile(Array(har.utf8), suffix: ".har")
        },
    ]

    static let checkTriggers: [Trigger] = [
        // No open line and a first message no decoder reads cleanly.
        Trigger("CHECK.UNKNOWN-DIALECT", frame: 1) { T.findings([T.text("c", 0, "send", "hello")]) },
        // No open line; the first message decodes cleanly as a LeanCloud GenericCommand (field 1, cmd, = 21).
        Trigger("CHECK.DIALECT-GUESSED", frame: 1) { T.findings([T.hex("c", 0, "receive", "0815")]) },
        // A message after the connection's close line.
        Trigger("CHECK.MESSAGE-AFTER-CLOSE", frame: 3) {
            T.findings(LC.session() + [T.close("l", 1), T.text("l", 2, "receive", "{}")])
        },
        // A live check told that the upstream refused a client (what `imwire proxy` does).
        Trigger("PROXY.UPSTREAM-UNREACHABLE") {
            let live = try LiveCheck(options: CheckOptions(), now: { 1_000 })
            live.problem(LiveRules.upstreamUnreachable.finding("127.0.0.1:9 refused the connection"))
            return try live.finish(source: "proxy").captureFindings
        },
        // A request in origin form to `proxy --explicit`: not one a proxy serves.
        Trigger("PROXY.REQUEST-REFUSED") {
            try proxyRun(upstream: .askedByClient, send: Array("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
        },
        // Two plain-HTTP proxy requests on one connection, for two servers.
        Trigger("PROXY.SERVER-SWITCH") {
            let (first, firstPort) = try listeningSocket()
            defer { close(first) }
            let request = { (port: Int) in "GET http://127.0.0.1:\(port)/ HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n" }
            return try proxyRun(
                upstream: .askedByClient, send: Array((request(firstPort) + request(firstPort + 1)).utf8))
        },
        // `proxy --tls` and a ClientHello whose only suite no server shares.
        Trigger("PROXY.TLS-HANDSHAKE-FAILED") {
            let tls = ProxyTLSConfiguration(authority: try CertificateAuthority.create(), upstreamTrust: .insecure)
            return try proxyRun(
                upstream: .fixed(host: "127.0.0.1", port: 9), tls: tls, send: clientHelloWithoutSharedSuite)
        },
    ]

    static let compressionTriggers: [Trigger] = [
        // 1000 zero bytes (zlib, 17 bytes compressed) inflated under a 100-byte cap.
        Trigger("ZLIB.OUTPUT-LIMIT") {
            zlibFindings("789c63601805a360140c77000003e80001", limit: InflateLimit(maxOutput: 100, maxRatio: 1000))
        },
        // zlib "a" without its Adler-32 trailer: the input ends before the stream does.
        Trigger("ZLIB.TRUNCATED", offset: 5) { zlibFindings("789c4b0400") },
        // zlib "a" followed by one more byte.
        Trigger("ZLIB.TRAILING-DATA", offset: 9) { zlibFindings("789c4b04000062006200") },
        // A window of 7 bits, which zlib cannot run with (RFC 1950 allows 8...15).
        Trigger("ZLIB.FAILURE") {
            do {
                _ = try Inflater(format: .zlib, windowBits: 7)
                return []
            } catch let error as IMWireError { return [error.compressionFinding()] } catch { return [] }
        },
    ]

    static func zlibFindings(_ hex: String, limit: InflateLimit = InflateLimit(.default)) -> [Finding] {
        do {
            _ = try Zlib.decompress(try Hex.decode(hex), format: .zlib, limit: limit)
            return []
        } catch {
            return error.code.rawValue.hasPrefix("compression.") ? [error.compressionFinding()] : []
        }
    }

    static let webSocketTriggers: [Trigger] = [
        // A server frame with the MASK bit set (RFC 6455 §5.1: the server must not mask).
        Trigger("WS.SERVER-FRAME-MASKED") {
            T.findings(WS.upgraded() + [T.stream("w", 1, "receive", WS.text("{}", mask: true))])
        },
        // The stream ends 3 bytes into a 5-byte text frame.
        Trigger("WS.TRUNCATED-FRAME") {
            T.findings(WS.upgraded() + [T.stream("w", 1, "receive", [0x81, 0x05] + Array("Hel".utf8))])
        },
        // RFC 6455 §5.6's fragmented "Hel", whose final "lo" never comes.
        Trigger("WS.MESSAGE-UNFINISHED") {
            T.findings(WS.upgraded() + [T.stream("w", 1, "receive", WS.frame(1, Array("Hel".utf8), fin: false))])
        },
        // A header field line without a colon.
        Trigger("WS.HANDSHAKE-MALFORMED", offset: 20) {
            WS.handshake(WS.request(host: "Host server.example.com"), WS.response())
        },
        // Upgrade names h2c, not websocket.
        Trigger("WS.HANDSHAKE-UPGRADE", offset: 46) { WS.handshake(WS.request(upgrade: "h2c"), WS.response()) },
        // The client offers lc.json.3; the server's 101 chooses nothing.
        Trigger("WS.SUBPROTOCOL-NOT-CHOSEN") { WS.handshake(WS.request(), WS.response(protocol: nil)) },
        // The response accepts permessage-deflate twice (RFC 7692 §5.1).
        Trigger("PMD.ACCEPTED-TWICE") {
            WS.handshake(
                WS.request(extensions: "permessage-deflate"),
                WS.response(extensions: "permessage-deflate, permessage-deflate"))
        },
        // The client offers server_max_window_bits=8.
        Trigger("PMD.WINDOW-BITS-8") {
            WS.handshake(WS.request(extensions: "permessage-deflate; server_max_window_bits=8"), WS.response())
        },
    ]

    static let mqttTriggers: [Trigger] = [
        // PUBLISH with remaining length 268435455 (the maximum), above the 16 MiB frame limit.
        Trigger("MQTT.WEBSOCKET-TEXT-FRAME", frame: 3, offset: 0) {
            // PUBLISH {"returnCode":11} is all ASCII, so it is valid text: only the frame type is wrong.
            T.findings([
                T.stream("m", 0, "send", WS.request(protocols: "mqttv3.1")),
                T.stream("m", 0.05, "receive", WS.response(protocol: "mqttv3.1")),
                T.stream(
                    "m", 0.1, "send",
                    WS.frame(2, try Hex.decode(MQTT.connect.replacingOccurrences(of: " ", with: "")), mask: true)),
                T.stream("m", 0.2, "receive", WS.frame(2, try Hex.decode(MQTT.connackAccepted))),
                T.stream("m", 0.3, "receive", WS.frame(1, try Hex.decode(MQTT.accepted))),
            ])
        },
        Trigger("MQTT.PACKET-TOO-LARGE", frame: 2, offset: 1) {
            T.findings([MQTT.established[0], MQTT.established[1], T.hex("y", 1, "send", "30ffffff7f")])
        },
        // CONNECT with the will flag and will QoS 3 (MQTT 3.1.1 §3.1.2.6).
        Trigger("MQTT.WILL-QOS-INVALID", frame: 1, offset: 9) {
            T.findings([
                T.open("y", dialect: "yun2win"),
                T.hex("y", 0, "send", "1013 00044d515454 04 1e 003c 000163 000174 00016d"),
            ])
        },
    ]

    /// Plain HTTP on a connection's streams: one exchange, the request and the response as given.
    static func http(_ request: String, _ response: String? = nil) -> [Finding] {
        var lines = [T.stream("h", 0, "send", Array(request.utf8))]
        if let response { lines.append(T.stream("h", 0.1, "receive", Array(response.utf8))) }
        return T.findings(lines)
    }

    static let httpTriggers: [Trigger] = [
        // A field line without a colon.
        Trigger("HTTP.HEAD-MALFORMED", offset: 16) { http("GET / HTTP/1.1\r\nno colon here\r\n\r\n") },
        // A request line, then 20 KiB without a blank line.
        Trigger("HTTP.HEAD-TOO-LONG", offset: 0) {
            http("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 20_000))
        },
        // Content-Length that is not a number.
        Trigger("HTTP.LENGTH-INVALID") { http("POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n0123456789") },
        // A chunk size that is not hexadecimal.
        Trigger("HTTP.CHUNK-INVALID", offset: 47) {
            http("GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        },
        // A body over the size limit (64 bytes here).
        Trigger("HTTP.BODY-TOO-LARGE") {
            var options = CheckOptions()
            options.limits.maxMessageSize = 64
            let request = "POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + String(repeating: "x", count: 100)
            return T.findings([T.stream("h", 0, "send", Array(request.utf8))], options: options)
        },
        // The server answers twice to one request.
        Trigger("HTTP.RESPONSE-WITHOUT-REQUEST", offset: 38) {
            http(
                "GET / HTTP/1.1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        },
        // The connection ends 5 bytes into a 10-byte body.
        Trigger("HTTP.MESSAGE-TRUNCATED") { http("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n01234") },
        // A long-poll the capture ends before it is answered.
        Trigger("HTTP.REQUEST-UNANSWERED", offset: 0) {
            http("GET /socket.io/?EIO=3&transport=polling&sid=s HTTP/1.1\r\n\r\n")
        },
    ]

    static let socketIOTriggers: [Trigger] = [
        // An engine.io polling response whose second packet's length runs past the body.
        Trigger("EIO.PAYLOAD-INVALID") {
            let body = "1:69:4hello"
            return http(
                "GET /socket.io/?EIO=3&transport=polling&sid=s HTTP/1.1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        },
        // A text polling payload whose length counts the bytes of "é" (2), not its one character.
        Trigger("EIO.PAYLOAD-LENGTH-IN-BYTES") {
            let body = "4:4\u{e9}x1:6"
            return http(
                "GET /socket.io/?EIO=3&transport=polling&sid=s HTTP/1.1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        },
        // A socket.io 0.9 handshake body of two fields instead of four.
        // Transports offering only xhr-polling.
        // An open line whose socket.io 0.9 path has xhr-polling where websocket belongs.
        Trigger("SIO.V09-URL-INVALID") {
            T.findings([
                #"""
                {"type":"open","conn":"n","t":0,"dialect":"nim",\#
                "url":"wss://weblink.netease.im/socket.io/1/xhr-polling/abc"}
                """#
            ])
        },
        // An open line whose engine.io URL asks for protocol 4.
        Trigger("EIO.URL-INVALID") {
            T.findings([
                #"""
                {"type":"open","conn":"j","t":0,"dialect":"jmessage",\#
                "url":"wss://ws.im.jiguang.cn/socket.io/?EIO=4&transport=websocket"}
                """#
            ]
            )
        },
        // BINARY_EVENT with one attachment, followed by a text packet instead of the attachment.
        Trigger("SIO.ATTACHMENT-MISSING", frame: 4) {
            T.findings(
                SIO.jmessage() + [
                    T.text("j", 1, "send", #"451-["upload",{"_placeholder":true,"num":0}]"#),
                    T.text("j", 2, "send", #"42["ping_x",{"rid":7}]"#),
                ])
        },
        // A binary engine.io message (type 4) with no binary packet waiting for it.
        Trigger("SIO.BINARY-UNEXPECTED", frame: 3) {
            T.findings(SIO.jmessage() + [T.hex("j", 1, "receive", "04010203")])
        },
        // The server's first packet is a socket.io CONNECT, not the engine.io open.
        Trigger("EIO.OPEN-NOT-FIRST", frame: 1) {
            T.findings([T.open("j", dialect: "jmessage"), T.text("j", 0, "receive", "40")])
        },
        // A ping from the server: in engine.io 3 only the client pings.
        Trigger("EIO.WRONG-DIRECTION", frame: 3) { T.findings(SIO.jmessage() + [T.text("j", 1, "receive", "2")]) },
        // The first client ping 60 s after an open of pingInterval 25 s + pingTimeout 5 s.
        Trigger("EIO.PING-LATE", frame: 3) { T.findings(SIO.jmessage() + [T.text("j", 60, "send", "2")]) },
        // A client EVENT before the server's CONNECT `40`.
        Trigger("SIO.EVENT-BEFORE-CONNECT", frame: 2) {
            T.findings([
                T.open("j", dialect: "jmessage"), T.text("j", 0, "receive", SIO.eioOpen),
                T.text("j", 0.1, "send", #"42["c_init",{"rid":1}]"#),
            ])
        },
        // The server's first socket.io 0.9 packet is a heartbeat, not connect `1::`.
        Trigger("SIO.V09-CONNECT-NOT-FIRST", frame: 1) {
            T.findings([T.open("n", dialect: "nim"), T.text("n", 0, "receive", "2::")])
        },
        // The client sends its login before the server's `1::`.
        Trigger("SIO.V09-MESSAGE-BEFORE-CONNECT", frame: 1) {
            T.findings([T.open("n", dialect: "nim"), T.text("n", 0, "send", SIO.nimLogin)])
        },
    ]

    static let leanCloudTriggers: [Trigger] = [
        // A push the connection closes on before its ack was due (the JS SDK batches acks for 1 s).
        Trigger("LC.ACK-PENDING-AT-END", frame: 3) {
            T.findings(
                LC.session() + [
                    T.text(
                        "l", 0.06, "receive",
                        #"{"cmd":"direct","directMessage":{"id":"M1","cid":"C1","fromPeerId":"jerry","timestamp":"1"}}"#
                    ),
                    T.close("l", 0.16),
                ])
        },
        // An 11-byte command (the Spec/capture-jsonl.md session/open prefix) under an 8-byte frame limit.
        Trigger("PB.FRAME-TOO-LARGE", frame: 1) {
            var options = CheckOptions()
            options.limits.maxFrameSize = 8
            return T.findings(
                [T.open("p", subprotocol: "lc.protobuf2.3"), T.hex("p", 0, "send", "080010011a056170706964")],
                options: options)
        },
        // session/open with its sessionMessage (field 102), one level deeper than a nesting limit of 0.
        Trigger("PB.NESTING-TOO-DEEP", frame: 1) {
            var options = CheckOptions()
            options.limits.maxNestingDepth = 0
            return T.findings(
                [
                    T.open("p", subprotocol: "lc.protobuf2.3"),
                    T.hex(
                        "p", 0, "send", "080010011a056170706964 2203746f6d2801b2061022086a732f352e302e3028009801bb01"),
                ], options: options)
        },
        // The server sends session/open, which only clients send.
        Trigger("LC.WRONG-DIRECTION", frame: 1) {
            T.findings([T.open("l", subprotocol: "lc.json.3"), T.text("l", 0, "receive", LC.open)])
        },
        // session/open still unanswered when the capture ends 0.1 s later.
        Trigger("LC.REQUEST-PENDING-AT-END", frame: 1) {
            T.findings([T.open("l", subprotocol: "lc.json.3"), T.text("l", 0, "send", LC.open), T.close("l", 0.1)])
        },
        // session/open without i: its reply cannot be matched.
        Trigger("LC.REQUEST-WITHOUT-I", frame: 1) {
            T.findings([
                T.open("l", subprotocol: "lc.json.3"),
                T.text(
                    "l", 0, "send", #"{"cmd":"session","op":"open","appId":"appid","peerId":"tom","ua":"js/5.0.0"}"#),
            ])
        },
        // session/open i=1 answered by conv/started (usually session/opened or session/closed).
        Trigger("LC.RESPONSE-OP-UNEXPECTED", frame: 2) {
            T.findings([
                T.open("l", subprotocol: "lc.json.3"), T.text("l", 0, "send", LC.open),
                T.text(
                    "l", 0.1, "receive",
                    #"{"cmd":"conv","op":"started","peerId":"tom","i":1,"cid":"5f2b6e4ab8a1d2e3f4a5b6c8"}"#),
            ])
        },
        // The server's goaway (cmd 21) on an open session: the client is to reconnect.
        Trigger("LC.GOAWAY", frame: 3) { T.findings(LC.session() + [T.text("l", 1, "receive", #"{"cmd":"goaway"}"#)]) },
        // After session/close and session/closed, the client starts a conversation without re-opening.
        Trigger("LC.COMMAND-AFTER-CLOSE", frame: 5) {
            T.findings(
                LC.session() + [
                    T.text("l", 1, "send", #"{"cmd":"session","op":"close","peerId":"tom","i":2}"#),
                    T.text("l", 1.1, "receive", #"{"cmd":"session","op":"closed","peerId":"tom","i":2}"#),
                    T.text("l", 2, "send", #"{"cmd":"conv","op":"start","peerId":"tom","i":3,"m":["tom","bob"]}"#),
                ])
        },
        // A login signature of 40 zeros (leancloud.md §6: HMAC-SHA1 of appid:client::timestamp:nonce).
        Trigger("LC.SIGNATURE-MISMATCH") {
            LeanCloudSignature.verify(
                signature: String(repeating: "0", count: 40), appID: "FreeChatDemo01-gzGzoHsz",
                action: .login(clientID: "alice"),
                timestamp: 1_700_000_000_000, nonce: "n1", masterKey: "masterKey-FreeChat-demo")
        },
    ]

    static let yun2winTriggers: [Trigger] = [
        // The push server's kick (returnCode 10) on an established connection.
        Trigger("Y2W.KICKED", frame: 4) {
            T.findings(MQTT.established + [T.hex("y", 1, "receive", MQTT.publish("y2w/u1001", #"{"returnCode":10}"#))])
        },
        // A send answered with 31: refused (the web SDK calls onFailure(31)).
        Trigger("Y2W.SEND-REFUSED", frame: 5) {
            T.findings(
                MQTT.established + [
                    T.hex("y", 1, "send", MQTT.sendMessage("m-1")),
                    T.hex("y", 1.1, "receive", MQTT.publish("y2w/u1001", #"{"y2wMessageId":"m-1","returnCode":31}"#)),
                ])
        },
        // A send answered with 26: the session must be updated first.
        Trigger("Y2W.SESSION-OUT-OF-SYNC", frame: 5) {
            T.findings(
                MQTT.established + [
                    T.hex("y", 1, "send", MQTT.sendMessage("m-1")),
                    T.hex("y", 1.1, "receive", MQTT.publish("y2w/u1001", #"{"y2wMessageId":"m-1","returnCode":26}"#)),
                ])
        },
        // CONNACK 4, which yun2win reads as uidIsInvalid (MQTT: bad user name or password).
        Trigger("Y2W.CONNACK-YUN2WIN-MEANING", frame: 2, offset: 3) {
            T.findings([MQTT.established[0], MQTT.established[1], T.hex("y", 0.1, "receive", "20020004")])
        },
        // PINGREQ as the client's first packet.
        Trigger("Y2W.FIRST-PACKET-NOT-CONNECT", frame: 1) {
            T.findings([T.open("y", dialect: "yun2win"), T.hex("y", 0, "send", MQTT.pingreq)])
        },
        // CONNECT again on an established connection.
        Trigger("Y2W.SECOND-CONNECT", frame: 4) {
            T.findings(MQTT.established + [T.hex("y", 1, "send", MQTT.connect)])
        },
        // CONNACK from the client.
        Trigger("Y2W.WRONG-DIRECTION", frame: 4) {
            T.findings(MQTT.established + [T.hex("y", 1, "send", MQTT.connackAccepted)])
        },
        // PINGRESP before CONNACK.
        Trigger("Y2W.SERVER-BEFORE-CONNACK", frame: 2) {
            T.findings([MQTT.established[0], MQTT.established[1], T.hex("y", 0.1, "receive", "d000")])
        },
        // CONNACK 5 (refused), then the client still pings.
        Trigger("Y2W.AFTER-REFUSAL", frame: 3) {
            T.findings([
                MQTT.established[0], MQTT.established[1], T.hex("y", 0.1, "receive", "20020005"),
                T.hex("y", 0.2, "send", MQTT.pingreq),
            ])
        },
        // An ack for y2wMessageId m-9 that no command used.
        Trigger("Y2W.ACK-WITHOUT-REQUEST", frame: 4) {
            T.findings(
                MQTT.established + [
                    T.hex("y", 1, "receive", MQTT.publish("y2w/u1001", #"{"y2wMessageId":"m-9","returnCode":20}"#))
                ])
        },
        // sendMessage m-1 twice while the first waits for its ack.
        Trigger("Y2W.DUPLICATE-MESSAGE-ID", frame: 5) {
            T.findings(
                MQTT.established + [
                    T.hex("y", 1, "send", MQTT.sendMessage("m-1")), T.hex("y", 1.1, "send", MQTT.sendMessage("m-1")),
                ])
        },
        // The server kicks ({"returnCode":10}); the client publishes anyway.
        Trigger("Y2W.COMMAND-AFTER-KICK", frame: 5) {
            T.findings(
                MQTT.established + [
                    T.hex("y", 1, "receive", MQTT.publish("y2w/u1001", #"{"returnCode":10}"#)),
                    T.hex("y", 1.1, "send", MQTT.sendMessage("m-1")),
                ])
        },
        // A message pushed at QoS 1 (packet id 7), and 11 s later the client pings without having PUBACKed it.
        Trigger("Y2W.PUBLISH-NOT-ACKNOWLEDGED", frame: 4) {
            T.findings(
                MQTT.established + [
                    T.hex(
                        "y", 1, "receive",
                        MQTT.publishQoS1("y2w/u1001", id: 7, #"{"cmd":"sendMessage","y2wMessageId":"p-1"}"#)),
                    T.hex("y", 12, "send", MQTT.pingreq),
                ])
        },
        // sendMessage m-1, and the capture ends 0.1 s later.
        Trigger("Y2W.PENDING-AT-END", frame: 4) {
            T.findings(MQTT.established + [T.hex("y", 1, "send", MQTT.sendMessage("m-1")), T.close("y", 1.1)])
        },
    ]

    static let nimTriggers: [Trigger] = [
        // Login answered with 302 (wrong password).
        Trigger("NIM.RESPONSE-ERROR", frame: 3) {
            T.findings([
                T.open("n", dialect: "nim"), T.text("n", 0, "receive", "1::"), T.text("n", 0.1, "send", SIO.nimLogin),
                T.text("n", 0.2, "receive", #"3:::{"sid":2,"cid":3,"ser":1,"code":302}"#),
            ])
        },
        // A second login 2_3 after the first succeeded.
        Trigger("NIM.SECOND-LOGIN", frame: 4) {
            T.findings([
                T.open("n", dialect: "nim"), T.text("n", 0, "receive", "1::"), T.text("n", 0.1, "send", SIO.nimLogin),
                T.text("n", 0.2, "receive", SIO.nimLoggedIn),
                T.text("n", 1, "send", SIO.nimLogin.replacingOccurrences(of: #""SER":1"#, with: #""SER":2"#)),
            ])
        },
        // The login is unanswered when the capture ends 0.4 s later (cmdTimeout is 8 s).
        Trigger("NIM.PENDING-AT-END", frame: 2) {
            T.findings([
                T.open("n", dialect: "nim"), T.text("n", 0, "receive", "1::"), T.text("n", 0.1, "send", SIO.nimLogin),
                T.close("n", 0.5),
            ])
        },
    ]

    static let jmessageTriggers: [Trigger] = [
        // The kick event (event_type 1: logged in elsewhere).
        Trigger("JM.KICKED", frame: 3) {
            T.findings(
                SIO.jmessage() + [
                    T.text(
                        "j", 1, "receive",
                        #"""
                        42["event_notification",{"event_id":1,"event_type":1,\#
                        "from_uid":0,"gid":0,"description":"kicked"}]
                        """#)
                ])
        },
        // A receipt of a push before login: the SDK re-sends it on the connection socket.io reconnected.
        Trigger("JM.RESEND-BEFORE-LOGIN", frame: 3) {
            T.findings(
                SIO.jmessage() + [
                    T.text(
                        "j", 1, "send",
                        #"42["msg_recv_v2",{"msg_id":3000001,"msg_type":3,"from_uid":20002,"from_gid":0,"rid":77}]"#)
                ])
        },
        // An ack for rid 999, which no request used.
        Trigger("JM.ACK-WITHOUT-REQUEST", frame: 3) {
            T.findings(SIO.jmessage() + [T.text("j", 1, "receive", #"42["ack",{"rid":999}]"#)])
        },
        // A get_groups_list response for rid 998, which no request used.
        Trigger("JM.RESPONSE-WITHOUT-REQUEST", frame: 3) {
            T.findings(SIO.jmessage() + [T.text("j", 1, "receive", #"42["get_groups_list",{"rid":998,"code":0}]"#)])
        },
        // get_groups_list rid 130 answered under the event name login.
        Trigger("JM.RESPONSE-EVENT-MISMATCH", frame: 5) {
            T.findings(
                SIO.jmessage() + [
                    T.text("j", 1, "send", #"42["get_groups_list",{"rid":130}]"#),
                    T.text("j", 1.05, "receive", #"42["ack",{"rid":130}]"#),
                    T.text("j", 1.1, "receive", #"42["login",{"rid":130,"code":0}]"#),
                ])
        },
        // sync_conversation never acknowledged with sync_conversation_ack; the capture ends 60 s later.
        Trigger("JM.SYNC-NOT-ACKNOWLEDGED") {
            T.findings(
                SIO.jmessage() + [
                    T.text("j", 1, "receive", #"42["sync_conversation",{"sync_key":5,"messages":[]}]"#),
                    T.close("j", 61),
                ])
        },
        // get_groups_list sent 0.1 s before the capture ends.
        Trigger("JM.PENDING-AT-END", frame: 3) {
            T.findings(
                SIO.jmessage() + [T.text("j", 1, "send", #"42["get_groups_list",{"rid":130}]"#), T.close("j", 1.1)])
        },
    ]

    static let reconnectTriggers: [Trigger] = [
        // leancloud-js waits 1 s before the first reconnect; this one comes 0.2 s after the drop.
        Trigger("RECONNECT.TOO-EARLY") {
            var options = CheckOptions()
            options.reconnectPolicy = ReconnectPolicies.named("leancloud-js")
            return T.findings(
                LC.session("a") + [T.close("a", 5)] + [
                    T.open("b", 5.2, subprotocol: "lc.json.3"),
                    T.text("b", 5.25, "send", LC.open.replacingOccurrences(of: #""i":1"#, with: #""i":1,"r":true"#)),
                ], options: options)
        },
        // JMessage: forced offline (event_type 1), then the same user logs in again 1 s later.
        Trigger("RECONNECT.AFTER-TERMINAL-SUSPECTED") {
            let login = #"""
                42["login",{"username":"alice","password":"5ebe2294ecd0e0f08eab7690d2a6ee69",\#
                "version":"2.5.0","rid":102}]
                """#
            return T.findings(
                SIO.jmessage("j1") + [
                    T.text("j1", 0.1, "send", login), T.text("j1", 0.15, "receive", #"42["ack",{"rid":102}]"#),
                    T.text("j1", 0.2, "receive", #"42["login",{"rid":102,"code":0}]"#),
                    T.text(
                        "j1", 2, "receive",
                        #"""
                        42["event_notification",{"event_id":77,"event_type":1,\#
                        "extra":0,"from_uid":0,"gid":0,"ctime_ms":1507882401000}]
                        """#),
                    T.close("j1", 2.2),
                ] + SIO.jmessage("j2", 3.2) + [T.text("j2", 3.3, "send", login)])
        },
        // leancloud-java gives up after 3 attempts; a 4th follows, each spaced by its 2, 4, 8, 8 s delay.
        Trigger("RECONNECT.BUDGET-EXCEEDED") {
            var options = CheckOptions()
            options.reconnectPolicy = ReconnectPolicies.named("leancloud-java")
            var lines = LC.session("a") + [T.close("a", 5)]
            for (conn, start) in [("b", 8.0), ("c", 13.0), ("d", 22.0), ("e", 31.0)] {
                lines += [
                    T.open(conn, start, subprotocol: "lc.json.3"),
                    T.text(
                        conn, start + 0.01, "send",
                        LC.open.replacingOccurrences(of: #""i":1"#, with: #""i":1,"r":true"#)),
                    T.close(conn, start + 0.5),
                ]
            }
            return T.findings(lines, options: options)
        },
        // A WebSocket session (pings visible) with no client ping for 600 s; leancloud-swift pings within 180 s.
        Trigger("RECONNECT.HEARTBEAT-MISSING") {
            T.findings(
                WS.upgraded() + [
                    T.stream("w", 0.1, "send", WS.text(LC.open, mask: true)),
                    T.stream("w", 0.2, "receive", WS.text(LC.opened, mask: false)), T.close("w", 600),
                ])
        },
    ]
}

/// TLS records as transcript `stream` lines: RFC 8448's ClientHello opens each connection.
private enum TLSBytes {
    static let clientHello =
        (try? Hex.decode(
            """
            16030100c4010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031\
            302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400\
            230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020\
            304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001
            """)) ?? []
    static let changeCipherSpec: [UInt8] = [20, 3, 3, 0, 1, 1]

    /// A TLS 1.2-style ServerHello record choosing `suite`.
    static func serverHello(suite: UInt16, version: UInt16 = 0x0303) -> [UInt8] {
        var body: [UInt8] = [UInt8(version >> 8), UInt8(version & 0xff)] + Array(repeating: 0x5a, count: 32)
        body += [0, UInt8(suite >> 8), UInt8(suite & 0xff), 0]
        let message: [UInt8] = [2, 0, 0, UInt8(body.count)] + body
        return [22, 3, 3, 0, UInt8(message.count)] + message
    }

    /// The findings of one TLS connection whose client sends `client` and server `server`.
    static func findings(client: [UInt8], server: [UInt8] = [], options: CheckOptions = CheckOptions()) -> [Finding] {
        var lines = [T.stream("t", 0, "send", client)]
        if !server.isEmpty { lines.append(T.stream("t", 0.1, "receive", server)) }
        return T.findings(lines + [T.close("t", 0.2)], options: options)
    }

    /// A recorded TLS capture of Fixtures/captures/tls/ checked with `keyLog`.
    static func recorded(_ name: String, keyLog: String?) throws -> [Finding] {
        var options = CheckOptions()
        if let keyLog { options.tlsKeyLog = try TLSKeyLog(parsing: keyLog) }
        let path = "\(repositoryRoot)/Fixtures/captures/tls/\(name).pcapng"
        return try Checker.check(try CaptureFile.open(path), named: name, options: options).allFindings
    }
}

extension RuleCoverageTests {
    static let tlsTriggers: [Trigger] = [
        Trigger("TLS.NO-KEY") { try TLSBytes.recorded("leancloud-tls12-aes128gcm", keyLog: nil) },
        // this session's client random with another TLS 1.2 session's master secret
        Trigger("TLS.DECRYPT-FAILED") {
            let mine = try readText("Fixtures/captures/tls/leancloud-tls12-aes128gcm.keylog")
            let theirs = try readText("Fixtures/captures/tls/leancloud-tls12-chacha20.keylog")
            func fields(_ text: String) -> [String] {
                text.split(separator: "\n").first { $0.hasPrefix("CLIENT_RANDOM") }?.split(separator: " ").map(
                    String.init) ?? []
            }
            let swapped = "CLIENT_RANDOM \(fields(mine)[1]) \(fields(theirs)[2])\n"
            return try TLSBytes.recorded("leancloud-tls12-aes128gcm", keyLog: swapped)
        },
        Trigger("TLS.ALERT") { TLSBytes.findings(client: TLSBytes.clientHello, server: [21, 3, 3, 0, 2, 2, 40]) },
        // no_renegotiation (100) is a warning-level alert
        Trigger("TLS.ALERT-AFTER-EOF") {
            try TLSBytes.recorded(
                "jmessage-socketio-tls13", keyLog: try readText("Fixtures/captures/tls/jmessage-socketio-tls13.keylog"))
        },
        Trigger("TLS.ALERT-WARNING") {
            TLSBytes.findings(client: TLSBytes.clientHello, server: [21, 3, 3, 0, 2, 1, 100])
        },
        // TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA
        Trigger("TLS.UNSUPPORTED-SUITE") {
            TLSBytes.findings(
                client: TLSBytes.clientHello, server: TLSBytes.serverHello(suite: 0xc013) + TLSBytes.changeCipherSpec)
        },
        Trigger("TLS.UNSUPPORTED-VERSION") {
            TLSBytes.findings(
                client: TLSBytes.clientHello, server: TLSBytes.serverHello(suite: 0x002f, version: 0x0301))
        },
        // a clear alert record of 2^14 + 2 bytes
        Trigger("TLS.RECORD-OVERFLOW") {
            TLSBytes.findings(
                client: TLSBytes.clientHello,
                server: TLSBytes.serverHello(suite: 0xc02f) + [21, 3, 3, 0x40, 0x02]
                    + Array(repeating: 0, count: (1 << 14) + 2))
        },
        Trigger("TLS.UNKNOWN-CONTENT-TYPE") {
            TLSBytes.findings(client: TLSBytes.clientHello + [99, 3, 3, 0, 3, 1, 2, 3])
        },
        Trigger("TLS.RECORD-VERSION") { TLSBytes.findings(client: TLSBytes.clientHello + [22, 9, 9, 0, 1, 0]) },
        // application data in clear after the ServerHello, before the ChangeCipherSpec
        Trigger("TLS.DATA-BEFORE-HANDSHAKE") {
            TLSBytes.findings(
                client: TLSBytes.clientHello,
                server: TLSBytes.serverHello(suite: 0xc02f) + [23, 3, 3, 0, 5] + Array("hello".utf8))
        },
        // a TLS 1.2 session of openssl peers that renegotiates (Tests/IMWireTLSTests/make_fixtures.py): the
        // second handshake is encrypted, so only its key log shows it
        Trigger("TLS.RENEGOTIATION") {
            let base = "\(repositoryRoot)/Tests/IMWireTLSTests/Resources/tls12-renegotiation"
            let blob = try FileByteSource.readAll(path: base + ".chunks")
            let connection = TLSConnection(
                keys: TLSKeyStore(
                    try TLSKeyLog(parsing: try readText(String(base.dropFirst(repositoryRoot.count + 1)) + ".keylog"))))
            var events: [TLSEvent] = []
            var index = 0
            while index + 5 <= blob.count {  // [c|s][length, 4 bytes big-endian][bytes]
                let length = blob[(index + 1)..<(index + 5)].reduce(0) { $0 << 8 | Int($1) }
                let bytes = Array(blob[(index + 5)..<min(blob.count, index + 5 + length)])
                events += connection.feed(bytes, direction: blob[index] == UInt8(ascii: "c") ? .send : .receive)
                index += 5 + length
            }
            return (events + connection.finish()).compactMap {
                if case .finding(let finding) = $0 { finding } else { nil }
            }
        },
        // the server answers the ClientHello in HTTP
        Trigger("TLS.NOT-TLS") {
            TLSBytes.findings(client: TLSBytes.clientHello, server: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        },
        Trigger("TLS.HANDSHAKE-MALFORMED") { TLSBytes.findings(client: [22, 3, 1, 0, 6, 1, 0, 0, 2, 3, 3]) },
        Trigger("TLS.TRUNCATED") { TLSBytes.findings(client: TLSBytes.clientHello + [22, 3, 3, 0, 50, 1, 2]) },
        // a Decryption Secrets Block whose key log has a line without its secret
        Trigger("TLS.KEYLOG-MALFORMED") {
            var writer = PcapngWriter()
            writer.secrets(Array("CLIENT_RANDOM 00\n".utf8))
            return try checkFile(writer.bytes, suffix: ".pcapng")
        },
    ]
}
