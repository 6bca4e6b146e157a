import IMWireCore
import IMWireIO

/// A pcap or pcapng file as capture events: packets through their link layer, IPv4/IPv6 and TCP,
/// TCP connections put back in order (`FlowTable`). Problems with the file or the packets are
/// findings; reading goes on after them wherever the format allows.
package final class PacketCaptureReader {
    private let packets: any PacketReader
    private let limits: Limits
    // @exclusivity(unchecked): one thread at a time reads and changes this object, so the
    // runtime's access checks on these properties, read for every packet, would buy nothing.
    @exclusivity(unchecked) private var flows: FlowTable
    /// Items decoded and not yet returned, the next one last.
    @exclusivity(unchecked) private var queue: [CaptureItem] = []
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var reportedLinkTypes: Set<UInt32> = []

    /// Opens `path`; throws when it cannot be read or is neither pcap nor pcapng.
    package init(path: String, limits: Limits = .default) throws(IMWireError) {
        packets = try Self.packets(path: path, limits: limits)
        self.limits = limits
        flows = FlowTable(limits: limits)
    }

    /// The raw packets of a pcap or pcapng file, without any decoding.
    package static func packets(path: String, limits: Limits = .default) throws(IMWireError) -> any PacketReader {
        let input = BufferedInput(try FileByteSource(path: path))
        guard let magic = input.peek(4) else {
            throw IMWireError(.captureFormat, "shorter than any capture header", path: path)
        }
        if magic == [0x0a, 0x0d, 0x0d, 0x0a] { return try PcapngReader(input, limits: limits) }
        if PcapReader.magics.contains(magic) { return try PcapReader(input, limits: limits) }
        throw IMWireError(.captureFormat, "not pcap or pcapng (starts with \(Hex.encode(magic)))", path: path)
    }

    /// The format of a file from its first bytes.
    package static func isPacketCapture(_ firstBytes: [UInt8]) -> Bool {
        firstBytes.count >= 4
            && (Array(firstBytes[0..<4]) == [0x0a, 0x0d, 0x0d, 0x0a]
                || PcapReader.magics.contains(Array(firstBytes[0..<4])))
    }

    package var bytesRead: Int { packets.bytesRead }

    /// The shard this file says it is (`ShardIdentity`, in its first section header), once the
    /// first item has been read; nil for any other capture.
    package var shard: ShardIdentity? { (packets as? PcapngReader)?.shard }

    package func next() -> CaptureItem? {
        if let item = queue.popLast() { return item }
        // Packets are decoded where they lie in the reader's buffer, a buffer's worth at a time:
        // copying each out (an array, in an item) cost 8% of a LeanCloud check and 20% of an
        // all-dialect one (Benchmarks/README.md, stop 57).
        while queue.isEmpty, !finished {
            let more = packets.readSome(
                packets: { decode($0, into: &queue) },
                other: { item in
                    switch item {
                    case .problem(let finding): queue.append(.problem(finding))
                    case .secrets(let secrets): queue.append(.secrets(secrets))
                    case .packet(let packet): packet.withView { decode($0, into: &queue) }
                    }
                })
            if !more {
                finished = true
                queue += flows.finish()
            }
        }
        // Kept back to front and handed out with popLast: removeFirst moved every item left, so a
        // capture ending with thousands of connections open took quadratic time to close them.
        queue.reverse()
        return queue.popLast()
    }

    private func problem(_ rule: Rule, _ message: String, _ packet: PacketView) -> CaptureItem {
        var finding = rule.finding("packet \(packet.number): \(message)", at: packet.fileOffset)
        finding.location = Location(frameIndex: packet.number, time: packet.time)
        return .problem(finding)
    }

    private func decode(_ packet: PacketView, into items: inout [CaptureItem]) {
        let ipStart: Int
        switch LinkLayer.ipOffset(linkType: packet.linkType, frame: packet.data) {
        case .ip(let offset): ipStart = offset
        case .notIP: return
        case .truncated: return items.append(problem(CaptureRules.malformedIP, "link-layer header cut short", packet))
        case .unsupported:
            guard reportedLinkTypes.insert(packet.linkType).inserted else { return }
            return items.append(
                problem(CaptureRules.unsupportedLinkType, "link type \(packet.linkType) (reported once)", packet))
        }
        switch IPParser.parse(packet.data, at: ipStart) {
        case .malformed(let reason):
            items.append(problem(CaptureRules.malformedIP, reason, packet))
        case .packet(let ip):
            guard ip.protocolNumber == 6 else { return }
            if ip.isFragment {
                return items.append(
                    problem(
                        CaptureRules.ipFragment, "\(ip.source) → \(ip.destination) fragment not reassembled", packet))
            }
            guard let tcp = TCPSegment.parse(packet.data, in: ip.payload) else {
                return items.append(
                    problem(CaptureRules.malformedTCP, "TCP header of \(ip.payload.count) bytes", packet))
            }
            flows.segment(tcp, ip: ip, frame: packet.data, packet: packet, into: &items)
        }
    }
}
