import Crypto
import IMWireCore
import Testing

@testable import IMWireTLS

@Suite("Record layer and handshake in clear")
struct RecordLayerTests {
    /// A ServerHello record (TLS 1.2 style, no extensions) choosing `suite`.
    static func serverHello(suite: UInt16, version: UInt16 = 0x0303) -> [UInt8] {
        var body: [UInt8] = [UInt8(version >> 8), UInt8(version & 0xff)] + Array(repeating: 0x5a, count: 32)
        body += [0, UInt8(suite >> 8), UInt8(suite & 0xff), 0]
        let message: [UInt8] = [2, 0, 0, UInt8(body.count)] + body
        return [22, 3, 3, 0, UInt8(message.count)] + message
    }

    static func feedAll(_ client: [UInt8], _ server: [UInt8], keys: TLSKeyStore = TLSKeyStore()) -> Run {
        run([(.send, client), (.receive, server)], keys: keys)
    }

    @Test func readerReassemblesAcrossAppendsAndSplitsManyInOne() {
        var reader = TLSRecordReader()
        let stream = RFC8448.clientStream
        var seen: [TLSRecord] = []
        for byte in stream {
            reader.append([byte])
            while case .record(let record) = reader.next() { seen.append(record) }
        }
        #expect(seen.map(\.length) == records(stream).map { $0.bytes.count })
        #expect(seen.map(\.offset) == records(stream).map(\.offset))
        var whole = TLSRecordReader()
        whole.append(stream)
        var count = 0
        while case .record = whole.next() { count += 1 }
        #expect(count == 4)
        #expect(whole.bufferedCount == 0)
        #expect(whole.next() == .needMore)
    }

    @Test func looksLikeTLS() {
        #expect(TLSConnection.looksLikeTLS(RFC8448.clientHelloRecord))
        #expect(TLSConnection.looksLikeTLS(Array(RFC8448.clientHelloRecord.prefix(6))))
        #expect(!TLSConnection.looksLikeTLS(Array(RFC8448.clientHelloRecord.prefix(5))))
        #expect(!TLSConnection.looksLikeTLS(Array("GET / HTTP/1.1\r\n".utf8)))
        #expect(!TLSConnection.looksLikeTLS(RFC8448.serverHelloRecord))  // a ServerHello, not a ClientHello
        #expect(!TLSConnection.looksLikeTLS([0x10, 0x0c, 0x00, 0x04, 0x4d, 0x51]))  // MQTT CONNECT
        #expect(!TLSConnection.looksLikeTLS([22, 3, 9, 0, 10, 1]))
    }

    @Test func looksLikeTLSRecord() {
        #expect(TLSConnection.looksLikeTLSRecord([23, 3, 3, 0, 40]))
        #expect(TLSConnection.looksLikeTLSRecord(RFC8448.serverHelloRecord))
        #expect(!TLSConnection.looksLikeTLSRecord([23, 3, 3, 0x48, 1]))  // longer than 2^14 + 2048
        #expect(!TLSConnection.looksLikeTLSRecord(Array("GET /".utf8)))
        #expect(!TLSConnection.looksLikeTLSRecord([23, 3, 3, 0]))
    }

