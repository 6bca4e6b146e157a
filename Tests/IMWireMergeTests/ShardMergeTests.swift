import Foundation
import IMWire
import Testing

/// `imwire shard` → `imwire check` of each shard → `imwire merge` gives the report of checking
/// the whole capture, byte for byte, in every format: every packet capture among the samples
/// and the real recordings, cut into shards a few kilobytes large, and every JSONL transcript
/// cut into a shard per connection. HAR files are not sharded; the merge of one HAR's report
/// (kept with `keepsMergeData`) is checked the same way.
@Suite struct ShardMergeTests {
    static let packetCaptures: [String] =
        (Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: ".pcapng")
        + Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: ".pcap"))
        .map { String($0.dropFirst(repositoryRoot.count + 1)) }.sorted()
    static let transcripts: [String] =
        (Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: ".jsonl")
        + Directory.files(under: "\(repositoryRoot)/Fixtures/captures", suffix: ".har"))
        .map { String($0.dropFirst(repositoryRoot.count + 1)) }.sorted()

    /// Every format of `report`, as `imwire check` writes it.
    static func rendered(_ report: CheckReport, threshold: Severity = .warning, packets: SARIFReport.PacketRegions)
        -> [String: String]
    {
        [
            "text": TextReport.render(report, threshold: threshold, color: false),
            "json": JSONReport.render(report, threshold: threshold),
            "junit": JUnitReport.render(report, threshold: threshold),
            "sarif": SARIFReport.render(report, threshold: threshold, version: "test", packets: packets),
            "html": HTMLReport.render(report, threshold: threshold),
        ]
    }

    static func singleRun(_ path: String) throws -> [String: String] {
        var options = CheckOptions()
        options.timelineLimit = HTMLReport.timelineLimit
        let report = try Checker.check(path: path, options: options)
        let frames = Set(report.allFindings.compactMap { $0.location.line == nil ? $0.location.frameIndex : nil })
        return rendered(report, packets: SARIFReport.packetRegions(path: path, numbers: frames))
    }

    /// `imwire check --format json --merge-timelines` of a shard (the timelines a merged HTML page draws).
    static func shardReport(_ path: String, options: CheckOptions = CheckOptions(), timelines: Bool = true) throws
        -> [UInt8]
    {
        var options = options
        if timelines { options.timelineLimit = HTMLReport.timelineLimit }
        var report = try Checker.check(path: path, options: options)
        report.merge?.tool = "test"
        return Array(JSONReport.render(report, threshold: .warning).utf8)
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "imwire-shard-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func thereAreCapturesToShard() {
        #expect(Self.packetCaptures.count >= 15)
        #expect(Self.transcripts.count >= 8)
    }

    @Test(arguments: packetCaptures)
    func shardsMergeIntoTheSingleRun(name: String) throws {
        let path = "\(repositoryRoot)/\(name)"
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CaptureSharder.shard(path: path, into: directory, options: .init(maxBytes: 2048))
        #expect(result.fileProblems.isEmpty)
        let shards = result.shards
        #expect(shards.map(\.identity.index) == Array(0..<shards.count))
        // Every packet is in exactly one shard, and each shard is a capture the checker reads.
        var packets = 0
        var reports: [(name: String, bytes: [UInt8])] = []
        for shard in shards {
            #expect(ShardIdentity.of(path: shard.path) == shard.identity)
            packets += shard.packets
            reports.append((shard.path, try Self.shardReport(shard.path)))
        }
        let original = try PacketCaptureReader.packets(path: path)
        var originalPackets = 0
        while let item = original.next() { if case .packet = item { originalPackets += 1 } }
        #expect(packets == originalPackets)
        let merged = try ReportMerger.merge(reports.reversed(), tool: "test")
        var single = try Self.singleRun(path)
        var mergedOutput = Self.rendered(merged.report, threshold: merged.threshold, packets: merged.packets)
        // The source is the capture's path as given to shard and check: the same here.
        #expect(merged.report.source == path)
        for format in single.keys.sorted() {
            let a = single.removeValue(forKey: format) ?? ""
            let b = mergedOutput.removeValue(forKey: format) ?? ""
            #expect(a == b, "\(name) \(format): the merge of \(shards.count) shards differs from the single run")
        }
    }

    /// Every sample packet capture in one: each file's packets moved to addresses of their own
    /// (the second byte of both IPv4 addresses, the eighth of IPv6 ones, set to the file's
    /// number) and to times that start together, then interleaved by time. Twenty clients
    /// whose connections alternate in the capture, and clients of one dialect whose login ids
    /// meet across addresses, so across shards.
    static func combinedCapture(into directory: String) throws -> String {
        var packets: [(time: Int64, file: Int, index: Int, packet: CapturedPacket)] = []
        for (file, name) in packetCaptures.enumerated() {
            let reader = try PacketCaptureReader.packets(path: "\(repositoryRoot)/\(name)")
            var start: Int64?
            var index = 0
            while let item = reader.next() {
                guard case .packet(var packet) = item else { continue }
                start = start ?? packet.time
                packet.time = 1_700_000_000_000_000 + (packet.time - (start ?? 0)) + Int64(file) * 1000
                if let ip = ipOffset(packet) {
                    switch packet.data[ip] >> 4 {
                    case 4 where packet.data.count >= ip + 20:
                        packet.data[ip + 13] = UInt8(file + 1)
                        packet.data[ip + 17] = UInt8(file + 1)
                    case 6 where packet.data.count >= ip + 40:
                        packet.data[ip + 15] = UInt8(file + 1)
                        packet.data[ip + 31] = UInt8(file + 1)
                    default: break
                    }
                }
                packets.append((packet.time, file, index, packet))
                index += 1
            }
        }
        packets.sort { ($0.time, $0.file, $0.index) < ($1.time, $1.file, $1.index) }
        var writer = PcapngWriter()
        for entry in packets {
            let packet = entry.packet
            writer.packet(
                packet.data, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
                inbound: packet.inbound)
        }
        let path = directory + "/combined.pcapng"
        try TextFile.write(writer.bytes, to: path)
        return path
    }

    /// Where a frame's IP header starts, for the link types of the samples.
    static func ipOffset(_ packet: CapturedPacket) -> Int? {
        switch packet.linkType {
        case 101, 228, 229: 0
        case 0: 4
        case 1:
            packet.data.count > 14 && packet.data[12] == 0x08 || packet.data.count > 14 && packet.data[12] == 0x86
                ? 14 : nil
        case 113: 16
        case 276: 20
        default: nil
        }
    }

    @Test func aCaptureOfManyClientsShardsAndMerges() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.combinedCapture(into: directory)
        for maxBytes in [1, 20_000, 200_000] {
            let shardDirectory = directory + "/shards-\(maxBytes)"
            try FileManager.default.createDirectory(atPath: shardDirectory, withIntermediateDirectories: true)
            let shards = try CaptureSharder.shard(
                path: path, into: shardDirectory, options: .init(maxBytes: maxBytes, maxOpenFiles: 3)
            ).shards
            // One shard per client, but recordings that reuse a socket.io sid are one unit.
            if maxBytes == 1 { #expect(shards.count >= Self.packetCaptures.count / 2) }
            #expect(shards.count > 1)
            let reports = try shards.map { (name: $0.path, bytes: try Self.shardReport($0.path)) }
            let merged = try ReportMerger.merge(reports, tool: "test")
            let single = try Self.singleRun(path)
            let output = Self.rendered(merged.report, threshold: merged.threshold, packets: merged.packets)
            for format in single.keys.sorted() {
                #expect(
                    single[format] == output[format],
                    "\(format): the merge of \(shards.count) shards differs from the single run")
            }
            #expect(merged.report.connections.count >= 15)
            if maxBytes == 1 { try tsharkReads(shards) }
        }
    }

    /// tshark reads every shard and counts its packets as the sharder did (where tshark is installed, as in CI).
    func tsharkReads(_ shards: [CaptureSharder.Shard]) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tshark") else { return }
        for shard in shards {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tshark")
            process.arguments = ["-n", "-r", shard.path, "-T", "fields", "-e", "frame.number"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "tshark -r \(shard.path)")
            #expect(String(decoding: output, as: UTF8.self).split(separator: "\n").count == shard.packets)
        }
    }

    /// `imwire merge` reads each report once, in the order given, when the merge comes to it
    /// (one report's bytes in memory at a time), and merges them as it merges reports given whole.
    @Test func reportsAreReadOneAtATime() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.combinedCapture(into: directory)
        let shards = try CaptureSharder.shard(path: path, into: directory, options: .init(maxBytes: 200_000)).shards
        #expect(shards.count > 1)
        let reports = Array(try shards.map { (name: $0.path, bytes: try Self.shardReport($0.path)) }.reversed())
        var read: [Int] = []
        let merged = try ReportMerger.merge(names: reports.map(\.name), tool: "test") { index in
            read.append(index)
            return reports[index].bytes
        }
        #expect(read == Array(0..<reports.count))
        let whole = try ReportMerger.merge(reports, tool: "test")
        #expect(
            Self.rendered(merged.report, threshold: merged.threshold, packets: merged.packets)
                == Self.rendered(whole.report, threshold: whole.threshold, packets: whole.packets))
    }

    /// A capture written as two files, cut inside its one WebSocket connection: sharding the two
    /// with connection tracking names that connection as going on from the first file into the
    /// second; cut after the connection ended, nothing goes on.
    @Test func aConnectionCutBetweenTwoFilesIsReported() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var packets: [CapturedPacket] = []
        let reader = try PacketCaptureReader.packets(path: "\(repositoryRoot)/Fixtures/captures/leancloud-real.pcapng")
        while let item = reader.next() { if case .packet(let packet) = item { packets.append(packet) } }
        func write(_ part: ArraySlice<CapturedPacket>, _ name: String) -> String {
            var writer = PcapngWriter()
            for packet in part {
                writer.packet(
                    packet.data, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
                    inbound: packet.inbound)
            }
            let path = "\(directory)/\(name)"
            _ = FileManager.default.createFile(atPath: path, contents: Data(writer.takeBytes()))
            return path
        }
        let options = CaptureSharder.Options(tracksConnections: true)
        func shard(_ path: String, _ out: String) throws -> CaptureSharder.Result {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(out)", withIntermediateDirectories: true)
            return try CaptureSharder.shard(path: path, into: "\(directory)/\(out)", options: options)
        }
        let middle = packets.count / 2
        let (a, b) = (write(packets[..<middle], "a.pcapng"), write(packets[middle...], "b.pcapng"))
        let first = try shard(a, "a")
        let second = try shard(b, "b")
        let cut = second.continued(from: first)
        #expect(cut.count == 1)
        // `imwire shard a b`: both files' shards in one manifest, and a warning about the cut.
        var warnings: [String] = []
        try FileManager.default.createDirectory(atPath: "\(directory)/ab", withIntermediateDirectories: true)
        let lines = try CaptureSharder.shard(paths: [a, b], into: "\(directory)/ab", options: .init()) {
            warnings.append($0)
        }
        #expect(
            lines
                == (first.shards + second.shards).map { $0.manifestLine.replacing("/a/", with: "/ab/") }
                .map { $0.replacing("/b/", with: "/ab/") })
        #expect(warnings == [CaptureSharder.cutWarning(cut, of: a, goingOnIn: b)])
        #expect(warnings.first?.hasPrefix("1 TCP connection of \(a) goes on in \(b) (\(cut[0])): ") == true)
        // Named as the checker names the connection.
        let checked = try Checker.check(path: "\(repositoryRoot)/Fixtures/captures/leancloud-real.pcapng")
        #expect(cut.first?.description == checked.connections.first?.id)
        #expect(first.startedOpen.isEmpty && second.openAtEnd.isEmpty)
        // The two files joined as two pcapng sections: the connection stays whole, the report is the original's.
        let joined = "\(directory)/joined.pcapng"
        let halves = try ["a", "b"].map { try FileByteSource.readAll(path: "\(directory)/\($0).pcapng") }
        _ = FileManager.default.createFile(atPath: joined, contents: Data(halves.joined()))
        func json(_ report: CheckReport) -> String {
            var bytes: [UInt8] = []
            JSONReport.write(report, threshold: .info) { bytes += $0 }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"source\"") }
                .joined()
        }
        #expect(json(try Checker.check(path: joined)) == json(checked))
        // The whole capture, then nothing: no connection goes on.
        let whole = try shard(write(packets[...], "c.pcapng"), "c")
        #expect(whole.openAtEnd.isEmpty && whole.startedOpen.isEmpty)
        #expect(try shard(write(packets[..<0], "d.pcapng"), "d").continued(from: whole).isEmpty)
    }

    /// Writing shards on several threads, each reading the capture for its own, gives the same
    /// files and manifest as one thread, whatever the limit on open files.
    @Test func shardsAreTheSameOnAnyNumberOfThreads() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.combinedCapture(into: directory)
        func shard(jobs: Int, maxOpenFiles: Int) throws -> [(line: String, bytes: [UInt8])] {
            let out = "\(directory)/jobs-\(jobs)-\(maxOpenFiles)"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let result = try CaptureSharder.shard(
                path: path, into: out, options: .init(maxBytes: 20_000, maxOpenFiles: maxOpenFiles, jobs: jobs))
            return try result.shards.map { shard in
                var line = shard.manifestLine
                line.replace(out, with: "OUT")
                return (line, [UInt8](try Data(contentsOf: URL(fileURLWithPath: shard.path))))
            }
        }
        let one = try shard(jobs: 1, maxOpenFiles: 128)
        #expect(one.count >= 4)
        for (jobs, maxOpenFiles) in [(2, 128), (3, 2), (8, 1)] {
            let other = try shard(jobs: jobs, maxOpenFiles: maxOpenFiles)
            #expect(other.map(\.line) == one.map(\.line), "--jobs \(jobs), \(maxOpenFiles) open files")
            #expect(other.map(\.bytes) == one.map(\.bytes), "--jobs \(jobs), \(maxOpenFiles) open files")
        }
    }

    @Test func aCaptureWithManyClientsIsCutIntoSeveralShards() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(repositoryRoot)/Fixtures/captures/real/nim-sio09-xhr-polling-defect.pcapng"
        let result = try CaptureSharder.shard(path: path, into: directory, options: .init(maxBytes: 1024))
        #expect(result.shards.count >= 1)
        #expect(result.shards.allSatisfy { $0.bytes > 0 })
        let line = try #require(try JSONParser.parse(result.shards[0].manifestLine).objectValue)
        #expect(
            line.members.map(\.key) == [
                "path", "capture", "index", "count", "packets", "connections", "clients", "bytes", "firstTime",
                "lastTime",
            ])
    }

    @Test(arguments: transcripts)
    func aTranscriptsReportMergesIntoItself(name: String) throws {
        let path = "\(repositoryRoot)/\(name)"
        var options = CheckOptions()
        options.keepsMergeData = true
        let merged = try ReportMerger.merge([(name, try Self.shardReport(path, options: options))], tool: "test")
        let single = try Self.singleRun(path)
        let output = Self.rendered(merged.report, threshold: merged.threshold, packets: merged.packets)
        for format in single.keys.sorted() { #expect(single[format] == output[format], "\(name) \(format)") }
    }

    /// A JSONL transcript is cut into JSONL shards, one connection (or socket.io session) each
    /// at this size, whose lines keep their numbers: their merge is the single run.
    @Test(arguments: transcripts.filter { $0.hasSuffix(".jsonl") })
    func transcriptShardsMergeIntoTheSingleRun(name: String) throws {
        let path = "\(repositoryRoot)/\(name)"
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CaptureSharder.shard(path: path, into: directory, options: .init(maxBytes: 64))
        let shards = result.shards
        #expect(shards.allSatisfy { $0.path.hasSuffix(".jsonl") })
        #expect(shards.map { ShardIdentity.of(path: $0.path) } == shards.map(\.identity))
        // Every event line is in exactly one shard.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter {
            !$0.allSatisfy(\.isWhitespace)
        }
        #expect(shards.map(\.packets).reduce(0, +) == lines.count)
        let connections = Set(
            lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.map {
                "\($0["conn"] ?? "1")"
            })
        #expect(shards.map(\.connections).reduce(0, +) == connections.count)
        #expect(
            shards.count > 1 || connections.count == 1, "each connection or session is a shard of its own at 64 bytes")
        let reports = try shards.map { (name: $0.path, bytes: try Self.shardReport($0.path)) }
        let merged = try ReportMerger.merge(reports.reversed(), tool: "test")
        let single = try Self.singleRun(path)
        let output = Self.rendered(merged.report, threshold: merged.threshold, packets: merged.packets)
        for format in single.keys.sorted() {
            #expect(single[format] == output[format], "\(name) \(format): \(shards.count) shards")
        }
    }

    /// A shard's `lines` line renumbers what follows, only in a file that begins with a shard
    /// header; a HAR file is refused by name.
    @Test func transcriptShardLinesAreHonouredOnlyInAShard() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let event = #"{"conn":"c","dir":"send","text":"x"}"#
        let renumber = #"{"type":"lines","next":40}"#
        let header = #"{"type":"shard","version":1,"capture":"day.jsonl","captureBytes":1000,"index":0,"count":2}"#
        func lines(_ text: String) throws -> [Int?] {
            let file = directory + "/t-\(UUID().uuidString).jsonl"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let reader = try TranscriptReader(path: file)
            var numbers: [Int?] = []
            while let item = reader.next() {
                switch item {
                case .event(let event): numbers.append(event.line)
                case .problem(let finding): numbers.append(finding.location.line.map { -$0 })
                case .secrets: break
                }
            }
            return numbers
        }
        #expect(try lines([header, event, renumber, event, event].joined(separator: "\n")) == [2, 40, 41])
        // Not a shard: the header is an unknown type (a bad field), and so is `lines`.
        #expect(try lines([event, renumber, event].joined(separator: "\n")) == [1, -2, 3])
        #expect(ShardIdentity.of(path: "\(repositoryRoot)/Fixtures/captures/leancloud-clean.jsonl") == nil)
        #expect {
            try CaptureSharder.shard(path: "\(repositoryRoot)/Fixtures/captures/nim-real.har", into: directory)
        } throws: { ($0 as? IMWireError)?.code == .captureFormat }
    }

    @Test func badReportsAreRefusedByName() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.combinedCapture(into: directory)
        let shards = try CaptureSharder.shard(path: path, into: directory, options: .init(maxBytes: 1)).shards
        #expect(shards.count > 2)
        let reports = try shards.map { (name: $0.path, bytes: try Self.shardReport($0.path)) }
        func refusal(_ inputs: [(name: String, bytes: [UInt8])], tool: String = "test", needsTimelines: Bool = false)
            -> IMWireError?
        {
            do {
                _ = try ReportMerger.merge(inputs, tool: tool, needsTimelines: needsTimelines)
                return nil
            } catch { return error }
        }
        let truncated = [(name: "cut.json", bytes: Array(reports[0].bytes.prefix(reports[0].bytes.count / 2)))]
        #expect(refusal(truncated)?.description.hasPrefix("cut.json: not a whole JSON report") == true)
        #expect(
            refusal(reports, tool: "9.9.9")?.description.contains("written by imwire test, this is imwire 9.9.9")
                == true)
        let otherVersion = String(decoding: reports[0].bytes, as: UTF8.self).replacingOccurrences(
            of: "\"version\": 1", with: "\"version\": 2")
        #expect(
            refusal([(name: "v2.json", bytes: Array(otherVersion.utf8))])?.description.hasPrefix(
                "v2.json: report version 2")
                == true)
        let plain = Array(JSONReport.render(try check(path), threshold: .warning).utf8)
        #expect(
            refusal([(name: "plain.json", bytes: plain)])
                == IMWireError(.mergeNoMergeMember, "no merge member", path: "plain.json"))
        #expect(refusal(truncated)?.code == .mergeMalformed && refusal(truncated)?.path == "cut.json")
        #expect(refusal(reports, tool: "9.9.9")?.code == .mergeOtherVersion)
        #expect(refusal(Array(reports.dropFirst()))?.code == .mergeShardMissing)
        #expect(refusal(reports + [reports[1]])?.code == .mergeShardAgain)
        #expect(refusal(Array(reports.dropFirst()))?.description.hasPrefix("shard 0 of \(path) missing") == true)
        #expect(
            refusal(reports + [reports[1]])?.description.hasSuffix("shard 1 again (also \(reports[1].name))") == true)
        // A shard of another capture.
        let otherDirectory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: otherDirectory) }
        let other = try CaptureSharder.shard(
            path: "\(repositoryRoot)/Fixtures/captures/real/yun2win-mqtt31-clean.pcapng", into: otherDirectory,
            options: .init(maxBytes: 512)
        ).shards[0]
        let mixed = reports + [(name: "other.json", bytes: try Self.shardReport(other.path))]
        #expect(refusal(mixed)?.description.contains("a shard of") == true)

        // A shard checked with another timeout, or another --dialect, than the rest.
        var slower = CheckOptions()
        slower.dialectOptions[NIMSessionOptions.self].requestTimeoutMicros = 90_000_000
        let retimed =
            [(name: "slow.json", bytes: try Self.shardReport(shards[0].path, options: slower))] + reports.dropFirst()
        let settings = refusal(retimed)?.description
        #expect(
            settings?.hasPrefix("\(reports[1].name): checked with other settings than slow.json: NIMSessionOptions(")
                == true)
        #expect(settings?.contains("requestTimeoutMicros: 90000000") == true)
        let forced =
            [(name: "forced.json", bytes: try Self.shardReport(shards[0].path, options: CheckOptions(dialect: .nim)))]
            + reports.dropFirst()
        #expect(refusal(forced)?.description.hasSuffix("dialect: nim") == true)

        // Without --merge-timelines a merge gives every format but HTML, which it refuses.
        let lean = try shards.map { (name: $0.path, bytes: try Self.shardReport($0.path, timelines: false)) }
        #expect(lean.map(\.bytes.count).reduce(0, +) < reports.map(\.bytes.count).reduce(0, +))
        #expect(
            refusal(lean, needsTimelines: true)?.description.hasSuffix(
                "checked without message timelines, so an HTML report of the merge has no messages to draw") == true)
        #expect(refusal(lean, needsTimelines: true)?.code == .mergeNoTimelines)
        #expect(refusal(reports, needsTimelines: true) == nil)
        let full = try ReportMerger.merge(reports, tool: "test")
        let leanMerge = try ReportMerger.merge(lean, tool: "test")
        var a = Self.rendered(full.report, threshold: full.threshold, packets: full.packets)
        var b = Self.rendered(leanMerge.report, threshold: leanMerge.threshold, packets: leanMerge.packets)
        a["html"] = nil
        b["html"] = nil
        #expect(a == b)
    }

    /// A secret given to the check is not written into the report: its settings say only that it is set.
    @Test func settingsKeepSecretsOut() throws {
        var options = CheckOptions()
        options.keepsMergeData = true
        options.dialectOptions[JMessageSessionOptions.self].secret = "hunter2-secret"
        options.dialectOptions[LeanCloudSessionOptions.self].credentials = .init(
            appID: "app", masterKey: "master-key-value")
        let bytes = try Self.shardReport(
            "\(repositoryRoot)/Fixtures/captures/leancloud-real.pcapng", options: options, timelines: false)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("hunter2-secret"))
        #expect(!text.contains("master-key-value"))
        #expect(text.contains("secret: Optional(\\\"(set)\\\")"))
    }
}
