import IMWireCore
import IMWireIO

/// A capture read as a stream of items, whatever its format.
public protocol CaptureSource: AnyObject {
    /// The next event or problem; nil at the end.
    func next() -> CaptureItem?
    /// Bytes of the file read so far, for progress displays.
    var bytesRead: Int { get }
}

extension CaptureSource {
    public var bytesRead: Int { 0 }
}

extension TranscriptReader: CaptureSource {}
extension PacketCaptureReader: CaptureSource {}

/// Opens a capture file in the format its first bytes (or its name) reveal.
public enum CaptureFile {
    /// The capture formats the checker reads.
    public enum Format: String, Sendable, CaseIterable {
        case jsonl
        case pcap
        case pcapng
        case har
    }

    /// The format of `path`: pcap and pcapng by magic number, HAR by a `log` object, JSONL by a
    /// first line that is a JSON object of its own. Nil when none fits.
    public static func format(of path: String) throws(IMWireError) -> Format? {
        if path == "-" { return .jsonl }  // standard input cannot be sniffed and read again
        let input = BufferedInput(try FileByteSource(path: path))
        let head = input.peek(4) ?? []
        if head == [0x0a, 0x0d, 0x0d, 0x0a] { return .pcapng }
        if PcapReader.magics.contains(head) { return .pcap }
        if path.hasSuffix(".har") { return .har }
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") { return .jsonl }
        // Sniff: the first non-blank line of JSONL parses alone; a HAR's does not (or holds "log").
        var firstLine: [UInt8] = []
        while let byte = input.read(1)?.first, byte != 0x0a, firstLine.count < 1 << 20 { firstLine.append(byte) }
        if let value = try? JSONParser.parse(firstLine), case .object(let object) = value {
            return object["log"] != nil ? .har : .jsonl
        }
        return firstLine.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) == UInt8(ascii: "{") ? .har : nil
    }

    /// A reader for `path`; throws when the file cannot be opened or is in no known format.
    public static func open(_ path: String, limits: Limits = .default) throws(IMWireError) -> any CaptureSource {
        guard let format = try format(of: path) else {
            throw IMWireError(.captureFormat, "not a JSONL transcript, pcap, pcapng or HAR file", path: path)
        }
        switch format {
        case .pcap, .pcapng: return try PacketCaptureReader(path: path, limits: limits)
        case .har: return try HARReader(path: path, limits: limits)
        case .jsonl: return try TranscriptReader(path: path, limits: limits)
        }
    }
}

extension CaptureSource {
    /// Every item to the end, in order: the one read loop of everything that reads captures.
    /// `progress` is told the bytes read every 4096 items.
    @inlinable
    public func forEachItem(progress: ((_ bytesRead: Int) -> Void)? = nil, _ body: (CaptureItem) -> Void) {
        var count = 0
        while let item = next() {
            body(item)
            count &+= 1
            if let progress, count & 0xfff == 0 { progress(bytesRead) }
        }
    }

    /// Every event to the end, in order (problems with the capture itself are passed over).
    @inlinable
    public func forEachEvent(_ body: (ConnectionInput) -> Void) {
        forEachItem { item in
            if case .event(let event) = item { body(event) }
        }
    }
}

/// Numbers a capture's connections from 0 in the order they open. An id may come back after
/// its connection's last event (`CloseInfo.isLast`, a new TCP flow on the same ports): it is then
/// another connection, with a number of its own.
public struct ConnectionNumbers: Sendable {
    private var open: [String: Int] = [:]
    /// Connections numbered so far.
    public private(set) var count = 0

    public init() {}

    /// The number of the connection `event` belongs to.
    public mutating func number(of event: ConnectionInput) -> Int {
        let isLast = if case .close(let info) = event.kind { info.isLast } else { false }
        if let known = isLast ? open.removeValue(forKey: event.connection) : open[event.connection] { return known }
        defer { count += 1 }
        if !isLast { open[event.connection] = count }
        return count
    }
}
