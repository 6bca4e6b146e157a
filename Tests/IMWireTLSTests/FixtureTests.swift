import IMWireCore
import Testing

@testable import IMWireTLS

@Suite("Real traffic: Python ssl and openssl peers on 127.0.0.1")
struct FixtureTests {
    @Test(arguments: Fixture.names)
    func decryptsExactlyWhatThePeersWrote(_ name: String) throws {
        let fixture = try Fixture(name)
        let result = run(fixture.chunks, keys: try store(fixture.keyLog))
        #expect(result.sortedRules() == fixture.expectedRules, "\(result.findings)")
        #expect(result.plaintext(.send) == Array(fixture.meta.c2s.utf8))
        #expect(result.plaintext(.receive) == Array(fixture.meta.s2c.utf8))
        let facts = result.connection.facts
        #expect(facts.version == (fixture.meta.version == "TLSv1.3" ? .tls13 : .tls12))
        #expect(facts.cipherSuite?.name == fixture.ianaSuite)
        #expect(facts.serverName == fixture.meta.sni)
        #expect(facts.alpn == fixture.meta.alpn)
        #expect(facts.helloRetryRequest == fixture.meta.hrr)
        #expect(facts.resumed == fixture.meta.resumed)
        #expect(facts.decryption == .decrypted)
        #expect(facts.clientRandom == fixture.clientRandom)
        #expect(facts.earlyDataOffered == (fixture.meta.earlyData ?? false))
        if (fixture.meta.keyUpdates ?? 0) > 0 {
            // the client's KeyUpdate asks for the server's: both directions move to their next secret
            #expect(facts.keyUpdates == 2)
        }
        for direction in [Direction.send, .receive] {
            let counts = result.connection.counts(direction)
            #expect(counts.received == fixture.stream(direction).count)
            #expect(counts.received == counts.clear + counts.decrypted + counts.skipped + counts.buffered)
            #expect(counts.skipped == 0)
            #expect(counts.buffered == 0)
            #expect(counts.decrypted > 0)
        }
    }

    @Test(arguments: Fixture.names)
    func oneByteAtATimeGivesTheSamePlaintext(_ name: String) throws {
        let fixture = try Fixture(name)
        let bytes = fixture.chunks.flatMap { chunk in chunk.1.map { (chunk.0, [$0]) } }
        let result = run(bytes, keys: try store(fixture.keyLog))
        #expect(result.sortedRules() == fixture.expectedRules, "\(result.findings)")
        #expect(result.plaintext(.send) == Array(fixture.meta.c2s.utf8))
        #expect(result.plaintext(.receive) == Array(fixture.meta.s2c.utf8))
    }

    @Test(arguments: ["tls12-chacha20", "tls13-aes128gcm-keyupdate"])
    func everySplitPointGivesTheSamePlaintext(_ name: String) throws {
        let fixture = try Fixture(name)
        let keys = try store(fixture.keyLog)
        let client = fixture.stream(.send)
        let server = fixture.stream(.receive)
        for split in 0...server.count {
            var chunks: [(Direction, [UInt8])] = [(.send, client)]
            chunks.append((.receive, Array(server[..<split])))
            chunks.append((.receive, Array(server[split...])))
            let result = run(chunks, keys: keys)
            guard result.findings.isEmpty, result.plaintext(.receive) == Array(fixture.meta.s2c.utf8) else {
                Issue.record("server split at \(split): \(result.findings)")
                return
            }
        }
        for split in 0...client.count {
            let chunks: [(Direction, [UInt8])] = [
                (.send, Array(client[..<split])), (.receive, server), (.send, Array(client[split...])),
            ]
            let result = run(chunks, keys: keys)
            guard result.findings.isEmpty, result.plaintext(.send) == Array(fixture.meta.c2s.utf8) else {
                Issue.record("client split at \(split): \(result.findings)")
                return
            }
        }
    }

