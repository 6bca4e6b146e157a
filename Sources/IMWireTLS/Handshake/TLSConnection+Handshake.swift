import IMWireCore

/// The handshake of a `TLSConnection`: its messages read in clear or under the handshake keys,
/// the hellos negotiated, and the keys of each version set up from the logged secrets.
extension TLSConnection {
    func readHandshakeMessages(_ direction: Direction, recordOffset: Int) {
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

    func clientMessage(_ type: UInt8, _ body: [UInt8], offset: Int) {
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

    func serverMessage(_ type: UInt8, _ body: [UInt8], offset: Int) {
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

    func serverHello(_ body: [UInt8], offset: Int) {
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
        if established, !hello.isHelloRetryRequest, facts.version == .tls13 || hello.version == .tls13 {
            // refused: the version and suite of the first stand, so that the client's records read
            // the same whether they were read before this hello or after it
            server.report(TLSRules.handshakeMalformed, "a second ServerHello in TLS 1.3", at: offset)
            return
        }
        facts.version = hello.version
        facts.cipherSuite = hello.cipherSuite
        if hello.isHelloRetryRequest {
            if facts.helloRetryRequest {
                server.report(TLSRules.handshakeMalformed, "a second HelloRetryRequest", at: offset)
            }
            facts.helloRetryRequest = true
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
    func negotiate(_ hello: TLSServerHello, offset: Int) {
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

    func setUp12(
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

    func setUp13(_ aead: TLSAEAD, _ found: TLSSecrets?, clientRandom: [UInt8], offset: Int) {
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

    func missingLabels13(_ found: TLSSecrets) -> [String] {
        var labels: [String] = []
        if found.clientHandshakeTrafficSecret == nil { labels.append("CLIENT_HANDSHAKE_TRAFFIC_SECRET") }
        if found.serverHandshakeTrafficSecret == nil { labels.append("SERVER_HANDSHAKE_TRAFFIC_SECRET") }
        if found.clientTrafficSecret0 == nil { labels.append("CLIENT_TRAFFIC_SECRET_0") }
        if found.serverTrafficSecret0 == nil { labels.append("SERVER_TRAFFIC_SECRET_0") }
        return labels
    }

    /// The protection a TLS 1.3 traffic secret gives, or why there is none.
    func protection13(_ secret: [UInt8]?, label: String) -> Protection {
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

    func keyUpdate(_ direction: Direction, body: [UInt8], offset: Int) {
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

    func noKey(_ clientRandom: [UInt8], label: String?, offset: Int) {
        let reason: TLSNotDecryptedReason =
            label.map { .missingSecret(label: $0, clientRandom: clientRandom) } ?? .noKey(clientRandom: clientRandom)
        if !noKeyReported {
            noKeyReported = true
            server.report(TLSRules.noKey, "TLS, cannot decrypt: \(reason)", at: offset)
        }
        notDecrypted(reason)
    }

    /// Nothing after the keys change can be read, for this reason.
    func notDecrypted(_ reason: TLSNotDecryptedReason) {
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
