import Foundation
import IMWire
import Testing

/// `LiveCheck` (what `imwire proxy` checks with): bytes handed in as they cross give the findings
/// `imwire check` gives the pcapng recording of them, at the same packets, and each is told as
/// it is made.
@Suite struct LiveCheckTests {
    /// A clock that moves 1 ms per reading.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var time: Int64 = 1_700_000_000_000_000
        func now() -> Int64 {
            lock.lock()
            defer { lock.unlock() }
            time += 1000
            return time
        }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Finding] = []
        func add(_ finding: Finding) {
            lock.lock()
            items.append(finding)
            lock.unlock()
        }
        var findings: [Finding] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }
    }

    static func key(_ finding: Finding) -> String {
        """
        \(finding.ruleID) \(finding.severity) \(finding.location.connection ?? "-") \
        #\(finding.location.frameIndex ?? -1) @\(finding.offset ?? -1) \(finding.message)
        """
    }

    @Test func liveFindingsEqualTheRecordingsCheck() throws {
        let path = NSTemporaryDirectory() + "imwire-live-\(UUID().uuidString).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = Clock()
        let live = try LiveCheck(options: CheckOptions(), record: path, now: { clock.now() })
        let collected = Collected()
        live.onFinding { finding, _ in collected.add(finding) }

        // Two MQTT connections: a clean one, and one whose SUBSCRIBE has reserved flags 0000.
        let connect = MQTTPacketEncoder.encode(.connect(MQTTConnect(keepAlive: 30, clientID: "c1")))
        let connack = MQTTPacketEncoder.encode(.connack(MQTTConnack(returnCode: 0)))
        let badSubscribe: [UInt8] = [0x80, 0x08, 0x00, 0x01, 0x00, 0x03, 0x61, 0x2f, 0x62, 0x00]
        let publish = MQTTPacketEncoder.encode(
            .publish(MQTTPublish(topic: "a/b", payload: Array(repeating: 0x41, count: 3000))))
        let client = (address: [UInt8]([127, 0, 0, 1]), port: UInt16(50_001))
        let server = (address: [UInt8]([127, 0, 0, 1]), port: UInt16(1883))
        let first = live.open(client: client, server: server)
        live.data(first, .send, connect)
        live.data(first, .receive, connack)
        live.data(first, .send, Array(publish.prefix(10)))
        live.data(first, .send, Array(publish.dropFirst(10)))  // 3 segments in the recording
        live.close(first)
        let second = live.open(client: client, server: server)  // the same pair again: `#2`
        live.data(second, .send, connect + badSubscribe)
        live.data(second, .receive, connack)
        let report = try live.finish(source: "live")

        let recorded = try Checker.check(path: path)
        let liveKeys = collected.findings.map(Self.key).sorted()
        #expect(liveKeys == report.allFindings.map(Self.key).sorted())
        #expect(liveKeys == recorded.allFindings.map(Self.key).sorted())
        #expect(
            recorded.connections.map(\.id) == ["127.0.0.1:50001-127.0.0.1:1883", "127.0.0.1:50001-127.0.0.1:1883#2"])
        #expect(report.connections.map(\.id) == recorded.connections.map(\.id))
        #expect(report.connections.map(\.messages) == recorded.connections.map(\.messages))
        let flags = collected.findings.filter { $0.ruleID.rawValue == "MQTT.FIXED-HEADER-FLAGS" }
        #expect(flags.map(\.location.connection) == ["127.0.0.1:50001-127.0.0.1:1883#2"])
    }

    /// `--record` holds every login's credentials as they crossed (with `--tls`, decrypted):
    /// only its owner reads it, whatever the umask.
    @Test func theRecordingIsOwnerOnly() throws {
        let path = NSTemporaryDirectory() + "imwire-live-\(UUID().uuidString).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let live = try LiveCheck(options: CheckOptions(), record: path, now: { 5 })
        let connection = live.open(client: ([127, 0, 0, 1], 50_001), server: ([127, 0, 0, 1], 1883))
        live.data(
            connection, .send,
            MQTTPacketEncoder.encode(.connect(MQTTConnect(keepAlive: 30, clientID: "c1", password: Array("pw".utf8)))))
        _ = try live.finish(source: "live")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aRefusedUpstreamIsACaptureFinding() throws {
        let live = try LiveCheck(options: CheckOptions(), now: { 5 })
        let collected = Collected()
        live.onFinding { finding, _ in collected.add(finding) }
        live.problem(LiveRules.upstreamUnreachable.finding("127.0.0.1:9 refused"))
        let report = try live.finish(source: "live")
        #expect(report.captureFindings.map(\.ruleID.rawValue) == ["PROXY.UPSTREAM-UNREACHABLE"])
        #expect(collected.findings.map(\.ruleID.rawValue) == ["PROXY.UPSTREAM-UNREACHABLE"])
        #expect(report.exitCode(threshold: .warning) == 1)
    }

    /// A client that sends a frame with the upgrade request, before the 101 (as a client may): its
    /// violation is the client's (`send`), though it is decoded when the server's 101 is read.
    @Test func aFrameSentBeforeThe101IsTheClients() throws {
        let live = try LiveCheck(options: CheckOptions(), now: { 5 })
        let client = (address: [UInt8]([127, 0, 0, 1]), port: UInt16(50_002))
        let server = (address: [UInt8]([127, 0, 0, 1]), port: UInt16(8080))
        let handshake = try WebSocketClientHandshake(host: "127.0.0.1", protocols: ["lc.protobuf2.3"])
        let connection = live.open(client: client, server: server)
        // A masked binary frame announcing 2^62 bytes: WS.FRAME-TOO-LARGE.
        live.data(connection, .send, handshake.request + [0x82, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(handshake.expectedAccept)\r\nSec-WebSocket-Protocol: lc.protobuf2.3\r\n\r\n"
        live.data(connection, .receive, Array(response.utf8))
        let report = try live.finish(source: "live")
        let tooLarge = report.allFindings.filter { $0.ruleID.rawValue == "WS.FRAME-TOO-LARGE" }
        #expect(tooLarge.map(\.location.direction) == [.send])
    }
}

/// The clock of a live check of real traffic.
@Suite struct LiveClockTests {
    @Test func wallClockIsMicrosecondsSinceTheEpoch() {
        let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let now = LiveCheck.wallClock()
        let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
        // Foundation's clock is the same one, with double precision.
        #expect(now >= before - 1_000 && now <= after + 1_000, "\(before) \(now) \(after)")
    }
}
