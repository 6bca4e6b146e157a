import IMWireCapture
import IMWireCore
import IMWireLeanCloud

/// LeanCloud on one connection: the encoding from the subprotocol (or, without one, from each
/// frame's type), the codec, and the session tracker.
struct LeanCloudConnectionSession: DialectSession {
    let dialect = Dialect.leancloud
    let subprotocol: LeanCloudSubprotocol?
    let limits: Limits
    var tracker: LeanCloudSessionTracker
    private(set) var lastSummary: String?

    init(subprotocol: LeanCloudSubprotocol?, options: CheckOptions) {
        self.subprotocol = subprotocol
        limits = options.limits
        tracker = LeanCloudSessionTracker(options: options.leancloud)
    }

    mutating func observe(_ message: CapturedMessage, time: Int64, frameIndex: Int) -> [Finding] {
        var findings: [Finding] = []
        // The subprotocol picks the encoding; a frame of the other type is reported and decoded
        // the way its type implies (binary as protobuf, text as JSON or base64).
        var encoding = LeanCloudConnectionSession.encoding(implied: message)
        if let subprotocol {
            if (message.frameType == .text) != subprotocol.encoding.isText {
                findings.append(LeanCloudRules.frameTypeMismatch.finding(
                    "\(message.frameType) frame under \(subprotocol.name)", at: 0))
            } else {
                encoding = subprotocol.encoding
            }
        }
        let decoded = LeanCloudCodec(encoding: encoding, limits: limits).decode(message.payload)
        lastSummary = decoded.summary
        findings += decoded.findings
        let location = Location(frameIndex: frameIndex, time: time, direction: message.direction)
        for index in findings.indices {
            findings[index].location = location
            findings[index].subject = decoded.summary
        }
        return findings + tracker.observe(decoded, direction: message.direction, time: time, frameIndex: frameIndex)
    }

    mutating func finish(at time: Int64?) -> [Finding] { tracker.finish(at: time) }

    static func encoding(implied message: CapturedMessage) -> LeanCloudEncoding {
        if message.frameType == .binary { return .protobuf }
        return message.payload.first == UInt8(ascii: "{") ? .json : .base64
    }
}
