import IMWireCore
import IMWireIO

/// The two lines a JSONL transcript shard adds to the transcript format (Spec/shards.md §2):
/// a first line `{"type":"shard","version":1,"capture":…,"captureBytes":…,"index":…,"count":…}`
/// that says which transcript it was cut from, and `{"type":"lines","next":N}` before a line
/// that was line N of that transcript, so that the reader numbers the shard's lines as the
/// original's and findings name the original lines. A reader honours `lines` only in a file
/// that begins with the header.
enum TranscriptShard {
    private static let headerPrefix = Array(#"{"type":"shard","version":"#.utf8)
    private static let linesPrefix = Array(#"{"type":"lines","next":"#.utf8)

    static func header(_ identity: ShardIdentity) -> [UInt8] {
        let members = JSONWriter.string(identity.json).utf8.dropFirst()  // the identity's members and its closing brace
        return headerPrefix + Array("\(ShardIdentity.version),".utf8) + members
    }

    static func renumberingLine(next: Int) -> [UInt8] { linesPrefix + Array("\(next)}".utf8) }

    /// The identity a transcript's first line states; nil for any other line.
    static func identity(header line: [UInt8]) -> ShardIdentity? {
        guard line.starts(with: headerPrefix), let value = try? JSONParser.parse(line),
            value["version"]?.int64Value == Int64(ShardIdentity.version)
        else { return nil }
        return ShardIdentity(json: value)
    }

    /// N of a `{"type":"lines","next":N}` line; nil for any other line.
    static func renumbering(_ line: [UInt8]) -> Int? {
        guard line.starts(with: linesPrefix), line.last == UInt8(ascii: "}") else { return nil }
        let digits = line[linesPrefix.count..<(line.count - 1)]
        guard !digits.isEmpty, digits.count < 16, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}

/// Cuts a JSONL transcript into transcript shards, as `CaptureSharder` cuts pcap: a unit is one
/// `conn` (every line of a connection), units whose lines name the same socket.io sid (an
/// `open` line's URL, a request target, a handshake) are joined, and units are dealt out in the
/// order they first appear, a new shard begun when the next would take the current one past
/// `maxBytes`. Lines that are not events of a connection (not JSON, a bad `conn`) go to shard 0.
/// Blank lines are left out. A line longer than `Limits.maxLineLength` is a problem of the file
/// (`Result.fileProblems`) that no shard repeats. Two streaming passes; memory: an entry per
/// connection and per sid.
enum TranscriptSharder {
    /// The unit a line belongs to: its connection, and the sid it names; nil for shard 0.
    private static func place(_ bytes: [UInt8], limits: Limits) -> (connection: String, sid: [UInt8]?, time: Int64?)? {
        guard let value = try? JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth), case .object(let object) = value
        else { return nil }
        let connection: String
        switch object["conn"] {
        case nil: connection = "1"
        case .string(let text)?: connection = text
        case .number(let number)?: connection = number.literal
        default: return nil
        }
        let time = object["t"]?.numberValue.flatMap(TranscriptLine.microseconds)
        if let url = object["url"]?.stringValue {
            return (connection, CaptureSharder.sid(in: Array("GET \(url) ".utf8)[...], fromClient: true), time)
        }
        guard
            let text = object["text"]?.stringValue
                ?? object["base64"]?.stringValue.flatMap({ try? Base64.decode($0) }).map({
                    String(decoding: $0, as: UTF8.self)
                })
        else { return (connection, nil, time) }
        let fromClient = object["dir"]?.stringValue == "send"
        return (connection, CaptureSharder.sid(in: Array(text.utf8.prefix(1024))[...], fromClient: fromClient), time)
    }

    static func shard(path: String, into directory: String, name: String?, options: CaptureSharder.Options)
        throws(IMWireError)
        -> CaptureSharder.Result
    {
        func open() throws(IMWireError) -> LineStream {
            try LineStream(path: path, maxLength: options.limits.maxLineLength)
        }
        // Pass 1: each unit's bytes, in the order units first appear.
        var unitIndex: [String: Int] = [:]
        var unitBytes: [Int] = []
        var units = UnitSets()
        var sidUnits: [[UInt8]: Int] = [:]
        var residueBytes = 0
        var fileProblems: [Finding] = []
        let first = try open()
        while let line = first.next() {
            switch line {
            case .tooLong(let number):
                var finding = CaptureRules.lineTooLong.finding(
                    "line \(number) is longer than \(options.limits.maxLineLength) bytes; skipped")
                finding.location.line = number
                fileProblems.append(finding)
            case .text(_, let bytes):
                guard !TranscriptLine.isBlank(bytes) else { continue }
                guard let place = place(bytes, limits: options.limits) else {
                    residueBytes += bytes.count + 1
                    continue
                }
                let index: Int
                if let known = unitIndex[place.connection] {
                    index = known
                    unitBytes[index] += bytes.count + 1
                } else {
                    index = unitBytes.count
                    unitIndex[place.connection] = index
                    unitBytes.append(bytes.count + 1)
                    units.add()
                }
                if let sid = place.sid, !sid.isEmpty {
                    if let other = sidUnits[sid] { units.join(other, index) } else { sidUnits[sid] = index }
                }
            }
        }
        let captureBytes = first.bytesRead
        sidUnits.removeAll()
        let plan = units.deal(unitBytes: unitBytes, residueBytes: residueBytes, maxBytes: options.maxBytes)
        let count = plan.shardCount
        let base = name ?? String(path.split(separator: "/").last ?? "transcript")
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var shards = (0..<count).map { index in
            CaptureSharder.Shard(
                path: prefix + "\(base).shard-\(padded(index, to: String(count - 1).count)).jsonl",
                identity: ShardIdentity(capture: path, captureBytes: captureBytes, index: index, count: count),
                clients: plan.clients[index])
        }
        // Pass 2, a group of shards at a time.
        for groupStart in stride(from: 0, to: count, by: options.maxOpenFiles) {
            let group = groupStart..<min(count, groupStart + options.maxOpenFiles)
            var writers: [TranscriptShardWriter] = []
            for index in group {
                writers.append(try TranscriptShardWriter(shards[index]))
            }
            let lines = try open()
            var connectionsSeen: Set<String> = []
            while let line = lines.next() {
                guard case .text(let number, let bytes) = line, !TranscriptLine.isBlank(bytes) else { continue }
                let place = place(bytes, limits: options.limits)
                let shard = place.flatMap { unitIndex[$0.connection] }.map { plan.shardOfUnit[$0] } ?? 0
                guard group.contains(shard) else { continue }
                let opens = place.map { connectionsSeen.insert($0.connection).inserted } ?? false
                writers[shard - groupStart].write(bytes, line: number, time: place?.time, opens: opens)
            }
            for writer in writers {
                shards[writer.shard.identity.index] = try writer.close()
            }
        }
        return CaptureSharder.Result(shards: shards, fileProblems: fileProblems)
    }
}

/// One transcript shard being written: the header, then each line (after a `lines` line when
/// it does not follow the previous one in the original), a megabyte at a time.
private final class TranscriptShardWriter {
    var shard: CaptureSharder.Shard
    private let file: OutputFile
    private var buffer: [UInt8] = []
    /// The original number of the line last written (the header stands for line 1).
    private var lastLine = 1

    init(_ shard: CaptureSharder.Shard) throws(IMWireError) {
        self.shard = shard
        file = try OutputFile(path: shard.path)
        buffer = TranscriptShard.header(shard.identity) + [0x0a]
    }

    func write(_ line: [UInt8], line number: Int, time: Int64?, opens: Bool) {
        if number != lastLine + 1 { buffer += TranscriptShard.renumberingLine(next: number) + [0x0a] }
        buffer += line
        buffer.append(0x0a)
        lastLine = number
        shard.packets += 1
        if opens { shard.connections += 1 }
        if let time {
            shard.firstTime = min(shard.firstTime ?? time, time)
            shard.lastTime = max(shard.lastTime ?? time, time)
        }
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        shard.bytes += buffer.count
        file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws(IMWireError) -> CaptureSharder.Shard {
        flush()
        try file.close()
        return shard
    }
}
