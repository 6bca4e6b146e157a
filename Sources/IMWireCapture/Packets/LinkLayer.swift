/// Where the IP packet starts inside a link-layer frame.
enum LinkLayer {
    enum Outcome: Equatable {
        case ip(Int)
        /// A frame that is not IP (ARP, LLDP…): ignored.
        case notIP
        case unsupported
        case truncated
    }

    static let supported: Set<UInt32> = [0, 1, 101, 113, 228, 229, 276]

    /// The offset of the IP header in `frame` for link type `linkType`.
    static func ipOffset<Frame: RandomAccessCollection<UInt8>>(linkType: UInt32, frame: Frame) -> Outcome
    where Frame.Index == Int {
        switch linkType {
        case 101, 228, 229:
            return .ip(0)
        case 0:  // BSD loopback: a 4-byte address family in the capturing host's byte order
            guard frame.count >= 4 else { return .truncated }
            let family = frame[0] != 0 ? UInt32(frame[0]) : UInt32(frame[3])
            return [2, 24, 28, 30].contains(family) ? .ip(4) : .notIP
        case 1:  // Ethernet II, with any number of 802.1Q / 802.1ad tags
            var offset = 12
            while true {
                guard frame.count >= offset + 2 else { return .truncated }
                let etherType = UInt16(frame[offset]) << 8 | UInt16(frame[offset + 1])
                switch etherType {
                case 0x8100, 0x88a8, 0x9100: offset += 4
                case 0x0800, 0x86dd: return .ip(offset + 2)
                default: return .notIP
                }
            }
        case 113:  // Linux cooked capture v1: protocol in bytes 14-15
            guard frame.count >= 16 else { return .truncated }
            let protocolType = UInt16(frame[14]) << 8 | UInt16(frame[15])
            return protocolType == 0x0800 || protocolType == 0x86dd ? .ip(16) : .notIP
        case 276:  // Linux cooked capture v2: protocol in bytes 0-1, 20-byte header
            guard frame.count >= 20 else { return .truncated }
            let protocolType = UInt16(frame[0]) << 8 | UInt16(frame[1])
            return protocolType == 0x0800 || protocolType == 0x86dd ? .ip(20) : .notIP
        default:
            return .unsupported
        }
    }
}
