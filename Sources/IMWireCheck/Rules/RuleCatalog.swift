import IMWireCapture
import IMWireCompression
import IMWireCore
import IMWireMQTT
import IMWireReconnect
import IMWireRegistry
import IMWireSocketIO
import IMWireTLS
import IMWireTransport
import IMWireWebSocket

/// Every rule IMWire checks, from every layer; `imwire rules` prints it and `Spec/rules.md` is
/// generated from it. The dialects' rules come from the registration table.
public enum RuleCatalog {
    public static let all: [Rule] =
        CaptureRules.all + CheckRules.all + LiveRules.all + TLSRules.all + HTTPRules.all + CompressionRules.all
        + WebSocketRules.all + MQTTRules.all
        + SocketIORules.all + Dialects.standard.rules + ReconnectRules.all

    public static func rule(_ id: RuleID) -> Rule? { all.first { $0.id == id } }

    /// The rule whose ID is `name` in any case (`lc.missing-ack` is `LC.MISSING-ACK`).
    public static func rule(named name: String) -> Rule? { rule(RuleID(rawValue: name.uppercased())) }

    /// Says that no rule is named `name`, with the IDs that share its prefix (`LC.`) if any.
    public static func unknown(_ name: String) -> String {
        let family = name.uppercased().split(separator: ".").first.map { String($0) + "." } ?? ""
        let similar = all.map(\.id.rawValue).filter { !family.isEmpty && $0.hasPrefix(family) }
        return "no rule \(name)"
            + (similar.isEmpty
                ? "; imwire rules lists them" : "; the \(family) rules: " + similar.joined(separator: ", "))
    }

    /// The WebSocket close code a conforming peer answers a violation of this rule with (RFC 6455
    /// §7.4), where a close frame is the answer.
    public static func closeCode(of rule: Rule) -> CloseCode? { WebSocketRules.closeCode(for: rule.id) }

    /// The close code a peer sends because of this finding: only an error closes the connection
    /// (a finding `--lenient` or `--rule` lowered is not answered with a close).
    public static func closeCode(of finding: Finding) -> CloseCode? {
        finding.severity == .error ? WebSocketRules.closeCode(for: finding.ruleID) : nil
    }

    /// A rule as `imwire rules --format json` prints it.
    public static func json(_ rule: Rule) -> JSONValue {
        var object = JSONObject()
        object.append("id", .string(rule.id.rawValue))
        object.append("severity", .string(rule.severity.description))
        object.append("lenientSeverity", .string(rule.lenientSeverity.description))
        object.append("layer", .string(rule.layer.rawValue))
        object.append("dialect", rule.dialect.map { .string($0.rawValue) } ?? .null)
        object.append("summary", .string(rule.summary))
        object.append("specRef", .string(rule.specRef))
        object.append("closeCode", closeCode(of: rule).map { .number(JSONNumber(Int($0.rawValue))) } ?? .null)
        return .object(object)
    }
}
