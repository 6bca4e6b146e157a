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
            """ + "\n\n" + CodecOptionArguments.help(encoding: false))

    @OptionGroup var options: DecodeOptions

    @Option(help: "The frame as hex: a binary frame, or one or more packets for a codec that reads packets.")
    var hex: String?

    @Option(
        help: """
            The frame as text: a text message, or one packet's payload for a codec \
            whose packets carry text (a yun2win JSON command).
            """)
    var text: String?

    @Flag(
        help: """
            Treat each input line as one frame (hex when the codec's input is binary, \
            text otherwise); print one JSON result per line.
            """)
    var lines = false

    @Option(
        help: """
            Which way the message went, send (client to server) or receive \
            (default: inferred from each payload where the dialect needs it).
            """)
    var direction: Direction?

    @Option(help: "Output: text (canonical JSON, findings on stderr) or json (an envelope with both).")
    var format: OutputFormat = .text

    @Flag(
        help: "Keep the passwords, tokens and signatures that logins carry in the JSON printed (replaced by default).")
    var showSecrets = false

    @Argument(
        help: """
            A file holding the frame (raw bytes when the codec's input is binary, \
            text otherwise); - for standard input (the default with --lines).
            """)
    var file: String?

    func validate() throws {
        if try options.codec().unit == .packets(payloadText: false), text != nil {
            throw ValidationError(
                "--text: \(options.dialect.definition.name) reads binary packets, given with --hex or in a file")
        }
        let sources = [hex != nil, text != nil, file != nil].filter { $0 }.count
        guard sources == 1 || (sources == 0 && lines) else {
            throw ValidationError(
                "give exactly one of --hex, --text or FILE (with --lines, standard input is the default)")
        }
    }

    func run() throws {
        let (codec, unit) = try options.codec()
        if lines {
            var worst: Int32 = 0
            for line in try readInput(binaryAsHex: true, unit: unit).split(
                separator: 0x0a, omittingEmptySubsequences: true)
            {
                var bytes = Array(line)
                if bytes.last == 0x0d { bytes.removeLast() }
                if unit.isBinary {
                    do { bytes = try Hex.decode(String(decoding: bytes, as: UTF8.self)) } catch {
                        print(JSONWriter.string(["error": .string(error.description)]))
                        worst = 2
                        continue
                    }
                }
                let decoding = shown(
                    codec.decode(bytes, as: CanonicalInput(binary: unit.isBinary, direction: direction)), of: bytes,
                    unit: unit)
                print(JSONWriter.string(decoding.envelope))
                worst = max(worst, decoding.status)
            }
            throw ExitCode(worst)
        }
        // A codec whose packets carry text (yun2win): --text is one packet's payload, not packets.
        let input = CanonicalInput(
            binary: hex != nil, direction: direction, isPayload: unit == .packets(payloadText: true) && text != nil)
        let bytes = try readInput(binaryAsHex: false, unit: unit)
        let decoding = shown(codec.decode(bytes, as: input), of: bytes, unit: unit)
        switch format {
        case .json:
            print(JSONWriter.pretty(decoding.envelope))
        case .text:
            for part in decoding.parts { if let decoded = part.decoded { print(JSONWriter.string(decoded)) } }
            for part in decoding.parts {
                for finding in part.findings {
                    print("finding: \(CanonicalDecoding.line(finding, label: part.label))", to: &standardError)
                }
            }
        }
        throw ExitCode(decoding.status)
    }

    /// What is printed of `decoding` (of `bytes`): all of it with --show-secrets.
    func shown(_ decoding: CanonicalDecoding, of bytes: [UInt8], unit: CanonicalCodecUnit) -> CanonicalDecoding {
        if showSecrets { return decoding }
        return SecretRedaction.shown(
            decoding, of: bytes, codec: options.dialect.definition.name, unit: unit, direction: direction)
    }

    /// The frame bytes from --hex, --text or FILE.
    func readInput(binaryAsHex: Bool, unit: CanonicalCodecUnit) throws -> [UInt8] {
        if let hex {
            do { return try Hex.decode(hex) } catch { throw unreadable(error.description) }
        }
        if let text { return Array(text.utf8) }
        // One frame is refused past the largest any decoder accepts, before the rest is read; an
        // MQTT stream or one frame per line may be longer (up to readAll's default bound).
        let oneFrame = !lines && !unit.isPackets
        let limit = oneFrame ? max(Limits.default.maxFrameSize, Limits.default.maxMessageSize) : 256 << 20
        do { return try FileByteSource.readAll(path: file ?? "-", limit: limit) } catch {
            throw unreadable(error.description)
        }
    }
}

/// Ends a command with exit status 2 (unreadable input) and a one-line message on stderr.
func unreadable(_ message: String) -> ExitCode {
    print("imwire: \(message)", to: &standardError)
    return ExitCode(2)
}
