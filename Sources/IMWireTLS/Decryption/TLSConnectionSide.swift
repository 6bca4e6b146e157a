import IMWireCore

/// What a direction's reader produced, waiting its turn.
enum QueueItem {
    case record(TLSRecord)
    /// Bytes after a header that was not TLS (`count` of them, already taken off the reader).
    case framingLost(offset: Int, header: [UInt8], count: Int)
}

/// How a direction's next record is protected.
enum Protection {
    case clear
    case cipher(TLSRecordCipher)
    case undecryptable(TLSNotDecryptedReason)
}

/// The state of one direction.
struct Side {
    let direction: Direction
    var reader = TLSRecordReader()
    var queue: [QueueItem] = []
    var queueHead = 0
    var queuedBytes = 0
    var counts = TLSByteCounts()
    var recordIndex = 0
    var protection: Protection = .clear
    /// TLS 1.2: the protection the next ChangeCipherSpec turns on.
    var pendingProtection: Protection?
    /// Handshake bytes not yet a whole message, and the record offset where they started.
    var handshake: [UInt8] = []
    var handshakeOffset = 0
    var finished = false
    var sawServerHelloDone = false
    /// TLS 1.3: the current application traffic secret (for KeyUpdate).
    var trafficSecret: [UInt8]?
    var failuresInARow = 0
    /// Client, TLS 1.3: 0-RTT records may come (the ClientHello offered early_data), under this key if logged.
    var earlyPhase = false
    var earlyCipher: TLSRecordCipher?
    var earlyReported = false
    /// Once set, every later byte is skipped for this reason.
    var dead: TLSNotDecryptedReason?
    /// Completed ClientHellos (client) or ServerHellos and HelloRetryRequests (server).
    var helloCount = 0
    /// This side sent close_notify: its end is orderly.
    var sentCloseNotify = false
    /// This side's TCP direction ended (FIN): it sends nothing more.
    var streamEnded = false
    var events: [TLSEvent] = []

    init(direction: Direction) { self.direction = direction }

    mutating func dequeue() -> QueueItem {
        let item = queue[queueHead]
        queueHead += 1
        switch item {
        case .record(let record): queuedBytes -= record.length
        case .framingLost(_, _, let count): queuedBytes -= count
        }
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        return item
    }

    mutating func skip(_ count: Int, _ reason: TLSNotDecryptedReason) {
        counts.skipped += count
        if counts.skipReason == nil { counts.skipReason = reason }
    }

    mutating func die(_ reason: TLSNotDecryptedReason) {
        if dead == nil { dead = reason }
    }

    mutating func report(_ rule: Rule, _ message: String, at offset: Int) {
        var finding = rule.finding(message, at: offset)
        finding.location.direction = direction
        events.append(.finding(finding))
    }

    /// Application data `record` carried, with where it sat.
    mutating func deliver(_ content: [UInt8], record: TLSRecord) {
        guard !content.isEmpty else { return }
        let position = TLSRecordPosition(
            offset: record.offset, length: record.length, index: recordIndex - 1, plaintextOffset: counts.plaintext)
        counts.plaintext += content.count
        events.append(.plaintext(direction, content, record: position))
    }
}

/// Alert names (RFC 8446 §6, RFC 5246 §7.2).
enum TLSAlert {
    static func name(_ code: UInt8) -> String {
        switch code {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 21: "decryption_failed"
        case 22: "record_overflow"
        case 30: "decompression_failure"
        case 40: "handshake_failure"
        case 41: "no_certificate"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 60: "export_restriction"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 100: "no_renegotiation"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 111: "certificate_unobtainable"
        case 112: "unrecognized_name"
        case 113: "bad_certificate_status_response"
        case 114: "bad_certificate_hash_value"
        case 115: "unknown_psk_identity"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: "alert_\(code)"
        }
    }
}
