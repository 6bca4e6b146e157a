import IMWireCore
import IMWireIO

/// pcapng files (draft-ietf-opsawg-pcapng): sections in either byte order, Interface Description
/// Blocks (link type, `if_tsresol`, `if_tsoffset`), Enhanced and Simple Packet Blocks with their
/// options (`epb_flags` direction, `opt_comment`), and every other block skipped by its length.
/// A block longer than `Limits.maxFrameSize` is skipped without being read into memory.
package final class PcapngReader: PacketReader {
    static let sectionHeader: UInt32 = 0x0a0d_0d0a
    static let byteOrderMagic: UInt32 = 0x1a2b_3c4d
    /// Block types that are valid pcapng but carry nothing a checker needs.
    static let quietlySkipped: Set<UInt32> = [4, 5, 7, 8, 9, 0x0bad, 0x4000_0bad]
    static let decryptionSecrets: UInt32 = 10

    private struct Interface {
        var linkType: UInt32
        var snapLength: Int
        /// Timestamp units per second: 10^n or 2^n.
        var unitsPerSecond: UInt64 = 1_000_000
        var offsetSeconds: Int64 = 0
    }

    private let input: BufferedInput
    private let limits: Limits
    // @exclusivity(unchecked): one thread at a time reads and changes this object, so the
    // runtime's access checks on these properties, read for every packet, would buy nothing.
    @exclusivity(unchecked) private var order: Endianness = .little
    @exclusivity(unchecked) private var interfaces: [Interface] = []
    @exclusivity(unchecked) private var number = 0
    @exclusivity(unchecked) private var lastTime: Int64 = 0
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var pending: [PacketItem] = []
    /// Where items go instead of `pending` during `read(packets:other:keeping:)` and
    /// `readSome(packets:other:)`, which packets, and how many it has been asked about.
    @exclusivity(unchecked) private var sink: ((PacketView) -> Void)?
    @exclusivity(unchecked) private var otherSink: (PacketItem) -> Void = { _ in }
    @exclusivity(unchecked) private var keep: (Int) -> Bool = { _ in true }
    @exclusivity(unchecked) private var ordinal = 0
    /// The shard the current section says it is (`ShardIdentity`): its packets are numbered
    /// and placed as in the capture it was cut from (`PacketOrigin`).
    @exclusivity(unchecked) package private(set) var shard: ShardIdentity?

    /// Reads the first Section Header Block; throws when the file is not pcapng at all.
    package init(_ input: BufferedInput, limits: Limits = .default) throws(IMWireError) {
        self.input = input
        self.limits = limits
        guard let start = input.peek(12), start[0..<4] == [0x0a, 0x0d, 0x0d, 0x0a] else {
            throw IMWireError(.captureFormat, "not a pcapng file")
        }
        guard Self.order(of: Array(start[8..<12])) != nil else {
            throw IMWireError(
                .captureFormat, "pcapng section header with byte-order magic \(Hex.encode(start[8..<12]))")
        }
    }

    private static func order(of magic: [UInt8]) -> Endianness? {
        switch magic {
        case [0x1a, 0x2b, 0x3c, 0x4d]: .big
        case [0x4d, 0x3c, 0x2b, 0x1a]: .little
        default: nil
        }
    }

    package var bytesRead: Int { input.offset }

    package func next() -> PacketItem? {
        while pending.isEmpty, !finished { readBlock() }
        // A block nearly always gives one item: popLast moves it out, where removeFirst copied
        // it through the generic value witness (two retains and releases per packet).
        if pending.count == 1 { return pending.popLast() }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    package func read(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void, keeping: (Int) -> Bool) {
        ordinal = 0
        lending(packet, other, keeping, during: { while step() {} })
    }

    package func readSome(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void) -> Bool {
        lending(packet, other, { _ in true }, during: step)
    }

    /// Runs `body` with the sinks set to these closures.
    private func lending<Result>(
        _ packet: (PacketView) -> Void, _ other: (PacketItem) -> Void, _ keeping: (Int) -> Bool,
        during body: () -> Result
    ) -> Result {
        withoutActuallyEscaping(packet) { packet in
            withoutActuallyEscaping(other) { other in
                withoutActuallyEscaping(keeping) { keeping in
                    (sink, otherSink, keep) = (packet, other, keeping)
                    defer { (sink, otherSink, keep) = (nil, { _ in }, { _ in true }) }
                    return body()
                }
            }
        }
    }

    /// Gives what is pending, then reads the Enhanced Packet Blocks in the buffer in place, or
    /// else one block; false once the file is over and nothing was pending.
    private func step() -> Bool {
        givePending()
        if finished { return false }
        readPacketBlocksInPlace()
        if pending.isEmpty { readBlock() }
        return true
    }

    /// Gives the pending items to the sinks, in order.
    private func givePending() {
        for item in pending {
            guard case .packet(let captured) = item, let sink else {
                otherSink(item)
                continue
            }
            if keep(ordinal) { captured.withView(sink) }
            ordinal += 1
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The Enhanced Packet Blocks that lie whole in the input's buffer, read there one after
    /// another, up to the first other block or problem (left to `readBlock`): the two buffer
    /// calls `readBlock` makes per block were a quarter of reading a capture of small packets.
    private func readPacketBlocksInPlace() {
        let order = order
        let largest = limits.maxFrameSize + 256
        input.withBuffered(atLeast: 1 << 16) { bytes, fileOffset in
            var at = 0
            while pending.isEmpty, bytes.count - at >= 12 {
                let word = { (offset: Int) -> UInt32 in
                    let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    return order == .big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
                }
                let length = Int(word(at + 4))
                guard word(at) == 6, length >= 12, length % 4 == 0, length <= largest, length <= bytes.count - at,
                    word(at + length - 4) == length
                else { break }
                var body = ByteReader(
                    UnsafeRawBufferPointer(rebasing: bytes[(at + 8)..<(at + length - 4)]),
                    baseOffset: fileOffset + at + 8)
                readEnhancedPacket(&body, blockOffset: fileOffset + at)
                at += length
            }
            return at
        }
    }

    /// A packet read from a block that is not in place (a Simple Packet Block's), to the sink or
    /// to `pending`.
    private func deliver(_ packet: CapturedPacket) {
        guard let sink else { return pending.append(.packet(packet)) }
        if keep(ordinal) {
            givePending()
            packet.withView(sink)
        }
        ordinal += 1
    }

    private func problem(_ rule: Rule, _ message: String, at offset: Int) {
        pending.append(.problem(rule.finding(message, at: offset).atRecord(nil, fileOffset: offset)))
    }

    private func readBlock() {
        let blockOffset = input.offset
        // Blocks are read in place, not copied out of the buffer (and their bodies copied again).
        var (head, blockType, blockLength): (Bool, UInt32, UInt32) = (false, 0, 0)
        let order = order
        let peeked = input.withPeek(8) { reader in
            head = reader.bytes.prefix(4).elementsEqual([0x0a, 0x0d, 0x0d, 0x0a])
            (blockType, blockLength) = (reader.readUInt32(order) ?? 0, reader.readUInt32(order) ?? 0)
        }
        guard peeked else {
            finished = true
            let left = input.remaining(upTo: 8)
            if left > 0 {
                problem(
                    CaptureRules.truncatedFile, "\(left) bytes after the last block, a block header needs 8",
                    at: blockOffset)
            }
            return
        }
        if head {
            var magic: [UInt8] = []
            _ = input.withPeek(12) { magic = Array($0.bytes[8..<12]) }
            guard let newOrder = Self.order(of: magic) else {
                finished = true
                problem(CaptureRules.badFileHeader, "section header without a valid byte-order magic", at: blockOffset)
                return
            }
            self.order = newOrder
            interfaces.removeAll()
            // The type and length in the byte order the section header just declared.
            _ = input.withPeek(8) {
                (blockType, blockLength) = ($0.readUInt32(newOrder) ?? 0, $0.readUInt32(newOrder) ?? 0)
            }
        }
        readBlock(type: blockType, length: blockLength, at: blockOffset)
    }

    private func readBlock(type: UInt32, length: UInt32, at blockOffset: Int) {
        guard length >= 12, length % 4 == 0 else {
            finished = true  // without a usable length the next block cannot be found
            problem(CaptureRules.blockLength, "block type \(type) has total length \(length)", at: blockOffset + 4)
            return
        }
        guard Int(length) <= limits.maxFrameSize + 256 else {
            let skipped = input.skip(Int(length))
            if skipped < Int(length) { finished = true }
            problem(
                CaptureRules.recordTooLarge,
                "block type \(type) is \(length) bytes, limit \(limits.maxFrameSize); skipped", at: blockOffset)
            return
        }
        let read = input.withNext(Int(length)) { block in
            var trailerReader = block
            _ = trailerReader.skip(Int(length) - 4)
            let trailer = trailerReader.readUInt32(order) ?? 0
            if trailer != length {
                problem(
                    CaptureRules.blockLength, "block type \(type): total length \(length) but trailer \(trailer)",
                    at: blockOffset + Int(length) - 4)
            }
            _ = block.skip(8)
            guard var body = block.readReader(Int(length) - 12) else { return }
            switch type {
            case Self.sectionHeader: readSectionHeader(&body)
            case 1: readInterface(&body)
            case 6: readEnhancedPacket(&body, blockOffset: blockOffset)
            case 3: readSimplePacket(Array(body.bytes), blockOffset: blockOffset)
            case Self.decryptionSecrets: readSecrets(&body, blockOffset: blockOffset)
            case let other where Self.quietlySkipped.contains(other): break
            default:
                problem(CaptureRules.unknownBlock, "block type 0x\(String(type, radix: 16)) skipped", at: blockOffset)
            }
        }
        if !read {
            finished = true
            problem(
                CaptureRules.truncatedFile,
                "block type \(type) announces \(length) bytes, \(input.remaining(upTo: Int(length))) remain",
                at: blockOffset)
        }
    }

    private func readSectionHeader(_ reader: inout ByteReader) {
        let offset = reader.offset
        _ = reader.skip(4)
        let major = reader.readUInt16(order) ?? 0
        if major != 1 {
            problem(CaptureRules.badFileHeader, "pcapng major version \(major), expected 1", at: offset + 4)
        }
        shard = nil
        guard major == 1, reader.skip(10) else { return }
        var found: ShardIdentity?
        forEachOption(&reader) { code, value, _ in
            if code == 1, found == nil { found = ShardIdentity(comment: String(decoding: value, as: UTF8.self)) }
        }
        shard = found
    }

    private func readInterface(_ reader: inout ByteReader) {
        let offset = reader.offset
        guard let linkType = reader.readUInt16(order), reader.skip(2), let snap = reader.readUInt32(order) else {
            problem(CaptureRules.blockLength, "interface description block shorter than 8 bytes", at: offset)
            return
        }
        var interface = Interface(linkType: UInt32(linkType), snapLength: Int(snap))
        forEachOption(&reader) { code, value, offset in
            switch code {
            case 9 where value.count == 1:
                let resolution = value[0]
                let exponent = Int(resolution & 0x7f)
                let base: UInt64 = resolution & 0x80 == 0 ? 10 : 2
                guard (resolution & 0x80 == 0 && exponent <= 19) || (resolution & 0x80 != 0 && exponent <= 63) else {
                    problem(CaptureRules.badOption, "if_tsresol \(resolution) is out of range", at: offset)
                    return
                }
                interface.unitsPerSecond = (0..<exponent).reduce(1) { value, _ in value &* base }
            case 14 where value.count == 8:
                var valueReader = ByteReader(value)
                interface.offsetSeconds = Int64(bitPattern: valueReader.readUInt64(order) ?? 0)
            case 9, 14:
                problem(CaptureRules.badOption, "option \(code) has length \(value.count)", at: offset)
            default:
                break
            }
        }
        interfaces.append(interface)
    }

    private func readEnhancedPacket(_ reader: inout ByteReader, blockOffset: Int) {
        let offset = reader.offset
        guard let id = reader.readUInt32(order), let high = reader.readUInt32(order),
            let low = reader.readUInt32(order),
            let captured = reader.readUInt32(order), let original = reader.readUInt32(order)
        else {
            problem(CaptureRules.blockLength, "enhanced packet block shorter than 20 bytes", at: offset)
            return
        }
        number += 1
        guard Int(id) < interfaces.count else {
            problem(
                CaptureRules.noInterface, "packet \(number) names interface \(id), \(interfaces.count) defined",
                at: offset)
            return
        }
        let padded = (Int(captured) + 3) & ~3
        guard let data = reader.readBytes(Int(captured)), reader.skip(padded - Int(captured)) else {
            problem(
                CaptureRules.blockLength,
                "packet \(number) announces \(captured) bytes, \(reader.remaining) remain in its block",
                at: offset + 12)
            return
        }
        // The options go into locals and the packet is built last: a packet captured by the
        // options closure was copied (a retain and a release per packet) on its way into `pending`.
        var comments: [String] = []
        var inbound: Bool?
        var origin: PacketOrigin?
        let inShard = shard != nil
        forEachOption(&reader) { code, value, offset in
            switch code {
            case PacketOrigin.optionCode where inShard: origin = PacketOrigin.parse(value, order: order)
            case 1: comments.append(String(decoding: value, as: UTF8.self))
            case 2 where value.count == 4:
                var valueReader = ByteReader(value)
                let flags = valueReader.readUInt32(order) ?? 0
                inbound =
                    switch flags & 3 {
                    case 1: true
                    case 2: false
                    default: nil
                    }
            case 2: problem(CaptureRules.badOption, "epb_flags has length \(value.count)", at: offset)
            default: break
            }
        }
        lastTime = time(UInt64(high) << 32 | UInt64(low), interfaces[Int(id)])
        let place = origin ?? PacketOrigin(number: number, fileOffset: blockOffset, dataOffset: blockOffset + 28)
        if original > captured {
            problem(
                CaptureRules.packetTruncated, "packet \(place.number): \(captured) of \(original) bytes captured",
                at: place.fileOffset)
        }
        if sink != nil {
            defer { ordinal += 1 }
            guard keep(ordinal) else { return }
        }
        let view = PacketView(
            time: lastTime, linkType: interfaces[Int(id)].linkType, data: FrameBytes(data),
            originalLength: Int(original), number: place.number, fileOffset: place.fileOffset,
            dataOffset: place.dataOffset, inbound: inbound, comments: comments)
        guard let sink else { return pending.append(.packet(CapturedPacket(view))) }
        givePending()  // the block's findings first, as `next()` gives them
        sink(view)
    }

    /// A Decryption Secrets Block: secrets type, secrets length, the secrets (padded to 4 bytes), options.
    private func readSecrets(_ reader: inout ByteReader, blockOffset: Int) {
        let offset = reader.offset
        guard let type = reader.readUInt32(order), let length = reader.readUInt32(order),
            let data = reader.readBytes(Int(length))
        else {
            problem(CaptureRules.blockLength, "decryption secrets block: its secrets run past the block", at: offset)
            return
        }
        pending.append(.secrets(DecryptionSecrets(type: type, data: Array(data), fileOffset: blockOffset)))
    }

    private func readSimplePacket(_ body: [UInt8], blockOffset: Int) {
        number += 1
        guard let interface = interfaces.first else {
            problem(
                CaptureRules.noInterface, "simple packet \(number) before any interface description", at: blockOffset)
            return
        }
        body.withReader(baseOffset: blockOffset + 8) { reader in
            guard let original = reader.readUInt32(order) else { return }
            let snap = interface.snapLength > 0 ? interface.snapLength : Int.max
            let captured = min(Int(original), snap, reader.remaining)
            let data = reader.readBytes(captured).map(Array.init) ?? []
            deliver(
                CapturedPacket(
                    time: lastTime, linkType: interface.linkType, data: data,
                    originalLength: Int(original), number: number, fileOffset: blockOffset,
                    dataOffset: blockOffset + 12))
        }
    }

    /// Calls `body` with each option after a block's fixed fields (code, value, offset of the
    /// option), in place; a malformed one ends the list with a finding.
    private func forEachOption(_ reader: inout ByteReader, _ body: (UInt16, UnsafeRawBufferPointer, Int) -> Void) {
        while reader.remaining >= 4 {
            let optionOffset = reader.offset
            let code = reader.readUInt16(order) ?? 0
            let length = Int(reader.readUInt16(order) ?? 0)
            if code == 0 { break }
            guard let value = reader.readBytes(length), reader.skip(((length + 3) & ~3) - length) else {
                problem(
                    CaptureRules.badOption, "option \(code) of length \(length) runs past its block", at: optionOffset)
                break
            }
            body(code, value, optionOffset)
        }
    }

    /// A timestamp in the interface's units to microseconds since the epoch, saturating.
    private func time(_ units: UInt64, _ interface: Interface) -> Int64 {
        // Microseconds (the default resolution), short of where the seconds could overflow:
        // the units are the answer, without the 128-bit division below.
        if interface.unitsPerSecond == 1_000_000, units < 9_000_000_000_000_000_000 {
            return Int64(units) &+ interface.offsetSeconds &* 1_000_000
        }
        let perSecond = max(1, interface.unitsPerSecond)
        let seconds = units / perSecond
        let fraction = units % perSecond
        let micros = fraction.multipliedFullWidth(by: 1_000_000)
        let fractionMicros = perSecond.dividingFullWidth((micros.high, micros.low)).quotient
        let (total, overflow) = Int64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return Int64.max }
        return total &+ Int64(clamping: fractionMicros) &+ interface.offsetSeconds &* 1_000_000
    }
}