    @Test(arguments: ["tls12-aes128gcm", "tls13-chacha20", "tls13-hrr", "tls12-renegotiation"])
    func eachDirectionWholeInEitherOrder(_ name: String) throws {
        let fixture = try Fixture(name)
        let keys = try store(fixture.keyLog)
        for chunks in [
            wholeStreams(fixture.stream(.send), fixture.stream(.receive)),
            Array(wholeStreams(fixture.stream(.send), fixture.stream(.receive)).reversed()),
        ] {
            let result = run(chunks, keys: keys)
            #expect(result.sortedRules() == fixture.expectedRules, "\(result.findings)")
            #expect(result.plaintext(.send) == Array(fixture.meta.c2s.utf8))
            #expect(result.plaintext(.receive) == Array(fixture.meta.s2c.utf8))
        }
    }

    @Test(arguments: Fixture.names)
    func withoutAKeyNothingIsDecodedAndOneWarningSaysWhy(_ name: String) throws {
        let fixture = try Fixture(name)
        let result = run(fixture.chunks, keys: TLSKeyStore())
        let random = Hex.encode(fixture.clientRandom)
        #expect(result.rules() == ["TLS.NO-KEY"])
        #expect(result.findings.first?.message == "TLS, cannot decrypt: no key for client random \(random)")
        #expect(result.findings.first?.severity == .warning)
        #expect(result.plaintext(.send).isEmpty && result.plaintext(.receive).isEmpty)
        #expect(result.connection.facts.decryption == .notDecrypted(.noKey(clientRandom: fixture.clientRandom)))
        #expect(result.connection.facts.serverName == "imwire.test")
        for direction in [Direction.send, .receive] {
            let counts = result.connection.counts(direction)
            #expect(counts.decrypted == 0)
            #expect(counts.skipped > 0)
            #expect(counts.skipReason == .noKey(clientRandom: fixture.clientRandom))
            #expect(counts.received == counts.clear + counts.skipped)
        }
    }

    @Test func anotherSessionsKeyLogIsNoKey() throws {
        let fixture = try Fixture("tls13-aes256gcm")
        let other = try Fixture("tls13-hrr")
        let result = run(fixture.chunks, keys: try store(other.keyLog))
        #expect(result.rules() == ["TLS.NO-KEY"])
        #expect(result.plaintext(.send).isEmpty && result.plaintext(.receive).isEmpty)
    }

    @Test(arguments: [("tls12-aes256gcm", "tls12-aes128gcm"), ("tls13-aes256gcm", "tls13-hrr")])
    func anotherSessionsSecretsUnderThisRandomFailToDecrypt(_ names: (String, String)) throws {
        let fixture = try Fixture(names.0)
        let other = try Fixture(names.1)
        // the other session's secrets, relabelled with this session's client random
        let otherRandom = Hex.encode(other.clientRandom)
        let text = other.keyLog.replacingOccurrences(of: otherRandom, with: Hex.encode(fixture.clientRandom))
        let result = run(fixture.chunks, keys: try store(text))
        let rules = result.rules()
        #expect(!rules.isEmpty && rules.allSatisfy { $0 == "TLS.DECRYPT-FAILED" }, "\(rules)")
        #expect(rules.count <= 2)  // one per direction, then that direction is given up
        #expect(result.plaintext(.send).isEmpty && result.plaintext(.receive).isEmpty)
        #expect(result.connection.facts.decryption == .notDecrypted(.decryptionFailed))
        #expect(result.findings.allSatisfy { $0.severity == .error })
    }

