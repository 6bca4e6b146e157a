import IMWireCore
import IMWireReconnect

/// Every policy IMWire models (each dialect's, from the registration table), by `--policy`
/// name, and the default of each dialect.
public enum ReconnectPolicies {
    public static let all: [ReconnectPolicy] = Dialects.standard.all.flatMap(\.policies)

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) -> ReconnectPolicy? { all.first { $0.name == name } }
}

/// The policies `--policy` names for a capture: at most one per vendor, each applied to the
/// connections of its own vendor only.
public struct PolicySelection: Sendable {
    public let policies: [ReconnectPolicy]

    /// Resolves `names`; an unknown name (`policyUnknown`), or two policies of one vendor
    /// (`policySameVendor`), is an error, its field the name.
    public init(names: [String]) throws(IMWireError) {
        var chosen: [ReconnectPolicy] = []
        for name in names {
            guard let policy = ReconnectPolicies.named(name) else {
                throw IMWireError(
                    .policyUnknown,
                    "no policy named \(name); known: \(ReconnectPolicies.names.joined(separator: ", "))",
                    field: name)
            }
            if let other = chosen.first(where: { $0.dialect == policy.dialect }) {
                guard other.name != policy.name else { continue }
                throw IMWireError(
                    .policySameVendor,
                    "\(other.name) and \(name) are both \(policy.dialect.rawValue) policies; name one per vendor",
                    field: name)
            }
            chosen.append(policy)
        }
        policies = chosen
    }

    public init(_ policies: [ReconnectPolicy]) { self.policies = policies }

    /// The named policy of `dialect`, if any.
    public func policy(for dialect: Dialect) -> ReconnectPolicy? { policies.first { $0.dialect == dialect } }

    /// What to tell the user once the capture's vendors are known: a vendor with connections
    /// that no named policy fits is judged against its default, and a named policy whose
    /// vendor has no connection was not used. Nothing when no policy was named.
    public func warnings(dialects: Set<Dialect>) -> [String] {
        guard !policies.isEmpty else { return [] }
        var lines: [String] = []
        let named = policies.map(\.name).joined(separator: ", ")
        for definition in Dialects.standard.all
        where dialects.contains(definition.dialect) && policy(for: definition.dialect) == nil {
            guard let fallback = definition.defaultPolicy?.name else { continue }
            let dialect = definition.dialect
            let judged =
                dialect == .yun2win
                ? "the policy of the platform their client id names, else \(fallback)"
                : "\(fallback), the \(dialect.rawValue) default"
            lines.append(
                (policies.count == 1 ? "\(named) does not apply" : "none of \(named) applies")
                    + " to the \(dialect.rawValue) connections: they were judged against \(judged)"
                    + " (name one policy per vendor, e.g. \(fallback))")
        }
        for policy in policies where !dialects.contains(policy.dialect) {
            lines.append("\(policy.name) was not used: the capture has no \(policy.dialect.rawValue) connection")
        }
        return lines
    }
}

extension IMWireError.Code {
    /// A reconnect policy name no dialect declares (`field`: the name).
    public static let policyUnknown = Self("policy.unknown")
    /// A second policy for a vendor that has one already (`field`: the second name).
    public static let policySameVendor = Self("policy.same-vendor")
}
