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
    private let key: SymmetricKey
    /// The same key's context in BoringSSL, when it is linked in: what opens records.
    private let boring: BoringAEAD?
    private let iv: [UInt8]
    /// Sequence number of the next record (RFC 8446 §5.3, RFC 5246 §6.1).
    package private(set) var sequence: UInt64 = 0

    /// `iv`: 4 bytes for `.tls12ExplicitNonce`, 12 for the others. `boringSSL` false opens with
    /// swift-crypto's API even where BoringSSL's context is at hand (tests compare the two).
    package init?(aead: TLSAEAD, mode: Mode, key: [UInt8], iv: [UInt8], boringSSL: Bool = true) {
        guard key.count == aead.keyLength, iv.count == (mode == .tls12ExplicitNonce ? 4 : 12) else { return nil }
        guard mode != .tls12ExplicitNonce || aead != .chacha20Poly1305 else { return nil }
        self.aead = aead
        self.mode = mode
        self.key = SymmetricKey(data: key)
        self.boring = boringSSL ? BoringAEAD(aead, key: key) : nil
        self.iv = iv
    }

    /// Opens the next record of this direction. The sequence number advances whether or not it opens,
    /// so one damaged record does not lose the ones after it.
    package mutating func open(_ record: TLSRecord) -> Result<Opened, Failure> {
        let seq = sequence
        sequence &+= 1
        let fragment = record.fragment
        // RFC 5288 §3: TLS 1.2 GCM's nonce is the 4-byte salt and the record's 8-byte explicit nonce;
        // the others XOR the 12-byte IV with the sequence number (RFC 7905 §2, RFC 8446 §5.3).
        let explicit = mode == .tls12ExplicitNonce ? 8 : 0
        guard fragment.count >= explicit + 16 else { return .failure(.tooShort) }
        var nonce = iv
        if explicit > 0 {
            nonce += fragment[0..<8]
        } else {
            for index in 0..<8 { nonce[4 + index] ^= UInt8(truncatingIfNeeded: seq >> UInt64(56 - 8 * index)) }
        }
        let ciphertextLength = fragment.count - explicit - 16
        let aad: [UInt8]
        if mode == .tls13 {
            aad = record.header
        } else {
            // RFC 5246 §6.2.3.3: seq_num + type + version + length of the plaintext
            var bytes = (0..<8).map { UInt8(truncatingIfNeeded: seq >> UInt64(56 - 8 * $0)) }
            let version = record.version
            bytes += [record.contentType, UInt8(truncatingIfNeeded: version >> 8), UInt8(truncatingIfNeeded: version)]
            bytes += [UInt8(truncatingIfNeeded: ciphertextLength >> 8), UInt8(truncatingIfNeeded: ciphertextLength)]
            aad = bytes
        }
        let opened: [UInt8]?
        if let boring {
            opened = nonce.withUnsafeBufferPointer { nonce in
                fragment.withUnsafeBufferPointer { fragment in
                    aad.withUnsafeBufferPointer { aad in
                        boring.open(nonce: nonce, sealed: UnsafeBufferPointer(rebasing: fragment[explicit...]), aad: aad)
                    }
                }
            }
        } else {
            opened = Self.open(aead, key: key, combined: nonce + fragment[explicit...], aad: aad)
        }
        guard var plaintext = opened else { return .failure(.badTag) }
        guard mode == .tls13 else { return .success(Opened(contentType: record.contentType, plaintext: plaintext)) }
        // RFC 8446 §5.4: strip the zero padding; the last non-zero byte is the real content type
        guard let last = plaintext.lastIndex(where: { $0 != 0 }) else { return .failure(.noInnerType) }
        let type = plaintext[last]
        plaintext.removeSubrange(last...)
        return .success(Opened(contentType: type, plaintext: plaintext))
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
