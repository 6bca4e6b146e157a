import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireYun2win

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
    /// Downgrade rules about behaviour real peers exhibit (each rule's lenient severity).
    public var lenient: Bool
    public var limits: Limits
    public var leancloud: LeanCloudSessionOptions
    public var yun2win: Yun2winSessionOptions
    public var nim: NIMSessionOptions
    /// Timeouts and, with `secret`, c_init signature verification.
    public var jmessage: JMessageSessionOptions
    public var ruleActions: [RuleID: RuleAction]
    /// How many messages per connection the report keeps for diagrams (0: none).
    public var timelineLimit: Int = 0

    public init(dialect: Dialect? = nil, lenient: Bool = false, limits: Limits = .default,
                leancloud: LeanCloudSessionOptions = LeanCloudSessionOptions(),
                yun2win: Yun2winSessionOptions = Yun2winSessionOptions(), nim: NIMSessionOptions = NIMSessionOptions(),
                jmessage: JMessageSessionOptions = JMessageSessionOptions(), ruleActions: [RuleID: RuleAction] = [:]) {
        self.dialect = dialect
        self.lenient = lenient
        self.limits = limits
        self.leancloud = leancloud
        self.yun2win = yun2win
        self.nim = nim
        self.jmessage = jmessage
        self.ruleActions = ruleActions
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
