import IMWireCore

/// One link-layer frame as a capture file recorded it.
package struct CapturedPacket: Sendable, Hashable {
    /// Microseconds since the epoch.
    package var time: Int64
    /// LINKTYPE_* of the interface that captured it.
    package var linkType: UInt32
    /// The captured bytes (possibly fewer than `originalLength`).
    package var data: [UInt8]
    package var originalLength: Int
    /// 1-based record number in the file (pcapng: counting packet blocks only).
    package var number: Int
    /// Offset of the record in the file.
    package var fileOffset: Int
    /// Offset of the packet's first byte (`data`) in the file, past the record's header.
    package var dataOffset: Int
    /// pcapng `epb_flags` direction relative to the capturing interface, when recorded.
    package var inbound: Bool?
    /// pcapng `opt_comment` values.
    package var comments: [String]

    package init(
        time: Int64, linkType: UInt32, data: [UInt8], originalLength: Int, number: Int, fileOffset: Int,
        dataOffset: Int? = nil,
        inbound: Bool? = nil, comments: [String] = []
    ) {
        self.time = time
        self.linkType = linkType
        self.data = data
        self.originalLength = originalLength
        self.number = number
        self.fileOffset = fileOffset
        self.dataOffset = dataOffset ?? fileOffset
        self.inbound = inbound
        self.comments = comments
    }
}

/// A packet where it lies in a reader's buffer, good only during the call it is given to
/// (`PacketReader.read(packets:other:keeping:)`, `readSome`): `imwire shard` and `imwire check`
/// read every packet of a capture, and building a `CapturedPacket` (an array of its bytes, in
/// an item) for each was most of a shard run's cost.
package struct PacketView {
    package var time: Int64
    package var linkType: UInt32
    package var data: FrameBytes
    package var originalLength: Int
    package var number: Int
    package var fileOffset: Int
    package var dataOffset: Int
    package var inbound: Bool?
    package var comments: [String]
}

/// Bytes read in place, checked against their count on every access in release builds too (an
/// `UnsafeRawBufferPointer` checks only in debug builds): the IP and TCP parsers read them at
/// offsets a hostile capture chooses.
package struct FrameBytes: RandomAccessCollection {
    package let raw: UnsafeRawBufferPointer

    package init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    package var startIndex: Int { 0 }
    package var endIndex: Int { raw.count }

    package subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < raw.count, "byte \(index) of a frame of \(raw.count)")
        return raw[index]
    }

    /// The frame's bytes lie in memory: generic readers (`IPAddress`) load words from them.
    package func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        try raw.withMemoryRebound(to: UInt8.self) { try body($0) }
    }

    /// The bytes of `range`, checked as a subscript is.
    package func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= raw.count, "bytes \(range) of \(raw.count)")
        return UnsafeRawBufferPointer(rebasing: raw[range])
    }
}

extension CapturedPacket {
    /// The packet of `view`, its bytes copied.
    package init(_ view: PacketView) {
        self.init(
            time: view.time, linkType: view.linkType, data: Array(view.data.raw), originalLength: view.originalLength,
            number: view.number, fileOffset: view.fileOffset, dataOffset: view.dataOffset, inbound: view.inbound,
            comments: view.comments)
    }

    /// Calls `body` with the packet as a view of its bytes.
    package func withView(_ body: (PacketView) -> Void) {
        data.withUnsafeBytes { raw in
            body(
                PacketView(
                    time: time, linkType: linkType, data: FrameBytes(raw), originalLength: originalLength,
                    number: number, fileOffset: fileOffset, dataOffset: dataOffset, inbound: inbound,
                    comments: comments))
        }
    }
}

/// Secrets a capture carries for decrypting its own traffic: a pcapng Decryption Secrets Block
/// (what `editcap --inject-secrets` writes). Read in file order, as tshark does: a block
/// decrypts the connections whose handshake comes after it.
public struct DecryptionSecrets: Sendable, Hashable {
    /// Secrets type `0x544c534b` ("TLSK"): an NSS key log (`SSLKEYLOGFILE`), as text.
    public static let tlsKeyLog: UInt32 = 0x544c_534b

    /// The block's secrets type; only `tlsKeyLog` is used, others are kept and ignored.
    public var type: UInt32
    public var data: [UInt8]
    /// Offset of the block in the file.
    public var fileOffset: Int

    package init(type: UInt32, data: [UInt8], fileOffset: Int) {
        self.type = type
        self.data = data
        self.fileOffset = fileOffset
    }
}

/// What a packet-file reader yields: a packet, secrets to decrypt packets with, or a problem with
/// the file.
package enum PacketItem: Sendable, Hashable {
    case packet(CapturedPacket)
    /// Boxed, as `problem` is: rare, and large.
    indirect case secrets(DecryptionSecrets)
    /// Boxed, so a packet is not copied at a finding's size (see `CaptureItem`).
    indirect case problem(Finding)
}

/// A reader of one packet-capture format.
package protocol PacketReader: AnyObject {
    /// The next packet or problem; nil at the end of the file (or after damage that ends it).
    func next() -> PacketItem?
    /// Bytes of the file consumed so far.
    var bytesRead: Int { get }
    /// Reads the rest of the file: each packet to `packet` as a view of the reader's buffer (good
    /// only during the call), everything else to `other`, in `next()`'s order. `keeping` is
    /// asked first about each packet, by its number from 0 in this call; a packet it refuses is
    /// passed over before its view is made.
    func read(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void, keeping: (Int) -> Bool)
    /// Reads on a little, as `read(packets:other:keeping:)` does (every packet kept): about the
    /// packets that lie in the reader's buffer now, or one other item. False once the file is
    /// over (everything read before that was given).
    func readSome(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void) -> Bool
}

extension PacketReader {
    /// `next()`'s items, each packet lent as a view of its own bytes.
    package func read(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void, keeping: (Int) -> Bool) {
        var ordinal = 0
        while let item = next() {
            guard case .packet(let captured) = item else {
                other(item)
                continue
            }
            if keeping(ordinal) { captured.withView(packet) }
            ordinal += 1
        }
    }

    /// One item of `next()`, a packet lent as a view of its own bytes.
    package func readSome(packets packet: (PacketView) -> Void, other: (PacketItem) -> Void) -> Bool {
        guard let item = next() else { return false }
        if case .packet(let captured) = item { captured.withView(packet) } else { other(item) }
        return true
    }
}

extension Finding {
    /// The finding located at a record of a capture file.
    func atRecord(_ number: Int?, fileOffset: Int) -> Finding {
        var copy = self
        copy.location.frameIndex = number
        copy.offset = copy.offset ?? fileOffset
        return copy
    }
}
