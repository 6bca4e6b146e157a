import Crypto

/// The read state of one direction under one key: AEAD, key, IV and the record sequence number.
/// TLS 1.2 GCM (RFC 5288 §3: 4-byte salt + 8-byte explicit nonce per record), TLS 1.2 ChaCha20-Poly1305
/// (RFC 7905 §2: IV XOR sequence number), TLS 1.3 (RFC 8446 §5.3: IV XOR sequence, header as AAD).
/// Not Sendable: swift-crypto's SymmetricKey is not.
package struct TLSRecordCipher {
    /// How nonces and additional data are formed.
    package enum Mode: Sendable, Hashable {
        /// TLS 1.2 AES-GCM: the 4-byte implicit salt from the key block.
        case tls12ExplicitNonce
        /// TLS 1.2 ChaCha20-Poly1305: a 12-byte IV XORed with the sequence number.
        case tls12XORNonce
        /// TLS 1.3: 12-byte IV XORed with the sequence number, inner content type.
        case tls13
    }

    /// A record's content once opened.
    package struct Opened: Sendable, Hashable {
        /// The real content type (TLS 1.3: the inner one).
        package var contentType: UInt8
        package var plaintext: [UInt8]
    }

    /// Why a record did not open.
    package enum Failure: Error, Sendable, Hashable {
        /// Shorter than its explicit nonce and tag.
        case tooShort
        /// The tag does not verify.
        case badTag
        /// TLS 1.3: the inner plaintext is all zeros (no content type).
        case noInnerType
    }

    package let aead: TLSAEAD
    package let mode: Mode
    /// What opens records: the key's BoringSSL context where it is linked in, else swift-crypto.
    /// One reference, so that a copy of the cipher (a trial open, the state a record may replace)
    /// costs one retain.
    private let engine: Engine
    /// The IV (RFC 5288's 4-byte salt, or the 12-byte IV) as big-endian integers: the first four
    /// bytes, and the last eight (zero for the salt).
    private let ivHead: UInt32
    private let ivTail: UInt64
    /// Sequence number of the next record (RFC 8446 §5.3, RFC 5246 §6.1).
    package private(set) var sequence: UInt64 = 0

    private enum Engine {
        case boring(BoringAEAD)
        case swiftCrypto(SymmetricKey)
    }

    /// `iv`: 4 bytes for `.tls12ExplicitNonce`, 12 for the others. `boringSSL` false opens with
    /// swift-crypto's API even where BoringSSL's context is at hand (tests compare the two).
    package init?(aead: TLSAEAD, mode: Mode, key: [UInt8], iv: [UInt8], boringSSL: Bool = true) {
        guard key.count == aead.keyLength, iv.count == (mode == .tls12ExplicitNonce ? 4 : 12) else { return nil }
        guard mode != .tls12ExplicitNonce || aead != .chacha20Poly1305 else { return nil }
        self.aead = aead
        self.mode = mode
        let boring = boringSSL ? BoringAEAD(aead, key: key) : nil
        engine = boring.map { .boring($0) } ?? .swiftCrypto(SymmetricKey(data: key))
        ivHead = iv[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
        ivTail = iv.dropFirst(4).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Opens the next record of this direction. The sequence number advances whether or not it opens,
    /// so one damaged record does not lose the ones after it.
    package mutating func open(_ record: TLSRecord) -> Result<Opened, Failure> {
        let seq = sequence
        sequence &+= 1
        // RFC 5288 §3: TLS 1.2 GCM's nonce is the 4-byte salt and the record's 8-byte explicit nonce;
        // the others XOR the 12-byte IV with the sequence number (RFC 7905 §2, RFC 8446 §5.3).
        let explicit = mode == .tls12ExplicitNonce ? 8 : 0
        let fragment = record.fragment
        guard fragment.count >= explicit + 16 else { return .failure(.tooShort) }
        let opened = fragment.withUnsafeBufferPointer { fragment in
            // nonce (12 bytes) and additional data (13 or 5) on the stack: no allocation per record
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 25) { scratch in
                let nonce = UnsafeMutableBufferPointer(rebasing: scratch[0..<12])
                store(ivHead, at: nonce.baseAddress!)
                if explicit > 0 {
                    for index in 0..<8 { nonce[4 + index] = fragment[index] }
                } else {
                    store(ivTail ^ seq, at: nonce.baseAddress! + 4)
                }
                let sealed = UnsafeBufferPointer(rebasing: fragment[explicit...])
                let aad: UnsafeMutableBufferPointer<UInt8>
                if mode == .tls13 {
                    // RFC 8446 §5.2: the record header
                    aad = UnsafeMutableBufferPointer(rebasing: scratch[12..<17])
                    header(record.contentType, record.version, length: fragment.count, at: aad.baseAddress!)
                } else {
                    // RFC 5246 §6.2.3.3: seq_num + type + version + length of the plaintext
                    aad = UnsafeMutableBufferPointer(rebasing: scratch[12..<25])
                    store(seq, at: aad.baseAddress!)
                    header(record.contentType, record.version, length: sealed.count - 16, at: aad.baseAddress! + 8)
                }
                return open(nonce: UnsafeBufferPointer(nonce), sealed: sealed, aad: UnsafeBufferPointer(aad))
            }
        }
        guard var plaintext = opened else { return .failure(.badTag) }
        guard mode == .tls13 else { return .success(Opened(contentType: record.contentType, plaintext: plaintext)) }
        // RFC 8446 §5.4: strip the zero padding; the last non-zero byte is the real content type
        guard let last = plaintext.lastIndex(where: { $0 != 0 }) else { return .failure(.noInnerType) }
        let type = plaintext[last]
        plaintext.removeSubrange(last...)
        return .success(Opened(contentType: type, plaintext: plaintext))
    }

    private func open(
        nonce: UnsafeBufferPointer<UInt8>, sealed: UnsafeBufferPointer<UInt8>, aad: UnsafeBufferPointer<UInt8>
    ) -> [UInt8]? {
        switch engine {
        case .boring(let context): context.open(nonce: nonce, sealed: sealed, aad: aad)
        case .swiftCrypto(let key): Self.open(aead, key: key, combined: Array(nonce) + Array(sealed), aad: Array(aad))
        }
    }

    /// swift-crypto's open of nonce ‖ ciphertext ‖ tag, where BoringSSL is not linked in.
    private static func open(_ aead: TLSAEAD, key: SymmetricKey, combined: [UInt8], aad: [UInt8]) -> [UInt8]? {
        switch aead {
        case .aes128GCM, .aes256GCM:
            guard let box = try? AES.GCM.SealedBox(combined: combined),
                let plaintext = try? AES.GCM.open(box, using: key, authenticating: aad)
            else { return nil }
            return Array(plaintext)
        case .chacha20Poly1305:
            guard let box = try? ChaChaPoly.SealedBox(combined: combined),
                let plaintext = try? ChaChaPoly.open(box, using: key, authenticating: aad)
            else { return nil }
            return Array(plaintext)
        }
    }
}

/// Writes `value` big-endian at `at`.
private func store<Value: FixedWidthInteger>(_ value: Value, at: UnsafeMutablePointer<UInt8>) {
    let size = Value.bitWidth / 8
    for index in 0..<size { at[index] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - index))) }
}

/// Writes a record header (type, version, length) at `at`.
private func header(_ type: UInt8, _ version: UInt16, length: Int, at: UnsafeMutablePointer<UInt8>) {
    at[0] = type
    store(version, at: at + 1)
    store(UInt16(truncatingIfNeeded: length), at: at + 3)
}
