import ArgumentParser
import IMWire

struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Encode canonical JSON (as `imwire decode` prints it) into a frame.",
        discussion: """
            protobuf frames are printed as hex (or written raw with --output raw); base64 and json \
            frames are printed as text. Exit 2 if the JSON is not a command.
            """)

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case hex
        case raw
    }

    @OptionGroup var options: DecodeOptions

    @Option(name: .customLong("file"), help: "Read the JSON from a file (- for standard input, the default with --lines).")
    var path: String?

    @Flag(help: "Treat each input line as one JSON command; print one frame per line.")
    var lines = false

    @Option(help: "protobuf output: hex text or raw bytes.")
    var output: Output = .hex

    @Argument(help: "The canonical JSON of the command.")
    var json: String?

    func validate() throws {
        try options.requireSupportedDialect()
        guard !(json != nil && path != nil), json != nil || path != nil || lines else {
            throw ValidationError("give the JSON as an argument or with --file (with --lines, standard input is the default)")
        }
    }

    func run() throws {
        var input: [UInt8]
        if let json {
            input = Array(json.utf8)
        } else {
            do { input = try FileByteSource.readAll(path: path ?? "-") } catch { throw unreadable(error.description) }
        }
        let codec = LeanCloudCodec(encoding: options.encoding)
        let documents = lines ? input.split(separator: 0x0a).map(Array.init) : [input]
        for document in documents {
            let command: LCGenericCommand
            do {
                command = try CanonicalJSON.decode(try JSONParser.parse(document))
            } catch {
                throw unreadable("\(error)")
            }
            let frame = codec.encode(command)
            if options.encoding != .protobuf {
                print(String(decoding: frame, as: UTF8.self))
            } else if output == .raw {
                frame.withUnsafeBytes { writeAll(1, $0) }
            } else {
                print(Hex.encode(frame))
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
