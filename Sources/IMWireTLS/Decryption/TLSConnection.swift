import IMWireCore

/// One TCP connection's TLS: its two ciphertext streams in, their application-data plaintext out,
/// with findings about the record layer and handshake and `facts` for the report.
///
/// Feed each direction's bytes as they come, in any chunking. A direction's records wait while they
/// need the other side's hello (a client record after its ClientHello needs the ServerHello's suite
/// and keys; a ServerHello needs the ClientHello's random), so feeding all of one direction first
/// gives the same result as capture order. Secrets are looked up in `keys` at the ServerHello.
/// Not thread-safe.
public final class TLSConnection {
    /// Bytes a direction may hold back waiting for the other one before it is read anyway.
    package static let maxQueuedBytes = 1 << 20
    /// Largest TLSPlaintext fragment (RFC 8446 §5.1).
    package static let maxPlaintext = 1 << 14
    /// Largest TLSCiphertext fragment (RFC 8446 §5.2).
    package static let maxCiphertext = (1 << 14) + 256

    /// Where the secrets are looked up, at each ServerHello.
    package let keys: TLSKeyStore
    /// What the handshake told so far.
    public internal(set) var facts = TLSFacts()

    var client = Side(direction: .send)
    var server = Side(direction: .receive)
    let maxHandshakeMessage: Int
    /// The real ServerHello of the first handshake was read: no more waiting between directions.
    var established = false
    var noKeyReported = false
    var finished = false
    var hash: TLSHash = .sha256
    var secrets: TLSSecrets?
    /// The random of the latest ClientHello (a renegotiation's, after one); `facts` keeps the first.
    var clientRandom: [UInt8]?
    /// The latest ClientHello offered 0-RTT data.
    var offeredEarlyData = false
    /// A renegotiation's ServerHello whose ClientHello was not read yet.
    var deferredHello: (hello: TLSServerHello, offset: Int)?
    var events: [TLSEvent] = []

    public init(keys: TLSKeyStore, limits: Limits = .default) {
        self.keys = keys
        self.maxHandshakeMessage = max(1 << 16, min(limits.maxMessageSize, 1 << 24))
    }

    /// Byte accounting of one direction.
    public func counts(_ direction: Direction) -> TLSByteCounts {
        direction == .send ? client.counts : server.counts
    }

    /// Whether these first client bytes start a TLS handshake record holding a ClientHello
    /// (`16 03 0x len len 01`). Needs at least 6 bytes.
    public static func looksLikeTLS(_ firstClientBytes: [UInt8]) -> Bool {
        guard firstClientBytes.count >= 6 else { return false }
        let length = Int(firstClientBytes[3]) << 8 | Int(firstClientBytes[4])
        return firstClientBytes[0] == 22 && firstClientBytes[1] == 3 && firstClientBytes[2] <= 4
            && length >= 4 && length <= maxPlaintext && firstClientBytes[5] == 1
    }

    /// Whether these bytes start with a plausible TLS record header of any content type (`14`–`18`,
    /// `03 00`–`03 04`, a length up to 2^14 + 2048): a capture that begins after the handshake, whose
    /// first client bytes are application data, still looks like TLS this way (it cannot be decrypted:
    /// nothing names its client random). Needs at least 5 bytes.
    package static func looksLikeTLSRecord(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 5 else { return false }
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        return (20...24).contains(bytes[0]) && bytes[1] == 3 && bytes[2] <= 4 && length <= (1 << 14) + 2048
    }

    /// Reads the next bytes of one direction; returns what they completed.
    public func feed(_ bytes: [UInt8], direction: Direction) -> [TLSEvent] {
        guard !finished else { return [] }
        withSide(direction) { side in
            side.counts.received += bytes.count
            side.counts.buffered += bytes.count
            side.reader.append(bytes)
        }
        // Nothing waits on either side (the common case once the handshake is read): records go
        // straight from the reader to `process` while this direction may go on, the rest through
        // the queue that holds a direction back until the other one's hello.
        if client.queueHead == client.queue.count, server.queueHead == server.queue.count {
            while !blocked(direction), let record = withSide(direction, { $0.reader.nextRecord() }) {
                process(record, direction)
            }
        }
        frame(direction)
        pump(force: false)
        return takeEvents()
    }

