/// How serious a finding is. Reports and exit codes filter on it.
public enum Severity: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Worth knowing (an UNCONFIRMED behaviour, a capture that ends mid-request); never a violation.
    case info
    /// A deviation that real peers produce or tolerate, or a likely mistake.
    case warning
    /// A violation of the protocol where the spec is clear.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public init?(name: String) {
        guard let match = Severity.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}

/// The layer of the stack a rule belongs to, bottom to top.
public enum Layer: String, Sendable, Hashable, CaseIterable, Comparable {
    case capture
    case tls
    case http
    case compression
    case websocket
    case mqtt
    case socketio
    case encoding
    case command
    case session
    case reconnect

    public static func < (lhs: Layer, rhs: Layer) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// The name of an IM cloud protocol: `leancloud`, `nim`… An open set: each dialect's module names
/// its own (`Dialect.nim` is IMWireNIM's), and the registration table (`Dialects`, IMWireRegistry)
/// lists the ones IMWire speaks, so adding a dialect never edits this layer.
public struct Dialect: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }
    public var description: String { rawValue }
}

/// A stable rule identifier such as `LC.RESPONSE-WITHOUT-REQUEST` or `WS.RSV-WITHOUT-EXTENSION`.
/// Identifiers never change meaning once published; `Spec/rules.md` lists them all.
public struct RuleID: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One entry of the rule catalogue: what is checked, how serious a violation is in strict and
/// lenient mode, and where the requirement comes from. Immutable and compared by value; a class
/// so that each `Finding` holds one reference to its rule, not a copy of three strings (a
/// finding is copied at every step of the pipeline, and an open connection keeps its findings).
public final class Rule: Sendable, Hashable {
    public let id: RuleID
    public let severity: Severity
    /// Severity in lenient mode; rules about behaviour that real peers exhibit are downgraded.
    public let lenientSeverity: Severity
    public let layer: Layer
    public let dialect: Dialect?
    public let summary: String
    public let specRef: String

    public init(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, layer: Layer, dialect: Dialect? = nil,
        summary: String, specRef: String
    ) {
        self.id = id
        self.severity = severity
        self.lenientSeverity = lenient ?? severity
        self.layer = layer
        self.dialect = dialect
        self.summary = summary
        self.specRef = specRef
    }

    /// A finding of this rule at `offset` (bytes from the start of the decoded unit).
    public func finding(_ message: String, at offset: Int? = nil) -> Finding {
        Finding(rule: self, message: message, offset: offset)
    }

    public static func == (lhs: Rule, rhs: Rule) -> Bool {
        lhs === rhs
            || (lhs.id == rhs.id && lhs.severity == rhs.severity && lhs.lenientSeverity == rhs.lenientSeverity
                && lhs.layer == rhs.layer && lhs.dialect == rhs.dialect && lhs.summary == rhs.summary
                && lhs.specRef == rhs.specRef)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

/// Where a finding was seen, beyond the byte offset inside its unit. Filled by the pipeline;
/// codecs leave it empty.
public struct Location: Sendable, Hashable {
    public var connection: String?
    public var frameIndex: Int?
    public var line: Int?
    /// Microseconds, as given by the capture (relative or since the epoch).
    public var time: Int64?
    public var direction: Direction?

    public init(
        connection: String? = nil, frameIndex: Int? = nil, line: Int? = nil, time: Int64? = nil,
        direction: Direction? = nil
    ) {
        self.connection = connection
        self.frameIndex = frameIndex
        self.line = line
        self.time = time
        self.direction = direction
    }
}

/// Which way a frame travelled. IM protocols are client/server, so direction is named by role.
public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// client → server
    case send
    /// server → client
    case receive

    public var reversed: Direction { self == .send ? .receive : .send }
}

/// One observation about the input: a rule, how serious, where, and why. Codecs return findings
/// for every deviation and throw one when they cannot go on; nothing on bad input traps.
public struct Finding: Error, Sendable, Hashable, CustomStringConvertible {
    public var rule: Rule
    public var severity: Severity
    public var message: String
    /// Byte offset from the start of the decoded unit (frame payload, packet, transcript line).
    public var offset: Int?
    public var location: Location
    /// The decoded command the finding is about, in short form (e.g. `session/open i=1`).
    public var subject: String?

    public init(
        rule: Rule, message: String, offset: Int? = nil, location: Location = Location(), subject: String? = nil
    ) {
        self.rule = rule
        self.severity = rule.severity
        self.message = message
        self.offset = offset
        self.location = location
        self.subject = subject
    }

    public var ruleID: RuleID { rule.id }
    public var layer: Layer { rule.layer }
    public var dialect: Dialect? { rule.dialect }
    public var specRef: String { rule.specRef }

    /// The same finding with its offset moved by `delta` (a unit nested inside a larger one).
    public func shifted(by delta: Int) -> Finding {
        var copy = self
        copy.offset = offset.map { $0 + delta }
        return copy
    }

    public var description: String {
        var text = "[\(rule.id)] \(severity): \(message)"
        if let offset { text += " (offset \(offset))" }
        return text
    }
}
