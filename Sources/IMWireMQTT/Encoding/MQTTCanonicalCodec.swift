import IMWireCore

/// MQTT packets, without a dialect, and their canonical JSON (`MQTTCanonicalJSON`): decoding
/// reads a stream of packets (one or more), encoding writes one.
package struct MQTTCanonicalCodec: CanonicalCodec, WireCodec {
    /// The version to read under; nil: the CONNECT's in the input, else 3.1.1.
    package var version: MQTTVersion?
    package var limits: Limits

    package init(version: MQTTVersion? = nil, limits: Limits = .default) {
        self.version = version
        self.limits = limits
    }

    package static let definition = CanonicalCodecDefinition(
        name: "mqtt", options: [versionOption], jsonForm: #"one MQTT packet, bare or as {"mqtt": …}."#,
        unit: { _ in .packets(payloadText: false) },
        make: { MQTTCanonicalCodec(version: $0["mqtt-version", as: MQTTVersion.self]) })

    /// The version packets are read under, as every codec over MQTT takes it.
    package static let versionOption = CanonicalCodecOption.oneOf(
        "mqtt-version", MQTTVersion.self, decodingOnly: true,
        help: "the MQTT version (default: from a CONNECT in the input, else 3.1.1).")

    package func decode(_ bytes: [UInt8], as input: CanonicalInput) -> CanonicalDecoding {
        let packets = decodeValue(bytes, as: input)
        return Self.stream(
            packets.units.map {
                ($0.streamOffset, $0.length, $0.summary, $0.packet.map(MQTTCanonicalJSON.encode), $0.findings)
            })
    }

    /// A complete byte string of one direction: every packet in it, a packet cut short reported.
    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> DecodedUnits<MQTTDecodedPacket> {
        DecodedUnits(MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: version, limits: limits)))
    }

    package func encode(_ packet: MQTTPacket) -> [UInt8] { MQTTPacketEncoder.encode(packet) }

    /// `[packet, …]`, a member per packet that decoded.
    package func canonicalJSON(_ decoded: DecodedUnits<MQTTDecodedPacket>) -> JSONValue? {
        let packets = decoded.units.compactMap(\.packet)
        return packets.isEmpty ? .none : .some(.array(packets.map { MQTTCanonicalJSON.encode($0) }))
    }

    /// One MQTT packet, as `decode` prints it or inside `{"mqtt": …}` (a yun2win decode's form).
    package func encode(_ json: JSONValue) throws(IMWireError) -> CanonicalEncoded {
        let packet = json["mqtt"] ?? json
        return CanonicalEncoded(bytes: MQTTPacketEncoder.encode(try MQTTCanonicalJSON.decode(packet)), binary: true)
    }

    /// The decoding of a packet stream: one part per packet (findings labelled with its stream
    /// offset), and `{"packets": [{offset, length, summary, decoded, findings}]}`.
    package static func stream(
        _ packets: [(offset: Int, length: Int, summary: String, decoded: JSONValue?, findings: [Finding])]
    )
        -> CanonicalDecoding
    {
        let parts = packets.map {
            CanonicalDecoding.Part(decoded: $0.decoded, label: "packet at \($0.offset)", findings: $0.findings)
        }
        let envelope = JSONValue.array(
            packets.map { packet in
                var object = JSONObject()
                object.append("offset", .number(JSONNumber(packet.offset)))
                object.append("length", .number(JSONNumber(packet.length)))
                object.append("summary", .string(packet.summary))
                object.append("decoded", packet.decoded ?? .null)
                object.append("findings", .array(packet.findings.map { $0.json() }))
                return .object(object)
            })
        return CanonicalDecoding(
            parts: parts, envelope: .object(JSONObject([JSONObject.Member(key: "packets", value: envelope)])))
    }
}