    /// `direction`'s stream ended (its TCP FIN): a fatal alert the peer sends after it answers
    /// that end, unless it came with close_notify.
    public func endOfStream(_ direction: Direction) -> [TLSEvent] {
        guard !finished else { return [] }
        pump(force: false)
        withSide(direction) { $0.streamEnded = true }
        return takeEvents()
    }

    /// The end of both streams: reads what still waits, reports truncated records.
    public func finish() -> [TLSEvent] {
        guard !finished else { return [] }
        pump(force: false)
        pump(force: true)
        for direction in [Direction.send, .receive] {
            withSide(direction) { side in
                let offset = side.reader.streamOffset
                let count = side.reader.discardBuffered()
                if count > 0 {
                    side.counts.buffered -= count
                    side.skip(count, .truncated)
                    if !side.reader.framingLost {
                        side.report(TLSRules.truncated, "stream ends inside a record (\(count) bytes)", at: offset)
                    }
                }
                if !side.handshake.isEmpty, side.dead == nil {
                    side.report(
                        TLSRules.truncated,
                        "stream ends inside a handshake message (\(side.handshake.count) bytes)",
                        at: side.handshakeOffset)
                }
            }
        }
        collectSideEvents()
        finished = true
        return takeEvents()
    }

    // MARK: framing and scheduling

    func withSide<R>(_ direction: Direction, _ body: (inout Side) -> R) -> R {
        direction == .send ? body(&client) : body(&server)
    }

    /// Moves whole records from the reader into the side's queue.
    func frame(_ direction: Direction) {
        withSide(direction) { side in
            while true {
                switch side.reader.next() {
                case .needMore:
                    return
                case .record(let record):
                    side.queue.append(.record(record))
                    side.queuedBytes += record.length
                case .framingLost(let offset, let header):
                    // judged in turn, after the records queued before it
                    let count = side.reader.discardBuffered()
                    side.queue.append(.framingLost(offset: offset, header: header, count: count))
                    side.queuedBytes += count
                    return
                }
            }
        }
    }

    /// Whether a direction must wait for the other one's hello before reading its next record.
    func blocked(_ direction: Direction) -> Bool {
        guard client.dead == nil, server.dead == nil else { return false }
        if !established {
            if direction == .send { return client.helloCount > server.helloCount }
            return server.helloCount >= client.helloCount
        }
        // TLS 1.2 renegotiation: a ClientHello waits for its ServerHello (the keys of the client's next
        // ChangeCipherSpec), a ServerHello read first waits for its ClientHello (the random)
        guard facts.version == .tls12 else { return false }
        if direction == .send { return client.helloCount > server.helloCount }
        return server.helloCount > client.helloCount
    }

    func pump(force: Bool) {
        var progressed = true
        while progressed {
            progressed = false
            for direction in [Direction.send, .receive] {
                while true {
                    // no copy of the Side here: it would make its arrays' next append copy them whole
                    let (waiting, queuedBytes) = withSide(direction) { ($0.queueHead < $0.queue.count, $0.queuedBytes) }
                    guard waiting else { break }
                    if !force, blocked(direction), queuedBytes <= Self.maxQueuedBytes { break }
                    switch withSide(direction, { $0.dequeue() }) {
                    case .record(let record): process(record, direction)
                    case .framingLost(let offset, let header, let count): lost(offset, header, count, direction)
                    }
                    progressed = true
                }
            }
        }
        collectSideEvents()
    }

    func collectSideEvents() {
        // moved, not copied one by one, when only one side has events (a feed reads one direction)
        if events.isEmpty, server.events.isEmpty {
            swap(&events, &client.events)
        } else if events.isEmpty, client.events.isEmpty {
            swap(&events, &server.events)
        } else {
            events += client.events
            events += server.events
            client.events.removeAll()
            server.events.removeAll()
        }
    }

