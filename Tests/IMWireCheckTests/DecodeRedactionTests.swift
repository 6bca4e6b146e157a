import IMWire
import Testing

/// What `imwire decode` prints of a decoding: credentials replaced, an unread login withheld.
@Suite struct DecodeRedactionTests {
    static func decoded(_ codec: String, _ text: String) throws -> (CanonicalDecoding, [UInt8]) {
        let definition = try #require(Dialects.standard.codec(named: codec))
        let bytes = Array(text.utf8)
        return (try definition.makeCodec().decode(bytes, as: CanonicalInput(binary: false, direction: .send)), bytes)
    }

    @Test(arguments: UnreadLoginTests.logins.filter { $0.dialect == "nim" || $0.dialect == "jmessage" })
    func anUnreadLoginIsWithheld(_ login: UnreadLoginTests.Login) throws {
        let (decoding, bytes) = try Self.decoded(login.dialect, try #require(login.frames.last?.text))
        let shown = SecretRedaction.shown(
            decoding, of: bytes, codec: login.dialect, unit: .textFrame, direction: nil)
        let text = JSONWriter.string(shown.envelope)
        for form in UnreadLoginTests.forms(login.secret) { #expect(!text.contains(form), "\(form) in \(text)") }
        #expect(text == JSONWriter.string(SecretRedaction.withhold(decoding, payload: bytes).envelope))
    }

    @Test func aLoginReadWholeHasItsSecretReplaced() throws {
        let frame =
            #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"19":"alice","1000":"nim-token-5ecret"}}]}"#
        let (decoding, bytes) = try Self.decoded("nim", frame)
        #expect(JSONWriter.string(decoding.envelope).contains("nim-token-5ecret"))
        let shown = SecretRedaction.shown(decoding, of: bytes, codec: "nim", unit: .textFrame, direction: nil)
        let text = JSONWriter.string(shown.envelope)
        #expect(!text.contains("nim-token-5ecret"))
        #expect(text.contains(SecretRedaction.mark))
        #expect(text == JSONWriter.string(SecretRedaction.redact(decoding).envelope))
    }

    @Test func aCodecWithoutADialectIsRedactedOnly() throws {
        let (decoding, bytes) = try Self.decoded("socketio.0.9", "1::")
        let shown = SecretRedaction.shown(decoding, of: bytes, codec: "socketio.0.9", unit: .textFrame, direction: nil)
        #expect(JSONWriter.string(shown.envelope) == JSONWriter.string(SecretRedaction.redact(decoding).envelope))
    }
}
