import ArgumentParser
import IMWire

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode one frame (or one per line) and print its canonical JSON and any findings.",
        discussion: """
            The canonical JSON is the protobuf JSON mapping with proto field names (set fields only, \
            int64 as strings, enums by name, bytes as base64), the form the fixtures use.

            The passwords, tokens and signatures that logins carry are replaced in what is printed, as \
            check replaces them, unless --show-secrets.

            Findings go to standard error; exit 1 if any is a warning or an error, 2 if nothing \
            could be decoded.
            """)

    @OptionGroup var options: DecodeOptions

    @Option(
        help: """
            The frame as hex (protobuf encoding; mqtt and yun2win: one \
            packet or a stream of packets; jmessage: a binary frame).
            """)
    var hex: String?

    @Option(
        help:
            """
            The frame as text (base64 and json encodings; yun2win: a PUBLISH payload \
            such as a JSON command; nim, jmessage: a WebSocket text message).
            """
    )
    var text: String?

    @Flag(
        help: """
            Treat each input line as one frame (hex for protobuf, mqtt \
            and yun2win, text otherwise); print one JSON result per line.
            """)
    var lines = false

    @Option(help: "mqtt and yun2win: the MQTT version, 3.1 or 3.1.1 (default: from a CONNECT in the input, else 3.1.1).")
    var mqttVersion: MQTTVersion?

    @Option(
        help: """
            yun2win, nim, jmessage: which way the message went, send (client \
            to server) or receive (default: inferred from each payload).
            """)
    var direction: Direction?

    @Option(help: "Output: text (canonical JSON, findings on stderr) or json (an envelope with both).")
    var format: OutputFormat = .text

    @Flag(help: "Keep the passwords, tokens and signatures that logins carry in the JSON printed (replaced by default).")
    var showSecrets = false

    @Argument(
        help: """
            A file holding the frame (raw bytes for protobuf, text \
            otherwise); - for standard input (the default with --lines).
            """)
    var file: String?

    func validate() throws {
        if options.dialect == .mqtt, text != nil { throw ValidationError("--text is for LeanCloud text encodings and yun2win payloads") }
        let sources = [hex != nil, text != nil, file != nil].filter { $0 }.count
        guard sources == 1 || (sources == 0 && lines) else {
            throw ValidationError("give exactly one of --hex, --text or FILE (with --lines, standard input is the default)")
        }
    }

    func run() throws {
        let codec = options.codec(mqttVersion: mqttVersion)
        if lines {
            var worst: Int32 = 0
            for line in try readInput(binaryAsHex: true).split(separator: 0x0a, omittingEmptySubsequences: true) {
                var bytes = Array(line)
                if bytes.last == 0x0d { bytes.removeLast() }
                if options.inputIsBinary {
                    do { bytes = try Hex.decode(String(decoding: bytes, as: UTF8.self)) } catch {
                        print(JSONWriter.string(["error": .string(error.description)]))
                        worst = 2
                        continue
                    }
                }
                let decoding = shown(codec.decode(bytes, as: CanonicalInput(binary: options.inputIsBinary, direction: direction)), of: bytes)
                print(JSONWriter.string(decoding.envelope))
                worst = max(worst, decoding.status)
            }
            throw ExitCode(worst)
        }
        // yun2win: --text is a PUBLISH payload (a JSON command), not packets.
        let input = CanonicalInput(binary: hex != nil, direction: direction, isPayload: options.dialect == .yun2win && text != nil)
        let bytes = try readInput(binaryAsHex: false)
        let decoding = shown(codec.decode(bytes, as: input), of: bytes)
        switch format {
        case .json:
            print(JSONWriter.pretty(decoding.envelope))
        case .text:
            for part in decoding.parts { if let decoded = part.decoded { print(JSONWriter.string(decoded)) } }
            for part in decoding.parts {
                for finding in part.findings { print("finding: \(CanonicalDecoding.line(finding, label: part.label))", to: &standardError) }
            }
        }
        throw ExitCode(decoding.status)
    }

    /// What is printed of `decoding` (of `bytes`): its credentials replaced unless --show-secrets,
    /// and all the text it quotes of a login the dialect could not read.
    func shown(_ decoding: CanonicalDecoding, of bytes: [UInt8]) -> CanonicalDecoding {
        if showSecrets { return decoding }
        if let definition = Dialects.standard.definition(Dialect(options.dialect.rawValue)) {
            let json = decoding.parts.count == 1 ? decoding.parts[0].decoded : .array(decoding.parts.compactMap(\.decoded))
            let message = WireMessage(direction: direction ?? .send, frameType: options.inputIsBinary ? .binary : .text, payload: bytes)
            if definition.recognisesUnreadLogin(message, json) { return SecretRedaction.withhold(decoding, payload: bytes) }
        }
        return SecretRedaction.redact(decoding)
    }

    /// The frame bytes from --hex, --text or FILE.
    func readInput(binaryAsHex: Bool) throws -> [UInt8] {
        if let hex {
            do { return try Hex.decode(hex) } catch { throw unreadable(error.description) }
        }
        if let text { return Array(text.utf8) }
        // One frame is refused past the largest any decoder accepts, before the rest is read; an
        // MQTT stream or one frame per line may be longer (up to readAll's default bound).
        let oneFrame = !lines && options.dialect != .mqtt && options.dialect != .yun2win
        let limit = oneFrame ? max(Limits.default.maxFrameSize, Limits.default.maxMessageSize) : 256 << 20
        do { return try FileByteSource.readAll(path: file ?? "-", limit: limit) } catch { throw unreadable(error.description) }
    }
}

/// Ends a command with exit status 2 (unreadable input) and a one-line message on stderr.
func unreadable(_ message: String) -> ExitCode {
    print("imwire: \(message)", to: &standardError)
    return ExitCode(2)
}
