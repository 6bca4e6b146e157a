import IMWireCore

/// Something an SDK shows the app: a status value (`AVIMClientStatus` 3, `NIMLoginStep` 9,
/// yun2win `ConnectionStatus` 100 with its return code) or a callback (`imClientPaused`,
/// `onwillreconnect`). A client author embedding the machine drives the UI from these.
public struct VendorOutput: Sendable, Hashable, CustomStringConvertible {
    /// A status value the app reads or a callback it receives.
    public enum Kind: String, Sendable, Hashable {
        case status
        case event
    }

    public let kind: Kind
    /// The status table (a registry table name such as `AVIMClientStatus`) or the callback family.
    public let table: String
    /// The status value, where the vendor numbers it.
    public let value: Int64?
    /// The status name (from the registry) or the callback name.
    public let name: String
    /// The vendor code carried along (error, return code, kick reason).
    public let code: Int64?
    /// Further arguments, e.g. `retryCount=2 duration=3200`.
    public let detail: String?

    package init(kind: Kind, table: String, value: Int64?, name: String, code: Int64? = nil, detail: String? = nil) {
        self.kind = kind
        self.table = table
        self.value = value
        self.name = name
        self.code = code
        self.detail = detail
    }

    /// `AVIMClientStatus=3 AVIMClientStatusPaused code=4107` or `imClientPaused(code=4107)`.
    public var description: String {
        var arguments: [String] = []
        if let code { arguments.append("code=\(code)") }
        if let detail { arguments.append(detail) }
        switch kind {
        case .status:
            return (["\(table)=\(value.map(String.init) ?? "?") \(name)"] + arguments).joined(separator: " ")
        case .event:
            return "\(name)(\(arguments.joined(separator: " ")))"
        }
    }
}

/// When an output rule applies.
package enum OutputCondition: Sendable, Hashable {
    case always
    /// Only before the first session since the user's login.
    case firstConnect
    /// Only once a session existed (an automatic reconnect).
    case reconnect
    /// Only for stops with one of these causes.
    case causeIn([StopCause])
    /// Only for stops with none of these causes.
    case causeNotIn([StopCause])
    /// Only when the milestone carries one of these codes.
    case codeIn([Int64])
    /// Only when the milestone carries none of these codes.
    case codeNotIn([Int64])
}

/// One output an SDK shows for a milestone.
package struct OutputTemplate: Sendable, Hashable {
    /// What the output carries from the milestone.
    package enum Carry: String, Sendable, Hashable {
        case nothing
        /// The milestone's vendor code.
        case code
        /// The milestone's vendor code, 0 when it has none (yun2win reports `(status, 0)`).
        case codeOrZero = "code-or-zero"
        /// The attempt number (1-based) and the delay.
        case attemptAndDelay = "attempt-and-delay"
        /// The attempt number (1-based).
        case attempt
    }

    package let kind: VendorOutput.Kind
    package let table: String
    package let value: Int64?
    /// The callback name; for status rows, nil takes the name from the registry.
    package let name: String?
    package let carry: Carry
    /// A code the SDK always reports with this output (yun2win Android: gate failure → 101).
    package let fixedCode: Int64?

    package static func status(_ table: String, _ value: Int64, carry: Carry = .nothing, code: Int64? = nil)
        -> OutputTemplate
    {
        OutputTemplate(kind: .status, table: table, value: value, name: nil, carry: carry, fixedCode: code)
    }

    package static func event(_ family: String, _ name: String, carry: Carry = .nothing) -> OutputTemplate {
        OutputTemplate(kind: .event, table: family, value: nil, name: name, carry: carry, fixedCode: nil)
    }
}

/// Milestone → outputs, one rule per line of the vendor's documentation.
package struct OutputRule: Sendable, Hashable {
    package let milestone: Milestone.Kind
    package let condition: OutputCondition
    package let outputs: [OutputTemplate]
    package let source: String
    /// How sure the reference is that the SDK shows this (a model choice is UNCONFIRMED).
    package let confidence: Confidence

    package init(
        _ milestone: Milestone.Kind, when condition: OutputCondition = .always, _ outputs: [OutputTemplate],
        source: String,
        _ confidence: Confidence = .confirmed
    ) {
        self.milestone = milestone
        self.condition = condition
        self.outputs = outputs
        self.source = source
        self.confidence = confidence
    }
}

