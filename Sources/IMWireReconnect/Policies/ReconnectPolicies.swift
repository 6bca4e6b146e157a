import IMWireCore

/// Every policy IMWire models, by `--policy` name, and the default of each dialect.
public enum ReconnectPolicies {
    public static let all: [ReconnectPolicy] =
        LeanCloudPolicies.all + NIMPolicies.all + JMessagePolicies.all + Yun2winPolicies.all

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) -> ReconnectPolicy? { all.first { $0.name == name } }

    /// The policy the checker uses when `--policy` is not given. For LeanCloud the Swift/ObjC
    /// schedule, whose early attempts go at once, so a capture of any SDK is not called a storm
    /// for reconnecting quickly; for yun2win the Web SDK (a capture can also pick the platform
    /// from the client id, see `Yun2winPolicies.policy(forClientIDPlatformDigit:)`).
    public static func defaultPolicy(for dialect: Dialect) -> ReconnectPolicy {
        switch dialect {
        case .leancloud: LeanCloudPolicies.swift
        case .nim: NIMPolicies.web
        case .jmessage: JMessagePolicies.web
        case .yun2win: Yun2winPolicies.web
        }
    }
}
