import IMWireCore
import IMWireIO

/// Reads the JSONL transcript of `Spec/capture-jsonl.md` as a stream: one event per line, a
/// finding (with its line number) for each line that cannot be used, and the rest of the file
/// still read. Memory is bounded by `Limits.maxLineLength`, whatever the file size. A transcript
/// whose first line is a shard header (`TranscriptShard`, written by `imwire shard`) is numbered
/// by its `lines` lines, so findings name the original transcript's lines.
package final class TranscriptReader {
    private let lines: LineStream
    private let limits: Limits
    /// What the first line says this transcript is, when it is a shard of a larger one.
    package private(set) var shard: ShardIdentity?
    private var renumbering = 0

    package init(path: String, limits: Limits = .default) throws(IMWireError) {
        lines = try LineStream(path: path, maxLength: limits.maxLineLength)
        self.limits = limits
    }

    package var bytesRead: Int { lines.bytesRead }

    /// The next item, or nil at the end of the file.
    package func next() -> CaptureItem? {
        while let line = lines.next() {
            switch line {
            case .tooLong(let number):
                var finding = CaptureRules.lineTooLong.finding(
                    "line \(number + renumbering) is longer than \(limits.maxLineLength) bytes; skipped")
                finding.location.line = number + renumbering
                return .problem(finding)
            case .text(let number, let bytes):
                if number == 1, let identity = TranscriptShard.identity(header: bytes) {
                    shard = identity
                    continue
                }
                if shard != nil, let next = TranscriptShard.renumbering(bytes) {
                    renumbering = next - number - 1
                    continue
                }
                if let item = TranscriptLine.parse(bytes, line: number + renumbering, limits: limits) { return item }
            }
        }
        return nil
    }
}

/// The lines of a file as a stream, each with its number (from 1), a line longer than
/// `maxLength` skipped to its end without being held.
final class LineStream {
    enum Line {
        case text(Int, [UInt8])
        case tooLong(Int)
    }

    private let source: FileByteSource
    private let maxLength: Int
    private var pending: [UInt8] = []
    private var lineNumber = 0
    private var skippingLongLine = false
    private var finished = false
    private var queue: [Line] = []
    private var head = 0

    init(path: String, maxLength: Int) throws(IMWireError) {
        source = try FileByteSource(path: path)
        self.maxLength = maxLength
    }

    var bytesRead: Int { source.bytesRead }

    func next() -> Line? {
        while head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
            guard !finished else { return nil }
            guard let chunk = source.read() else {
                finished = true
                if skippingLongLine {
                    skippingLongLine = false
                } else if !pending.isEmpty {
                    lineNumber += 1
                    queue.append(.text(lineNumber, pending))
                    pending.removeAll()
                }
                break
            }
            split(chunk)
        }
        guard head < queue.count else { return nil }
        head += 1
        return queue[head - 1]
    }

    private func split(_ chunk: ArraySlice<UInt8>) {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: 0x0a) {
            lineNumber += 1
            if skippingLongLine {
                skippingLongLine = false
            } else {
                pending.append(contentsOf: chunk[start..<newline])
                queue.append(pending.count > maxLength ? .tooLong(lineNumber) : .text(lineNumber, pending))
            }
            pending.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        guard !skippingLongLine else { return }
        pending.append(contentsOf: chunk[start...])
        if pending.count > maxLength {
            queue.append(.tooLong(lineNumber + 1))
            pending.removeAll()
            skippingLongLine = true
        }
    }
}

