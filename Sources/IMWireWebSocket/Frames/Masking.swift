/// RFC 6455 §5.3 masking: byte i is XORed with byte (i mod 4) of the key. Masking and unmasking
/// are the same operation.
public enum WebSocketMasking {
    /// XORs `count` bytes from `source` into `destination` with `key` (big-endian, as on the wire),
    /// starting `phase` bytes into the key (for payloads that arrive in pieces). Returns the phase
    /// for the next byte.
    @inlinable
    @discardableResult
    package static func apply(
        key: UInt32, phase: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int
    ) -> Int {
        guard count > 0 else { return phase & 3 }
        let keyBytes = (
            UInt8(truncatingIfNeeded: key >> 24), UInt8(truncatingIfNeeded: key >> 16),
            UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key)
        )
        // The key rotated so that the next byte uses k0; repeated into a word for 8-byte steps.
        let k0: UInt8
        let k1: UInt8
        let k2: UInt8
        let k3: UInt8
        switch phase & 3 {
        case 0: (k0, k1, k2, k3) = (keyBytes.0, keyBytes.1, keyBytes.2, keyBytes.3)
        case 1: (k0, k1, k2, k3) = (keyBytes.1, keyBytes.2, keyBytes.3, keyBytes.0)
        case 2: (k0, k1, k2, k3) = (keyBytes.2, keyBytes.3, keyBytes.0, keyBytes.1)
        default: (k0, k1, k2, k3) = (keyBytes.3, keyBytes.0, keyBytes.1, keyBytes.2)
        }
        let word32 = UInt32(k0) | UInt32(k1) << 8 | UInt32(k2) << 16 | UInt32(k3) << 24
        let word = UInt64(word32) | UInt64(word32) << 32
        var index = 0
        while index + 8 <= count {
            let value = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            destination.storeBytes(of: value ^ word.littleEndian, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        let lane = (k0, k1, k2, k3)
        while index < count {
            let keyByte: UInt8
            switch index & 3 {
            case 0: keyByte = lane.0
            case 1: keyByte = lane.1
            case 2: keyByte = lane.2
            default: keyByte = lane.3
            }
            destination.storeBytes(
                of: source.load(fromByteOffset: index, as: UInt8.self) ^ keyByte, toByteOffset: index, as: UInt8.self)
            index += 1
        }
        return (phase + count) & 3
    }

    /// A masked (or unmasked) copy of `bytes`.
    package static func masked(_ bytes: [UInt8], key: UInt32) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                if let from = source.baseAddress, let to = buffer.baseAddress {
                    apply(key: key, phase: 0, from: from, to: UnsafeMutableRawPointer(to), count: bytes.count)
                }
            }
            initialized = bytes.count
        }
    }
}

extension WebSocketMasking {
    /// A fresh masking key from the system's cryptographically strong generator
    /// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random_buf` on Apple
    /// platforms). RFC 6455 §5.3: a client picks a new, unpredictable key for every frame.
    public static func randomKey() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return randomKey(using: &generator)
    }

    /// A masking key drawn from `generator` (a seeded one makes tests and fixtures repeatable).
    package static func randomKey(using generator: inout some RandomNumberGenerator) -> UInt32 {
        generator.next()
    }
}
