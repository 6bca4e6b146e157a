import IMWireCore

/// Where a vendor status code reaches the client, which decides how it is read.
public enum Signal: String, Sendable, Hashable, CaseIterable {
    /// The route lookup (LeanCloud RTM router, NIM LBS, yun2win imgate) failed; the code is
    /// the HTTP status when there was one.
    case route
    /// The transport closed with this code (WebSocket close code).
    case close
    /// The login or handshake was answered with this code.
    case login
    /// The server pushed a kick or conflict with this code or reason.
    case kick
}

/// Why automatic reconnecting ended. The user has to log in again.
public enum StopCause: String, Sendable, Hashable, CaseIterable {
    /// A kick or conflict push (LeanCloud 4111/4115, NIM 2_5, yun2win 10, JMessage 1/2/70/10001/10002).
    case kicked
    /// The login was refused for a reason reconnecting does not fix (wrong password, disabled account).
    case loginRejected = "login-rejected"
    /// The transport closed with a code the SDK treats as fatal (LeanCloud JS 4100/4103/4110).
    case closeCode = "close-code"
    /// The route lookup was refused for good (LeanCloud Swift: router HTTP 404; yun2win Android: gate).
    case routeRejected = "route-rejected"
    /// The retry budget ran out (LeanCloud Java after 3 attempts).
    case budgetExhausted = "budget-exhausted"
    /// The app could not provide new credentials.
    case credentialsRefused = "credentials-refused"
    /// The login was resent as often as the SDK allows without an answer (JMessage: 5 times).
    case loginUnanswered = "login-unanswered"
    /// The SDK does not reconnect on its own after a drop (JMessage Web: `onDisconnect`).
    case disconnected
}

/// What a policy does when a status code reaches the client.
public enum Reaction: Sendable, Hashable {
    /// Back off by the policy's schedule, then reconnect.
    case retry
    /// Reconnect after this fixed delay, `millis` milliseconds, instead of the schedule (yun2win Android: 7 → 15 s).
    case retryAfter(millis: Int64)
    /// Wait as long as the server said (NIM 416 `r[0]` seconds); the schedule when it said nothing.
    case retryAfterServerWait
    /// Reconnect at once, forgetting the cached route if asked (LeanCloud `goaway`).
    case reconnectNow(clearRoute: Bool)
    /// Ask the app for new credentials (token, signature), then reconnect.
    case refreshCredentials
    /// Go on without the route: connect to the default address (NIM: the default link).
    case proceedWithoutRoute
    /// Stop reconnecting; the user has to log in again.
    case stop(StopCause)
    /// No effect on the connection (JMessage 40: the user's info changed, the login stays).
    case ignore

    package var summary: String {
        switch self {
        case .retry: "back off, reconnect"
        case .retryAfter(let delay): "reconnect after \(DurationText.text(millis: delay))"
        case .retryAfterServerWait: "wait as long as the server says, reconnect"
        case .reconnectNow(let clear): clear ? "clear the route cache, reconnect at once" : "reconnect at once"
        case .refreshCredentials: "refresh the credentials, then reconnect"
        case .proceedWithoutRoute: "connect to the default address"
        case .stop(let cause): "stop (\(cause.rawValue)); the user must log in"
        case .ignore: "no effect"
        }
    }

    public var stops: Bool { if case .stop = self { true } else { false } }
}

/// One SDK-specific reaction: codes of one signal and what the SDK does on them. A policy lists
/// these before it falls back to the status registry.
package struct SignalRule: Sendable, Hashable {
    package let signal: Signal
    /// The codes it covers; nil: every code (and no code).
    package let codes: [Int64]?
    package let reaction: Reaction
    package let source: String
    package let confidence: Confidence

    package init(
        _ signal: Signal, _ codes: [Int64]?, _ reaction: Reaction, source: String, _ confidence: Confidence = .confirmed
    ) {
        self.signal = signal
        self.codes = codes
        self.reaction = reaction
        self.source = source
        self.confidence = confidence
    }

    package func matches(_ signal: Signal, _ code: Int64?) -> Bool {
        guard signal == self.signal else { return false }
        guard let codes else { return true }
        return code.map(codes.contains) ?? false
    }
}

/// Where a policy reads the codes no SDK rule covers: which of its vendor's status tables, per
/// signal. The tables come with the scope (the dialect module that defines the policy passes its
/// own), so the machine needs no registry of every vendor. Rows of the listed tables are merged
/// towards caution, like `StatusRegistry.mostCautiousAdvice`.
package struct RegistryScope: Sendable, Hashable {
    package let vendor: Dialect
    /// The tables' names, per signal (as the Spec lists them).
    package let tables: [Signal: [String]]
    /// The same tables, looked up once.
    private let resolved: [Signal: [StatusTable]]

    /// `tables` names tables of `available` (the vendor's own); a name it lacks is a mistake in
    /// the policy's definition, not in any input.
    package init(_ vendor: Dialect, _ tables: [Signal: [String]], in available: [StatusTable]) {
        self.vendor = vendor
        self.tables = tables
        resolved = tables.mapValues { names in
            names.map { name in
                guard let table = available.first(where: { $0.vendor == vendor && $0.name == name }) else {
                    preconditionFailure(
                        "policy registry scope names \(vendor.rawValue) table \(name), which is not given")
                }
                return table
            }
        }
    }

    /// Every row of the tables listed for `signal`.
    package func rows(_ signal: Signal) -> [StatusCode] { (resolved[signal] ?? []).flatMap(\.rows) }

    /// The rows the listed tables have for `code` under `signal`.
    package func rows(_ signal: Signal, _ code: Int64) -> [StatusCode] {
        (resolved[signal] ?? []).flatMap { $0.rows(code) }
    }

    /// The tables' advice as a reaction, or nil when no listed table knows the code.
    package func reaction(_ signal: Signal, _ code: Int64) -> (Reaction, [StatusCode])? {
        let rows = rows(signal, code)
        guard let advice = rows.map(\.advice).max() else { return nil }
        let deciding = rows.filter { $0.advice == advice }
        switch advice {
        case .stop:
            let cause: StopCause =
                switch signal {
                case .kick: .kicked
                case .login: .loginRejected
                case .close: .closeCode
                case .route: .routeRejected
                }
            return (.stop(cause), deciding)
        case .refreshCredentials: return (.refreshCredentials, deciding)
        case .backOff: return (deciding.contains { $0.wait != nil } ? .retryAfterServerWait : .retry, deciding)
        case .reconnectNow: return (.retry, deciding)
        case .none:
            // A per-request class answering a login: reconnecting does not fix it. Ending a
            // connection or pushed, it leaves the connection as it is.
            return (signal == .login ? .stop(.loginRejected) : signal == .kick ? .ignore : .retry, deciding)
        }
    }
}

extension RegistryScope {
    package static func == (a: RegistryScope, b: RegistryScope) -> Bool { a.vendor == b.vendor && a.tables == b.tables }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(vendor)
        hasher.combine(tables)
    }
}
