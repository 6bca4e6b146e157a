import IMWireCore
import IMWireRegistry

extension SecretRedaction {
    /// What `imwire decode` prints of `decoding` (of `bytes`, one input of the codec named
    /// `codec`, whose input is `unit`): its credentials replaced, and all the text it quotes of
    /// a login the codec's dialect in `dialects` could not read withheld.
    package static func shown(
        _ decoding: CanonicalDecoding, of bytes: [UInt8], codec: String, unit: CanonicalCodecUnit,
        direction: Direction?, dialects: Dialects = .standard
    ) -> CanonicalDecoding {
        if let definition = dialects.all.first(where: { $0.canonicalCodec?.name == codec }) {
            let json =
                decoding.parts.count == 1 ? decoding.parts[0].decoded : .array(decoding.parts.compactMap(\.decoded))
            let message = WireMessage(
                direction: direction ?? .send, frameType: unit.isBinary ? .binary : .text, payload: bytes)
            if definition.recognisesUnreadLogin(message, json) { return withhold(decoding, payload: bytes) }
        }
        return redact(decoding)
    }
}
