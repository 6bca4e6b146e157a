import IMWireCore
import IMWireDialect
import IMWireMQTT
import IMWireReconnect

/// One yun2win connection: the bytes of each direction, in any chunking (MQTT packets from raw
/// TCP, WebSocket binary messages), go through their own MQTT stream, and every packet through
/// the session tracker. The server's stream is read under the version of the client's CONNECT.
/// Codec findings get their frame, time and direction here; logins, kicks and keep-alives become
/// the session facts the reconnect judge reads (an automatic reconnect after a kick spans
/// connections: `Yun2winDialect.relogin`).
public final class Yun2winConnection: DialectConnection {
    public let dialect = Dialect.yun2win
    @exclusivity(unchecked) private var client: Yun2winCodec
    @exclusivity(unchecked) private var server: Yun2winCodec
    @exclusivity(unchecked) public private(set) var tracker: Yun2winSessionTracker
    @exclusivity(unchecked) public private(set) var sessionFacts = SessionFacts()
    private let namesMessages: Bool
    private let describesMessages: Bool

    public init(
        options: Yun2winSessionOptions = Yun2winSessionOptions(), limits: Limits = .default,
        kickedUIDs: Set<String> = [], namesMessages: Bool = false, describesMessages: Bool = false
    ) {
        client = Yun2winCodec(limits: limits)
        server = Yun2winCodec(limits: limits)
        tracker = Yun2winSessionTracker(options: options, kickedUIDs: kickedUIDs, maxTracked: limits.maxPendingRequests)
        self.namesMessages = namesMessages
        self.describesMessages = describesMessages
    }

    public convenience init(_ context: DialectContext) {
        self.init(
            options: context.options[Yun2winSessionOptions.self], limits: context.limits,
            namesMessages: context.namesMessages, describesMessages: context.describesMessages)
    }

    /// Uids kicked so far, for the tracker of the client's next connection.
    public var kickedUIDs: Set<String> { tracker.kickedUIDs }

    /// Decodes and checks the next bytes of one direction: the packets they complete, and the
    /// observation (every finding, codec and session).
    public func observe(_ bytes: [UInt8], direction: Direction, timeMicros time: Int64, frameIndex: Int)
        -> (packets: [Yun2winDecodedPacket], observation: DialectObservation)
    {
        let packets: [Yun2winDecodedPacket]
        switch direction {
        case .send:
            packets = client.feed(bytes, direction: .send)
            server.assume(client.version)
        case .receive:
            packets = server.feed(bytes, direction: .receive)
        }
        for packet in packets { note(packet, direction: direction, time: time, frame: frameIndex) }
        var observation = DialectObservation(
            findings: check(packets, direction: direction, time: time, frameIndex: frameIndex))
        if namesMessages {
            observation.summary =
                packets.isEmpty ? "(part of a packet)" : packets.map(\.summary).joined(separator: ", ")
        }
        if describesMessages {
            let described = packets.filter { $0.packet != nil }.map(Yun2winCanonicalJSON.encode)
            observation.canonicalJSON = described.count == 1 ? described[0] : .array(described)
        }
        return (packets, observation)
    }

    public func observe(_ message: WireMessage, timeMicros: Int64, frameIndex: Int) -> DialectObservation {
        observePackets(message, timeMicros: timeMicros, frameIndex: frameIndex).observation
    }

    /// As `observe(_:timeMicros:frameIndex:)` for one WebSocket message (a text message is
    /// reported: MQTT travels in binary ones) or one chunk of raw TCP: the packets it completed,
    /// and the observation.
    package func observePackets(_ message: WireMessage, timeMicros: Int64, frameIndex: Int)
        -> (packets: [Yun2winDecodedPacket], observation: DialectObservation)
    {
        var findings: [Finding] = []
        if message.frameType == .text {  // raw TCP arrives as binary
            findings.append(
                MQTTRules.webSocketTextFrame.finding("\(message.payload.count) bytes of MQTT in a text frame", at: 0))
            findings.place(onFrame: frameIndex, time: timeMicros, direction: message.direction)
        }
        var observed = observe(
            message.payload, direction: message.direction, timeMicros: timeMicros, frameIndex: frameIndex)
        observed.observation.findings = findings + observed.observation.findings
        return observed
    }

    private func check(_ packets: [Yun2winDecodedPacket], direction: Direction, time: Int64?, frameIndex: Int)
        -> [Finding]
    {
        var findings: [Finding] = []
        for packet in packets {
            var codecFindings = packet.findings
            codecFindings.place(onFrame: frameIndex, time: time, direction: direction) { packet.summary }
            findings += codecFindings
            findings += tracker.observe(packet, direction: direction, timeMicros: time ?? 0, frameIndex: frameIndex)
        }
        return findings
    }

    /// The connection ended: packets cut short in either direction, and commands still waiting.
    public func finish(atMicros time: Int64?, frameIndex: Int) -> [Finding] {
        var findings = check(client.finish(direction: .send), direction: .send, time: time, frameIndex: frameIndex)
        findings += check(server.finish(direction: .receive), direction: .receive, time: time, frameIndex: frameIndex)
        return findings + tracker.finish(atMicros: time)
    }

    /// Spec/reconnect.md §6: CONNECT (client id prefix 1 is the reconnect flag, the second digit
    /// names the platform's policy), CONNACK, PUBLISH returnCode 11 (logged in) and 10 (kicked),
    /// DISCONNECT; every client packet keeps the connection alive.
    private func note(_ packet: Yun2winDecodedPacket, direction: Direction, time: Int64, frame: Int) {
        if direction == .send, packet.packet != nil { sessionFacts.keepAlive.record(time) }
        switch packet.message {
        case .connect(let connect)?:
            sessionFacts.loginSent(
                atMicros: time, frame: frame, reconnectFlag: connect.parsedClientID?.isReconnect, client: connect.uid)
            if let platform = connect.parsedClientID?.platform {
                sessionFacts.policyName =
                    sessionFacts.policyName
                    ?? Yun2winPolicies.policy(forClientIDPlatformDigit: platform.digit)?.name
            }
        case .connack(let code)? where code != 0:
            sessionFacts.ended(.loginRejected(code: Int64(code), waitMicros: nil), atMicros: time)
        case .server(.connectionReturn(11), _)?:
            sessionFacts.loginAccepted(atMicros: time)
        case .server(.connectionReturn(10), _)?:
            sessionFacts.ended(.kicked(code: 10), atMicros: time)
        default:
            if direction == .send, case .disconnect? = packet.packet {
                sessionFacts.ended(.clientLogout, atMicros: time)
            }
        }
    }
}
