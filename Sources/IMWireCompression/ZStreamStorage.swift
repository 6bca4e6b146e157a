import CZlib

/// One zlib stream (`z_stream`) on the heap: the storage an `Inflater` or `Deflater` value owns.
///
/// `@unchecked Sendable` because the values that hold it are copy-on-write: every change goes
/// through `Inflater`/`Deflater` methods that first check `isKnownUniquelyReferenced` and copy
/// the stream (`inflateCopy`/`deflateCopy`) when another value shares it. So a stream is only
/// changed by the one value that references it, and a shared stream is only read (by those
/// copies), never changed: no data race, whatever tasks the values are in.
final class ZStreamStorage: @unchecked Sendable {
    enum Kind {
        case inflate
        case deflate
    }

    let kind: Kind
    let stream: UnsafeMutablePointer<z_stream>

    /// Takes over `stream`, already initialized by `inflateInit2` or `deflateInit2`.
    init(kind: Kind, stream: UnsafeMutablePointer<z_stream>) {
        self.kind = kind
        self.stream = stream
    }

    /// Allocates a zeroed `z_stream` and runs `initialize` on it; nil (and nothing leaked) when
    /// that does not return `Z_OK`, with the status in `status`.
    static func make(_ kind: Kind, status: inout Int32, _ initialize: (UnsafeMutablePointer<z_stream>) -> Int32)
        -> ZStreamStorage?
    {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        status = initialize(stream)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
        return ZStreamStorage(kind: kind, stream: stream)
    }

    deinit {
        switch kind {
        case .inflate: inflateEnd(stream)
        case .deflate: deflateEnd(stream)
        }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// An independent stream in the same state (window, pending output, position).
    func copy() -> ZStreamStorage {
        var status: Int32 = Z_OK
        let copied = Self.make(kind, status: &status) { destination in
            switch kind {
            case .inflate: inflateCopy(destination, stream)
            case .deflate: deflateCopy(destination, stream)
            }
        }
        // Only a failed allocation makes zlib's copy fail; Swift treats that as fatal everywhere.
        guard let copied else { fatalError("zlib could not copy a stream (status \(status))") }
        return copied
    }
}