    @Test func plainHTTPIsNotTLS() {
        let result = Self.feedAll(
            Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        #expect(result.rules() == ["TLS.NOT-TLS", "TLS.NOT-TLS"])
        #expect(result.findings.allSatisfy { $0.offset == 0 })
        for direction in [Direction.send, .receive] {
            let counts = result.connection.counts(direction)
            #expect(counts.skipped == counts.received && counts.skipReason == .notTLS)
        }
    }

    @Test func aServerThatIsNotTLSLeavesTheClientsRecordsUnread() {
        let data: [UInt8] = [23, 3, 3, 0, 20] + Array(repeating: 1, count: 20)
        let client = RFC8448.clientHelloRecord + [20, 3, 3, 0, 1, 1] + data
        let result = Self.feedAll(client, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        #expect(result.rules() == ["TLS.NOT-TLS"])
        #expect(result.findings.first?.location.direction == .receive)
        let counts = result.connection.counts(.send)
        #expect(counts.clear == RFC8448.clientHelloRecord.count)
        #expect(counts.skipped == 31 && counts.skipReason == .noServerHello)
        // the same when the stream simply ends before a ServerHello
        let ended = Self.feedAll(client, [])
        #expect(ended.rules().isEmpty)
        #expect(ended.connection.counts(.send).skipReason == .noServerHello)
        #expect(ended.connection.facts.decryption == .pending)
    }

    @Test func aStreamStartingWithApplicationDataIsNotTLS() {
        let result = Self.feedAll([23, 3, 3, 0, 2, 1, 2], [])
        #expect(result.rules() == ["TLS.NOT-TLS"])
        #expect(result.findings.first?.message.contains("the capture starts after the handshake?") == true)
    }

    @Test func unsupportedSuiteIsNamedAndItsEncryptedBytesSkipped() {
        let changeCipherSpec: [UInt8] = [20, 3, 3, 0, 1, 1]
        let server =
            Self.serverHello(suite: 0xc013) + changeCipherSpec + [22, 3, 3, 0, 40] + Array(repeating: 7, count: 40)
        let client = RFC8448.clientHelloRecord + changeCipherSpec + [23, 3, 3, 0, 30] + Array(repeating: 9, count: 30)
        let result = Self.feedAll(client, server)
        #expect(result.rules() == ["TLS.UNSUPPORTED-SUITE"])
        #expect(result.findings.first?.message.contains("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA") == true)
        #expect(result.connection.facts.decryption == .notDecrypted(.unsupportedSuite(TLSCipherSuite(code: 0xc013))))
        #expect(result.connection.counts(.receive).skipped == 45)
        #expect(result.connection.counts(.send).skipped == 35)
        #expect(result.connection.counts(.send).clear == RFC8448.clientHelloRecord.count + 6)
    }

    @Test func oldVersionsAreNotDecrypted() {
        let result = Self.feedAll(RFC8448.clientHelloRecord, Self.serverHello(suite: 0x002f, version: 0x0301))
        #expect(result.rules() == ["TLS.UNSUPPORTED-VERSION"])
        #expect(result.connection.facts.version == .tls10)
    }

    @Test func fatalAlertInClearIsNamed() {
        let result = Self.feedAll(RFC8448.clientHelloRecord, [21, 3, 3, 0, 2, 2, 40])
        #expect(result.rules() == ["TLS.ALERT"])
        #expect(result.findings.first?.message == "fatal alert handshake_failure (40) from the server")
        #expect(result.findings.first?.location.direction == .receive)
        let warning = Self.feedAll(RFC8448.clientHelloRecord, [21, 3, 3, 0, 4, 1, 0, 1, 100])
        #expect(warning.rules() == ["TLS.ALERT-WARNING"])  // close_notify is silent, no_renegotiation is not
    }

    /// OpenSSL 3 sends decode_error when its peer closes without close_notify: an answer to an end,
    /// not an error of its own.
    @Test func aFatalAlertAfterThePeersUnannouncedEndIsInfo() {
        let connection = TLSConnection(keys: TLSKeyStore())
        var events = connection.feed(RFC8448.clientHelloRecord, direction: .send)
        events += connection.endOfStream(.send)
        events += connection.feed([21, 3, 3, 0, 2, 2, 50], direction: .receive)
        let findings = events.compactMap { if case .finding(let f) = $0 { f } else { nil } }
        #expect(findings.map(\.ruleID) == ["TLS.ALERT-AFTER-EOF"])
        #expect(
            findings.first?.message
                == "fatal alert decode_error (50) from the server after the client closed without close_notify")

        // the same alert while the client's stream goes on
        let open = TLSConnection(keys: TLSKeyStore())
        events = open.feed(RFC8448.clientHelloRecord, direction: .send)
        events += open.feed([21, 3, 3, 0, 2, 2, 50], direction: .receive)
        #expect(events.compactMap { if case .finding(let f) = $0 { f.ruleID.rawValue } else { nil } } == ["TLS.ALERT"])
    }

    @Test func unknownContentTypeIsSkippedByItsLength() {
        let client = RFC8448.clientHelloRecord + [99, 3, 3, 0, 3, 1, 2, 3]
        let result = Self.feedAll(client, [])
        #expect(result.rules() == ["TLS.UNKNOWN-CONTENT-TYPE"])
        #expect(result.findings.first?.offset == RFC8448.clientHelloRecord.count)
        #expect(result.connection.counts(.send).skipped == 8)
    }

    @Test func recordOverflow() {
        // a clear alert record of 2^14 + 2 bytes (close_notify pairs), then, after the keys change, an
        // encrypted one of 2^14 + 257
        let hello = Self.serverHello(suite: 0xc02f)
        let clear = [21, 3, 3, 0x40, 0x02] + Array(repeating: UInt8(0), count: (1 << 14) + 2)
        let encrypted = [23, 3, 3, 0x41, 0x01] + Array(repeating: UInt8(0), count: (1 << 14) + 257)
        let server = hello + clear + [20, 3, 3, 0, 1, 1] + encrypted
        let result = Self.feedAll(RFC8448.clientHelloRecord, server)
        #expect(result.rules() == ["TLS.NO-KEY", "TLS.RECORD-OVERFLOW", "TLS.RECORD-OVERFLOW"])
        let overflows = result.findings.filter { $0.ruleID == "TLS.RECORD-OVERFLOW" }
        #expect(overflows.map(\.offset) == [hello.count, hello.count + clear.count + 6])
        #expect(overflows.last?.message == "record of 16641 ciphertext bytes (at most 16640)")
    }

    @Test func lostFramingSkipsTheRest() {
        let client = RFC8448.clientHelloRecord + [22, 9, 9, 0, 1, 0] + Array(repeating: 1, count: 50)
        let result = Self.feedAll(client, [])
        #expect(result.rules() == ["TLS.RECORD-VERSION"])
        let counts = result.connection.counts(.send)
        #expect(counts.skipped == 56)
        #expect(counts.received == counts.clear + counts.skipped)
    }

    @Test func truncatedRecordAtTheEnd() {
        let client = RFC8448.clientHelloRecord + [22, 3, 3, 0, 50, 1, 2]
        let result = Self.feedAll(client, [])
        #expect(result.rules() == ["TLS.TRUNCATED"])
        #expect(result.connection.counts(.send).skipped == 7)
        #expect(result.connection.counts(.send).buffered == 0)
    }

    @Test func malformedClientHello() {
        let result = Self.feedAll([22, 3, 1, 0, 6, 1, 0, 0, 2, 3, 3], [])
        #expect(result.rules() == ["TLS.HANDSHAKE-MALFORMED"])
        #expect(result.findings.first?.message.hasPrefix("ClientHello: truncated") == true)
    }

    @Test func helloRetryRequestRandomIsRecognised() throws {
        var random = TLSServerHello.helloRetryRequestRandom
        #expect(random.count == 32)
        random[0] ^= 1
        #expect(random != TLSServerHello.helloRetryRequestRandom)
        let hello = try TLSServerHello(body: Array(RFC8448.serverHelloRecord[9...]))
        #expect(!hello.isHelloRetryRequest)
        #expect(hello.version == .tls13 && hello.cipherSuite.code == 0x1301)
    }

    @Test func clientHelloFields() throws {
        let hello = try TLSClientHello(body: Array(RFC8448.clientHelloRecord[9...]))
        #expect(hello.serverName == "server")
        #expect(hello.supportedVersions == [.tls13])
        #expect(hello.cipherSuites.map(\.code) == [0x1301, 0x1303, 0x1302])
        #expect(hello.random == RFC8448.clientRandom)
    }

    @Test func keylessTLS13CountsEveryEncryptedByteAsSkipped() {
        let result = Self.feedAll(RFC8448.clientStream, RFC8448.serverStream)
        #expect(result.rules() == ["TLS.NO-KEY"])
        let server = result.connection.counts(.receive)
        #expect(server.clear == RFC8448.serverHelloRecord.count)
        #expect(server.skipped == RFC8448.serverStream.count - RFC8448.serverHelloRecord.count)
    }

    @Test func missingApplicationSecretsDecryptTheHandshakeOnly() throws {
        let lines = RFC8448.keyLog.split(separator: "\n").filter { !$0.hasPrefix("SERVER_TRAFFIC_SECRET_0") }
        let result = Self.feedAll(
            RFC8448.clientStream, RFC8448.serverStream, keys: try store(lines.joined(separator: "\n")))
        #expect(result.rules() == ["TLS.NO-KEY"])
        #expect(result.findings.first?.message.contains("SERVER_TRAFFIC_SECRET_0") == true)
        #expect(result.plaintext(.send) == RFC8448.applicationPayload)
        #expect(result.plaintext(.receive).isEmpty)
        #expect(
            result.connection.counts(.receive).skipReason
                == .missingSecret(label: "SERVER_TRAFFIC_SECRET_0", clientRandom: RFC8448.clientRandom))
    }