/// One transcript line to one capture event.
package enum TranscriptLine {
    package static func parse(_ bytes: [UInt8], line: Int, limits: Limits = .default) -> CaptureItem? {
        func problem(_ rule: Rule, _ message: String, at offset: Int? = nil) -> CaptureItem {
            var finding = rule.finding("line \(line): \(message)", at: offset)
            finding.location.line = line
            return .problem(finding)
        }
        if isBlank(bytes) { return nil }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth)
        } catch {
            return problem(CaptureRules.badLine, error.reason, at: error.offset)
        }
        guard case .object(let object) = value else {
            return problem(CaptureRules.badLine, "expected a JSON object, found \(value.typeName)", at: 0)
        }

        let connection: String
        switch object["conn"] {
        case nil: connection = "1"
        case .string(let text)?: connection = text
        case .number(let number)?: connection = number.literal
        case let other?:
            return problem(
                CaptureRules.badField, "conn must be a string, found \(other.typeName)", at: object.offset(of: "conn"))
        }

        var time: Int64? = nil
        if let raw = object["t"] {
            guard let number = raw.numberValue, let micros = microseconds(number) else {
                return problem(
                    CaptureRules.badField, "t must be a number of seconds, found \(raw)", at: object.offset(of: "t"))
            }
            time = micros
        }

        let type = object["type"]?.stringValue ?? "message"
        switch type {
        case "open":
            var info = ConnectionInfo(subprotocol: object["subprotocol"]?.stringValue, url: object["url"]?.stringValue)
            info.client = object["client"]?.stringValue
            info.server = object["server"]?.stringValue
            // Any name: whether a dialect has it is the checker's table's to say.
            if let name = object["dialect"]?.stringValue {
                guard !name.isEmpty else {
                    return problem(CaptureRules.badField, "dialect must not be empty", at: object.offset(of: "dialect"))
                }
                info.dialect = Dialect(name)
            }
            return .event(ConnectionInput(connection: connection, time: time, line: line, kind: .open(info)))
        case "close":
            var info = CloseInfo(
                code: object["code"]?.int64Value.flatMap { Int(exactly: $0) }, reason: object["reason"]?.stringValue)
            if let by = object["by"]?.stringValue {
                switch by {
                case "client": info.initiator = .send
                case "server": info.initiator = .receive
                default:
                    return problem(
                        CaptureRules.badField, "by must be client or server, found \"\(by)\"",
                        at: object.offset(of: "by"))
                }
            }
            return .event(ConnectionInput(connection: connection, time: time, line: line, kind: .close(info)))
        case "gap":
            guard let dirName = object["dir"]?.stringValue, let direction = Direction(rawValue: dirName) else {
                return problem(
                    CaptureRules.badField, "dir must be \"send\" or \"receive\"", at: object.offset(of: "dir") ?? 0)
            }
            guard let length = object["length"]?.int64Value, length > 0, let count = Int(exactly: length) else {
                return problem(
                    CaptureRules.badField, "length must be a positive number of bytes",
                    at: object.offset(of: "length") ?? 0)
            }
            return .event(ConnectionInput(connection: connection, time: time, line: line, kind: .gap(direction, count)))
        case "message", "stream":
            break
        default:
            return problem(CaptureRules.badField, "unknown type \"\(type)\"", at: object.offset(of: "type"))
        }

        guard let dirName = object["dir"]?.stringValue, let direction = Direction(rawValue: dirName) else {
            return problem(
                CaptureRules.badField, "dir must be \"send\" or \"receive\"", at: object.offset(of: "dir") ?? 0)
        }
        let payloadKeys = ["text", "base64", "hex"].filter { object[$0] != nil }
        guard payloadKeys.count == 1, let key = payloadKeys.first, let text = object[key]?.stringValue else {
            return problem(CaptureRules.badField, "exactly one of text, base64, hex must be a string", at: 0)
        }
        let payload: [UInt8]
        var frameType: WireMessage.FrameType
        switch key {
        case "text":
            payload = Array(text.utf8)
            frameType = .text
        case "base64":
            do { payload = try Base64.decode(text) } catch {
                return problem(CaptureRules.badField, "base64: \(error.reason)", at: object.offset(of: key))
            }
            frameType = .binary
        default:
            do { payload = try Hex.decode(text) } catch {
                return problem(CaptureRules.badField, "hex: \(error.reason)", at: object.offset(of: key))
            }
            frameType = .binary
        }
        if let frame = object["frame"] {
            guard let name = frame.stringValue, let explicit = WireMessage.FrameType(rawValue: name) else {
                return problem(
                    CaptureRules.badField, "frame must be \"text\" or \"binary\"", at: object.offset(of: "frame"))
            }
            frameType = explicit
        }
        if type == "stream" {
            return .event(
                ConnectionInput(connection: connection, time: time, line: line, kind: .stream(direction, payload)))
        }
        let message = WireMessage(direction: direction, frameType: frameType, payload: payload)
        return .event(ConnectionInput(connection: connection, time: time, line: line, kind: .message(message)))
    }

    /// A line of spaces, tabs and CRs only: ignored.
    static func isBlank(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d } }

    /// Seconds as a JSON number to whole microseconds, exactly for decimal literals
    /// (`1700000000.123456`), through Double for exponents.
    package static func microseconds(_ number: JSONNumber) -> Int64? {
        let literal = number.literal
        if literal.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
            guard let value = number.doubleValue, abs(value) < 9e12 else { return nil }
            return Int64((value * 1_000_000).rounded())
        }
        let negative = literal.hasPrefix("-")
        let digits = negative ? literal.dropFirst() : Substring(literal)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]), whole < 9_000_000_000_000 else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let padded = (parts[1] + "000000").prefix(6)
            guard let value = Int64(padded) else { return nil }
            fraction = value
        }
        let micros = whole * 1_000_000 + fraction
        return negative ? -micros : micros
    }
}