    @Test(arguments: Fixture.names)
    func oneCorruptedByteFailsExactlyItsRecord(_ name: String) throws {
        let fixture = try Fixture(name)
        let keys = try store(fixture.keyLog)
        let clean = run(fixture.chunks, keys: keys)
        // the second application-data record of the server (of the client when the server sent fewer)
        func positions(_ direction: Direction) -> [([UInt8], TLSRecordPosition)] {
            clean.events.compactMap { event in
                if case .plaintext(direction, let bytes, let position) = event { return (bytes, position) }
                return nil
            }
        }
        let direction: Direction = positions(.receive).count >= positions(.send).count ? .receive : .send
        let delivered = positions(direction)
        try #require(!delivered.isEmpty)
        let pick = delivered.count >= 2 ? 1 : 0
        let target = delivered[pick].1
        var streams = [Direction.send: fixture.stream(.send), .receive: fixture.stream(.receive)]
        streams[direction]?[target.offset + target.length - 20] ^= 0x01
        let result = run(wholeStreams(streams[.send] ?? [], streams[.receive] ?? []), keys: keys)
        #expect(result.rules().sorted() == (["TLS.DECRYPT-FAILED"] + fixture.expectedRules).sorted())
        let finding = try #require(result.findings.first { $0.ruleID == "TLS.DECRYPT-FAILED" })
        #expect(finding.offset == target.offset)
        #expect(finding.location.direction == direction)
        var expected = Array((direction == .receive ? fixture.meta.s2c : fixture.meta.c2s).utf8)
        expected.removeSubrange(target.plaintextOffset..<(target.plaintextOffset + delivered[pick].0.count))
        #expect(result.plaintext(direction) == expected)
        let other = Array((direction == .receive ? fixture.meta.c2s : fixture.meta.s2c).utf8)
        #expect(result.plaintext(direction.reversed) == other)
        #expect(result.connection.facts.decryption == .decrypted)
        #expect(result.connection.facts.failedRecords == 1)
        #expect(result.connection.counts(direction).skipped == target.length)
    }

    @Test func earlyDataWithoutItsSecretIsSkippedAndTheRestDecrypted() throws {
        let fixture = try Fixture("tls13-early-data")
        let lines = fixture.keyLog.split(separator: "\n").filter { !$0.hasPrefix("CLIENT_EARLY_TRAFFIC_SECRET") }
        let result = run(fixture.chunks, keys: try store(lines.joined(separator: "\n")))
        #expect(result.rules() == ["TLS.NO-KEY"])
        #expect(result.findings.first?.message.contains("0-RTT") == true)
        #expect(result.plaintext(.send) == Array("late\n".utf8))
        let counts = result.connection.counts(.send)
        let reason = TLSNotDecryptedReason.missingSecret(
            label: "CLIENT_EARLY_TRAFFIC_SECRET", clientRandom: fixture.clientRandom)
        #expect(counts.skipReason == reason)
        #expect(counts.received == counts.clear + counts.decrypted + counts.skipped)
    }

    @Test(arguments: ["tls12-aes128gcm", "tls12-resumed", "tls13-hrr"])
    func handshakeMessagesSplitOverManyRecordsReadTheSame(_ name: String) throws {
        // every record in clear re-cut into records of at most 7 bytes (and a ChangeCipherSpec kept whole)
        func recut(_ stream: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            var encrypted = false
            for (_, record) in records(stream) {
                let type = record[0]
                encrypted = encrypted || type == 20 || type == 23
                guard !encrypted, type == 22 else {
                    out += record
                    continue
                }
                let body = Array(record[5...])
                for start in stride(from: 0, to: body.count, by: 7) {
                    let piece = Array(body[start..<min(start + 7, body.count)])
                    out += [type, record[1], record[2], 0, UInt8(piece.count)] + piece
                }
            }
            return out
        }
        let fixture = try Fixture(name)
        let client = recut(fixture.stream(.send))
        let server = recut(fixture.stream(.receive))
        #expect(client.count > fixture.stream(.send).count)
        let result = run(wholeStreams(client, server), keys: try store(fixture.keyLog))
        #expect(result.sortedRules() == fixture.expectedRules, "\(result.findings)")
        #expect(result.plaintext(.send) == Array(fixture.meta.c2s.utf8))
        #expect(result.plaintext(.receive) == Array(fixture.meta.s2c.utf8))
        #expect(result.connection.facts.helloRetryRequest == fixture.meta.hrr)
        #expect(result.connection.facts.resumed == fixture.meta.resumed)
    }

