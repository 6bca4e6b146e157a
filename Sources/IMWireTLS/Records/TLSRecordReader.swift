/// Record content types (RFC 8446 §5.1, RFC 6520 for heartbeat).
package enum TLSContentType: UInt8, Sendable, Hashable, CaseIterable {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
    case heartbeat = 24
}

/// One TLS record as read off one direction of a TCP stream, not yet decrypted.
package struct TLSRecord: Sendable, Hashable {
    /// The content type byte of the header (maybe not one of `TLSContentType`).
    package var contentType: UInt8
    /// The record-layer version of the header.
    package var version: UInt16
    /// The record's fragment (ciphertext or plaintext), without the 5-byte header.
    package var fragment: [UInt8]
    /// Byte offset of the record's header in that direction's stream.
    package var offset: Int

    package init(contentType: UInt8, version: UInt16, fragment: [UInt8], offset: Int) {
        self.contentType = contentType
        self.version = version
        self.fragment = fragment
        self.offset = offset
    }

    /// Header plus fragment, in bytes.
    package var length: Int { 5 + fragment.count }
}

/// Cuts one direction's byte stream into TLS records, whatever the chunking: a record split over many
/// `append`s, or many records in one. It only frames; the connection judges types and lengths.
package struct TLSRecordReader: Sendable {
    /// What `next()` found.
    package enum Next: Sendable, Hashable {
        /// A whole record.
        case record(TLSRecord)
        /// Not enough bytes for the next record yet.
        case needMore
        /// A header whose version is not 3.x at `offset`: the framing is lost. Every later byte stays
        /// buffered (the caller skips them).
        case framingLost(offset: Int, header: [UInt8])
    }

    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of the first buffered byte.
    package private(set) var streamOffset = 0
    /// Set once a header was unreadable; `next()` then returns `.framingLost` again.
    package private(set) var framingLost = false

    package init() {}

    /// Bytes received but not yet returned in a record.
    package var bufferedCount: Int { buffer.count - start }

    /// Adds the next bytes of the stream.
    package mutating func append(_ bytes: [UInt8]) {
        if start > 0, start >= buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 1 << 16, start * 2 >= buffer.count {
            // drop what was read once it is the larger part, so appends stay amortised O(n)
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole record, if buffered.
    package mutating func next() -> Next {
        let available = buffer.count - start
        guard available >= 5 else {
            if framingLost { return .framingLost(offset: streamOffset, header: Array(buffer[start...])) }
            return .needMore
        }
        guard !framingLost, buffer[start + 1] == 3 else {
            framingLost = true
            return .framingLost(offset: streamOffset, header: Array(buffer[start..<(start + 5)]))
        }
        let length = Int(buffer[start + 3]) << 8 | Int(buffer[start + 4])
        guard available >= 5 + length else { return .needMore }
        let record = TLSRecord(
            contentType: buffer[start], version: UInt16(buffer[start + 1]) << 8 | UInt16(buffer[start + 2]),
            fragment: Array(buffer[(start + 5)..<(start + 5 + length)]), offset: streamOffset)
        start += 5 + length
        streamOffset += 5 + length
        return .record(record)
    }

    /// The next whole record when one is buffered and its header reads as TLS; otherwise nil, and
    /// `next()` says why.
    package mutating func nextRecord() -> TLSRecord? {
        guard !framingLost, buffer.count - start >= 5, buffer[start + 1] == 3,
            case .record(let record) = next()
        else { return nil }
        return record
    }

    /// Drops every buffered byte (after the framing is lost, or at the end); returns how many.
    package mutating func discardBuffered() -> Int {
        let count = bufferedCount
        streamOffset += count
        buffer.removeAll()
        start = 0
        return count
    }
}
