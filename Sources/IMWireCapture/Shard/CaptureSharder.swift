import Dispatch
import IMWireCore
import IMWireIO
import Synchronization

/// Cuts a pcap or pcapng capture into pcapng shards that can be checked apart and merged back
/// (`imwire shard`, `imwire merge`; Spec/shards.md). A TCP connection is never cut: every packet
/// goes to the shard of its *client unit*, and a unit is every packet between one client
/// address and any server: the endpoints' address on the side with the higher port (the
/// ephemeral one; the larger address when the ports are equal), so all of one client's
/// connections, its consecutive reconnects and the TCP connections of its socket.io sessions
/// (one sid's handshake, long-polls and WebSocket) are in one shard. The reconnect judge's
/// grouping by login id is not needed for that: `imwire merge` judges across shards.
/// Packets without a TCP segment to place (another protocol, a damaged header, an IP fragment)
/// go to shard 0, in order, where the checker reports them as a check of the whole would.
///
/// Two passes over the file, each streaming: the first sums the bytes of each unit (memory:
/// one entry per client address), units are then dealt out in the order they first appear,
/// a new shard begun when the next unit would take the current one past `maxBytes` (a unit
/// larger than that is a shard of its own); the second writes each packet into its shard with
/// its place in the capture (`PacketOrigin`), at most `maxOpenFiles` shards at a time (one more
/// pass over the file for each further group). Both passes read each packet where it lies in the
/// reader's buffer (`PacketView`). With `jobs` above 1 the second pass runs on that many threads,
/// each reading the file (from the page cache, after pass 1) and writing its own shards.
package enum CaptureSharder {
    /// What `shard` was asked.
    package struct Options: Sendable {
        /// Shard size aimed at, in bytes of pcapng.
        package var maxBytes: Int
        /// Shards written in one pass over the capture.
        package var maxOpenFiles: Int
        package var limits: Limits
        /// Note the TCP connections a file starts without their SYN and leaves open
        /// (`Result.startedOpen`, `openAtEnd`), to find connections cut between consecutive
        /// files; costs an entry per TCP connection, so it is off for a single file.
        package var tracksConnections: Bool
        /// Key-log text written at the start of every shard as a Decryption Secrets Block
        /// (`imwire shard --tls-keylog`), so each shard's TLS connections decrypt on their own.
        package var keyLog: [UInt8]?
        /// Threads of the second pass, each reading the capture and writing its own group of
        /// shards; the shards are the same for any number.
        package var jobs: Int

        package init(
            maxBytes: Int = 256 << 20, maxOpenFiles: Int = 128, limits: Limits = .default,
            tracksConnections: Bool = false, jobs: Int = 1
        ) {
            self.maxBytes = max(1, maxBytes)
            self.maxOpenFiles = max(1, maxOpenFiles)
            self.jobs = max(1, jobs)
            self.limits = limits
            self.tracksConnections = tracksConnections
        }
    }

    /// One shard written: a line of the manifest.
    package struct Shard: Sendable, Hashable {
        package var path: String
        package var identity: ShardIdentity
        package var packets = 0
        /// TCP connections opened in the shard: client SYNs (a connection already open when
        /// the capture began is not counted).
        package var connections = 0
        /// Client units (addresses) in the shard.
        package var clients = 0
        package var bytes = 0
        /// Microseconds, earliest and latest packet.
        package var firstTime: Int64?
        package var lastTime: Int64?

        /// The manifest line (one JSON object).
        package var manifestLine: String {
            JSONWriter.string([
                "path": .string(path), "capture": .string(identity.capture),
                "index": .number(JSONNumber(identity.index)),
                "count": .number(JSONNumber(identity.count)), "packets": .number(JSONNumber(packets)),
                "connections": .number(JSONNumber(connections)), "clients": .number(JSONNumber(clients)),
                "bytes": .number(JSONNumber(bytes)), "firstTime": firstTime.map { .number(JSONNumber($0)) } ?? .null,
                "lastTime": lastTime.map { .number(JSONNumber($0)) } ?? .null,
            ])
        }
    }

    /// What a shard run read: the shards, and the problems of the file itself that no shard
    /// can repeat (a truncated last record, a damaged block): shards cut from a damaged capture
    /// merge into a report without these.
    package struct Result: Sendable {
        package var shards: [Shard]
        package var fileProblems: [Finding]
        /// TCP connections whose first packet in this file is not the client's SYN: they may
        /// have begun in an earlier file.
        package var startedOpen: Set<TCPConnectionKey> = []
        /// TCP connections still open at the end of this file (no FIN or RST seen): they may go
        /// on in a later file.
        package var openAtEnd: Set<TCPConnectionKey> = []

        /// The connections that `previous` left open and this file picks up without a SYN: one
        /// connection cut by the file boundary, which each file's check sees as two.
        package func continued(from previous: Result) -> [TCPConnectionKey] {
            previous.openAtEnd.intersection(startedOpen).sorted { $0.description < $1.description }
        }
    }

    /// One TCP connection: its client and server endpoints.
    package struct TCPConnectionKey: Sendable, Hashable, CustomStringConvertible {
        package var client: IPAddress
        package var clientPort: UInt16
        package var server: IPAddress
        package var serverPort: UInt16

        /// `10.0.0.1:51234-10.0.0.2:443`, as the checker names a connection.
        package var description: String { "\(client):\(clientPort)-\(server):\(serverPort)" }

        /// Two words folded from the fields (multipliers random per process, so no capture can
        /// be made to collide), not eight: the sharder looks up a key per packet.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(client.folded(Self.multipliers.0, Self.multipliers.1) ^ UInt64(clientPort))
            hasher.combine(server.folded(Self.multipliers.2, Self.multipliers.3) ^ UInt64(serverPort))
        }

        private static let multipliers = (
            UInt64.random(in: 0...UInt64.max) | 1, UInt64.random(in: 0...UInt64.max) | 1,
            UInt64.random(in: 0...UInt64.max) | 1, UInt64.random(in: 0...UInt64.max) | 1
        )
    }

    /// A packet's IP header and TCP segment, and whether its source is the client's side (the
    /// higher port; the larger address when both ports are equal); nil for a packet with no TCP
    /// segment to place.
    private static func tcp(of packet: PacketView) -> (ip: IPPacket, tcp: TCPSegment, sourceIsClient: Bool)? {
        guard case .ip(let start) = LinkLayer.ipOffset(linkType: packet.linkType, frame: packet.data),
            case .packet(let ip) = IPParser.parse(packet.data, at: start), ip.protocolNumber == 6, !ip.isFragment,
            let tcp = TCPSegment.parse(packet.data, in: ip.payload)
        else { return nil }
        return (
            ip, tcp,
            tcp.sourcePort != tcp.destinationPort ? tcp.sourcePort > tcp.destinationPort : ip.source > ip.destination
        )
    }

    /// Bytes a packet takes in a shard: the block, its data padded, the origin option and the
    /// options it carries over.
    static func blockSize(_ packet: PacketView) -> Int {
        32 + (packet.data.count + 3) & ~3 + 32 + 4 + packet.comments.reduce(0) { $0 + 4 + ($1.utf8.count + 3) & ~3 } + 8
    }

    /// A packet's TCP segment, as the sharder places it.
    struct Segment {
        private let ip: IPPacket
        private let tcp: TCPSegment
        /// The segment's bytes, in the packet's view.
        let payload: UnsafeRawBufferPointer
        /// Sent from the client's side (`tcp(of:)`).
        let fromClient: Bool

        fileprivate init(_ ip: IPPacket, _ tcp: TCPSegment, fromClient: Bool, in packet: PacketView) {
            (self.ip, self.tcp, self.fromClient) = (ip, tcp, fromClient)
            payload = packet.data.bytes(tcp.payload)
        }

        /// The client-side address: the packet's unit.
        var client: IPAddress { fromClient ? ip.source : ip.destination }
        /// A client SYN: the segment opens its connection.
        var opens: Bool { tcp.syn && !tcp.ack }
        /// FIN or RST.
        var ends: Bool { tcp.fin || tcp.rst }

        var connection: TCPConnectionKey {
            fromClient
                ? TCPConnectionKey(
                    client: ip.source, clientPort: tcp.sourcePort, server: ip.destination,
                    serverPort: tcp.destinationPort)
                : TCPConnectionKey(
                    client: ip.destination, clientPort: tcp.destinationPort, server: ip.source,
                    serverPort: tcp.sourcePort)
        }
    }

    /// A packet's TCP segment; nil for a packet with none to place.
    static func segment(of packet: PacketView) -> Segment? {
        guard let (ip, tcp, sourceIsClient) = tcp(of: packet) else { return nil }
        return Segment(ip, tcp, fromClient: sourceIsClient, in: packet)
    }

    /// The socket.io session id a segment names: in a request's target, or in a handshake the
    /// server sends (only the first 1024 bytes of a segment are looked at). Read in place: every
    /// segment with a payload passes here, too often for the generic collection algorithms.
    static func sid(in payload: UnsafeRawBufferPointer, fromClient: Bool) -> [UInt8]? {
        let head = UnsafeRawBufferPointer(rebasing: payload.prefix(1024))
        return fromClient ? requestSid(head) : handshakeSid(head)
    }

    /// `sid(in:fromClient:)` of bytes in an array.
    static func sid(in payload: ArraySlice<UInt8>, fromClient: Bool) -> [UInt8]? {
        payload.withUnsafeBytes { sid(in: $0, fromClient: fromClient) }
    }

    private static let get = Array("GET ".utf8), post = Array("POST ".utf8), socketIO = Array("/socket.io/".utf8)
    private static let sidParameter = Array("sid=".utf8), sidMember = Array("\"sid\":\"".utf8)
    private static let httpVersion = Array("HTTP/1.".utf8), headEnd = Array("\r\n\r\n".utf8)
    private static let polling = Array("polling".utf8), websocket = Array("websocket".utf8)

    /// The sid of a socket.io request: `sid=` in its target, or socket.io 0.9's
    /// `/socket.io/1/<transport>/<sid>`.
    private static func requestSid(_ head: UnsafeRawBufferPointer) -> [UInt8]? {
        guard head.starts(with: get) || head.starts(with: post), let space = head.firstIndex(of: 0x20) else {
            return nil
        }
        let targetStart = space + 1
        let targetEnd = head[targetStart...].firstIndex { $0 == 0x20 || $0 == 0x0d } ?? head.count
        let target = targetStart..<targetEnd
        guard let root = head.firstIndex(of: socketIO, in: target) else { return nil }
        if let sid = head.firstIndex(of: sidParameter, in: target) {
            let valueStart = sid + sidParameter.count
            let value = valueStart..<(head[valueStart..<targetEnd].firstIndex(of: UInt8(ascii: "&")) ?? targetEnd)
            return value.isEmpty ? nil : Array(head[value])
        }
        let pathStart = root + socketIO.count
        let path = pathStart..<(head[pathStart..<targetEnd].firstIndex(of: UInt8(ascii: "?")) ?? targetEnd)
        let segments = head[path].split(separator: UInt8(ascii: "/"))
        return segments.count == 3 && segments[0].elementsEqual("1".utf8) ? Array(segments[2]) : nil
    }

    /// The sid of a server's socket.io handshake: engine.io's `"sid":"…"`, or socket.io 0.9's
    /// answer `<sid>:<heartbeat>:<close>:<transports>`.
    private static func handshakeSid(_ head: UnsafeRawBufferPointer) -> [UInt8]? {
        let all = 0..<head.count
        if let key = head.firstIndex(of: sidMember, in: all) {
            let valueStart = key + sidMember.count
            let value = valueStart..<(head[valueStart...].firstIndex(of: UInt8(ascii: "\"")) ?? head.count)
            return value.isEmpty ? nil : Array(head[value])
        }
        guard head.starts(with: httpVersion), let end = head.firstIndex(of: headEnd, in: all) else { return nil }
        let fields = head[(end + headEnd.count)...].split(
            separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 4, !fields[0].isEmpty,
            head.firstIndex(of: polling, in: fields[3].indices) != nil
                || head.firstIndex(of: websocket, in: fields[3].indices) != nil
        else { return nil }
        return Array(fields[0])
    }

    /// A client SYN, IP fragment or not (`tcp(of:)` places no fragment).
    static func isClientSYN(_ packet: PacketView) -> Bool {
        guard case .ip(let start) = LinkLayer.ipOffset(linkType: packet.linkType, frame: packet.data),
            case .packet(let ip) = IPParser.parse(packet.data, at: start), ip.protocolNumber == 6,
            let tcp = TCPSegment.parse(packet.data, in: ip.payload)
        else { return false }
        return tcp.syn && !tcp.ack
    }

    /// Shards the capture at `path` into `directory` as `<name>.shard-<index>.pcapng` (a JSONL
    /// transcript into `.jsonl` shards, `TranscriptSharder`); `name` defaults to the capture's
    /// file name. Throws when the capture is HAR (one JSON document, read whole: check it
    /// whole) or in no capture format, or a shard cannot be written.
    package static func shard(path: String, into directory: String, name: String? = nil, options: Options = Options())
        throws(IMWireError)
        -> Result
    {
        switch try CaptureFile.format(of: path) {
        case .pcap?, .pcapng?: return try shardPackets(path: path, into: directory, name: name, options: options)
        case .jsonl? where path != "-":
            return try TranscriptSharder.shard(path: path, into: directory, name: name, options: options)
        case .jsonl?: throw IMWireError(.captureFormat, "standard input cannot be sharded: it is read twice")
        case .har?:
            throw IMWireError(
                .captureFormat,
                """
                a HAR file is one JSON document, read whole (at most \
                Limits.maxMessageSize, \(options.limits.maxMessageSize >> 20) MiB): check it whole
                """, path: path)
        case nil: throw IMWireError(.captureFormat, "not a JSONL transcript, pcap, pcapng or HAR file", path: path)
        }
    }

    private static func shardPackets(path: String, into directory: String, name: String?, options: Options)
        throws(IMWireError) -> Result
    {
        // Pass 1: each unit's bytes, in the order units first appear.
        let planner = try UnitPlanner(tracksConnections: options.tracksConnections)
        let captureBytes = try read(path, limits: options.limits, into: planner)
        if let failure = planner.failure { throw failure }
        try planner.places.flush()
        planner.forgetSessions()
        let plan = planner.units.deal(
            unitBytes: planner.unitBytes, residueBytes: planner.residueBytes, maxBytes: options.maxBytes)
        let shardOfUnit = plan.shardOfUnit
        let count = plan.shardCount
        let base = name ?? String(path.split(separator: "/").last ?? "capture")
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let shards = (0..<count).map { index in
            Shard(
                path: prefix + "\(base).shard-\(padded(index, to: String(count - 1).count)).pcapng",
                identity: ShardIdentity(capture: path, captureBytes: captureBytes, index: index, count: count),
                clients: plan.clients[index])
        }
        // Pass 2: shard k goes to group k mod groups. A round writes `lanes` groups, each on a
        // thread of its own that reads the capture; each further round reads it again.
        let lanes = options.jobs
        let perGroup = max(1, options.maxOpenFiles / lanes)
        let groups = max(min(lanes, count), (count + perGroup - 1) / perGroup)
        let ownerOnly = options.keyLog != nil || planner.carriesSecrets
        var written = shards
        for round in stride(from: 0, to: groups, by: lanes) {
            var writers: [GroupWriter] = []
            for group in round..<min(groups, round + lanes) {
                let members = stride(from: group, to: count, by: groups).map { shards[$0] }
                writers.append(
                    try GroupWriter(
                        members, of: groups, options: options, ownerOnly: ownerOnly, places: planner.places.reader(),
                        shardOfUnit: shardOfUnit))
            }
            let failure = Mutex<IMWireError?>(nil)
            DispatchQueue.concurrentPerform(iterations: writers.count) { [writers] lane in
                do throws(IMWireError) {
                    _ = try read(path, limits: options.limits, into: writers[lane])
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            for writer in writers {
                for shard in try writer.close() { written[shard.identity.index] = shard }
            }
        }
        return Result(
            shards: written, fileProblems: planner.fileProblems, startedOpen: planner.startedOpen,
            openAtEnd: planner.open)
    }

    /// Reads the capture at `path` once and gives its items to `consumer`, in order, each packet
    /// in place. Returns the bytes read.
    private static func read(_ path: String, limits: Limits, into consumer: ItemConsumer) throws(IMWireError) -> Int {
        let reader = try PacketCaptureReader.packets(path: path, limits: limits)
        reader.read(packets: consumer.take, other: consumer.take(other:), keeping: consumer.keeps)
        return reader.bytesRead
    }
}

/// Client units joined by the sessions they share: a union-find whose root is always a set's
/// lowest (first seen) unit.
struct UnitSets {
    private var parent: [Int] = []

    mutating func add() { parent.append(parent.count) }

    mutating func root(_ unit: Int) -> Int {
        var root = unit
        while parent[root] != root { root = parent[root] }
        var next = unit
        while parent[next] != root {
            let up = parent[next]
            parent[next] = root
            next = up
        }
        return root
    }

    mutating func join(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }

    /// Joined units to shards, in order of first appearance (a set's root is its first unit):
    /// shard 0 begins with `residueBytes`, and a new shard is begun when the next set would take
    /// the current one past `maxBytes` (a larger set is a shard of its own).
    mutating func deal(unitBytes: [Int], residueBytes: Int, maxBytes: Int) -> (
        shardOfUnit: [Int], clients: [Int], shardCount: Int
    ) {
        var setBytes = [Int](repeating: 0, count: unitBytes.count)
        for (index, bytes) in unitBytes.enumerated() { setBytes[root(index)] += bytes }
        var shardOfUnit = [Int](repeating: 0, count: unitBytes.count)
        var shardBytes = [residueBytes]
        var clients = [0]
        for index in unitBytes.indices {
            let root = root(index)
            if root != index {
                shardOfUnit[index] = shardOfUnit[root]
                clients[shardOfUnit[root]] += 1
                continue
            }
            if shardBytes[shardBytes.count - 1] > 0, shardBytes[shardBytes.count - 1] + setBytes[index] > maxBytes {
                shardBytes.append(0)
                clients.append(0)
            }
            shardBytes[shardBytes.count - 1] += setBytes[index]
            clients[clients.count - 1] += 1
            shardOfUnit[index] = shardBytes.count - 1
        }
        return (shardOfUnit, clients, shardBytes.count)
    }
}

/// `index` with leading zeros to `width` digits, so shard names sort as numbers do.
func padded(_ index: Int, to width: Int) -> String {
    let digits = String(index)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
