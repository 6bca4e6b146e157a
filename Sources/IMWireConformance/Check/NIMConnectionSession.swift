import IMWireCapture
import IMWireCore
import IMWireNIM

/// NIM's Web link on one connection: each WebSocket text message through socket.io 0.9, the NIM
/// codec and the session tracker, and the accounts whose session ended shared with the
/// client's later connections (an automatic re-login is a finding).
struct NIMConnectionSession: DialectSession {
    let dialect = Dialect.nim
    private var connection: NIMConnection
    private let context: CaptureContext
    private var lastFrame = 0

    init(options: CheckOptions, context: CaptureContext) {
        connection = NIMConnection(options: options.nim, limits: options.limits, endedAccounts: context.endedNIMAccounts)
        self.context = context
    }

    mutating func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        let findings = connection.observe(message.payload, direction: message.direction, time: time, frameIndex: frameIndex).findings
        context.endedNIMAccounts.merge(connection.endedAccounts) { _, new in new }
        return findings
    }

    mutating func finish(at time: Int64?) -> [Finding] { connection.finish(at: time, frameIndex: lastFrame) }
}
