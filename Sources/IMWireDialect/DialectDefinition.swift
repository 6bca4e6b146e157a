import IMWireCore
import IMWireReconnect

/// Everything the checker needs to know about one dialect, as a value its module defines: how to
/// recognise its connections, how to make the connection that reads them, its rules, status tables
/// and reconnect policies, and what it judges across one client's connections. The registration
/// table (`Dialects.standard.all`, IMWireRegistry) lists one per dialect; nothing else outside the dialect's
/// module names it.
public struct DialectDefinition: Sendable {
    public let dialect: Dialect
    /// The protocol's name for people: "LeanCloud realtime".
    public let title: String
    /// Its page in the repository: "Spec/leancloud.md".
    public let specPage: String
    public let rules: [Rule]
    public let statusTables: [StatusTable]
    /// The rule families of the transports under the dialect (`SIO`, `EIO`, `HTTP`, `MQTT`): a
    /// report lists them for its connections (WebSocket's and the capture's apply to all).
    public let transportRuleFamilies: Set<String>
    /// The SDK policies `--policy` can name; `defaultPolicy` is among them.
    public let policies: [ReconnectPolicy]
    /// The policy a client that names no SDK is judged against; nil for a dialect that models no
    /// reconnecting (its clients' reconnects are not judged).
    public let defaultPolicy: ReconnectPolicy?
    /// Whether a `Sec-WebSocket-Protocol` names this dialect (`lc.protobuf2.3`).
    public let claimsSubprotocol: @Sendable (String) -> Bool
    /// A subprotocol that names the dialect whatever else it carries, for a synthesized handshake
    /// of a transcript that names the dialect only (yun2win: `mqtt`); nil when none does.
    public let namingSubprotocol: String?
    /// Whether a framing the transport recognised is this dialect's (socket.io 0.9 is NIM's).
    public let claimsFraming: @Sendable (Framing) -> Bool
    /// Whether a connection that names nothing is this dialect's, from its first message alone
    /// (it decodes cleanly as one); asked only when nothing else decided.
    public let recognisesFirstMessage: @Sendable (WireMessage, Limits) -> Bool
    public let makeConnection: @Sendable (DialectContext) -> any DialectConnection
    /// Whether a message is, by its bytes, a login (or another message that carries a credential)
    /// that the dialect could not read: `json` is its canonical JSON, nil when none was made. What
    /// IMWire shows of such a message is its length only, unless `--show-secrets`.
    public let recognisesUnreadLogin: @Sendable (_ message: WireMessage, _ json: JSONValue?) -> Bool
    /// The dialect's rule about a client logging in again after its session was ended, if it has one.
    public let relogin: ReloginRule?
    /// Reconnect-judge rules whose finding a dialect rule already gives for the same connection
    /// (the judge's is then dropped, so one problem is reported once).
    public let judgeFindingsReportedBy: [RuleID: Set<RuleID>]
    /// The settings of its checks that `imwire check` and `imwire proxy` offer (`--nim-timeout`),
    /// applied in this order.
    public let settings: [DialectSetting]
    /// Its canonical codec (what `imwire decode` and `encode` and the conformance testee make from
    /// a table), named as the dialect is; nil for a dialect without one.
    public let canonicalCodec: CanonicalCodecDefinition?

    public init(
        dialect: Dialect, title: String, specPage: String, rules: [Rule], statusTables: [StatusTable],
        transportRuleFamilies: Set<String> = [], policies: [ReconnectPolicy], defaultPolicy: ReconnectPolicy?,
        claimsSubprotocol: @escaping @Sendable (String) -> Bool = { _ in false }, namingSubprotocol: String? = nil,
        claimsFraming: @escaping @Sendable (Framing) -> Bool = { _ in false },
        recognisesFirstMessage: @escaping @Sendable (WireMessage, Limits) -> Bool,
        makeConnection: @escaping @Sendable (DialectContext) -> any DialectConnection,
        recognisesUnreadLogin: @escaping @Sendable (WireMessage, JSONValue?) -> Bool = { _, _ in false },
        relogin: ReloginRule? = nil, judgeFindingsReportedBy: [RuleID: Set<RuleID>] = [:],
        settings: [DialectSetting] = [],
        canonicalCodec: CanonicalCodecDefinition? = nil
    ) {
        self.dialect = dialect
        self.title = title
        self.specPage = specPage
        self.rules = rules
        self.statusTables = statusTables
        self.transportRuleFamilies = transportRuleFamilies
        self.policies = policies
        self.defaultPolicy = defaultPolicy
        self.claimsSubprotocol = claimsSubprotocol
        self.namingSubprotocol = namingSubprotocol
        self.claimsFraming = claimsFraming
        self.recognisesFirstMessage = recognisesFirstMessage
        self.makeConnection = makeConnection
        self.recognisesUnreadLogin = recognisesUnreadLogin
        self.relogin = relogin
        self.judgeFindingsReportedBy = judgeFindingsReportedBy
        self.settings = settings
        self.canonicalCodec = canonicalCodec
    }
}

/// A dialect rule that spans one client's connections: a login after an ending that forbids
/// logging in again by itself (NIM after a kick, yun2win reconnecting after kick 10).
public struct ReloginRule: Sendable {
    /// Why `end` forbids an automatic re-login, in words for the finding; nil when it does not.
    public let forbiddingEnding: @Sendable (ConnectionEnd) -> String?
    /// The finding for `login` of `client` after such an ending on connection `endedOn`, or nil
    /// when this login is allowed (a fresh login by the user).
    public let finding:
        @Sendable (_ login: LoginObservation, _ client: String, _ endedOn: String, _ why: String) -> Finding?

    public init(
        forbiddingEnding: @escaping @Sendable (ConnectionEnd) -> String?,
        finding: @escaping @Sendable (LoginObservation, String, String, String) -> Finding?
    ) {
        self.forbiddingEnding = forbiddingEnding
        self.finding = finding
    }
}
