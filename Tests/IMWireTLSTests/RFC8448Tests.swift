import IMWireCore
import Testing

@testable import IMWireTLS

@Suite("RFC 8448 simple 1-RTT handshake")
struct RFC8448Tests {
    @Test func serverFlightDecryptsUnderTheServerHandshakeKey() throws {
        var cipher = try #require(
            TLSRecordCipher(
                aead: .aes128GCM, mode: .tls13, key: RFC8448.serverHandshakeKey, iv: RFC8448.serverHandshakeIV))
        var reader = TLSRecordReader()
        reader.append(RFC8448.serverFlightRecord)
        guard case .record(let record) = reader.next() else {
            Issue.record("no record")
            return
        }
        let opened = try cipher.open(record).get()
        #expect(opened.contentType == 22)
        let messages = [
            RFC8448.encryptedExtensions, RFC8448.certificate, RFC8448.certificateVerify, RFC8448.serverFinished,
        ]
        #expect(opened.plaintext == messages.flatMap { $0 })
    }

    @Test func applicationDataDecryptsBothWays() throws {
        // the server's application record follows its NewSessionTicket: sequence number 1
        for (records, key, iv) in [
            ([RFC8448.clientApplicationRecord], RFC8448.clientApplicationKey, RFC8448.clientApplicationIV),
            (
                [RFC8448.newSessionTicketRecord, RFC8448.serverApplicationRecord], RFC8448.serverApplicationKey,
                RFC8448.serverApplicationIV
            ),
        ] {
            var cipher = try #require(TLSRecordCipher(aead: .aes128GCM, mode: .tls13, key: key, iv: iv))
            var reader = TLSRecordReader()
            reader.append(records.flatMap { $0 })
            var opened: [TLSRecordCipher.Opened] = []
            while case .record(let record) = reader.next() { opened.append(try cipher.open(record).get()) }
            #expect(opened.last?.contentType == 23)
            #expect(opened.last?.plaintext == RFC8448.applicationPayload)
            #expect(cipher.sequence == UInt64(records.count))
        }
        // out of order (sequence 0 for the server's second record) the tag does not verify
        var cipher = try #require(
            TLSRecordCipher(
                aead: .aes128GCM, mode: .tls13, key: RFC8448.serverApplicationKey, iv: RFC8448.serverApplicationIV))
        var reader = TLSRecordReader()
        reader.append(RFC8448.serverApplicationRecord)
        guard case .record(let record) = reader.next() else {
            Issue.record("no record")
            return
        }
        #expect(throws: TLSRecordCipher.Failure.badTag) { try cipher.open(record).get() }
    }

    @Test func wholeConnectionFromAKeyLog() throws {
        let log = try TLSKeyLog(parsing: RFC8448.keyLog)
        let connection = TLSConnection(keys: TLSKeyStore(log))
        var events = connection.feed(RFC8448.clientStream, direction: .send)
        events += connection.feed(RFC8448.serverStream, direction: .receive)
        events += connection.finish()
        #expect(findings(events).isEmpty, "\(findings(events))")
        #expect(plaintext(events, .send) == RFC8448.applicationPayload)
        #expect(plaintext(events, .receive) == RFC8448.applicationPayload)
        let facts = connection.facts
        #expect(facts.version == .tls13)
        #expect(facts.cipherSuite?.name == "TLS_AES_128_GCM_SHA256")
        #expect(facts.serverName == "server")
        #expect(facts.decryption == .decrypted)
        #expect(facts.clientRandom == RFC8448.clientRandom)
        for direction in [Direction.send, .receive] {
            let counts = connection.counts(direction)
            #expect(counts.received == counts.clear + counts.decrypted + counts.skipped + counts.buffered)
            #expect(counts.skipped == 0 && counts.buffered == 0)
            #expect(counts.plaintext == 50)
        }
        // the client's records: ClientHello in clear, the rest decrypted
        #expect(connection.counts(.send).clear == RFC8448.clientHelloRecord.count)
    }

    @Test func serverDirectionFedFirstGivesTheSameResult() throws {
        let connection = TLSConnection(keys: TLSKeyStore(try TLSKeyLog(parsing: RFC8448.keyLog)))
        var events = connection.feed(RFC8448.serverStream, direction: .receive)
        #expect(plaintext(events, .receive).isEmpty)  // waits for the ClientHello's random
        events += connection.feed(RFC8448.clientStream, direction: .send)
        events += connection.finish()
        #expect(findings(events).isEmpty, "\(findings(events))")
        #expect(plaintext(events, .send) == RFC8448.applicationPayload)
        #expect(plaintext(events, .receive) == RFC8448.applicationPayload)
    }

    @Test func plaintextPositionPointsAtItsRecord() throws {
        let connection = TLSConnection(keys: TLSKeyStore(try TLSKeyLog(parsing: RFC8448.keyLog)))
        var events = connection.feed(RFC8448.clientStream, direction: .send)
        events += connection.feed(RFC8448.serverStream, direction: .receive)
        let positions = events.compactMap { event -> (Direction, TLSRecordPosition)? in
            if case .plaintext(let direction, _, let position) = event { return (direction, position) }
            return nil
        }
        let client = try #require(positions.first { $0.0 == .send }?.1)
        #expect(client.offset == RFC8448.clientHelloRecord.count + RFC8448.clientFinishedRecord.count)
        #expect(client.length == RFC8448.clientApplicationRecord.count)
        #expect(client.index == 2)
        #expect(client.plaintextOffset == 0)
        let server = try #require(positions.first { $0.0 == .receive }?.1)
        #expect(
            server.offset
                == RFC8448.serverHelloRecord.count + RFC8448.serverFlightRecord.count
                + RFC8448.newSessionTicketRecord.count)
        #expect(server.index == 3)
    }
}

func findings(_ events: [TLSEvent]) -> [Finding] {
    events.compactMap { if case .finding(let finding) = $0 { finding } else { nil } }
}

func plaintext(_ events: [TLSEvent], _ direction: Direction) -> [UInt8] {
    events.reduce(into: []) { bytes, event in
        if case .plaintext(let side, let data, _) = event, side == direction { bytes += data }
    }
}
