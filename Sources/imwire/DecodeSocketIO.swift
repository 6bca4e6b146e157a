import ArgumentParser
import IMWire

/// `imwire decode --dialect nim|jmessage`: the input is the text of one WebSocket message
/// (`--text`, a file, or one message per line with `--lines`); `--hex` gives a binary frame
/// (a JMessage binary attachment). NIM prints `[{"socketio", "nim"}]` per socket.io packet,
/// JMessage `{"engineio", "socketio", "jmessage"}`; with --format json or --lines, an envelope
/// with the summary and the findings (offsets from the message's first byte).
extension Decode {
    func runSocketIO() throws {
        let nim = options.dialect == .nim
        if lines {
            var worst: Int32 = 0
            for line in try readInput(binaryAsHex: true).split(separator: 0x0a, omittingEmptySubsequences: true) {
                var bytes = Array(line)
                if bytes.last == 0x0d { bytes.removeLast() }
                let result = decodeMessage(bytes, binaryFrame: false, nim: nim)
                print(JSONWriter.string(result.envelope))
                worst = max(worst, result.status)
            }
            throw ExitCode(worst)
        }
        let result = decodeMessage(try readInput(binaryAsHex: false), binaryFrame: hex != nil, nim: nim)
        switch format {
        case .json:
            print(JSONWriter.pretty(result.envelope))
        case .text:
            if let decoded = result.decoded { print(JSONWriter.string(decoded)) }
            for finding in result.findings { print("finding: \(finding)", to: &standardError) }
        }
        throw ExitCode(result.status)
    }

    private struct MessageResult {
        var decoded: JSONValue?
        var summary: String
        var findings: [Finding]

        var envelope: JSONValue {
            var object = JSONObject()
            object.append("decoded", decoded ?? .null)
            object.append("summary", .string(summary))
            object.append("findings", .array(findings.map(JSONReport.json)))
            return .object(object)
        }

        var status: Int32 {
            if decoded == nil { return 2 }
            return findings.contains { $0.severity >= .warning } ? 1 : 0
        }
    }

    private func decodeMessage(_ bytes: [UInt8], binaryFrame: Bool, nim: Bool) -> MessageResult {
        if nim {
            let message = NIMCodec.decode(bytes, direction: direction)
            return MessageResult(decoded: message.items.isEmpty ? nil : NIMCanonicalJSON.encode(message), summary: message.summary,
                                 findings: message.findings)
        }
        let message = JMessageCodec.decode(bytes, binaryFrame: binaryFrame, direction: direction)
        return MessageResult(decoded: message.engineIO.engineIO == nil ? nil : JMessageCanonicalJSON.encode(message),
                             summary: message.summary, findings: message.findings)
    }
}
