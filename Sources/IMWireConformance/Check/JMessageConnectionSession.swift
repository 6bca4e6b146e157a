import IMWireCapture
import IMWireCore
import IMWireJMessage

/// JMessage's Web protocol on one connection: each WebSocket message (text packets, binary
/// attachments) through engine.io 3, socket.io 4, the JMessage codec and the session tracker.
struct JMessageConnectionSession: DialectSession {
    let dialect = Dialect.jmessage
    private var connection: JMessageConnection
    private var lastFrame = 0

    init(options: CheckOptions) {
        connection = JMessageConnection(options: options.jmessage, limits: options.limits)
    }

    mutating func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        return connection.observe(message.payload, binaryFrame: message.frameType == .binary, direction: message.direction,
                                  time: time, frameIndex: frameIndex).findings
    }

    mutating func finish(at time: Int64?) -> [Finding] { connection.finish(at: time, frameIndex: lastFrame) }
}
