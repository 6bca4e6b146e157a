import IMWireCheck
import IMWireCore
import IMWireServe
import NIOCore
import NIOEmbedded

enum ServeFuzzing {
    /// The dialect each variant serves, playing a `clean` scenario (every request answered, a
    /// push half a second after the first message).
    static let dialects: [Dialect] = [.leancloud, .nim, .jmessage, .yun2win]

    /// The session id the NIM server's first handshake gives out (its ids are seeded): what the
    /// seeds' WebSocket upgrade names, so that the fuzzer starts inside a NIM link.
    static let firstNIMSession = "74307646539756239902"

    /// Clients' bytes given to `imwire serve`'s handling of its connections (the opening, the
    /// router / LBS / gate answers, the WebSocket upgrade, each dialect's link; NIM's handshake
    /// on one connection and its link on another), without sockets. The payload is segments
    /// `[connection][16-bit big-endian length][bytes]` (a connection of each of the four values of
    /// the first byte's low two bits, opened at its first segment; a last segment cut short takes
    /// what is left), fed in order; then a minute of the server's timers, then the clients' ends.
    /// Variant: the dialect.
    ///
    /// Invariants: never traps; the same segments get the same answers, byte for byte (the
    /// server is deterministic); the live check saw every byte both ways (its report counts what
    /// went in plus what came out); no connection's answer passes the server's bounds (a message,
    /// and what may wait for a client unsent); nothing holds a connection once the input is done.
    static func connections(_ input: FuzzInput) -> [String] {
        let scenario = Scenario(
            name: "clean", dialect: dialects[input.variant], summary: "",
            actions: [ScenarioAction(on: .send, act: .push, afterMs: 500)],
            expectation: ScenarioExpectation())
        let segments = segments(input.payload)
        guard let first = run(scenario, segments), let second = run(scenario, segments) else {
            return ["the harness did not start"]
        }
        var violations: [String] = []
        if first.answers != second.answers { violations.append("the same bytes got other answers") }
        if first.channels.contains(where: { $0.channel != nil }) { violations.append("a channel outlived its input") }
        let answered = first.answers.values.reduce(0) { $0 + $1.count }
        if first.checked != first.read + answered {
            violations.append(
                "the check saw \(first.checked) bytes, the connections \(first.read) in and \(answered) out")
        }
        let limits = ServeLimits()
        for (connection, answer) in first.answers where answer.count > limits.unsentBytes + limits.messageBytes {
            violations.append("connection \(connection) answered with \(answer.count) bytes")
        }
        return violations
    }

    /// `[connection][16-bit length][bytes]`… as (connection, bytes).
    static func segments(_ payload: [UInt8]) -> [(connection: Int, bytes: ArraySlice<UInt8>)] {
        var segments: [(Int, ArraySlice<UInt8>)] = []
        var index = 0
        while index < payload.count {
            let length = index + 2 < payload.count ? Int(payload[index + 1]) << 8 | Int(payload[index + 2]) : 0
            let start = min(payload.count, index + 3)
            let end = min(payload.count, start + length)
            segments.append((Int(payload[index] & 3), payload[start..<end]))
            index = end
        }
        return segments
    }

    struct Outcome {
        /// What the server wrote on each connection.
        var answers: [Int: [UInt8]]
        var read: Int
        var checked: Int
        /// The connections, to see that none outlives the run.
        var channels: [Released]
    }

    struct Released {
        weak var channel: EmbeddedChannel?
    }

    static func run(_ scenario: Scenario, _ segments: [(connection: Int, bytes: ArraySlice<UInt8>)]) -> Outcome? {
        guard let harness = try? ServeHarness(scenario: scenario) else { return nil }
        var channels: [Int: EmbeddedChannel] = [:]
        var answers: [Int: [UInt8]] = [:]
        var read = 0
        func drain() {
            for (connection, channel) in channels {
                while let buffer = try? channel.readOutbound(as: ByteBuffer.self) {
                    answers[connection, default: []] += buffer.readableBytesView
                }
            }
        }
        for (connection, bytes) in segments {
            if channels[connection] == nil {
                let channel = EmbeddedChannel()
                channel.localAddress = try? SocketAddress(ipAddress: "127.0.0.1", port: 80)
                guard (try? harness.connect(channel)) != nil,
                    let client = try? SocketAddress(ipAddress: "127.0.0.1", port: 40_001 + connection),
                    (try? channel.connect(to: client).wait()) != nil
                else { return nil }
                channels[connection] = channel
            }
            guard let channel = channels[connection], channel.isActive else { continue }
            // A handler's error closes the channel; nothing may escape as a throw but that.
            _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
            read += bytes.count
            drain()
        }
        // A minute of the server's timers, a second at a time: scheduled acts, heartbeats, the head's deadline.
        for _ in 0..<60 {
            for channel in channels.values { channel.embeddedEventLoop.advanceTime(by: .seconds(1)) }
            drain()
        }
        drain()
        // A connection the server closed: finish() would throw before it runs the loop's last
        // tasks, and those hold the channel.
        for channel in channels.values { _ = try? channel.finish(acceptAlreadyClosed: true) }
        guard let report = try? harness.finish() else { return nil }
        return Outcome(
            answers: answers, read: read, checked: report.connections.reduce(0) { $0 + $1.bytes },
            channels: channels.values.map { Released(channel: $0) })
    }
}
