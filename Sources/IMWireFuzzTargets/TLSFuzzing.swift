import IMWireCore
import IMWireTLS

enum TLSFuzzing {
    /// The secrets of RFC 8448's 1-RTT trace, so that inputs built from its records (the seeds)
    /// reach the decryption paths, not only the clear ones.
    static let rfc8448KeyLog: TLSKeyLog = {
        let random = "cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7"
        let text = """
            CLIENT_HANDSHAKE_TRAFFIC_SECRET \(random) b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21
            SERVER_HANDSHAKE_TRAFFIC_SECRET \(random) b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38
            CLIENT_TRAFFIC_SECRET_0 \(random) 9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5
            SERVER_TRAFFIC_SECRET_0 \(random) a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643
            """
        return (try? TLSKeyLog(parsing: text)) ?? TLSKeyLog()
    }()

    /// One TCP connection's two streams of TLS, as segments: a byte whose low bit is the direction
    /// (0 client, 1 server), a 16-bit big-endian length, the bytes (what Fuzz/seeds.py writes from
    /// the recorded sessions of Tests/IMWireTLSTests); a last segment cut short takes what is left.
    /// Variant 0-1: the RFC 8448 secrets are known or not.
    ///
    /// Invariants: never traps; each direction fed whole, client first, and each direction cut
    /// otherwise (`FuzzInput.chunks`), give the same plaintext and, per direction, the same findings
    /// as the segments in order
    /// (the connection does not depend on how bytes arrive); every byte is accounted for (received =
    /// clear + decrypted + skipped, nothing buffered after finish); no plaintext event exceeds 2^14
    /// bytes; findings are deterministic.
    static func connection(_ input: FuzzInput) -> [String] {
        let keys = input.variant & 1 == 0 ? rfc8448KeyLog : TLSKeyLog()
        var parts: [(Direction, [UInt8])] = []
        var index = 0
        let payload = input.payload
        while index < payload.count {
            let direction: Direction = payload[index] & 1 == 0 ? .send : .receive
            let length = index + 2 < payload.count ? Int(payload[index + 1]) << 8 | Int(payload[index + 2]) : 0
            let start = min(payload.count, index + 3)
            let end = min(payload.count, start + length)
            parts.append((direction, Array(payload[start..<end])))
            index = end
        }
        let client = parts.filter { $0.0 == .send }.flatMap(\.1)
        let server = parts.filter { $0.0 == .receive }.flatMap(\.1)
        let whole = run([(.send, client), (.receive, server)], keys: keys, limits: input.limits)
        let recut = run(
            FuzzInput.chunks(client).map { (Direction.send, Array($0)) }
                + FuzzInput.chunks(server).map { (Direction.receive, Array($0)) },
            keys: keys, limits: input.limits)
        var violations: [String] = []
        if recut.plaintext != whole.plaintext || recut.rules != whole.rules {
            violations.append("each direction cut otherwise gives other plaintext or findings")
        }
        let chunked = run(parts, keys: keys, limits: input.limits)
        if chunked.plaintext != whole.plaintext { violations.append("another chunking gives other plaintext") }
        if chunked.rules != whole.rules {
            violations.append("another chunking gives other findings: \(chunked.rules) vs \(whole.rules)")
        }
        for result in [chunked, whole, recut] {
            for direction in [Direction.send, .receive] {
                let counts = result.connection.counts(direction)
                if counts.received != counts.clear + counts.decrypted + counts.skipped || counts.buffered != 0 {
                    violations.append("\(direction) bytes not accounted for: \(counts)")
                }
            }
            if result.largest > 1 << 14 { violations.append("a plaintext of \(result.largest) bytes") }
        }
        let again = run(parts, keys: keys, limits: input.limits)
        if !sameFindings(again.findings, chunked.findings) { violations.append("findings differ between two runs") }
        return violations
    }

    private struct Result {
        let connection: TLSConnection
        var plaintext: [Direction: [UInt8]] = [:]
        var findings: [Finding] = []
        var largest = 0

        /// Each direction's rules in order: which direction's finding comes first depends on
        /// how the bytes of the two arrived, and is not part of the contract.
        var rules: String {
            [Direction.send, .receive, nil].map { direction in
                findings.filter { $0.location.direction == direction }.map(\.ruleID.rawValue).joined(separator: " ")
            }.joined(separator: " | ")
        }
    }

    private static func run(_ parts: [(Direction, [UInt8])], keys: TLSKeyLog, limits: Limits) -> Result {
        var result = Result(connection: TLSConnection(keys: TLSKeyStore(keys), limits: limits))
        var events: [TLSEvent] = []
        for (direction, bytes) in parts { events += result.connection.feed(bytes, direction: direction) }
        events += result.connection.finish()
        for event in events {
            switch event {
            case .plaintext(let direction, let bytes, _):
                result.plaintext[direction, default: []] += bytes
                result.largest = max(result.largest, bytes.count)
            case .finding(let finding): result.findings.append(finding)
            }
        }
        return result
    }
}
