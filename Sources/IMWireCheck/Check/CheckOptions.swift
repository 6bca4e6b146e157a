import IMWireCore
import IMWireDialect
import IMWireReconnect
import IMWireRegistry
import IMWireTLS

/// What to do with a rule's findings, from `--rule ID=off|info|warn|error`.
public enum RuleAction: String, Sendable, Hashable, CaseIterable {
    case off
    case info
    case warn
    case error

    var severity: Severity? {
        switch self {
        case .off: nil
        case .info: .info
        case .warn: .warning
        case .error: .error
        }
    }
}

/// Settings of one `imwire check` run.
public struct CheckOptions: Sendable {
    /// Decode every connection as this dialect, whatever the capture says.
    public var dialect: Dialect?
    /// The dialects connections are read as: IMWire's four, or a table with a program's own
    /// (`Dialects.standard.adding(_:)`).
    public var dialects: Dialects = .standard
    /// Downgrade rules about behaviour real peers exhibit (each rule's lenient severity).
    public var lenient: Bool
    public var limits: Limits
    /// Each dialect's session options (timeouts, credentials…), found by their type:
    /// `options.dialectOptions[NIMSessionOptions.self].requestTimeoutMicros = …`.
    public var dialectOptions: DialectOptionSet
    public var ruleActions: [RuleID: RuleAction]
    /// How many messages per connection the report keeps for diagrams (0: none).
    public var timelineLimit: Int = 0
    /// Keep each timeline message's canonical JSON and its first `TimelineEntry.payloadLimit`
    /// bytes too (what the HTML report expands); implies describing messages.
    public var timelineDetails = false
    /// Have each dialect name and describe every message (its summary and canonical JSON, for
    /// `Checker.onMessage`); costs a string and a JSON tree per message.
    public var describesMessages = false
    /// How many ended connections each checking thread keeps in memory (their reports and what
    /// the reconnect judge reads of them); those of the others wait in temporary files (unlinked
    /// when made) until the report is written, so memory does not grow with them. Smaller
    /// records (the judge's keys, a client's numbers) are kept `recordsInMemory` at a time.
    public var reportsInMemory = 1000
    /// How many of the check's small fixed-size records (sorted runs' pending records, an
    /// `IntegerList`'s first numbers) wait in memory per store: 8 × `reportsInMemory`.
    package var recordsInMemory: Int { 8 * reportsInMemory }
    /// The SDK policies clients' reconnects are judged against (`--policy`, at most one per
    /// vendor). A vendor none of them fits gets what the capture shows (yun2win: the policy of the
    /// client id's platform digit), else its default.
    public var reconnectPolicies: PolicySelection
    /// One `--policy`: setting it replaces the selection with that policy alone; reading it
    /// gives the first named policy.
    public var reconnectPolicy: ReconnectPolicy? {
        get { reconnectPolicies.policies.first }
        set { reconnectPolicies = PolicySelection(newValue.map { [$0] } ?? []) }
    }
    /// Secrets to decrypt TLS connections with (`--tls-keylog` files), besides those the capture
    /// carries (pcapng Decryption Secrets Blocks, read in file order).
    public var tlsKeyLog = TLSKeyLog()
    /// Tolerance and storm length of the reconnect judge.
    public var reconnect: JudgeOptions
    /// Keep the credentials logins carry in the messages the report keeps and hands out
    /// (`--show-secrets`); by default they are replaced (`SecretRedaction`).
    public var showSecrets = false
    /// Keep what `ReportMerger` needs to merge this report with those of the capture's other
    /// shards (`CheckReport.merge`); set by `Checker.check(path:)` for a shard.
    public var keepsMergeData = false

    public init(
        dialect: Dialect? = nil, lenient: Bool = false, limits: Limits = .default,
        dialectOptions: DialectOptionSet = DialectOptionSet(), ruleActions: [RuleID: RuleAction] = [:],
        reconnectPolicy: ReconnectPolicy? = nil, reconnect: JudgeOptions = JudgeOptions()
    ) {
        self.dialect = dialect
        self.lenient = lenient
        self.limits = limits
        self.dialectOptions = dialectOptions
        self.ruleActions = ruleActions
        self.reconnectPolicies = PolicySelection(reconnectPolicy.map { [$0] } ?? [])
        self.reconnect = reconnect
    }

    /// The policy for a client of `dialect`: the one `--policy` named for that dialect, else
    /// the dialect's default (`DialectDefinition.defaultPolicy`); nil when the dialect has none.
    public func reconnectPolicy(for dialect: Dialect) -> ReconnectPolicy? {
        reconnectPolicies.policy(for: dialect) ?? dialects.definition(dialect)?.defaultPolicy
    }

    /// The finding as it should be reported under these options, or nil if its rule is off.
    public func resolve(_ finding: Finding) -> Finding? {
        var resolved = finding
        if let action = ruleActions[finding.ruleID] {
            guard let severity = action.severity else { return nil }
            resolved.severity = severity
        } else if lenient {
            resolved.severity = finding.rule.lenientSeverity
        }
        return resolved
    }
}
