import Crypto

/// The hash a cipher suite's PRF (TLS 1.2) or HKDF (TLS 1.3) is built on.
package enum TLSHash: Sendable, Hashable {
    case sha256
    case sha384

    /// Output length in bytes.
    package var length: Int { self == .sha256 ? 32 : 48 }
}

/// The key derivations IMWire needs to decrypt: TLS 1.2's PRF (RFC 5246 §5) and key block (§6.3),
/// TLS 1.3's HKDF-Expand-Label and traffic keys (RFC 8446 §7.1, §7.3). Pure functions.
package enum TLSKeySchedule {
    /// HMAC of `data` under `key` with `hash`.
    package static func hmac(_ hash: TLSHash, key: [UInt8], data: [UInt8]) -> [UInt8] {
        let symmetric = SymmetricKey(data: key)
        switch hash {
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: symmetric))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: symmetric))
        }
    }

    /// RFC 5246 §5: PRF(secret, label, seed) = P_hash(secret, label + seed), `length` bytes.
    package static func prf(_ hash: TLSHash, secret: [UInt8], label: String, seed: [UInt8], length: Int) -> [UInt8] {
        let labelSeed = Array(label.utf8) + seed
        var output: [UInt8] = []
        output.reserveCapacity(max(0, length))
        var a = labelSeed  // A(0)
        while output.count < length {
            a = hmac(hash, key: secret, data: a)
            output += hmac(hash, key: secret, data: a + labelSeed)
        }
        return Array(output.prefix(max(0, length)))
    }

    /// RFC 5246 §6.3: the key block, from the master secret and both randoms.
    package static func keyBlock(
        _ hash: TLSHash, masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8], length: Int
    ) -> [UInt8] {
        prf(hash, secret: masterSecret, label: "key expansion", seed: serverRandom + clientRandom, length: length)
    }

    /// RFC 8446 §7.1: HKDF-Expand(secret, HkdfLabel("tls13 " + label, context), length).
    /// `label` without the "tls13 " prefix; returns nil if label or context is too long for the encoding.
    package static func expandLabel(
        _ hash: TLSHash, secret: [UInt8], label: String, context: [UInt8] = [], length: Int
    ) -> [UInt8]? {
        let fullLabel = Array("tls13 ".utf8) + Array(label.utf8)
        guard fullLabel.count <= 255, context.count <= 255, length >= 0, length <= 255 * hash.length else {
            return nil
        }
        var info: [UInt8] = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        info.append(UInt8(fullLabel.count))
        info += fullLabel
        info.append(UInt8(context.count))
        info += context
        let prk = SymmetricKey(data: secret)
        let key: SymmetricKey
        switch hash {
        case .sha256: key = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: length)
        case .sha384: key = HKDF<SHA384>.expand(pseudoRandomKey: prk, info: info, outputByteCount: length)
        }
        return key.withUnsafeBytes { Array($0) }
    }

    /// RFC 8446 §7.3: write key and IV from a traffic secret.
    package static func trafficKeys(_ hash: TLSHash, secret: [UInt8], keyLength: Int) -> (key: [UInt8], iv: [UInt8])? {
        guard let key = expandLabel(hash, secret: secret, label: "key", length: keyLength),
            let iv = expandLabel(hash, secret: secret, label: "iv", length: 12)
        else { return nil }
        return (key, iv)
    }

    /// RFC 8446 §7.2: application_traffic_secret_N+1 from _N (KeyUpdate).
    package static func nextTrafficSecret(_ hash: TLSHash, secret: [UInt8]) -> [UInt8]? {
        expandLabel(hash, secret: secret, label: "traffic upd", length: hash.length)
    }
}
