/// What a `WireCodec` made of some bytes: the typed value (its own properties), a one-line
/// summary, and what is wrong with the bytes, each finding with its byte offset.
package protocol WireDecoded: Sendable {
    /// `session/open i=1`, `message 7_1 sendMsg ser=3`, `PUBLISH q0 … sendMessage`.
    var summary: String { get }
    var findings: [Finding] { get }
}

/// The typed contract every dialect's codec keeps, the same way: the bytes of one unit (a
/// WebSocket message; for a stream of MQTT packets, the packets the bytes hold), given as `input`
/// says, decode to a value with its summary and findings; a value encodes to bytes; a decoded
/// value has its canonical JSON. A dialect connection decodes through it, and its
/// `CanonicalCodec` (canonical JSON both ways, what `imwire decode` and `encode` use) is built on it.
package protocol WireCodec: Sendable {
    associatedtype Decoded: WireDecoded
    /// What `encode` writes: a command, a packet, an event.
    associatedtype Value

    func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> Decoded
    func encode(_ value: Value) -> [UInt8]
    /// The canonical JSON of `decoded` (Spec/canonical-json.md), nil when nothing decoded.
    func canonicalJSON(_ decoded: Decoded) -> JSONValue?
}

extension WireCodec {
    /// The decoding of one frame as `imwire decode` shows it: `{"decoded", "summary", "findings"}`.
    package func canonicalFrame(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        let decoded = decodeValue(bytes, as: input)
        return .frame(canonicalJSON(decoded), summary: decoded.summary, findings: decoded.findings)
    }
}

/// The units a stream codec decoded from some bytes (MQTT packets), in order.
package struct DecodedUnits<Unit: WireDecoded>: WireDecoded {
    package var units: [Unit]

    package init(_ units: [Unit]) { self.units = units }

    /// The units' summaries, comma-separated; `(no packet)` when the bytes completed none.
    package var summary: String { units.isEmpty ? "(no packet)" : units.map(\.summary).joined(separator: ", ") }
    /// Every unit's findings, in order.
    package var findings: [Finding] { units.flatMap(\.findings) }
}
