/// How sure the reference is of a fact (see `../shared/reference/README.md`): stated by a
/// first-party source, following from one, or a hypothesis.
public enum Confidence: String, Sendable, Hashable, CaseIterable {
    case confirmed = "CONFIRMED"
    case inferred = "INFERRED"
    case unconfirmed = "UNCONFIRMED"
}

/// How a status code reaches the other side.
public enum Travel: String, Sendable, Hashable, CaseIterable {
    /// Inside a protocol message (an error command, a response `code`, a JSON field).
    case message
    /// As a WebSocket close code.
    case closeCode = "close-code"
    /// In the MQTT CONNACK return-code byte.
    case connack
    /// In an MQTT PUBLISH payload.
    case publish
    /// Either in a message or as a close code (the vendor does not say which).
    case messageOrClose = "message-or-close"
    /// Made up by a client SDK and never sent on the wire.
    case clientLocal = "client-local"
    /// An enum value of an SDK's API (a state, a type), not a status sent anywhere.
    case sdkEnum = "sdk-enum"

    /// Whether a peer can send this code, so a capture can contain it.
    public var isOnTheWire: Bool { self != .clientLocal && self != .sdkEnum }
}

/// What a code means for a client, across vendors.
public enum CodeClass: String, Sendable, Hashable, CaseIterable {
    case success
    case retry
    case reauthenticate
    case fatalCredentials = "fatal-credentials"
    case fatalConflict = "fatal-conflict"
    case rateLimited = "rate-limited"
    case permissionDenied = "permission-denied"
    case notFound = "not-found"
    case notMember = "not-member"
    case invalidRequest = "invalid-request"
    case serverError = "server-error"
    case clientLocal = "client-local"
    /// A value of a state or type enum: no outcome to classify.
    case enumValue = "enum-value"

    /// What a client should do about its connection when a code of this class ends the
    /// connection or answers a login. The per-request classes (invalid request, permission,
    /// not found, not a member) leave a working connection alone: `none`. When one of them
    /// answers a login, the login failed for a reason reconnecting does not fix.
    public var advice: ReconnectAdvice {
        switch self {
        case .success, .enumValue, .clientLocal, .invalidRequest, .permissionDenied, .notFound, .notMember: .none
        case .retry: .reconnectNow
        case .rateLimited, .serverError: .backOff
        case .reauthenticate: .refreshCredentials
        case .fatalCredentials, .fatalConflict: .stop
        }
    }
}

/// What a client should do when a code ends its connection or login.
public enum ReconnectAdvice: String, Sendable, Hashable, CaseIterable, Comparable {
    case none
    case reconnectNow = "reconnect-now"
    case backOff = "back-off"
    case refreshCredentials = "refresh-credentials-then-reconnect"
    case stop = "stop-and-require-user"

    /// Ordered from the least to the most cautious, so callers can merge sources that disagree.
    public static func < (lhs: ReconnectAdvice, rhs: ReconnectAdvice) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// Where a protocol carries how long a rate-limited client must wait.
public struct WaitHint: Sendable, Hashable {
    /// The unit of the wait.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case seconds
        case milliseconds
    }

    /// The field that carries the wait, e.g. `r[0]` of the response.
    public let field: String
    public let unit: Unit
    /// What the wait applies to and what the SDK does with it.
    public let scope: String

    public init(field: String, unit: Unit, scope: String) {
        self.field = field
        self.unit = unit
        self.scope = scope
    }
}

/// One row of a vendor's status-code or enum table, with where it comes from.
public struct StatusCode: Sendable, Hashable {
    public let vendor: Dialect
    /// The table within the vendor, e.g. `im-error`, `close-code`, `AVIMClientStatus`.
    public let table: String
    public let number: Int64
    /// Symbolic name as the source spells it. Tables whose source has no symbols (JMessage's
    /// doc tables) put the source's short English error message here; empty when neither exists.
    public let name: String
    /// English meaning.
    public let meaning: String
    /// The source's original wording when it is not English.
    public let original: String?
    /// Platforms and files the row comes from.
    public let sources: String
    public let confidence: Confidence
    public let travel: Travel
    public let codeClass: CodeClass
    /// The class when the code answers a login or ends a connection, where a source gives it a
    /// meaning there that differs from `codeClass` (NIM 417: "log in by hand").
    public let atLogin: CodeClass?
    /// Where the protocol carries the wait, for rate-limit codes that carry one (NIM 416).
    public let wait: WaitHint?

    public init(
        _ vendor: Dialect, _ table: String, _ number: Int64, _ name: String, _ meaning: String,
        original: String? = nil, sources: String, _ confidence: Confidence = .confirmed,
        travel: Travel, codeClass: CodeClass, atLogin: CodeClass? = nil, wait: WaitHint? = nil
    ) {
        self.vendor = vendor
        self.table = table
        self.number = number
        self.name = name
        self.meaning = meaning
        self.original = original
        self.sources = sources
        self.confidence = confidence
        self.travel = travel
        self.codeClass = codeClass
        self.atLogin = atLogin
        self.wait = wait
    }

    /// What a client should do when this code ends its connection or login.
    public var advice: ReconnectAdvice { (atLogin ?? codeClass).advice }
}
