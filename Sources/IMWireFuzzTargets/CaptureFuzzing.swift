import IMWireCapture
import IMWireCheck
import IMWireCore
import IMWireReport
import IMWireTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum CaptureFuzzing {
    /// One transcript line: parsing never traps and is deterministic.
    static func transcriptLine(_ input: FuzzInput) -> [String] {
        let first = TranscriptLine.parse(input.payload, line: 1, limits: input.limits)
        let second = TranscriptLine.parse(input.payload, line: 1, limits: input.limits)
        return first == second ? [] : ["transcript line parses differently twice"]
    }

    /// The checker's options from the input: lenient bit, limits, and (variant) the dialect:
    /// whatever the capture says, LeanCloud, yun2win, or NIM.
    private static func checkOptions(_ input: FuzzInput) -> CheckOptions {
        var options = CheckOptions(lenient: input.lenient, limits: input.limits)
        options.dialect = [nil, .leancloud, .yun2win, .nim][input.variant]
        return options
    }

    /// Two checkers fed the same items must report equal values, the second with every ended
    /// connection's report in the spool file. With extra bit 0 the report is also rendered as
    /// text and JSON, which must not trap (once: rendering is a function of the report). Only
    /// then: a rendering costs about as much as a checker run.
    private static func compare(_ input: FuzzInput, _ items: [CaptureItem], options: CheckOptions) -> [String] {
        func report(_ options: CheckOptions) -> CheckReport {
            let checker = Checker(options: options)
            for item in items { checker.consume(item) }
            return checker.finish(source: "fuzz")
        }
        var spooling = options
        spooling.reportsInMemory = 0
        let first = report(options)
        guard first == report(spooling) else {
            return ["checker reports differ between two runs (the second spooling its reports)"]
        }
        // Every byte of the capture is decoded, skipped or lost in exactly one connection's account.
        let carried = items.reduce(0) { total, item in
            if case .event(let event) = item { total + event.byteCount } else { total }
        }
        let accounted = first.connections.reduce(0) { $0 + $1.account.captured }
        guard first.connections.allSatisfy(\.account.isConsistent), accounted == carried else {
            return ["byte accounts add up to \(accounted), the capture carried \(carried) (or a part is negative)"]
        }
        if input.extra & 1 != 0 {
            _ = (TextReport.render(first, threshold: .info), JSONReport.render(first, threshold: .info))
        }
        return []
    }

    /// A whole transcript through the checker: the report is the same when run twice. The lines
    /// are parsed once (the `Transcript` target checks parsing on its own).
    static func checker(_ input: FuzzInput) -> [String] {
        let lines = input.payload.split(separator: 0x0a, maxSplits: 64, omittingEmptySubsequences: false)
        let items = lines.enumerated().compactMap { index, line in
            TranscriptLine.parse(Array(line), line: index + 1, limits: input.limits)
        }
        var options = CheckOptions(lenient: input.lenient, limits: input.limits)
        if input.variant == 1 { options.dialect = .leancloud }
        return compare(input, items, options: options)
    }

    /// A pcap or pcapng file (the two targets differ in seeds and dictionary only): the packets
    /// are read the same way twice, none holds more than the limits allow, they copy to pcapng
    /// and read back the same; the TCP connections built from them are the same twice and never
    /// deliver more stream bytes than the packets carried.
    static func packetCapture(_ input: FuzzInput) -> [String] {
        withFile(input.payload, suffix: ".cap") { path in
            var violations: [String] = []
            guard let first = rawPackets(path, input.limits), let second = rawPackets(path, input.limits) else {
                return []
            }
            if first != second { violations.append("packets read differently twice") }
            var writer = PcapngWriter()
            var carried = 0
            var number = 0
            var expected: [PacketContent] = []
            for case .packet(let packet) in first {
                carried += packet.data.count
                if packet.data.count > input.limits.maxFrameSize + 256 {
                    violations.append("packet \(packet.number) of \(packet.data.count) bytes")
                }
                if packet.number <= number { violations.append("packet number \(packet.number) after \(number)") }
                number = packet.number
                if packet.fileOffset < 0 || packet.fileOffset >= input.payload.count {
                    violations.append("packet \(packet.number) at file offset \(packet.fileOffset)")
                }
                writer.packet(
                    packet.data, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
                    inbound: packet.inbound, comments: packet.comments)
                // pcapng holds 16-bit link types and no time before 1970.
                var copy = PacketContent(packet)
                copy.linkType &= 0xffff
                copy.time = max(0, copy.time)
                expected.append(copy)
            }
            violations += withFile(writer.bytes, suffix: ".pcapng") { copy in
                guard let again = rawPackets(copy, .default) else { return ["the pcapng copy does not open"] }
                let copied = again.compactMap { item -> PacketContent? in
                    if case .packet(let packet) = item { return PacketContent(packet) }
                    return nil
                }
                return expected == copied ? [] : ["the pcapng copy reads back differently"]
            }
            let connections = connectionItems(path, input.limits)
            if connections != connectionItems(path, input.limits) {
                violations.append("connections read differently twice")
            }
            let delivered = connections.reduce(0) { total, item in
                if case .event(let event) = item, case .stream(_, let bytes) = event.kind { return total + bytes.count }
                return total
            }
            if delivered > carried { violations.append("\(delivered) stream bytes from \(carried) bytes of packets") }
            return violations
        }
    }

    /// What a packet keeps when it is copied to another file (not its number or place).
    private struct PacketContent: Equatable {
        var data: [UInt8]
        var linkType: UInt32
        var time: Int64
        var originalLength: Int
        var inbound: Bool?
        var comments: [String]

        init(_ packet: CapturedPacket) {
            data = packet.data
            linkType = packet.linkType
            time = packet.time
            originalLength = packet.originalLength
            inbound = packet.inbound
            comments = packet.comments
        }
    }

    private static func rawPackets(_ path: String, _ limits: Limits) -> [PacketItem]? {
        guard let reader = try? PacketCaptureReader.packets(path: path, limits: limits) else { return nil }
        var items: [PacketItem] = []
        while let item = reader.next() { items.append(item) }
        return items
    }

    private static func connectionItems(_ path: String, _ limits: Limits) -> [CaptureItem] {
        guard let reader = try? PacketCaptureReader(path: path, limits: limits) else { return [] }
        var items: [CaptureItem] = []
        reader.forEachItem { items.append($0) }
        return items
    }

    /// A capture file (pcap, pcapng, HAR or JSONL, whichever its bytes are) through the whole
    /// checker pipeline (`CaptureFile.open`), read once: the report is the same when run twice.
    static func captureChecker(_ input: FuzzInput) -> [String] {
        withFile(input.payload, suffix: ".cap") { path in
            guard let source = try? CaptureFile.open(path, limits: input.limits) else { return [] }
            var items: [CaptureItem] = []
            source.forEachItem { items.append($0) }
            return compare(input, items, options: checkOptions(input))
        }
    }

    /// A Chrome HAR: read the same way twice; its messages, written out as pcapng (synthesized
    /// TCP, upgrade and frames) and read back through the checker, are the same messages.
    static func har(_ input: FuzzInput) -> [String] {
        withFile(input.payload, suffix: ".har") { path in
            guard let first = harItems(path, input.limits) else { return [] }
            var violations: [String] = []
            if first != harItems(path, input.limits) { violations.append("HAR read differently twice") }
            guard let source = try? HARReader(path: path, limits: .default) else { return violations }
            let direct = messages(of: source)
            guard let again = try? HARReader(path: path, limits: .default) else {
                return violations + ["HAR opens only once"]
            }
            let pcapng = CaptureConverter.pcapng(from: again)
            violations += withFile(pcapng, suffix: ".pcapng") { copy in
                guard let packets = try? PacketCaptureReader(path: copy) else {
                    return ["the pcapng of a HAR does not open"]
                }
                let copied = messages(of: packets)
                return copied == direct
                    ? []
                    : ["the HAR's \(direct.count) messages come back from pcapng as \(copied.count) other messages"]
            }
            return violations
        }
    }

    private static func harItems(_ path: String, _ limits: Limits) -> [CaptureItem]? {
        guard let reader = try? HARReader(path: path, limits: limits) else { return nil }
        var items: [CaptureItem] = []
        reader.forEachItem { items.append($0) }
        return items
    }

    /// The application messages the transport layer reads from a capture: per connection
    /// (numbered in order of appearance), direction, frame type and payload.
    private static func messages(of source: any CaptureSource) -> [ConnectionMessage] {
        final class Collector: ConnectionEvents {
            var connections: [String: Int] = [:]
            var result: [ConnectionMessage] = []
            func message(
                _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
            ) {
                let number = connections[connection.id] ?? connections.count
                connections[connection.id] = number
                result.append(ConnectionMessage(connection: number, message: message))
            }
        }
        let assembler = ConnectionAssembler()
        let collector = Collector()
        var numbers = ConnectionNumbers()
        source.forEachEvent { event in assembler.consume(event, number: numbers.number(of: event), to: collector) }
        assembler.finish(to: collector)
        return collector.result
    }

    private struct ConnectionMessage: Equatable {
        var connection: Int
        var message: WireMessage
    }

    /// Runs `body` with `bytes` in a fresh temporary file (the capture readers read paths).
    static func withFile(_ bytes: [UInt8], suffix: String, _ body: (String) -> [String]) -> [String] {
        let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(directory)/imwire-fuzz-XXXXXX\(suffix)".utf8CString)
        let descriptor = mkstemps(&template, Int32(suffix.utf8.count))
        guard descriptor >= 0 else { return ["cannot create a temporary file"] }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)
        guard written == bytes.count else { return ["cannot write a temporary file"] }
        return body(path)
    }
}