    @Test(arguments: ["tls12-ecdsa-chacha20", "tls13-hrr"])
    func everyFlippedHandshakeByteIsReportedOrHarmless(_ name: String) throws {
        let fixture = try Fixture(name)
        let keys = try store(fixture.keyLog)
        for direction in [Direction.send, .receive] {
            let stream = fixture.stream(direction)
            // the records in clear at the start of the stream
            let clearEnd = records(stream).first { $0.bytes[0] != 22 }?.offset ?? stream.count
            for position in 0..<clearEnd {
                var mutated = stream
                mutated[position] ^= 0x5a
                let chunks =
                    direction == .send
                    ? wholeStreams(mutated, fixture.stream(.receive)) : wholeStreams(fixture.stream(.send), mutated)
                let result = run(chunks, keys: keys)
                // no byte is lost silently: either the plaintext is whole or a finding says why not
                let whole =
                    result.plaintext(.send) == Array(fixture.meta.c2s.utf8)
                    && result.plaintext(.receive) == Array(fixture.meta.s2c.utf8)
                guard whole || !result.findings.isEmpty else {
                    Issue.record("\(direction) byte \(position): plaintext lost without a finding")
                    return
                }
                for side in [Direction.send, .receive] {
                    let counts = result.connection.counts(side)
                    guard counts.received == counts.clear + counts.decrypted + counts.skipped, counts.buffered == 0
                    else {
                        Issue.record("\(direction) byte \(position): accounting \(counts)")
                        return
                    }
                }
            }
        }
    }

    @Test func aDamagedEarlyDataRecordIsReported() throws {
        let fixture = try Fixture("tls13-early-data")
        let keys = try store(fixture.keyLog)
        let clean = run(fixture.chunks, keys: keys)
        let early = try #require(
            clean.events.compactMap { event -> TLSRecordPosition? in
                if case .plaintext(.send, _, let position) = event { return position }
                return nil
            }.first)
        var client = fixture.stream(.send)
        client[early.offset + early.length - 3] ^= 0x80
        let result = run(wholeStreams(client, fixture.stream(.receive)), keys: keys)
        let rules = result.rules()
        #expect(rules.first == "TLS.DECRYPT-FAILED", "\(rules)")
        #expect(result.findings.first?.offset == early.offset)
        #expect(!result.plaintext(.send).starts(with: Array("early data line".utf8)))
    }

    @Test func aRefusedRenegotiationDoesNotHoldTheClientBack() throws {
        let fixture = try Fixture("tls12-renegotiation-refused")
        let connection = TLSConnection(keys: try store(fixture.keyLog))
        var events: [TLSEvent] = []
        for (direction, bytes) in fixture.chunks { events += connection.feed(bytes, direction: direction) }
        // before finish(): the client's fatal alert after its refused ClientHello was already read
        let alert = findings(events).first { $0.ruleID == "TLS.ALERT" }
        #expect(alert?.message == "fatal alert handshake_failure (40) from the client")
        #expect(connection.counts(.send).buffered == 0)
    }

    @Test func applicationDataInClearBeforeTheHandshakeEnds() throws {
        let fixture = try Fixture("tls12-aes128gcm")
        var server = records(fixture.stream(.receive))
        // after the server's first flight, before its ChangeCipherSpec
        server.insert((0, [23, 3, 3, 0, 5] + Array("hello".utf8)), at: 1)
        let result = run(
            wholeStreams(fixture.stream(.send), server.flatMap { $0.bytes }), keys: try store(fixture.keyLog))
        #expect(result.rules() == ["TLS.DATA-BEFORE-HANDSHAKE"])
        #expect(result.findings.first?.offset == server[0].bytes.count)
        #expect(result.plaintext(.receive) == Array(fixture.meta.s2c.utf8))
    }
}