/// What one SDK shows the app, as data: the Spec lists it and the machine applies it.
public struct OutputModel: Sendable, Hashable {
    package let name: String
    /// The vendor whose registry tables name the status values.
    package let vendor: Dialect
    package let rules: [OutputRule]

    /// Status templates without a name take it from `vendor`'s table of that name in `tables`
    /// (the vendor's own status tables), once.
    package init(_ name: String, vendor: Dialect, tables: [StatusTable], rules: [OutputRule]) {
        let registry = StatusRegistry(tables: tables)
        self.name = name
        self.vendor = vendor
        self.rules = rules.map { rule in
            OutputRule(
                rule.milestone, when: rule.condition,
                rule.outputs.map { template in
                    guard template.kind == .status, template.name == nil, let value = template.value,
                        case .known(let rows)? = registry.lookup(vendor, template.table, value), let row = rows.first
                    else { return template }
                    return OutputTemplate(
                        kind: .status, table: template.table, value: value, name: row.name, carry: template.carry,
                        fixedCode: template.fixedCode)
                }, source: rule.source, rule.confidence)
        }
    }

    /// The outputs for `milestone`; `reconnect` tells whether a session existed before.
    package func outputs(for milestone: Milestone, reconnect: Bool) -> [VendorOutput] {
        rules.filter { $0.milestone == milestone.kind && applies($0.condition, milestone, reconnect) }
            .flatMap { rule in rule.outputs.map { render($0, milestone) } }
    }

    private func applies(_ condition: OutputCondition, _ milestone: Milestone, _ reconnect: Bool) -> Bool {
        switch condition {
        case .always: return true
        case .firstConnect: return !reconnect
        case .reconnect: return reconnect
        case .causeIn(let causes):
            if case .stopped(let cause, _) = milestone { return causes.contains(cause) }
            return false
        case .causeNotIn(let causes):
            if case .stopped(let cause, _) = milestone { return !causes.contains(cause) }
            return true
        case .codeIn(let codes): return milestone.code.map(codes.contains) ?? false
        case .codeNotIn(let codes): return !(milestone.code.map(codes.contains) ?? false)
        }
    }

    private func render(_ template: OutputTemplate, _ milestone: Milestone) -> VendorOutput {
        let name = template.name ?? ""
        var code: Int64?
        var detail: String?
        switch template.carry {
        case .nothing: code = template.fixedCode
        case .code: code = template.fixedCode ?? milestone.code
        case .codeOrZero: code = template.fixedCode ?? milestone.code ?? 0
        case .attempt, .attemptAndDelay:
            if case .retryScheduled(let attempt, let delay) = milestone {
                detail =
                    template.carry == .attempt ? "attempt=\(attempt + 1)" : "attempt=\(attempt + 1) delay=\(delay)ms"
            } else if case .connecting(_, let attempt) = milestone {
                detail = "attempt=\(attempt)"
            }
        }
        return VendorOutput(
            kind: template.kind, table: template.table, value: template.value, name: name, code: code, detail: detail)
    }

    /// Every status value and callback the model can show, for reachability checks.
    package var allOutputs: Set<String> {
        Set(rules.flatMap { rule in rule.outputs.map(Self.key) })
    }

    /// `AVIMClientStatus=3` or `event imClientPaused`.
    package static func key(_ template: OutputTemplate) -> String {
        template.kind == .status
            ? "\(template.table)=\(template.value ?? -1)" : "\(template.table).\(template.name ?? "")"
    }

    package static func key(_ output: VendorOutput) -> String {
        output.kind == .status ? "\(output.table)=\(output.value ?? -1)" : "\(output.table).\(output.name)"
    }
}
