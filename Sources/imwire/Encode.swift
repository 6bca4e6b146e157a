import ArgumentParser
import IMWire

struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Encode canonical JSON (as `imwire decode` prints it) into a frame.",
        // Each codec of the table says what JSON it encodes.
        discussion: Dialects.standard.codecs.map { "\($0.name): \($0.jsonForm)" }.joined(separator: " ")
            + " Binary frames (protobuf, MQTT, engine.io binary packets) are printed as hex"
            + " (or written raw with --output raw); text frames as text."
            + " Exit 2 if the JSON does not describe a frame.\n\n" + CodecOptionArguments.help(encoding: true))

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case hex
        case raw
    }

    @OptionGroup var options: DecodeOptions

    @Option(
        name: .customLong("file"), help: "Read the JSON from a file (- for standard input, the default with --lines).")
    var path: String?

    @Flag(help: "Treat each input line as one JSON document; print one frame per line.")
    var lines = false

    @Option(help: "Binary frames: hex text or raw bytes.")
    var output: Output = .hex

    @Argument(help: "The canonical JSON of the frame.")
    var json: String?

    func validate() throws {
        guard !(json != nil && path != nil), json != nil || path != nil || lines else {
            throw ValidationError(
                "give the JSON as an argument or with --file (with --lines, standard input is the default)")
        }
    }

    func run() throws {
        var input: [UInt8]
        if let json {
            input = Array(json.utf8)
        } else {
            do { input = try FileByteSource.readAll(path: path ?? "-") } catch { throw unreadable(error.description) }
        }
        let documents = lines ? input.split(separator: 0x0a).map(Array.init) : [input]
        let codec = try options.codec().codec
        for document in documents {
            let frame: CanonicalEncoded
            do {
                frame = try codec.encode(try JSONParser.parse(document))
            } catch {
                throw unreadable("\(error)")
            }
            if !frame.binary {
                print(String(decoding: frame.bytes, as: UTF8.self))
            } else if output == .raw {
                frame.bytes.withUnsafeBytes { writeAll(1, $0) }
            } else {
                print(Hex.encode(frame.bytes))
            }
        }
    }
}
