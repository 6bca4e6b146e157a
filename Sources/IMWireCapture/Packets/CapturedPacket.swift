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
