import IMWireCore

/// What one connection shows about its client's session, gathered by the dialect's connection
/// as messages pass (Spec/reconnect.md §6 lists what each dialect feeds): who logged in and when,
/// the heartbeats, and how the session ended. The checker groups connections by client and hands
/// each group, in order, to `ReconnectJudge`. Times are microseconds, as in the capture.
public struct SessionFacts: Sendable, Equatable {
    /// Who the client is: LeanCloud app and peer id, NIM account, JMessage username, yun2win uid.
    public var client: String?
    /// The first login of the connection (a login resent on the same connection keeps its time).
    public var login: LoginObservation?
    /// The frame of that login: the judge's findings about the connection point at it.
    public var loginFrame: Int?
    /// The client's heartbeats.
    public var keepAlive = KeepAliveLog()
    /// The heartbeats are application messages, so even a transcript of whole messages shows
    /// them (NIM 1_2, MQTT packets, LeanCloud `echo`); LeanCloud's WebSocket pings are not.
    public var keepAliveInMessages = true
    /// How the session ended, when a message said so (kick, refused login, logout, goaway).
    public var end: ConnectionEnd?
    public var endTimeMicros: Int64?
    /// The policy the connection itself names, by `--policy` name (yun2win: the client id's
    /// platform digit); the checker looks it up among the dialect's policies.
    public var policyName: String?
    /// When the transport came up (NIM: the socket.io connect `1::`), for policies whose backoff
    /// restarts there (`ReconnectPolicy.backoffResetsOnLink`).
    public var linkUp: Int64?
    /// Client requests before the connection's login whose verdict waits for the client's
    /// earlier connections (`EarlyRequest`), at most `maxCarried`.
    package var earlyRequests: [EarlyRequest] = []
    /// The keys (`EarlyRequest.key`) of the requests still unanswered when the connection
    /// ended, at most `maxCarried`: an SDK whose timers outlive the connection re-sends them on
    /// its next one.
    package var unansweredAtEnd: [String] = []
    package static let maxCarried = 32

    package init(keepAliveInMessages: Bool = true) {
        self.keepAliveInMessages = keepAliveInMessages
    }

    package mutating func loginSent(atMicros time: Int64, frame: Int, reconnectFlag: Bool?, client: String?) {
        if login == nil {
            login = LoginObservation(sent: time, reconnectFlag: reconnectFlag, accepted: nil)
            loginFrame = frame
        }
        self.client = self.client ?? client
    }

    package mutating func linkEstablished(atMicros time: Int64) {
        if linkUp == nil { linkUp = time }
    }

    package mutating func loginAccepted(atMicros time: Int64) {
        guard login != nil, login?.accepted == nil else { return }
        login?.accepted = time
        if case .loginRejected? = end { end = nil }
    }

    /// The first ending a message shows is the one that counts (a kick, then the close it causes).
    package mutating func ended(_ end: ConnectionEnd, atMicros time: Int64) {
        guard self.end == nil else { return }
        self.end = end
        endTimeMicros = time
    }
}

/// A client request early on a connection (before its login) that is an error when the client
/// made it there, and a re-send when one of the client's earlier connections ended with it
/// unanswered (JMessage Web: its ack timers re-send a request with the same rid on whatever
/// transport is up, before that transport's c_init). The checker decides across connections.
public struct EarlyRequest: Sendable, Hashable {
    /// What names the request on every connection (JMessage: `sync_check rid=12`).
    public var key: String
    /// The finding when no earlier connection left it unanswered (located).
    public var ifNew: Finding
    /// The finding when one did (located).
    public var ifCarried: Finding

    package init(key: String, ifNew: Finding, ifCarried: Finding) {
        self.key = key
        self.ifNew = ifNew
        self.ifCarried = ifCarried
    }
}
