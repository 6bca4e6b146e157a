import CBoringAEAD

/// One key's AEAD context in BoringSSL, kept for every record under that key (see
/// `boring_aead.h` for why). Nil where BoringSSL's symbols are not linked in; `TLSRecordCipher`
/// then opens records with swift-crypto's API, which gives the same results.
final class BoringAEAD {
    private let context: UnsafeMutableRawPointer

    init?(_ aead: TLSAEAD, key: [UInt8]) {
        let kind =
            switch aead {
            case .aes128GCM: imwire_aead_aes128gcm
            case .aes256GCM: imwire_aead_aes256gcm
            case .chacha20Poly1305: imwire_aead_chacha20poly1305
            }
        guard let made = key.withUnsafeBufferPointer({ imwire_aead_new(kind, $0.baseAddress, $0.count) }) else {
            return nil
        }
        context = made
    }

    deinit { imwire_aead_free(context) }

    /// The plaintext of `sealed` (ciphertext then 16-byte tag), or nil when the tag does not verify.
    func open(
        nonce: UnsafeBufferPointer<UInt8>, sealed: UnsafeBufferPointer<UInt8>, aad: UnsafeBufferPointer<UInt8>
    ) -> [UInt8]? {
        var opened = true
        // At least one byte, so that an empty plaintext still has an address to write to (a
        // `sealed` shorter than its tag is refused by imwire_aead_open).
        let plaintext = [UInt8](unsafeUninitializedCapacity: max(1, sealed.count - 16)) { buffer, count in
            let length = imwire_aead_open(
                context, buffer.baseAddress, nonce.baseAddress, nonce.count, sealed.baseAddress, sealed.count,
                aad.baseAddress, aad.count)
            opened = length >= 0
            count = opened ? length : 0
        }
        return opened ? plaintext : nil
    }
}
