import IMWireCore

/// Rules about the TLS layer of a connection: whether it could be decrypted, and what its record
/// layer and handshake did wrong. Offsets are in that direction's ciphertext stream (the TCP bytes).
package enum TLSRules {
    package static let noKey = Rule(
        "TLS.NO-KEY", .warning, layer: .tls,
        summary: "No key-log secrets for the connection's client random: nothing inside it is decoded, its "
            + "encrypted bytes are counted as skipped.",
        specRef: "Spec/tls.md#no-key (RFC 8446 §7.1, RFC 5246 §8.1; NSS key-log format)")
    package static let decryptFailed = Rule(
        "TLS.DECRYPT-FAILED", .error, layer: .tls,
        summary: "A record whose AEAD tag does not verify: a wrong key log or a damaged record.",
        specRef: "Spec/tls.md#decrypt-failed (RFC 8446 §5.2, RFC 5246 §6.2.3.3, RFC 5288 §3, RFC 7905 §2)")
    package static let alert = Rule(
        "TLS.ALERT", .error, layer: .tls,
        summary: "A fatal alert (named), which ends the connection.",
        specRef: "Spec/tls.md#alert (RFC 8446 §6, RFC 5246 §7.2)")
    package static let alertAfterEndOfStream = Rule(
        "TLS.ALERT-AFTER-EOF", .info, layer: .tls,
        summary:
            "A fatal alert answering the peer's close without close_notify (its TCP FIN): the connection was already "
            + "over; OpenSSL 3 sends decode_error for such an unexpected end.",
        specRef: "Spec/tls.md#alert (RFC 8446 §6.1, RFC 5246 §7.2.1)")
    package static let warningAlert = Rule(
        "TLS.ALERT-WARNING", .info, layer: .tls,
        summary: "A warning-level alert other than close_notify (e.g. user_canceled, no_renegotiation).",
        specRef: "Spec/tls.md#alert (RFC 8446 §6.1, RFC 5246 §7.2.2)")
    package static let unsupportedSuite = Rule(
        "TLS.UNSUPPORTED-SUITE", .warning, layer: .tls,
        summary: "A cipher suite IMWire does not decrypt (named); the connection's encrypted bytes are skipped.",
        specRef: "Spec/tls.md#unsupported-suite (RFC 8446 §B.4, RFC 5288, RFC 5289, RFC 7905)")
    package static let unsupportedVersion = Rule(
        "TLS.UNSUPPORTED-VERSION", .warning, layer: .tls,
        summary: "A negotiated version other than TLS 1.2 or 1.3 (SSL 3.0, TLS 1.0, 1.1); not decrypted.",
        specRef: "Spec/tls.md#unsupported-version (RFC 8996, RFC 8446 §4.2.1)")
    package static let recordOverflow = Rule(
        "TLS.RECORD-OVERFLOW", .error, layer: .tls,
        summary: "A record whose plaintext exceeds 2^14 bytes or whose ciphertext exceeds 2^14 + 256 bytes.",
        specRef: "Spec/tls.md#record-overflow (RFC 8446 §5.1, §5.2; RFC 5246 §6.2.1)")
    package static let unknownContentType = Rule(
        "TLS.UNKNOWN-CONTENT-TYPE", .error, layer: .tls,
        summary: "A record (or TLS 1.3 inner plaintext) of a content type that is not defined; skipped.",
        specRef: "Spec/tls.md#unknown-content-type (RFC 8446 §5, §5.4; RFC 5246 §6)")
    package static let recordVersion = Rule(
        "TLS.RECORD-VERSION", .error, layer: .tls,
        summary: "A record header whose version is not 3.x: the record framing is lost, the rest of that "
            + "direction is skipped.",
        specRef: "Spec/tls.md#record-version (RFC 8446 §5.1 legacy_record_version, RFC 5246 §6.2.1)")
    package static let dataBeforeHandshake = Rule(
        "TLS.DATA-BEFORE-HANDSHAKE", .error, layer: .tls,
        summary: "Application data sent before that side's Finished (in clear, or under handshake keys).",
        specRef: "Spec/tls.md#data-before-handshake (RFC 8446 §2, §4.4.4; RFC 5246 §7.4.9)")
    package static let renegotiation = Rule(
        "TLS.RENEGOTIATION", .warning, lenient: .info, layer: .tls,
        summary: "A second handshake on the connection (TLS 1.2 renegotiation; in TLS 1.3 a ClientHello after "
            + "the handshake, which is forbidden).",
        specRef: "Spec/tls.md#renegotiation (RFC 5246 §7.4.1, RFC 5746, RFC 8446 §4.1.2)")
    package static let notTLS = Rule(
        "TLS.NOT-TLS", .error, layer: .tls,
        summary: "A stream that does not start with a TLS record (handshake or alert, version 3.x); skipped.",
        specRef: "Spec/tls.md#not-tls (RFC 8446 §5.1, RFC 5246 §6.2.1)")
    package static let handshakeMalformed = Rule(
        "TLS.HANDSHAKE-MALFORMED", .error, layer: .tls,
        summary: "A handshake message that cannot be parsed, comes out of order, or is too long; what depends "
            + "on it is not decrypted.",
        specRef: "Spec/tls.md#handshake-malformed (RFC 8446 §4, RFC 5246 §7.4)")
    package static let truncated = Rule(
        "TLS.TRUNCATED", .info, layer: .tls,
        summary: "The stream ends inside a record or handshake message; those bytes are counted as skipped.",
        specRef: "Spec/tls.md#truncated (RFC 8446 §5.1)")

    package static let keyLogMalformed = Rule(
        "TLS.KEYLOG-MALFORMED", .error, layer: .tls,
        summary:
            "A capture's Decryption Secrets Block whose key log does not parse: the secrets before the bad line are "
            + "used, the rest are not.",
        specRef: "Spec/tls.md#secrets (NSS key-log format; pcapng Decryption Secrets Block)")

    package static let all: [Rule] = [
        noKey, decryptFailed, alert, alertAfterEndOfStream, warningAlert, unsupportedSuite, unsupportedVersion,
        recordOverflow,
        unknownContentType, recordVersion, dataBeforeHandshake, renegotiation, notTLS, handshakeMalformed, truncated,
        keyLogMalformed,
    ]
}
