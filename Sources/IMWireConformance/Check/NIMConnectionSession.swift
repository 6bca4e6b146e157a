import IMWireCapture
import IMWireCore
import IMWireNIM
import IMWireReconnect

/// NIM's Web link on one connection: each WebSocket text message through socket.io 0.9, the NIM
/// codec and the session tracker. A re-login after a kick or a refused login spans connections:
/// the checker finds it at the end from the reconnect facts (`ReconnectCheck.swift`).
final class NIMConnectionSession: DialectSession {
    let dialect = Dialect.nim
    @exclusivity(unchecked) private var connection: NIMConnection
    @exclusivity(unchecked) private var lastFrame = 0
    @exclusivity(unchecked) private(set) var reconnectFacts = ReconnectFacts()

    init(options: CheckOptions) {
        connection = NIMConnection(options: options.nim, limits: options.limits)
    }

    func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        let (decoded, findings) = connection.observe(message.payload, direction: message.direction, time: time, frameIndex: frameIndex)
        for item in decoded.items { note(item.nim, direction: message.direction, time: time, frame: frameIndex) }
        return findings
    }

    /// Spec/reconnect.md §6: login 2_3 and its answer (416 with its wait), heartbeats 1_2,
    /// kicked 2_5 and the client's logout 2_6.
    private func note(_ packet: NIMPacket?, direction: Direction, time: Int64, frame: Int) {
        switch packet {
        case .request(let request)? where direction == .send:
            if request.isHeartbeat {
                reconnectFacts.keepAlive.record(time)
            } else if request.isLogin {
                reconnectFacts.loginSent(at: time, frame: frame, reconnectFlag: nil, client: request.field("account")?.stringValue)
            } else if (request.sid, request.cid) == (2, 6) {
                reconnectFacts.ended(.clientLogout, at: time)
            }
        case .response(let response)? where direction == .receive:
            if (response.sid, response.cid) == (Int64(NIMCommands.login.sid), Int64(NIMCommands.login.cid)) {
                if response.isSuccess {
                    reconnectFacts.loginAccepted(at: time)
                } else {
                    // 416: r[0] is the lockout in seconds (nim.md §1.1).
                    let wait = response.code == 416 ? response.r?.first?.int64Value.map { $0.multipliedReportingOverflow(by: 1_000_000).partialValue } : nil
                    reconnectFacts.ended(.loginRejected(code: response.code, waitMicros: wait), at: time)
                }
            } else if (response.sid, response.cid) == (Int64(NIMCommands.kicked.sid), Int64(NIMCommands.kicked.cid)) {
                reconnectFacts.ended(.kicked(code: response.r?.dropFirst().first?.int64Value ?? 0), at: time)
            }
        default:
            break
        }
    }

    func finish(at time: Int64?) -> [Finding] { connection.finish(at: time, frameIndex: lastFrame) }
}
