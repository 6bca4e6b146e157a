import IMWireCore
import IMWireMQTT

/// CONNECT as yun2win reads it: uid, imToken and the client id's parts.
public struct Yun2winConnect: Sendable, Hashable {
    public var uid: String?
    public var token: String?
    public var clientID: String
    /// The parsed client id, when it has the `[01][012]` prefix.
    public var parsedClientID: Yun2winClientID?
    public var version: MQTTVersion?
    public var keepAlive: UInt16
}

/// What one MQTT packet means to yun2win.
public enum Yun2winMessage: Sendable, Hashable {
    case connect(Yun2winConnect)
    /// The CONNACK return code, with its yun2win meaning (`ConnectionReturnCode`).
    case connack(returnCode: UInt8)
    /// A client command, with the topic it was published to.
    case command(Yun2winCommand, topic: Yun2winTopic)
    /// A server PUBLISH payload.
    case server(Yun2winServerMessage, topic: String)
}

/// One decoded packet: MQTT's view, yun2win's view when the packet has one, and every finding of
/// both layers (offsets from the packet's first byte).
public struct Yun2winDecodedPacket: WireDecoded, Hashable {
    public var mqtt: MQTTDecodedPacket
    public var message: Yun2winMessage?
    public var findings: [Finding]
    /// A client command that did not decode (a field of the wrong type, say) but names its
    /// `y2wMessageId`: the session still waits for its ack, so the defect is reported once.
    public var malformedCommandID: String?

    public var packet: MQTTPacket? { mqtt.packet }

    /// `PUBLISH q0 y2w/session/p2p_1 sendMessage id=…`.
    public var summary: String {
        switch message {
        case .command(let command, _)?:
            return "\(mqtt.summary) \(command.cmd)\(command.y2wMessageID.map { " id=\($0)" } ?? "")"
        case .server(.sendAck(let ack), _)?:
            return "\(mqtt.summary) ack \(ack.returnCode) id=\(ack.y2wMessageID)"
        case .server(.connectionReturn(let code), _)?:
            return "\(mqtt.summary) returnCode \(code)"
        default:
            return mqtt.summary
        }
    }
}

/// Decodes yun2win traffic: MQTT packets from a byte stream in any chunking, then the yun2win
/// meaning of each. Direction decides how a PUBLISH payload is read (a client command or a
/// server message); without one, a payload with `returnCode` is read as the server's.
public struct Yun2winCodec: WireCodec {
    public var limits: Limits
    private var stream: MQTTStreamDecoder

    public init(version: MQTTVersion? = nil, limits: Limits = .default) {
        self.limits = limits
        stream = MQTTStreamDecoder(
            options: MQTTDecodeOptions(
                version: version, limits: limits,
                vendorConnackCodes: Yun2winStatusCodes.vendorConnackCodes))
    }

    public var version: MQTTVersion { stream.version }

    /// Reads further packets under `version` (the server's side follows the client's CONNECT).
    public mutating func assume(_ version: MQTTVersion) { stream.options.version = version }

    /// A complete byte string of one direction, read from the start under this codec's version:
    /// every packet in it, a packet cut short reported (a connection reads through `feed`).
    package func decodeValue(_ bytes: [UInt8], as input: CanonicalInput) -> DecodedUnits<Yun2winDecodedPacket> {
        DecodedUnits(Self.decodeAll(bytes, direction: input.direction, version: version, limits: limits))
    }

    package func encode(_ packet: MQTTPacket) -> [UInt8] { MQTTPacketEncoder.encode(packet) }

    /// `[{"mqtt": …, "yun2win": …}]`, a member per packet that decoded.
    package func canonicalJSON(_ decoded: DecodedUnits<Yun2winDecodedPacket>) -> JSONValue? {
        let packets = decoded.units.filter { $0.packet != nil }
        return packets.isEmpty ? .none : .some(.array(packets.map { Yun2winCanonicalJSON.encode($0) }))
    }

    /// Feeds the next bytes of one direction of the connection.
    public mutating func feed(_ bytes: [UInt8], direction: Direction?) -> [Yun2winDecodedPacket] {
        stream.feed(bytes).map { Self.interpret($0, direction: direction, limits: limits) }
    }

    /// Ends the stream: a packet cut short is reported.
    public mutating func finish(direction: Direction?) -> [Yun2winDecodedPacket] {
        stream.finish().map { Self.interpret($0, direction: direction, limits: limits) }
    }