    func takeEvents() -> [TLSEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: records

    func lost(_ offset: Int, _ header: [UInt8], _ count: Int, _ direction: Direction) {
        withSide(direction) { side in
            side.counts.buffered -= count
            if offset == 0 {
                side.report(TLSRules.notTLS, "the stream does not start with a TLS record", at: 0)
            } else if side.dead == nil {
                let version = header.count >= 3 ? "\(header[1]).\(header[2])" : "?"
                side.report(
                    TLSRules.recordVersion, "record header with version \(version): framing lost, the rest is skipped",
                    at: offset)
            }
            side.die(.notTLS)
            side.skip(count, side.dead ?? .notTLS)
        }
    }

    func process(_ record: TLSRecord, _ direction: Direction) {
        // one access to the side for what every record reads (each access is checked at run time)
        var (first, dead, protection) = withSide(direction) { side in
            side.counts.buffered -= record.length
            side.recordIndex += 1
            return (side.recordIndex == 1, side.dead, side.protection)
        }
        if let dead {
            withSide(direction) { $0.skip(record.length, dead) }
            return
        }
        if first, record.contentType != TLSContentType.handshake.rawValue,
            record.contentType != TLSContentType.alert.rawValue
        {
            withSide(direction) { side in
                let after =
                    record.contentType == 23 ? " (application data: the capture starts after the handshake?)" : ""
                side.report(
                    TLSRules.notTLS, "the stream starts with a record of type \(record.contentType)\(after)", at: 0)
                side.die(.notTLS)
                side.skip(record.length, .notTLS)
            }
            return
        }
        if direction == .send, !established, client.helloCount > server.helloCount, case .clear = client.protection {
            // read before its ServerHello (the server is not TLS, or sent nothing yet at the queue bound)
            client.protection = .undecryptable(.noServerHello)
            protection = client.protection
        }
        guard let type = TLSContentType(rawValue: record.contentType) else {
            withSide(direction) { side in
                side.report(
                    TLSRules.unknownContentType, "record of content type \(record.contentType)", at: record.offset)
                side.skip(record.length, .unknownContentType(record.contentType))
            }
            return
        }
        let isTLS13 = facts.version == .tls13
        switch protection {
        case .clear:
            checkLength(record, direction, limit: Self.maxPlaintext, what: "plaintext")
            withSide(direction) { $0.counts.clear += record.length }
            processContent(type, record.fragment, record: record, direction, decrypted: false)
        case .cipher(var cipher):
            if isTLS13, type != .applicationData {
                processUnprotectedIn13(type, record, direction)
                return
            }
            checkLength(record, direction, limit: Self.maxCiphertext, what: "ciphertext")
            if direction == .send, client.earlyPhase, openEarly(record, handshakeCipher: cipher) { return }
            let result = cipher.open(record)
            // a KeyUpdate or Finished inside this record replaces the protection: store the advanced
            // sequence number first
            withSide(direction) { side in
                side.protection = .cipher(cipher)
                if case .success = result {
                    side.counts.decrypted += record.length
                    side.failuresInARow = 0
                }
            }
            switch result {
            case .failure(let failure):
                decryptFailed(record, direction, failure)
            case .success(let opened):
                if case .pending = facts.decryption { facts.decryption = .decrypted }
                if opened.plaintext.count > Self.maxPlaintext {
                    withSide(direction) {
                        $0.report(
                            TLSRules.recordOverflow,
                            "record of \(opened.plaintext.count) plaintext bytes (at most 2^14)", at: record.offset)
                    }
                }
                guard let innerType = TLSContentType(rawValue: opened.contentType) else {
                    withSide(direction) {
                        $0.report(
                            TLSRules.unknownContentType, "encrypted record of inner content type \(opened.contentType)",
                            at: record.offset)
                    }
                    return
                }
                processContent(innerType, opened.plaintext, record: record, direction, decrypted: true)
            }
        case .undecryptable(let reason):
            if isTLS13, type != .applicationData {
                processUnprotectedIn13(type, record, direction)
                return
            }
            // secrets logged but unusable (of another length than the suite's hash): said once,
            // as a missing key is, so that no connection is skipped without a word
            if case .missingSecret = reason, !noKeyReported {
                noKeyReported = true
                facts.decryption = .notDecrypted(reason)
                withSide(direction) { $0.report(TLSRules.noKey, "TLS, cannot decrypt: \(reason)", at: record.offset) }
            }
            checkLength(record, direction, limit: Self.maxCiphertext, what: "ciphertext")
            withSide(direction) { $0.skip(record.length, reason) }
        }
    }

    /// TLS 1.3 after the keys changed: only application_data records are protected; a
    /// ChangeCipherSpec is the middlebox-compatibility one (RFC 8446 §5, §D.4), an alert may come in clear.
    func processUnprotectedIn13(_ type: TLSContentType, _ record: TLSRecord, _ direction: Direction) {
        checkLength(record, direction, limit: Self.maxPlaintext, what: "plaintext")
        switch type {
        case .changeCipherSpec, .alert:
            withSide(direction) { $0.counts.clear += record.length }
            processContent(type, record.fragment, record: record, direction, decrypted: false)
        default:
            withSide(direction) { side in
                side.report(
                    TLSRules.handshakeMalformed,
                    "TLS 1.3 record of type \(type.rawValue) in clear after the keys changed", at: record.offset)
                side.skip(record.length, .handshakeMalformed("record in clear after the keys changed"))
            }
        }
    }

    /// TLS 1.3 0-RTT (RFC 8446 §2.3, §4.2.10): after a ClientHello offering early_data, the client's
    /// records are under the early traffic key until EndOfEarlyData, or until one opens under the handshake
    /// key (the server rejected 0-RTT and the client had sent none, or stopped). Returns whether the record
    /// was consumed here.
    func openEarly(_ record: TLSRecord, handshakeCipher: TLSRecordCipher) -> Bool {
        var failedEarly: TLSRecordCipher?
        if var early = client.earlyCipher {
            guard case .success(let opened) = early.open(record) else {
                failedEarly = early  // its sequence number advanced: kept if the record was early data
                return finishEarly(record, handshakeCipher: handshakeCipher, failedEarly: failedEarly)
            }
            client.earlyCipher = early
            client.counts.decrypted += record.length
            if case .pending = facts.decryption { facts.decryption = .decrypted }
            if opened.contentType == TLSContentType.applicationData.rawValue {
                deliver(opened.plaintext, record: record, .send)
            } else if opened.contentType == TLSContentType.handshake.rawValue {
                processContent(.handshake, opened.plaintext, record: record, .send, decrypted: true)
            }
            return true
        }
        return finishEarly(record, handshakeCipher: handshakeCipher, failedEarly: failedEarly)
    }

    /// A record that did not open under the early key (or there is none): the handshake key's, a damaged
    /// early record, or early data whose secret is not logged.
    func finishEarly(_ record: TLSRecord, handshakeCipher: TLSRecordCipher, failedEarly: TLSRecordCipher?)
        -> Bool
    {
        var trial = handshakeCipher
        if case .success = trial.open(record) {
            client.earlyPhase = false  // the handshake key from here on: the caller opens it again
            return false
        }
        if let failedEarly {
            client.earlyCipher = failedEarly
            decryptFailed(record, .send, .badTag)
            return true
        }
        // early data without its secret: skipped, not a failure of the handshake key
        let reason = TLSNotDecryptedReason.missingSecret(
            label: "CLIENT_EARLY_TRAFFIC_SECRET", clientRandom: clientRandom ?? [])
        if !client.earlyReported {
            client.earlyReported = true
            client.report(TLSRules.noKey, "TLS, cannot decrypt 0-RTT data: \(reason)", at: record.offset)
        }
        client.skip(record.length, reason)
        return true
    }

    func deliver(_ content: [UInt8], record: TLSRecord, _ direction: Direction) {
        withSide(direction) { $0.deliver(content, record: record) }
    }

    func checkLength(_ record: TLSRecord, _ direction: Direction, limit: Int, what: String) {
        guard record.fragment.count > limit else { return }
        withSide(direction) {
            $0.report(
                TLSRules.recordOverflow, "record of \(record.fragment.count) \(what) bytes (at most \(limit))",
                at: record.offset)
        }
    }

    func decryptFailed(_ record: TLSRecord, _ direction: Direction, _ failure: TLSRecordCipher.Failure) {
        facts.failedRecords += 1
        let why: String
        switch failure {
        case .tooShort: why = "record too short for its nonce and tag"
        case .badTag: why = "authentication tag mismatch"
        case .noInnerType: why = "no inner content type (all zeros)"
        }
        let giveUp = withSide(direction) { side -> Bool in
            side.failuresInARow += 1
            side.report(
                TLSRules.decryptFailed,
                "record \(side.recordIndex - 1) (\(record.length) bytes) does not decrypt: \(why)", at: record.offset)
            side.skip(record.length, .decryptionFailed)
            // the first record failing means wrong keys; a later one alone is a damaged record
            let never = side.counts.decrypted == 0
            if never || side.failuresInARow >= 2 {
                side.die(.decryptionFailed)
                return true
            }
            return false
        }
        if giveUp { facts.decryption = .notDecrypted(.decryptionFailed) }
    }

    func processContent(
        _ type: TLSContentType, _ content: [UInt8], record: TLSRecord, _ direction: Direction, decrypted: Bool
    ) {
        switch type {
        case .handshake:
            withSide(direction) { side in
                if side.handshake.isEmpty { side.handshakeOffset = record.offset }
                side.handshake += content
            }
            readHandshakeMessages(direction, recordOffset: record.offset)
        case .changeCipherSpec:
            changeCipherSpec(record, direction, decrypted: decrypted)
        case .alert:
            readAlerts(content, record: record, direction)
        case .applicationData:
            if !decrypted {
                withSide(direction) { side in
                    side.counts.clear -= record.length
                    side.report(
                        TLSRules.dataBeforeHandshake, "application data in clear before the keys changed",
                        at: record.offset)
                    side.skip(record.length, .handshakeMalformed("application data in clear"))
                }
                return
            }
            withSide(direction) { side in
                if !side.finished {
                    side.report(
                        TLSRules.dataBeforeHandshake,
                        "application data before this side's Finished (\(content.count) bytes)", at: record.offset)
                }
                side.deliver(content, record: record)
            }
        case .heartbeat:
            break
        }
    }

    func changeCipherSpec(_ record: TLSRecord, _ direction: Direction, decrypted: Bool) {
        if facts.version == .tls13 {
            if decrypted {
                withSide(direction) {
                    $0.report(TLSRules.handshakeMalformed, "encrypted ChangeCipherSpec in TLS 1.3", at: record.offset)
                }
            }
            return  // RFC 8446 §5: the middlebox-compatibility CCS is ignored
        }
        if direction == .receive, !server.sawServerHelloDone, facts.version != nil, !facts.resumed {
            facts.resumed = true
        }
        withSide(direction) { side in
            guard let pending = side.pendingProtection else {
                side.report(
                    TLSRules.handshakeMalformed, "ChangeCipherSpec before the ServerHello set keys", at: record.offset)
                return
            }
            side.protection = pending
            side.pendingProtection = nil
            side.finished = false
        }
    }

    func readAlerts(_ content: [UInt8], record: TLSRecord, _ direction: Direction) {
        guard content.count % 2 == 0, !content.isEmpty else {
            withSide(direction) {
                $0.report(TLSRules.handshakeMalformed, "alert record of \(content.count) bytes", at: record.offset)
            }
            return
        }
        let from = direction == .send ? "client" : "server"
        for index in stride(from: 0, to: content.count - 1, by: 2) {
            let level = content[index]
            let code = content[index + 1]
            let name = TLSAlert.name(code)
            if code == 100, direction == .receive, client.helloCount > server.helloCount {
                // no_renegotiation answers the client's hello: its next records need no ServerHello
                server.helloCount = client.helloCount
            }
            if code == 0 {  // close_notify: a clean end
                withSide(direction) { $0.sentCloseNotify = true }
                continue
            }
            // RFC 8446 §6: in TLS 1.3 every alert but close_notify and user_canceled is fatal
            let fatal = level == 2 || (facts.version == .tls13 && code != 90)
            let peer = direction == .send ? server : client
            withSide(direction) { side in
                if fatal, peer.streamEnded, !peer.sentCloseNotify {
                    let other = direction == .send ? "server" : "client"
                    side.report(
                        TLSRules.alertAfterEndOfStream,
                        "fatal alert \(name) (\(code)) from the \(from) after the \(other) closed without close_notify",
                        at: record.offset)
                } else if fatal {
                    side.report(TLSRules.alert, "fatal alert \(name) (\(code)) from the \(from)", at: record.offset)
                } else {
                    side.report(
                        TLSRules.warningAlert, "warning alert \(name) (\(code)) from the \(from)", at: record.offset)
                }
            }
        }
    }
}
