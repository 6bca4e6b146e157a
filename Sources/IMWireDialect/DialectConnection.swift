import IMWireCore
import IMWireReconnect

/// One connection as a dialect reads it: every message in order, with its direction and time,
/// in; for each, a `DialectObservation` (findings already located: frame, time, direction; a
/// summary and canonical JSON when asked for), and the session facts the reconnect judge needs,
/// out. Each dialect module implements
/// it once; the checker, `imwire convert`, the proxy and the tests all drive dialects through it.
///
/// A class changed in place by one owner at a time (the checker's lane that holds the
/// connection); implementations mark their state `@exclusivity(unchecked)` for speed, so they
/// are not `Sendable`.
public protocol DialectConnection: AnyObject {
    var dialect: Dialect { get }
    /// Decodes and checks one message.
    func observe(_ message: WireMessage, timeMicros: Int64, frameIndex: Int) -> DialectObservation
    /// A WebSocket ping frame crossed the connection (LeanCloud's heartbeat).
    func observePing(_ direction: Direction, timeMicros: Int64)
    /// The WebSocket closed with close code `code` (whoever sent it): a dialect whose server
    /// speaks through close codes (LeanCloud's 41xx) names it.
    func observeClose(code: Int, timeMicros: Int64, frameIndex: Int) -> [Finding]
    /// The connection ended (or the capture did) at `timeMicros`: requests still pending, a
    /// login never answered, packets cut short. `frameIndex` is the connection's last frame.
    func finish(atMicros timeMicros: Int64?, frameIndex: Int) -> [Finding]
    /// What the connection has shown about its client's session so far.
    var sessionFacts: SessionFacts { get }
}

extension DialectConnection {
    public func observePing(_ direction: Direction, timeMicros: Int64) {}
    public func observeClose(code: Int, timeMicros: Int64, frameIndex: Int) -> [Finding] { [] }
}

/// What a dialect made of one message, returned by `DialectConnection.observe`.
public struct DialectObservation: Sendable {
    /// Every finding about the message (codec and session), located.
    public var findings: [Finding]
    /// A one-line label (`session/open i=1`), when the context asked for it
    /// (`DialectContext.namesMessages`), else nil.
    public var summary: String?
    /// The canonical JSON (`imwire decode` prints the same), when the context asked for it
    /// (`DialectContext.describesMessages`), else nil.
    public var canonicalJSON: JSONValue?

    public init(findings: [Finding], summary: String? = nil, canonicalJSON: JSONValue? = nil) {
        self.findings = findings
        self.summary = summary
        self.canonicalJSON = canonicalJSON
    }
}

/// What a dialect connection is made with: what the connection negotiated, the options of the
/// run, and what the caller wants to see of each message.
public struct DialectContext: Sendable {
    public var limits: Limits
    /// `Sec-WebSocket-Protocol` as the server chose it, when there was one.
    public var subprotocol: String?
    /// The URL the client connected to, when the capture shows it.
    public var url: String?
    /// Every dialect's options; each reads its own.
    public var options: DialectOptionSet
    /// Fill `DialectObservation.summary` (the HTML report's diagrams); costs a string per message.
    public var namesMessages: Bool
    /// Fill `DialectObservation.canonicalJSON` (`imwire show`); costs a JSON tree per message.
    public var describesMessages: Bool
    /// The caller sees the client's other connections and decides across them what one
    /// connection cannot (`SessionFacts.earlyRequests`); without it the dialect decides alone.
    public var judgesAcrossConnections: Bool

    public init(
        limits: Limits = .default, subprotocol: String? = nil, url: String? = nil,
        options: DialectOptionSet = DialectOptionSet(), namesMessages: Bool = false, describesMessages: Bool = false,
        judgesAcrossConnections: Bool = false
    ) {
        self.limits = limits
        self.subprotocol = subprotocol
        self.url = url
        self.options = options
        self.namesMessages = namesMessages
        self.describesMessages = describesMessages
        self.judgesAcrossConnections = judgesAcrossConnections
    }
}

extension Array where Element == Finding {
    /// Puts the findings that name no message yet (a codec's know only their byte offsets) on
    /// message `frameIndex`, at `time` and in `direction`, about `subject` when one is given
    /// (worked out once, and only when a finding needs it): what every dialect connection does
    /// with its codec's findings and with those of its end.
    package mutating func place(
        onFrame frameIndex: Int, time: Int64?, direction: Direction? = nil, subject: (() -> String)? = nil
    ) {
        var named: String?
        for index in indices where self[index].location.frameIndex == nil {
            self[index].location = Location(frameIndex: frameIndex, time: time, direction: direction)
            if let subject {
                if named == nil { named = subject() }
                self[index].subject = named
            }
        }
    }
}