    /// Decodes a complete byte string of one direction.
    public static func decodeAll(
        _ bytes: [UInt8], direction: Direction?, version: MQTTVersion? = nil,
        limits: Limits = .default
    ) -> [Yun2winDecodedPacket] {
        var codec = Yun2winCodec(version: version, limits: limits)
        return codec.feed(bytes, direction: direction) + codec.finish(direction: direction)
    }

    /// yun2win's reading of one MQTT packet.
    public static func interpret(_ decoded: MQTTDecodedPacket, direction: Direction?, limits: Limits = .default)
        -> Yun2winDecodedPacket
    {
        var findings = decoded.findings
        var message: Yun2winMessage?
        var malformedCommandID: String?
        switch decoded.packet {
        case .connect(let connect)?:
            message = .connect(interpretConnect(connect, findings: &findings))
        case .connack(let connack)?:
            checkConnack(connack.returnCode, findings: &findings)
            message = .connack(returnCode: connack.returnCode)
        case .publish(let publish)?:
            // The topic's 2-byte length sits before the topic, the packet id and the payload.
            let topicOffset = max(
                0,
                decoded.length - publish.payload.count - (publish.packetID == nil ? 0 : 2)
                    - publish.topic.utf8.count - 2)
            let (meaning, payloadFindings, salvaged) = interpretPayload(
                publish.payload, topic: publish.topic, direction: direction,
                payloadOffset: decoded.length - publish.payload.count,
                topicOffset: topicOffset, limits: limits)
            message = meaning
            malformedCommandID = salvaged
            findings += payloadFindings
            if case .command? = meaning, publish.qos != .atMostOnce || publish.retain {
                findings.append(
                    Yun2winRules.publishConvention.finding(
                        "QoS \(publish.qos.rawValue)\(publish.retain ? ", retain" : "") on a command", at: 0))
            }
        default:
            break
        }
        return Yun2winDecodedPacket(
            mqtt: decoded, message: message, findings: findings, malformedCommandID: malformedCommandID)
    }

    /// yun2win's reading of a PUBLISH payload on its own (e.g. a JSON command given as text):
    /// offsets are from the payload's first byte; without a topic, topics are not checked.
    public static func decodePayload(
        _ payload: [UInt8], topic: String? = nil, direction: Direction?,
        limits: Limits = .default
    ) -> (Yun2winMessage?, [Finding]) {
        let (message, findings, _) = interpretPayload(
            payload, topic: topic, direction: direction, payloadOffset: 0, topicOffset: nil,
            limits: limits)
        return (message, findings)
    }

    /// The payload's meaning and findings, and the `y2wMessageId` of a client command that did not decode.
    private static func interpretPayload(
        _ payload: [UInt8], topic name: String?, direction: Direction?, payloadOffset: Int,
        topicOffset: Int?, limits: Limits
    ) -> (Yun2winMessage?, [Finding], String?) {
        var reader = PayloadDecoder(base: payloadOffset)
        var findings: [Finding] = []
        var message: Yun2winMessage?
        var salvagedID: String?
        let object = reader.object(payload, limits: limits)
        let fromServer = direction.map { $0 == .receive } ?? (object?["returnCode"] != nil)
        if let object {
            if fromServer {
                message = reader.serverMessage(object).map { .server($0, topic: name ?? "") }
            } else {
                let topic = Yun2winTopic(name ?? "")
                if let command = reader.command(object) {
                    message = .command(command, topic: topic)
                    if name != nil { checkTopic(command, topic, at: topicOffset, findings: &findings) }
                } else {
                    salvagedID = object["y2wMessageId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                    if name != nil, case .other = topic {
                        findings.append(Yun2winRules.topicUnknown.finding("topic \"\(name ?? "")\"", at: topicOffset))
                    }
                }
            }
        }
        return (message, reader.findings + findings, salvagedID)
    }

    private static func checkTopic(
        _ command: Yun2winCommand, _ topic: Yun2winTopic, at offset: Int?, findings: inout [Finding]
    ) {
        switch (command, topic) {
        case (.updateToken, .single), (.sendMessage, .session), (.updateSession, .session):
            return
        case (_, .other(let name)):
            findings.append(Yun2winRules.topicUnknown.finding("\(command.cmd) to topic \"\(name)\"", at: offset))
        default:
            findings.append(
                Yun2winRules.topicCommandMismatch.finding("\(command.cmd) to topic \"\(topic.name)\"", at: offset))
        }
    }

