import IMWireCore
import IMWireReconnect
import IMWireRegistry

/// What one connection shows about its client's reconnects, gathered by the dialect session as
/// messages pass (Spec/reconnect.md §6 lists what each dialect feeds). At the end the checker
/// groups connections by client and hands each group, in order, to `ReconnectJudge`.
struct ReconnectFacts: Sendable, Equatable {
    /// Who the client is: LeanCloud app and peer id, NIM account, JMessage username, yun2win uid.
    var client: String?
    /// The first login of the connection (a login resent on the same connection keeps its time).
    var login: LoginObservation?
    /// The frame of that login: the judge's findings about the connection point at it.
    var loginFrame: Int?
    /// The client's heartbeats.
    var keepAlive = KeepAliveLog()
    /// The heartbeats are application messages, so even a transcript of whole messages shows
    /// them (NIM 1_2, MQTT packets, LeanCloud `echo`); LeanCloud's WebSocket pings are not.
    var keepAliveInMessages = true
    /// How the session ended, when a message said so (kick, refused login, logout, goaway).
    var end: ConnectionEnd?
    var endTime: Int64?
    /// The policy the connection itself names (yun2win: the client id's platform digit), one of
    /// `ReconnectPolicies.all`.
    var policy: ReconnectPolicy? {
        get { policyName.flatMap(ReconnectPolicies.named) }
        set {
            precondition(newValue.map { ReconnectPolicies.named($0.name) != nil } ?? true, "not a policy of ReconnectPolicies.all")
            policyName = newValue?.name
        }
    }
    /// Kept by name: a policy is hundreds of bytes (boxed in an array, 448 per yun2win connection
    /// while it was open), and the spool writes the name anyway.
    private var policyName: String?

    init(keepAliveInMessages: Bool = true) {
        self.keepAliveInMessages = keepAliveInMessages
    }

    mutating func loginSent(at time: Int64, frame: Int, reconnectFlag: Bool?, client: String?) {
        if login == nil {
            login = LoginObservation(sent: time, reconnectFlag: reconnectFlag, accepted: nil)
            loginFrame = frame
        }
        self.client = self.client ?? client
    }

    mutating func loginAccepted(at time: Int64) {
        guard login != nil, login?.accepted == nil else { return }
        login?.accepted = time
        if case .loginRejected? = end { end = nil }
    }

    /// The first ending a message shows is the one that counts (a kick, then the close it causes).
    mutating func ended(_ end: ConnectionEnd, at time: Int64) {
        guard self.end == nil else { return }
        self.end = end
        endTime = time
    }
}
