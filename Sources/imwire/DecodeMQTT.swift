import ArgumentParser
import IMWire

/// `imwire decode --dialect mqtt|yun2win`: the input is MQTT bytes (one packet or a stream of
/// them, as hex or a raw file), or, for yun2win, a PUBLISH payload given with --text. Each packet
/// prints as canonical JSON (`mqtt`: the packet; `yun2win`: `{"mqtt", "yun2win"}`); with
/// --format json or --lines, as an envelope with its stream offset, length and findings (offsets
/// from the packet's first byte; stream-level findings under `findings`).
extension Decode {
    func runMQTT() throws {
        let yun2win = options.dialect == .yun2win
        if lines {
            var worst: Int32 = 0
            for line in try readInput(binaryAsHex: true).split(separator: 0x0a, omittingEmptySubsequences: true) {
                var text = String(decoding: line, as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                let bytes: [UInt8]
                do { bytes = try Hex.decode(text) } catch {
                    print(JSONWriter.string(["error": .string(error.description)]))
                    worst = 2
                    continue
                }
                let result = decodeStream(bytes, yun2win: yun2win)
                print(JSONWriter.string(result.json))
                worst = max(worst, result.status)
            }
            throw ExitCode(worst)
        }
        if yun2win, let text {
            let (message, findings) = Yun2winCodec.decodePayload(Array(text.utf8), direction: direction)
            switch format {
            case .json:
                print(JSONWriter.pretty(["decoded": message.map(Yun2winCanonicalJSON.encode) ?? .null,
                                         "findings": .array(findings.map(JSONReport.json))]))
            case .text:
                if let message { print(JSONWriter.string(Yun2winCanonicalJSON.encode(message))) }
                for finding in findings { print("finding: \(finding)", to: &standardError) }
            }
            throw ExitCode(message == nil ? 2 : (findings.contains { $0.severity >= .warning } ? 1 : 0))
        }
        let result = decodeStream(try readInput(binaryAsHex: false), yun2win: yun2win)
        switch format {
        case .json:
            print(JSONWriter.pretty(result.json))
        case .text:
            for packet in result.packets {
                if let decoded = packet.decoded { print(JSONWriter.string(decoded)) }
                for finding in packet.findings {
                    print("finding: packet at \(packet.offset): \(finding)", to: &standardError)
                }
            }
        }
        throw ExitCode(result.status)
    }

    private struct StreamResult {
        struct Packet {
            let offset: Int
            let length: Int
            let summary: String
            let decoded: JSONValue?
            let findings: [Finding]
        }
        var packets: [Packet] = []

        var json: JSONValue {
            .object(JSONObject([JSONObject.Member(key: "packets", value: .array(packets.map { packet in
                var object = JSONObject()
                object.append("offset", .number(JSONNumber(packet.offset)))
                object.append("length", .number(JSONNumber(packet.length)))
                object.append("summary", .string(packet.summary))
                object.append("decoded", packet.decoded ?? .null)
                object.append("findings", .array(packet.findings.map(JSONReport.json)))
                return .object(object)
            }))]))
        }

        /// 2 when bytes were given and nothing decoded, 1 with a warning or error, else 0.
        var status: Int32 {
            if !packets.isEmpty, packets.allSatisfy({ $0.decoded == nil }) { return 2 }
            return packets.contains { $0.findings.contains { $0.severity >= .warning } } ? 1 : 0
        }
    }

    private func decodeStream(_ bytes: [UInt8], yun2win: Bool) -> StreamResult {
        var result = StreamResult()
        if yun2win {
            for packet in Yun2winCodec.decodeAll(bytes, direction: direction, version: mqttVersion) {
                result.packets.append(.init(offset: packet.mqtt.streamOffset, length: packet.mqtt.length, summary: packet.summary,
                                            decoded: packet.packet == nil ? nil : Yun2winCanonicalJSON.encode(packet),
                                            findings: packet.findings))
            }
        } else {
            for packet in MQTTStreamDecoder.decodeAll(bytes, options: MQTTDecodeOptions(version: mqttVersion)) {
                result.packets.append(.init(offset: packet.streamOffset, length: packet.length, summary: packet.summary,
                                            decoded: packet.packet.map(MQTTCanonicalJSON.encode), findings: packet.findings))
            }
        }
        return result
    }
}
