import IMWireCore
import IMWireMQTT
import IMWireYun2win

enum MQTTFuzzing {
    /// One direction of an MQTT connection, read as yun2win. Variant: the MQTT version (learned
    /// from the CONNECT, 3.1, 3.1.1, learned); extra bits 0-1: the direction (none, send, receive).
    ///
    /// Invariants: any chunking gives the same packets and findings; the MQTT layer alone gives
    /// the same packets; what decodes re-encodes and decodes to the same packet (and through its
    /// canonical JSON); a yun2win command or server message re-encodes as a payload that decodes
    /// to the same message; no packet body is held past `Limits.maxFrameSize`; findings are
    /// deterministic.
    static func stream(_ input: FuzzInput) -> [String] {
        let version: MQTTVersion? = [nil, .v3_1, .v3_1_1, nil][input.variant]
        let direction: Direction? = [nil, .send, .receive, nil][input.extra & 3]
        let limits = input.limits
        let whole = Yun2winCodec.decodeAll(input.payload, direction: direction, version: version, limits: limits)
        var codec = Yun2winCodec(version: version, limits: limits)
        var chunked: [Yun2winDecodedPacket] = []
        for chunk in input.chunks { chunked += codec.feed(Array(chunk), direction: direction) }
        chunked += codec.finish(direction: direction)
        var violations: [String] = []
        if whole != chunked { violations.append("a second chunking gives other packets") }
        let options = MQTTDecodeOptions(
            version: version, limits: limits, vendorConnackCodes: Yun2winStatusCodes.vendorConnackCodes)
        if MQTTStreamDecoder.decodeAll(input.payload, options: options) != whole.map(\.mqtt) {
            violations.append("the MQTT layer alone gives other packets")
        }
        var (start, end) = (0, 0)
        for decoded in whole {
            // A packet skipped for its size is reported again, at the same offset, when the stream
            // ends before its end.
            let again = decoded.packet == nil && decoded.mqtt.streamOffset == start
            if decoded.mqtt.streamOffset < end, !again {
                violations.append("packet at \(decoded.mqtt.streamOffset) overlaps the one before")
            }
            (start, end) = (decoded.mqtt.streamOffset, decoded.mqtt.streamOffset + decoded.mqtt.length)
            guard let packet = decoded.packet else { continue }
            if decoded.mqtt.length > limits.maxFrameSize + 5 {
                violations.append("a packet of \(decoded.mqtt.length) bytes was decoded past maxFrameSize")
            }
            violations += packetRoundTrip(packet, version: decoded.mqtt.version)
            if let message = decoded.message { violations += messageRoundTrip(message) }
        }
        return violations
    }

    private static func packetRoundTrip(_ packet: MQTTPacket, version: MQTTVersion) -> [String] {
        var violations: [String] = []
        let bytes = MQTTPacketEncoder.encode(packet)
        let again = MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: version))
        if again.count != 1 || again.first?.packet != packet {
            violations.append(
                "\(packet.summary) re-encodes to \(Hex.encode(bytes)), which decodes to \(again.map(\.summary))")
        }
        let json = MQTTCanonicalJSON.encode(packet)
        if (try? MQTTCanonicalJSON.decode(json)) != packet {
            violations.append("\(packet.summary) does not survive its canonical JSON")
        }
        return violations
    }

    private static func messageRoundTrip(_ message: Yun2winMessage) -> [String] {
        let again: Yun2winMessage?
        switch message {
        case .command(let command, let topic):
            again = Yun2winCodec.decodePayload(command.payload, topic: topic.name, direction: .send).0
        case .server(let server, let topic):
            again =
                Yun2winCodec.decodePayload(
                    Array(JSONWriter.string(server.json).utf8), topic: topic, direction: .receive
                ).0
        case .connect, .connack:
            return []
        }
        return again == message
            ? [] : ["yun2win \(message) re-encodes to a payload that decodes to \(again.map { "\($0)" } ?? "nothing")"]
    }
}
