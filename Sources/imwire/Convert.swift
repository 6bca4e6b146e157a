import ArgumentParser
import IMWire

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a capture: any format to a JSONL transcript of its messages, or JSONL/HAR to pcapng.",
        discussion: """
            --to jsonl: the application messages as the transport layer reads them (TCP reassembled, \
            HTTP long-polls split into packets, WebSocket frames joined and inflated, MQTT packets), \
            one line each, a socket.io session spanning TCP connections as one connection \
            (Spec/capture-jsonl.md).

            --to pcapng: a transcript or HAR as synthesized IPv4/TCP packets with the WebSocket \
            upgrade and frames, readable by Wireshark and by imwire check.

            The passwords, tokens and signatures that logins carry are replaced by `*`, byte for \
            byte, as check replaces them (each message read by its connection's dialect), unless \
            --show-secrets; a transcript's `stream` line that holds one in another form (compressed) \
            is replaced whole.
            """)

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case jsonl
        case pcapng
    }

    @Argument(help: "The capture to convert (.pcap, .pcapng, .har, .jsonl).")
    var input: String

    @Option(help: "Output format: jsonl or pcapng.")
    var to: Target

    @Option(
        name: .shortAndLong,
        help: "Output file, `-` for standard output (default: standard output for jsonl; required for pcapng).")
    var output: String?

    @Flag(help: "Keep the passwords, tokens and signatures that logins carry in the output (replaced by default).")
    var showSecrets = false

    @OptionGroup var tls: TLSKeyLogOption

    func validate() throws {
        if to == .pcapng, output == nil { throw ValidationError("--to pcapng needs -o FILE") }
    }

    func run() throws {
        let source: any CaptureSource
        do { source = try CaptureFile.open(input) } catch { throw unreadable(error.description) }
        switch to {
        case .jsonl:
            var lines: [String] = []
            CaptureConverter.transcript(from: source, keyLog: try tls.keyLog(), hidingSecrets: !showSecrets) { line in
                if output == nil { print(line) } else { lines.append(line) }
            }
            if let output {
                do { try TextFile.write(lines.map { $0 + "\n" }.joined(), to: output) } catch {
                    throw unreadable(error.description)
                }
            }
        case .pcapng:
            if case .pcap? = try? CaptureFile.format(of: input) {
                throw unreadable("\(input) is already a packet capture")
            }
            if case .pcapng? = try? CaptureFile.format(of: input) {
                throw unreadable("\(input) is already a packet capture")
            }
            let bytes = CaptureConverter.pcapng(from: source, hidingSecrets: !showSecrets)
            do { try TextFile.write(bytes, to: output ?? "-") } catch { throw unreadable(error.description) }
        }
    }
}
