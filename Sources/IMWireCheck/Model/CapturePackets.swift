import IMWireCapture
import IMWireCore

/// Where packets lie in a pcap or pcapng file: what a shard's report keeps for SARIF regions
/// (`MergeData.packets`) and what `SARIFReport.packetRegions` gives the report writer.
package enum CapturePackets {
    /// The regions (bytes past the record header) of the packets `numbers` of the capture at
    /// `path` (empty when it is not a pcap or pcapng file).
    package static func regions(path: String, numbers: Set<Int>, limits: Limits = .default) -> [Int: (
        byteOffset: Int, byteLength: Int
    )] {
        guard !numbers.isEmpty, let packets = try? PacketCaptureReader.packets(path: path, limits: limits) else {
            return [:]
        }
        var regions: [Int: (byteOffset: Int, byteLength: Int)] = [:]
        while let item = packets.next(), regions.count < numbers.count {
            guard case .packet(let packet) = item, numbers.contains(packet.number) else { continue }
            regions[packet.number] = (packet.dataOffset, packet.data.count)
        }
        return regions
    }
}
