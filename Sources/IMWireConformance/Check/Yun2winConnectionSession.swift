import IMWireCapture
import IMWireCore
import IMWireYun2win

/// yun2win on one connection: each direction's bytes (TCP segments or WebSocket binary messages,
/// in any chunking) through its MQTT stream, every packet through the session tracker, and the
/// kicked uids shared with the client's later connections.
struct Yun2winConnectionSession: DialectSession {
    let dialect = Dialect.yun2win
    private var connection: Yun2winConnection
    private let context: CaptureContext
    private var lastFrame = 0
    private(set) var lastSummary: String?

    init(options: CheckOptions, context: CaptureContext) {
        connection = Yun2winConnection(options: options.yun2win, limits: options.limits, kickedUIDs: context.kickedYun2winUIDs)
        self.context = context
    }

    mutating func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        lastFrame = frameIndex
        let observed = connection.observe(message.payload, direction: message.direction, time: time, frameIndex: frameIndex)
        context.kickedYun2winUIDs.formUnion(connection.kickedUIDs)
        // Raw TCP chunks can hold several packets, or only part of one.
        lastSummary = observed.packets.isEmpty ? "(part of a packet)" : observed.packets.map(\.summary).joined(separator: ", ")
        return observed.findings
    }

    mutating func finish(at time: Int64?) -> [Finding] {
        let findings = connection.finish(at: time, frameIndex: lastFrame)
        context.kickedYun2winUIDs.formUnion(connection.kickedUIDs)
        return findings
    }
}