    private static func interpretConnect(_ connect: MQTTConnect, findings: inout [Finding]) -> Yun2winConnect {
        let token = connect.password.map { String(decoding: $0, as: UTF8.self) }
        if connect.username?.isEmpty ?? true {
            findings.append(Yun2winRules.usernameMissing.finding("CONNECT carries no uid in the user name", at: 0))
        }
        if token?.isEmpty ?? true {
            findings.append(Yun2winRules.passwordMissing.finding("CONNECT carries no imToken in the password", at: 0))
        }
        let parsed = Yun2winClientID.parse(connect.clientID)
        if let parsed {
            if parsed.hasWellFormedUUID,
                let index = findings.firstIndex(where: { $0.ruleID == MQTTRules.clientIDTooLongV31.id })
            {
                // The vendor's own ids are 38 characters on MQTT 3.1 (the Android SDK), and the
                // brokers it runs on accept them: for yun2win the 3.1 limit is information only.
                findings[index].severity = .info
                findings[index].message +=
                    "; a yun2win SDK client id (prefix, platform, uuid), which yun2win's broker accepts"
            }
            if !parsed.hasWellFormedUUID {
                findings.append(
                    Yun2winRules.clientIDFormat.finding(
                        "client id \"\(connect.clientID)\": \"\(parsed.uuid)\" is not an 8-4-4-4-12 hex uuid", at: 0))
            }
            var deviations: [String] = []
            let platform = parsed.platform
            if let version = connect.version, version != platform.mqttVersion {
                deviations.append("MQTT \(version) (the \(platform.rawValue) SDK uses \(platform.mqttVersion))")
            }
            if connect.keepAlive != platform.keepAlive {
                deviations.append(
                    "keep-alive \(connect.keepAlive) s (the \(platform.rawValue) SDK uses \(platform.keepAlive) s)")
            }
            if !connect.cleanSession { deviations.append("clean session 0") }
            if connect.will != nil { deviations.append("a will") }
            if !deviations.isEmpty {
                findings.append(Yun2winRules.connectConvention.finding(deviations.joined(separator: ", "), at: 0))
            }
        } else {
            findings.append(
                Yun2winRules.clientIDFormat.finding(
                    "client id \"\(connect.clientID)\" does not start with [0|1][0 web|1 Android|2 iOS]", at: 0))
        }
        return Yun2winConnect(
            uid: connect.username, token: token, clientID: connect.clientID, parsedClientID: parsed,
            version: connect.version, keepAlive: connect.keepAlive)
    }

    private static func checkConnack(_ code: UInt8, findings: inout [Finding]) {
        let number = Int64(code)
        switch code {
        case 0:
            return
        case 1:
            findings.append(
                Yun2winRules.connackCodeUnused.finding("CONNACK 1; yun2win signals a protocol error with 3", at: 3))
        default:
            guard let row = Yun2winStatusCodes.connectionReturn(number) ?? Yun2winStatusCodes.sendReturn(number) else {
                findings.append(Yun2winRules.returnCodeUnknown.finding("CONNACK return code \(code)", at: 3))
                return
            }
            switch row.travel {
            case .connack:
                let note = row.confidence == .confirmed ? "" : " (\(row.confidence.rawValue) how it travels)"
                findings.append(
                    Yun2winRules.connackMeaning.finding("CONNACK \(code) is \(row.name): \(row.meaning)\(note)", at: 3))
            case .clientLocal:
                findings.append(
                    Yun2winRules.clientLocalCodeOnWire.finding(
                        "\(code) \(row.name) is generated by client SDKs only", at: 3))
            default:
                findings.append(
                    Yun2winRules.returnCodeWrongTravel.finding(
                        "\(code) \(row.name) travels in a PUBLISH payload, not in CONNACK", at: 3))
            }
        }
    }
}

// The imToken logs the user in: formatted (`print`, interpolation, `String(reflecting:)`,
// `dump`), a yun2win CONNECT shows every field but it, which appears as its length only.
extension Yun2winConnect: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Every field as the default description writes it, the token as its length:
    /// `Yun2winConnect(uid: Optional("u1"), token: 32 bytes, clientID: "00…", …)`.
    public var description: String {
        """
        Yun2winConnect(uid: \(String(reflecting: uid)), token: \(tokenLength ?? "nil"), clientID: \
        \(String(reflecting: clientID)), parsedClientID: \(String(reflecting: parsedClientID)), \
        version: \(String(reflecting: version)), keepAlive: \(keepAlive))
        """
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "uid": uid as Any, "token": tokenLength as Any, "clientID": clientID,
                "parsedClientID": parsedClientID as Any,
                "version": version as Any, "keepAlive": keepAlive,
            ], displayStyle: .struct)
    }

    private var tokenLength: String? { token.map(CredentialFields.length) }
}
