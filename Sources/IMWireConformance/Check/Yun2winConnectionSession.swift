import IMWireCapture
import IMWireCore
import IMWireMQTT
import IMWireReconnect
import IMWireYun2win

/// yun2win on one connection: each direction's bytes (TCP segments or WebSocket binary messages,
/// in any chunking; a text message is reported and read all the same) through its MQTT stream,
/// and every packet through the session tracker. An automatic reconnect after a kick spans
/// connections: the checker finds it at the end from the reconnect facts (`ReconnectCheck.swift`).
final class Yun2winConnectionSession: DialectSession {
    let dialect = Dialect.yun2win
    @exclusivity(unchecked) private var connection: Yun2winConnection
    @exclusivity(unchecked) private var lastFrame = 0
    /// Named only when a diagram will show it (`CheckOptions.timelineLimit`).
    @exclusivity(unchecked) private(set) var lastSummary: String?
    private let namesMessages: Bool
    @exclusivity(unchecked) private(set) var reconnectFacts = ReconnectFacts()

    init(options: CheckOptions) {
        connection = Yun2winConnection(options: options.yun2win, limits: options.limits)
        namesMessages = options.timelineLimit > 0
    }

    func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        var findings: [Finding] = []
        if message.frameType == .text {  // raw TCP chunks arrive as binary
            findings.append(MQTTRules.webSocketTextFrame.finding("\(message.payload.count) bytes of MQTT in a text frame", at: 0))
        }
        let observed = connection.observe(message.payload, direction: message.direction, time: time, frameIndex: frameIndex)
        // Raw TCP chunks can hold several packets, or only part of one.
        if namesMessages {
            lastSummary = observed.packets.isEmpty ? "(part of a packet)" : observed.packets.map(\.summary).joined(separator: ", ")
        }
        for packet in observed.packets { note(packet, direction: message.direction, time: time, frame: frameIndex) }
        return findings + observed.findings
    }

    /// Spec/reconnect.md §6: CONNECT (client id prefix 1 is the reconnect flag, the second digit
    /// names the platform's policy), CONNACK, PUBLISH returnCode 11 (logged in) and 10 (kicked),
    /// DISCONNECT; every client packet keeps the connection alive.
    private func note(_ packet: Yun2winDecodedPacket, direction: Direction, time: Int64, frame: Int) {
        if direction == .send, packet.packet != nil { reconnectFacts.keepAlive.record(time) }
        switch packet.message {
        case .connect(let connect)?:
            reconnectFacts.loginSent(at: time, frame: frame, reconnectFlag: connect.parsedClientID?.isReconnect, client: connect.uid)
            if let platform = connect.parsedClientID?.platform {
                reconnectFacts.policy = reconnectFacts.policy ?? Yun2winPolicies.policy(forClientIDPlatformDigit: platform.digit)
            }
        case .connack(let code)? where code != 0:
            reconnectFacts.ended(.loginRejected(code: Int64(code), waitMicros: nil), at: time)
        case .server(.connectionReturn(11), _)?:
            reconnectFacts.loginAccepted(at: time)
        case .server(.connectionReturn(10), _)?:
            reconnectFacts.ended(.kicked(code: 10), at: time)
        default:
            if direction == .send, case .disconnect? = packet.packet { reconnectFacts.ended(.clientLogout, at: time) }
        }
    }

    func finish(at time: Int64?) -> [Finding] { connection.finish(at: time, frameIndex: lastFrame) }
}
