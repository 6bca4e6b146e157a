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
    public static let maxQueuedBytes = 1 << 20
    /// Largest TLSPlaintext fragment (RFC 8446 §5.1).
    public static let maxPlaintext = 1 << 14
    /// Largest TLSCiphertext fragment (RFC 8446 §5.2).
    public static let maxCiphertext = (1 << 14) + 256

    /// Where the secrets are looked up, at each ServerHello.
    public let keys: TLSKeyStore
    /// What the handshake told so far.
    public private(set) var facts = TLSFacts()

    private var client = Side(direction: .send)
    private var server = Side(direction: .receive)
    private let maxHandshakeMessage: Int
    /// The real ServerHello of the first handshake was read: no more waiting between directions.
    private var established = false
    private var noKeyReported = false
    private var finished = false
    private var hash: TLSHash = .sha256
    private var secrets: TLSSecrets?
    /// The random of the latest ClientHello (a renegotiation's, after one); `facts` keeps the first.
    private var clientRandom: [UInt8]?
    /// The latest ClientHello offered 0-RTT data.
    private var offeredEarlyData = false
    /// A renegotiation's ServerHello whose ClientHello was not read yet.
    private var deferredHello: (hello: TLSServerHello, offset: Int)?
    private var events: [TLSEvent] = []

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
    public static func looksLikeTLSRecord(_ bytes: [UInt8]) -> Bool {
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
        frame(direction)
        pump(force: false)
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

    private func withSide<R>(_ direction: Direction, _ body: (inout Side) -> R) -> R {
        direction == .send ? body(&client) : body(&server)
    }

    /// Moves whole records from the reader into the side's queue.
    private func frame(_ direction: Direction) {
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
    private func blocked(_ direction: Direction) -> Bool {
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

    private func pump(force: Bool) {
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

    private func collectSideEvents() {
        events += client.events
        events += server.events
        client.events.removeAll()
        server.events.removeAll()
    }

    private func takeEvents() -> [TLSEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: records

    private func lost(_ offset: Int, _ header: [UInt8], _ count: Int, _ direction: Direction) {
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

    private func process(_ record: TLSRecord, _ direction: Direction) {
        let first = withSide(direction) { side -> Bool in
            side.counts.buffered -= record.length
            side.recordIndex += 1
            return side.recordIndex == 1
        }
        let dead = withSide(direction) { $0.dead }
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
        }
        guard let type = TLSContentType(rawValue: record.contentType) else {
            withSide(direction) { side in
                side.report(
                    TLSRules.unknownContentType, "record of content type \(record.contentType)", at: record.offset)
                side.skip(record.length, .unknownContentType(record.contentType))
            }
            return
        }
        let protection = withSide(direction) { $0.protection }
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
            withSide(direction) { $0.protection = .cipher(cipher) }
            switch result {
            case .failure(let failure):
                decryptFailed(record, direction, failure)
            case .success(let opened):
                withSide(direction) { side in
                    side.counts.decrypted += record.length
                    side.failuresInARow = 0
                }
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
    private func processUnprotectedIn13(_ type: TLSContentType, _ record: TLSRecord, _ direction: Direction) {
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
    private func openEarly(_ record: TLSRecord, handshakeCipher: TLSRecordCipher) -> Bool {
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
    private func finishEarly(_ record: TLSRecord, handshakeCipher: TLSRecordCipher, failedEarly: TLSRecordCipher?)
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

    private func deliver(_ content: [UInt8], record: TLSRecord, _ direction: Direction) {
        guard !content.isEmpty else { return }
        withSide(direction) { side in
            let position = TLSRecordPosition(
                offset: record.offset, length: record.length, index: side.recordIndex - 1,
                plaintextOffset: side.counts.plaintext)
            side.counts.plaintext += content.count
            side.events.append(.plaintext(side.direction, content, record: position))
        }
    }

    private func checkLength(_ record: TLSRecord, _ direction: Direction, limit: Int, what: String) {
        guard record.fragment.count > limit else { return }
        withSide(direction) {
            $0.report(
                TLSRules.recordOverflow, "record of \(record.fragment.count) \(what) bytes (at most \(limit))",
                at: record.offset)
        }
    }

    private func decryptFailed(_ record: TLSRecord, _ direction: Direction, _ failure: TLSRecordCipher.Failure) {
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

    private func processContent(
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
            }
            deliver(content, record: record, direction)
        case .heartbeat:
            break
        }
    }

    private func changeCipherSpec(_ record: TLSRecord, _ direction: Direction, decrypted: Bool) {
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

    private func readAlerts(_ content: [UInt8], record: TLSRecord, _ direction: Direction) {
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
            if code == 0 { continue }  // close_notify: a clean end
            // RFC 8446 §6: in TLS 1.3 every alert but close_notify and user_canceled is fatal
            let fatal = level == 2 || (facts.version == .tls13 && code != 90)
            withSide(direction) { side in
                if fatal {
                    side.report(TLSRules.alert, "fatal alert \(name) (\(code)) from the \(from)", at: record.offset)
                } else {
                    side.report(
                        TLSRules.warningAlert, "warning alert \(name) (\(code)) from the \(from)", at: record.offset)
                }
            }
        }
    }

    // MARK: handshake

    private func readHandshakeMessages(_ direction: Direction, recordOffset: Int) {
        while true {
            let message = withSide(direction) { side -> (type: UInt8, body: [UInt8], offset: Int)? in
                guard side.handshake.count >= 4 else { return nil }
                let length = Int(side.handshake[1]) << 16 | Int(side.handshake[2]) << 8 | Int(side.handshake[3])
                if length > maxHandshakeMessage {
                    side.report(
                        TLSRules.handshakeMalformed,
                        "handshake message of \(length) bytes (at most \(maxHandshakeMessage))",
                        at: side.handshakeOffset)
                    side.handshake.removeAll()
                    side.die(.handshakeMalformed("handshake message too long"))
                    return nil
                }
                guard side.handshake.count >= 4 + length else { return nil }
                let type = side.handshake[0]
                let body = Array(side.handshake[4..<(4 + length)])
                side.handshake.removeSubrange(0..<(4 + length))
                let offset = side.handshakeOffset
                // what is left started in the record being read
                side.handshakeOffset = recordOffset
                return (type, body, offset)
            }
            guard let message else { return }
            if direction == .send {
                clientMessage(message.type, message.body, offset: message.offset)
            } else {
                serverMessage(message.type, message.body, offset: message.offset)
            }
            // dead side (e.g. a malformed hello): stop reading its handshake
            if withSide(direction, { $0.dead }) != nil { return }
        }
    }

    private func clientMessage(_ type: UInt8, _ body: [UInt8], offset: Int) {
        switch type {
        case 1:  // ClientHello
            if established, client.finished || server.finished {
                if facts.version == .tls13 {
                    client.report(TLSRules.renegotiation, "ClientHello after the TLS 1.3 handshake", at: offset)
                } else {
                    client.report(TLSRules.renegotiation, "ClientHello after the handshake: renegotiation", at: offset)
                }
            }
            client.helloCount += 1
            do {
                let hello = try TLSClientHello(body: body)
                if facts.clientRandom == nil || !established {
                    facts.serverName = hello.serverName
                    facts.alpnOffered = hello.alpn
                    facts.offeredVersions = hello.supportedVersions
                    facts.offeredSuites = hello.cipherSuites
                }
                if facts.clientRandom == nil { facts.clientRandom = hello.random }
                clientRandom = hello.random
                offeredEarlyData = hello.offersEarlyData
                if hello.offersEarlyData { facts.earlyDataOffered = true }
            } catch {
                client.report(TLSRules.handshakeMalformed, "ClientHello: \(error.reason)", at: offset)
            }
            if let deferred = deferredHello, client.helloCount >= server.helloCount {
                deferredHello = nil
                negotiate(deferred.hello, offset: deferred.offset)
            }
        case 5:  // EndOfEarlyData: the handshake key from the next record
            client.earlyPhase = false
        case 20:  // Finished
            client.finished = true
            client.earlyPhase = false
            if facts.version == .tls13 {
                client.protection = protection13(secrets?.clientTrafficSecret0, label: "CLIENT_TRAFFIC_SECRET_0")
                client.trafficSecret = secrets?.clientTrafficSecret0
            }
        case 24:  // KeyUpdate
            keyUpdate(.send, body: body, offset: offset)
        default:
            break  // Certificate, ClientKeyExchange, CertificateVerify: nothing to learn
        }
    }

    private func serverMessage(_ type: UInt8, _ body: [UInt8], offset: Int) {
        switch type {
        case 0:  // HelloRequest
            if established {
                server.report(TLSRules.renegotiation, "HelloRequest: the server asks for renegotiation", at: offset)
            }
        case 2:
            serverHello(body, offset: offset)
        case 8:  // EncryptedExtensions
            do {
                if let alpn = try encryptedExtensionsALPN(body: body) { facts.alpn = alpn }
            } catch {
                server.report(TLSRules.handshakeMalformed, "EncryptedExtensions: \(error.reason)", at: offset)
            }
        case 14:  // ServerHelloDone
            server.sawServerHelloDone = true
        case 20:  // Finished
            server.finished = true
            if facts.version == .tls13 {
                server.protection = protection13(secrets?.serverTrafficSecret0, label: "SERVER_TRAFFIC_SECRET_0")
                server.trafficSecret = secrets?.serverTrafficSecret0
            }
        case 24:
            keyUpdate(.receive, body: body, offset: offset)
        default:
            break  // Certificate, ServerKeyExchange, CertificateRequest, NewSessionTicket…
        }
    }

    private func serverHello(_ body: [UInt8], offset: Int) {
        let hello: TLSServerHello
        do {
            hello = try TLSServerHello(body: body)
        } catch {
            server.helloCount += 1
            server.report(TLSRules.handshakeMalformed, "ServerHello: \(error.reason)", at: offset)
            notDecrypted(.handshakeMalformed("ServerHello: \(error.reason)"))
            established = true
            return
        }
        server.helloCount += 1
        facts.version = hello.version
        facts.cipherSuite = hello.cipherSuite
        if hello.isHelloRetryRequest {
            if facts.helloRetryRequest {
                server.report(TLSRules.handshakeMalformed, "a second HelloRetryRequest", at: offset)
            }
            facts.helloRetryRequest = true
            return
        }
        if established, facts.version == .tls13 || hello.version == .tls13 {
            server.report(TLSRules.handshakeMalformed, "a second ServerHello in TLS 1.3", at: offset)
            return
        }
        if !established {
            facts.serverRandom = hello.random
            if hello.version == .tls13, hello.acceptsPreSharedKey { facts.resumed = true }
        }
        established = true
        if let alpn = hello.alpn { facts.alpn = alpn }
        server.sawServerHelloDone = false
        if server.helloCount > client.helloCount {
            // a renegotiation's ServerHello read before its ClientHello: keys once the random is known
            deferredHello = (hello, offset)
            return
        }
        negotiate(hello, offset: offset)
    }

    /// Checks the chosen version and suite and sets up the keys (for the next ChangeCipherSpec in 1.2,
    /// for the next record in 1.3).
    private func negotiate(_ hello: TLSServerHello, offset: Int) {
        guard hello.version == .tls12 || hello.version == .tls13 else {
            server.report(
                TLSRules.unsupportedVersion, "\(hello.version) with \(hello.cipherSuite.name): not decrypted",
                at: offset)
            notDecrypted(.unsupportedVersion(hello.version))
            return
        }
        guard let decryption = hello.cipherSuite.decryption, hello.cipherSuite.isTLS13 == (hello.version == .tls13)
        else {
            server.report(
                TLSRules.unsupportedSuite, "\(hello.cipherSuite.name) (\(hello.version)) is not decrypted", at: offset)
            notDecrypted(.unsupportedSuite(hello.cipherSuite))
            return
        }
        let aead = decryption.aead
        self.hash = decryption.hash
        guard let clientRandom else {
            server.report(TLSRules.handshakeMalformed, "ServerHello without a ClientHello", at: offset)
            notDecrypted(.handshakeMalformed("no ClientHello"))
            return
        }
        let found = keys.secrets(forClientRandom: clientRandom)
        secrets = found
        if hello.version == .tls13 {
            setUp13(aead, found, clientRandom: clientRandom, offset: offset)
        } else {
            setUp12(aead, found, clientRandom: clientRandom, serverRandom: hello.random, offset: offset)
        }
    }

    private func setUp12(
        _ aead: TLSAEAD, _ found: TLSSecrets?, clientRandom: [UInt8], serverRandom: [UInt8], offset: Int
    ) {
        guard let master = found?.masterSecret else {
            noKey(clientRandom, label: found == nil ? nil : "CLIENT_RANDOM", offset: offset)
            return
        }
        let ivLength = aead == .chacha20Poly1305 ? 12 : 4
        let keyLength = aead.keyLength
        let block = TLSKeySchedule.keyBlock(
            hash, masterSecret: master, clientRandom: clientRandom, serverRandom: serverRandom,
            length: 2 * keyLength + 2 * ivLength)
        // RFC 5246 §6.3: client key, server key, client IV, server IV (no MAC keys for AEAD suites)
        let clientKey = Array(block[0..<keyLength])
        let serverKey = Array(block[keyLength..<(2 * keyLength)])
        let clientIV = Array(block[(2 * keyLength)..<(2 * keyLength + ivLength)])
        let serverIV = Array(block[(2 * keyLength + ivLength)..<(2 * keyLength + 2 * ivLength)])
        let mode: TLSRecordCipher.Mode = aead == .chacha20Poly1305 ? .tls12XORNonce : .tls12ExplicitNonce
        guard let clientCipher = TLSRecordCipher(aead: aead, mode: mode, key: clientKey, iv: clientIV),
            let serverCipher = TLSRecordCipher(aead: aead, mode: mode, key: serverKey, iv: serverIV)
        else { return }
        client.pendingProtection = .cipher(clientCipher)
        server.pendingProtection = .cipher(serverCipher)
    }

    private func setUp13(_ aead: TLSAEAD, _ found: TLSSecrets?, clientRandom: [UInt8], offset: Int) {
        _ = aead
        guard let found, found.clientHandshakeTrafficSecret != nil || found.serverHandshakeTrafficSecret != nil
        else {
            noKey(clientRandom, label: found == nil ? nil : "CLIENT_HANDSHAKE_TRAFFIC_SECRET", offset: offset)
            return
        }
        server.protection = protection13(found.serverHandshakeTrafficSecret, label: "SERVER_HANDSHAKE_TRAFFIC_SECRET")
        client.protection = protection13(found.clientHandshakeTrafficSecret, label: "CLIENT_HANDSHAKE_TRAFFIC_SECRET")
        if offeredEarlyData {
            client.earlyPhase = true
            let early = protection13(found.clientEarlyTrafficSecret, label: "CLIENT_EARLY_TRAFFIC_SECRET")
            if case .cipher(let cipher) = early { client.earlyCipher = cipher }
        }
        for label in missingLabels13(found) {
            noKeyReported = true
            server.report(
                TLSRules.noKey,
                "TLS, cannot decrypt all: no \(label) for client random \(Hex.encode(clientRandom))", at: offset)
        }
    }

    private func missingLabels13(_ found: TLSSecrets) -> [String] {
        var labels: [String] = []
        if found.clientHandshakeTrafficSecret == nil { labels.append("CLIENT_HANDSHAKE_TRAFFIC_SECRET") }
        if found.serverHandshakeTrafficSecret == nil { labels.append("SERVER_HANDSHAKE_TRAFFIC_SECRET") }
        if found.clientTrafficSecret0 == nil { labels.append("CLIENT_TRAFFIC_SECRET_0") }
        if found.serverTrafficSecret0 == nil { labels.append("SERVER_TRAFFIC_SECRET_0") }
        return labels
    }

    /// The protection a TLS 1.3 traffic secret gives, or why there is none.
    private func protection13(_ secret: [UInt8]?, label: String) -> Protection {
        guard let decryption = facts.cipherSuite?.decryption else { return .undecryptable(.decryptionFailed) }
        let (aead, hash) = (decryption.aead, decryption.hash)
        guard let secret else {
            return .undecryptable(.missingSecret(label: label, clientRandom: facts.clientRandom ?? []))
        }
        guard secret.count == hash.length,
            let keys = TLSKeySchedule.trafficKeys(hash, secret: secret, keyLength: aead.keyLength),
            let cipher = TLSRecordCipher(aead: aead, mode: .tls13, key: keys.key, iv: keys.iv)
        else {
            let clientRandom = facts.clientRandom ?? []
            let wrongLength = label + " of the suite's hash length"
            return .undecryptable(.missingSecret(label: wrongLength, clientRandom: clientRandom))
        }
        return .cipher(cipher)
    }

    private func keyUpdate(_ direction: Direction, body: [UInt8], offset: Int) {
        guard facts.version == .tls13 else {
            withSide(direction) { $0.report(TLSRules.handshakeMalformed, "KeyUpdate outside TLS 1.3", at: offset) }
            return
        }
        facts.keyUpdates += 1
        let hash = self.hash
        let suite = facts.cipherSuite
        withSide(direction) { side in
            guard body.count == 1, body[0] <= 1 else {
                side.report(TLSRules.handshakeMalformed, "KeyUpdate of \(body.count) bytes", at: offset)
                return
            }
            guard side.finished else {
                side.report(TLSRules.handshakeMalformed, "KeyUpdate before Finished", at: offset)
                return
            }
            guard let current = side.trafficSecret, let next = TLSKeySchedule.nextTrafficSecret(hash, secret: current),
                let aead = suite?.decryption?.aead,
                let keys = TLSKeySchedule.trafficKeys(hash, secret: next, keyLength: aead.keyLength),
                let cipher = TLSRecordCipher(aead: aead, mode: .tls13, key: keys.key, iv: keys.iv)
            else { return }  // no secret: the side is already undecryptable
            side.trafficSecret = next
            side.protection = .cipher(cipher)
        }
    }

    private func noKey(_ clientRandom: [UInt8], label: String?, offset: Int) {
        let reason: TLSNotDecryptedReason =
            label.map { .missingSecret(label: $0, clientRandom: clientRandom) } ?? .noKey(clientRandom: clientRandom)
        if !noKeyReported {
            noKeyReported = true
            server.report(TLSRules.noKey, "TLS, cannot decrypt: \(reason)", at: offset)
        }
        notDecrypted(reason)
    }

    /// Nothing after the keys change can be read, for this reason.
    private func notDecrypted(_ reason: TLSNotDecryptedReason) {
        facts.decryption = .notDecrypted(reason)
        if facts.version == .tls13 {
            client.protection = .undecryptable(reason)
            server.protection = .undecryptable(reason)
        } else {
            client.pendingProtection = .undecryptable(reason)
            server.pendingProtection = .undecryptable(reason)
        }
    }
}

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
