import IMWireCore
import IMWireTLS

enum KeyLogFuzzing {
    /// The labels of the NSS key-log format, as a log written back out names them.
    static var labels: [(String, KeyPath<TLSSecrets, [UInt8]?>)] {
        [
            ("CLIENT_RANDOM", \.masterSecret), ("CLIENT_HANDSHAKE_TRAFFIC_SECRET", \.clientHandshakeTrafficSecret),
            ("SERVER_HANDSHAKE_TRAFFIC_SECRET", \.serverHandshakeTrafficSecret),
            ("CLIENT_TRAFFIC_SECRET_0", \.clientTrafficSecret0),
            ("SERVER_TRAFFIC_SECRET_0", \.serverTrafficSecret0), ("EXPORTER_SECRET", \.exporterSecret),
            ("CLIENT_EARLY_TRAFFIC_SECRET", \.clientEarlyTrafficSecret),
            ("EARLY_EXPORTER_SECRET", \.earlyExporterSecret),
        ]
    }

    /// An NSS key log (`--tls-keylog FILE`, a pcapng Decryption Secrets Block).
    ///
    /// Invariants: never traps; parsing is deterministic; an error names a line the text has; the
    /// text read a line at a time into one log gives the same log, or the same error, as read
    /// whole (each line stands alone, a later secret wins); a log read whole, written back out
    /// line by line, reads back the same; every random is 32 bytes, every secret 32 or 48.
    static func parse(_ input: FuzzInput) -> [String] {
        let text = String(decoding: input.payload, as: UTF8.self)
        let whole = Result { () throws(IMWireError) in try TLSKeyLog(parsing: input.payload) }
        guard whole == Result(catching: { () throws(IMWireError) in try TLSKeyLog(parsing: input.payload) }) else {
            return ["the key log parses differently twice"]
        }
        var violations: [String] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var byLine = TLSKeyLog()
        var lineError: IMWireError?
        for (index, line) in lines.enumerated() {
            do { try byLine.add(parsing: String(line)) } catch {
                lineError = IMWireError.keyLog(line: index + 1, error.reason)
                break
            }
        }
        switch whole {
        case .failure(let error):
            if (error.line ?? 0) < 1 || (error.line ?? 0) > lines.count {
                violations.append("error at line \(error.line ?? 0) of \(lines.count)")
            }
            if lineError != error {
                violations.append(
                    "read a line at a time: \(lineError.map(\.description) ?? "no error"), whole: \(error)")
            }
        case .success(let log):
            if let lineError { violations.append("read a line at a time: \(lineError), whole: no error") }
            if byLine != log { violations.append("read a line at a time, another log") }
            var written: [String] = []
            for random in log.clientRandoms {
                guard let secrets = log.secrets(forClientRandom: random) else { continue }
                if random.count != 32 { violations.append("a client random of \(random.count) bytes") }
                for (label, path) in labels {
                    guard let secret = secrets[keyPath: path] else { continue }
                    if ![32, 48].contains(secret.count) {
                        violations.append("\(label): a secret of \(secret.count) bytes")
                    }
                    written.append("\(label) \(Hex.encode(random)) \(Hex.encode(secret))")
                }
            }
            switch Result(catching: { () throws(IMWireError) in
                try TLSKeyLog(parsing: written.joined(separator: "\n"))
            }) {
            case .success(let again) where again == log: break
            case .success: violations.append("written back out, the log reads back as another")
            case .failure(let error): violations.append("written back out, the log does not read: \(error)")
            }
        }
        return violations
    }
}
