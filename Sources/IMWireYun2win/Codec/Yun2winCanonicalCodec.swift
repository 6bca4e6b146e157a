import IMWireCore
import IMWireMQTT

/// yun2win packets and their canonical JSON (`{"mqtt": …, "yun2win": …}` per packet): decoding
/// reads a stream of MQTT packets, or one PUBLISH payload (a JSON command) given as such.
package struct Yun2winCanonicalCodec: CanonicalCodec {
    /// The MQTT version to read under; nil: the CONNECT's in the input, else 3.1.1.
    package var version: MQTTVersion?
    package var limits: Limits

    package init(version: MQTTVersion? = nil, limits: Limits = .default) {
        self.version = version
        self.limits = limits
    }

    package static let definition = CanonicalCodecDefinition(
        name: Dialect.yun2win.rawValue, options: [MQTTCanonicalCodec.versionOption],
        jsonForm: #"one MQTT packet, bare or as {"mqtt": …, "yun2win": …}."#,
        unit: { _ in .packets(payloadText: true) },
        make: { Yun2winCanonicalCodec(version: $0["mqtt-version", as: MQTTVersion.self]) })

    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        if input.isPayload {
            let (message, findings) = Yun2winCodec.decodePayload(bytes, direction: input.direction, limits: limits)
            let decoded = message.map(Yun2winCanonicalJSON.encode)
            return CanonicalDecoding(
                parts: [.init(decoded: decoded, findings: findings)],
                envelope: ["decoded": decoded ?? .null, "findings": .array(findings.map { $0.json() })])
        }
        let packets = Yun2winCodec.decodeAll(bytes, direction: input.direction, version: version, limits: limits)
        return MQTTCanonicalCodec.stream(
            packets.map { packet in
                (
                    packet.mqtt.streamOffset, packet.mqtt.length, packet.summary,
                    packet.packet == nil ? JSONValue?.none : .some(Yun2winCanonicalJSON.encode(packet)), packet.findings
                )
            })
    }

    /// One MQTT packet (the `yun2win` part of the JSON is what the packet means: not needed to write it).
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        try MQTTCanonicalCodec(limits: limits).encode(json)
    }
}