    @Test func garbageNeverTraps() {
        // a deterministic pseudo-random walk over record types, versions and lengths
        var state: UInt64 = 0x1234_5678
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for round in 0..<300 {
            var client = RFC8448.clientHelloRecord
            var server = RFC8448.serverHelloRecord
            for _ in 0..<(round % 7) {
                let type = [20, 21, 22, 23, 24, next()][Int(next() % 6)]
                let length = Int(next() % 40)
                let record = [type, 3, 3, 0, UInt8(length)] + (0..<length).map { _ in next() }
                if next() % 2 == 0 { client += record } else { server += record }
            }
            if round % 3 == 0, !server.isEmpty { server[Int(next()) % server.count] ^= next() }
            let result = Self.feedAll(client, server, keys: TLSKeyStore())
            for direction in [Direction.send, .receive] {
                let counts = result.connection.counts(direction)
                #expect(counts.received == counts.clear + counts.decrypted + counts.skipped + counts.buffered)
            }
        }
    }
}

@Suite("Record cipher and names")
struct CipherTests {
    @Test func shortRecordsAndWrongKeySizesAreRefusedNotTrapped() throws {
        #expect(TLSRecordCipher(aead: .aes128GCM, mode: .tls13, key: [1, 2, 3], iv: RFC8448.serverHandshakeIV) == nil)
        let key = RFC8448.serverHandshakeKey
        #expect(TLSRecordCipher(aead: .aes128GCM, mode: .tls12ExplicitNonce, key: key, iv: [1]) == nil)
        let chachaKey = [UInt8](repeating: 1, count: 32)
        #expect(
            TLSRecordCipher(aead: .chacha20Poly1305, mode: .tls12ExplicitNonce, key: chachaKey, iv: [1, 2, 3, 4])
                == nil)
        var gcm = try #require(
            TLSRecordCipher(aead: .aes128GCM, mode: .tls12ExplicitNonce, key: key, iv: [0, 0, 0, 0]))
        let short = TLSRecord(contentType: 23, version: 0x0303, fragment: Array(repeating: 0, count: 23), offset: 0)
        #expect(throws: TLSRecordCipher.Failure.tooShort) { try gcm.open(short).get() }
        var tls13 = try #require(
            TLSRecordCipher(
                aead: .aes128GCM, mode: .tls13, key: RFC8448.serverHandshakeKey, iv: RFC8448.serverHandshakeIV))
        let empty = TLSRecord(contentType: 23, version: 0x0303, fragment: [], offset: 0)
        #expect(throws: TLSRecordCipher.Failure.tooShort) { try tls13.open(empty).get() }
        #expect(tls13.sequence == 1)  // the sequence number advances even so
    }

    /// BoringSSL's kept context and swift-crypto's API open the same records alike: every AEAD and
    /// nonce form, plaintexts of 0 to 2,000 bytes, and a flipped bit refused by both.
    @Test func boringSSLsContextAndSwiftCryptoOpenRecordsAlike() throws {
        #if os(Linux)
            #expect(BoringAEAD(.aes128GCM, key: Array(repeating: 1, count: 16)) != nil, "the fast path is linked in")
        #endif
        var random = SystemRandomNumberGenerator()
        let forms: [(TLSAEAD, TLSRecordCipher.Mode)] = [
            (.aes128GCM, .tls12ExplicitNonce), (.aes256GCM, .tls12ExplicitNonce), (.chacha20Poly1305, .tls12XORNonce),
            (.aes128GCM, .tls13), (.aes256GCM, .tls13), (.chacha20Poly1305, .tls13),
        ]
        for (aead, mode) in forms {
            let key = (0..<aead.keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            let iv = (0..<(mode == .tls12ExplicitNonce ? 4 : 12)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var fast = try #require(TLSRecordCipher(aead: aead, mode: mode, key: key, iv: iv))
            var slow = try #require(TLSRecordCipher(aead: aead, mode: mode, key: key, iv: iv, boringSSL: false))
            for (sequence, length) in [0, 1, 15, 16, 17, 1024, 2000].enumerated() {
                let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                var record = try Self.seal(plaintext, aead, mode, key: key, iv: iv, sequence: UInt64(sequence))
                if sequence == 3 { record.fragment[record.fragment.count - 1] ^= 1 }  // a damaged tag
                let (opened, reference) = (fast.open(record), slow.open(record))
                #expect(opened == reference, "\(aead) \(mode) \(length) bytes")
                let expected: Result<TLSRecordCipher.Opened, TLSRecordCipher.Failure> =
                    sequence == 3 ? .failure(.badTag) : .success(.init(contentType: 23, plaintext: plaintext))
                #expect(opened == expected)
            }
        }
    }

    /// `plaintext` sealed as record `sequence` of one direction (RFC 5288 §3, RFC 7905 §2,
    /// RFC 8446 §5.2-5.3), written from the RFCs apart from `TLSRecordCipher`.
    static func seal(
        _ plaintext: [UInt8], _ aead: TLSAEAD, _ mode: TLSRecordCipher.Mode, key: [UInt8], iv: [UInt8], sequence: UInt64
    ) throws -> TLSRecord {
        let number = (0..<8).map { UInt8(truncatingIfNeeded: sequence >> UInt64(56 - 8 * $0)) }
        var nonce = iv
        var explicit: [UInt8] = []
        if mode == .tls12ExplicitNonce {
            explicit = number
            nonce += explicit
        } else {
            for index in 0..<8 { nonce[4 + index] ^= number[index] }
        }
        let inner = mode == .tls13 ? plaintext + [23] : plaintext
        let sealedLength = mode == .tls13 ? inner.count + 16 : inner.count
        let header: [UInt8] = [23, 3, 3, UInt8(sealedLength >> 8), UInt8(sealedLength & 0xff)]
        let aad = mode == .tls13 ? header : number + header
        let symmetric = SymmetricKey(data: key)
        let sealed: [UInt8]
        if aead == .chacha20Poly1305 {
            let box = try ChaChaPoly.seal(
                inner, using: symmetric, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: aad)
            sealed = Array(box.ciphertext) + Array(box.tag)
        } else {
            let box = try AES.GCM.seal(inner, using: symmetric, nonce: AES.GCM.Nonce(data: nonce), authenticating: aad)
            sealed = Array(box.ciphertext) + Array(box.tag)
        }
        return TLSRecord(contentType: 23, version: 0x0303, fragment: explicit + sealed, offset: 0)
    }

    @Test func suiteAndVersionNames() {
        #expect(TLSCipherSuite(code: 0xc02f).name == "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256")
        #expect(TLSCipherSuite(code: 0x1303).decryption?.aead == .chacha20Poly1305)
        #expect(TLSCipherSuite(code: 0xc0ff).name == "0xc0ff")
        #expect(TLSCipherSuite(code: 0x002f).decryption == nil)
        #expect(TLSVersion.tls13.description == "TLS 1.3")
        #expect(TLSVersion(rawValue: 0x7f1c).description == "0x7f1c")
        #expect(TLSAlert.name(40) == "handshake_failure" && TLSAlert.name(250) == "alert_250")
    }
}
