import IMWireCore
import Testing

@testable import IMWireTLS

@Suite("Key schedule known answers")
struct KeyScheduleTests {
    @Test func prfSHA256Vector() {
        // the P_SHA256 vector used by TLS 1.2 implementations (secret, "test label", seed → 100 bytes)
        let output = TLSKeySchedule.prf(
            .sha256, secret: RFC8448.bytes("9bbe436ba940f017b17652849a71db35"), label: "test label",
            seed: RFC8448.bytes("a0ba9f936cda311827a6f796ffd5198c"), length: 100)
        #expect(
            Hex.encode(output)
                == "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14baf9af"
                + "0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff7018734"
                + "7b66")
    }

    @Test func prfSHA384Vector() {
        let output = TLSKeySchedule.prf(
            .sha384, secret: RFC8448.bytes("b80b733d6ceefcdc71566ea48e5567df"), label: "test label",
            seed: RFC8448.bytes("cd665cf6a8447dd6ff8b27555edb7465"), length: 148)
        #expect(
            Hex.encode(output)
                == "7b0c18e9ced410ed1804f2cfa34a336a1c14dffb4900bb5fd7942107e81c83cde9ca0faa60be9fe34f82b1233c9146a0"
                + "e534cb400fed2700884f9dc236f80edd8bfa961144c9e8d792eca722a7b32fc3d416d473ebc2c5fd4abfdad05d9184259b5b"
                + "f8cd4d90fa0d31e2dec479e4f1a26066f2eea9a69236a3e52655c9e9aee691c8f3a26854308d5eaa3be85e09"
                + "90703d73e56f")
    }

    @Test func prfLengthsAreExact() {
        for length in [0, 1, 31, 32, 33, 104] {
            #expect(TLSKeySchedule.prf(.sha256, secret: [1], label: "x", seed: [2], length: length).count == length)
        }
    }

    @Test func expandLabelGivesRFC8448TrafficKeys() throws {
        let cases: [([UInt8], [UInt8], [UInt8])] = [
            (RFC8448.serverHandshakeSecret, RFC8448.serverHandshakeKey, RFC8448.serverHandshakeIV),
            (RFC8448.clientHandshakeSecret, RFC8448.clientHandshakeKey, RFC8448.clientHandshakeIV),
            (RFC8448.serverApplicationSecret, RFC8448.serverApplicationKey, RFC8448.serverApplicationIV),
            (RFC8448.clientApplicationSecret, RFC8448.clientApplicationKey, RFC8448.clientApplicationIV),
        ]
        for (secret, key, iv) in cases {
            let keys = try #require(TLSKeySchedule.trafficKeys(.sha256, secret: secret, keyLength: 16))
            #expect(keys.key == key)
            #expect(keys.iv == iv)
        }
    }

    @Test func expandLabelRefusesOversizedInput() {
        let longLabel = String(repeating: "a", count: 250)
        #expect(TLSKeySchedule.expandLabel(.sha256, secret: [0], label: longLabel, length: 16) == nil)
        #expect(TLSKeySchedule.expandLabel(.sha256, secret: [0], label: "key", length: 255 * 32 + 1) == nil)
        let longContext = [UInt8](repeating: 0, count: 256)
        #expect(TLSKeySchedule.expandLabel(.sha256, secret: [0], label: "key", context: longContext, length: 16) == nil)
    }

    @Test func nextTrafficSecretHasHashLength() throws {
        let next = try #require(TLSKeySchedule.nextTrafficSecret(.sha384, secret: Array(repeating: 7, count: 48)))
        #expect(next.count == 48)
        #expect(next != Array(repeating: 7, count: 48))
    }
}
