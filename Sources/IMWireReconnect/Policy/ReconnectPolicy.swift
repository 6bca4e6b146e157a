import IMWireCore

/// One number or behaviour of a policy with where it comes from.
package struct Fact: Sendable, Hashable {
    package let what: String
    package let value: String
    package let source: String
    package let confidence: Confidence

    package init(_ what: String, _ value: String, source: String, _ confidence: Confidence = .confirmed) {
        self.what = what
        self.value = value
        self.source = source
        self.confidence = confidence
    }
}

/// The client's keep-alive: what it sends, how often, and when it gives the link up.
public struct HeartbeatPolicy: Sendable, Hashable {
    /// "WebSocket ping frame", "`echo` command", "1_2 heartbeat", "MQTT PINGREQ".
    package let what: String
    /// From the previous answer (or the login) to the next heartbeat.
    public let intervalMillis: Int64
    /// How long the client waits for the answer.
    public let answerTimeoutMillis: Int64
    /// Unanswered heartbeats in a row that make the client drop the link and reconnect; nil:
    /// the client keeps sending and leaves the decision to the transport.
    public let missesBeforeDead: Int?
    /// The interval runs from the client's last packet (MQTT keep-alive), not from the answer.
    public let idleBased: Bool

    package init(
        _ what: String, intervalMillis: Int64, answerTimeoutMillis: Int64, missesBeforeDead: Int?,
        idleBased: Bool = false
    ) {
        self.what = what
        self.intervalMillis = intervalMillis
        self.answerTimeoutMillis = answerTimeoutMillis
        self.missesBeforeDead = missesBeforeDead
        self.idleBased = idleBased
    }

    /// The longest a healthy client stays without sending a heartbeat: the interval, plus the
    /// wait for the previous answer when the interval counts from the answer.
    public var longestSilenceMillis: Int64 { idleBased ? intervalMillis : intervalMillis + answerTimeoutMillis }
}

/// The lookup that finds the server before connecting.
public struct RoutePolicy: Sendable, Hashable {
    /// "RTM router (`/v1/route`)", "LBS `webconf.jsp`", "imgate `gateHandler`".
    package let what: String
    /// Look the route up again at every user login (otherwise a cached route is reused).
    public let resolveOnLogin: Bool
    /// Consecutive failed connects after which the cached route is cleared.
    public let clearAfterFailures: Int?
    /// How long a route stays cached when the answer gives no ttl.
    public let defaultTTLMillis: Int64?

    package init(_ what: String, resolveOnLogin: Bool, clearAfterFailures: Int? = nil, defaultTTLMillis: Int64? = nil) {
        self.what = what
        self.resolveOnLogin = resolveOnLogin
        self.clearAfterFailures = clearAfterFailures
        self.defaultTTLMillis = defaultTTLMillis
    }
}

/// How a re-login tells the server it is an automatic reconnect, not a fresh login.
public struct ReconnectFlag: Sendable, Hashable {
    /// "r=true in session/open", "client id prefix 1".
    public let name: String
    package let source: String
    package let confidence: Confidence

    package init(_ name: String, source: String, _ confidence: Confidence = .confirmed) {
        self.name = name
        self.source = source
        self.confidence = confidence
    }
}

/// A vendor SDK's reconnect behaviour as a value: the machine reads every decision from here,
/// never from the vendor's name.
public struct ReconnectPolicy: Sendable, Hashable, CustomStringConvertible {
    /// `leancloud-swift`, `nim-web`, … (the `--policy` names).
    public let name: String
    public let dialect: Dialect
    /// Which SDK and files the policy models.
    public let sdk: String
    public let schedule: RetrySchedule
    public let budget: RetryBudget
    public let heartbeat: HeartbeatPolicy?
    /// How long opening the transport may take.
    public let connectTimeoutMillis: Int64?
    /// How long the login may wait for its answer (the command timeout).
    public let loginTimeoutMillis: Int64?
    /// Where the server acknowledges a request before it answers (JMessage `ack`): how long an
    /// acknowledged login may wait for its response. `loginTimeoutMillis` is then the ack wait.
    public let loginResponseTimeoutMillis: Int64?
    /// How often an unanswered login is sent again on the same connection before giving up
    /// (one budget for the ack and the response waits).
    public let loginResends: Int
    public let route: RoutePolicy?
    public let reconnectFlag: ReconnectFlag?
    /// Login answers that mean "logged in" (yun2win: PUBLISH `returnCode` 11).
    public let acceptCodes: [Int64]
    /// Login answers that mean "go on waiting" (yun2win: CONNACK 0 before 11).
    public let progressCodes: [Int64]
    /// SDK-specific reactions, checked first.
    package let rules: [SignalRule]
    /// Where codes no rule covers are looked up.
    package let registry: RegistryScope
    /// What a `goaway` push does; nil when the protocol has none.
    public let goaway: Reaction?
    /// The SDK closes the connection in the background and reconnects in the foreground.
    public let backgroundClosesConnection: Bool
    /// A network change starts the backoff from the beginning.
    public let networkChangeResetsBackoff: Bool
    /// A wake from sleep forces a reconnect (yun2win Web sleep detection).
    public let wakeForcesReconnect: Bool
    /// How long after a drop the SDK re-joins a transient conversation / chat room by itself.
    public let chatRoomRejoinWindowMillis: Int64?
    /// The login is followed by a data sync the SDK reports (NIM `syncing` → `syncOK`).
    public let syncAfterLogin: Bool
    /// The SDK restarts its backoff when the transport is up (NIM Web: the socket.io connect
    /// `1::`, `link.onConnect` → `backoff.reset()`), not when the login is accepted: the reconnect
    /// judge numbers attempts from the last connection that got that far.
    public let backoffResetsOnLink: Bool
    /// How many servers one attempt tries, each straight after the other fails before its
    /// transport is up (LeanCloud JS: the router's `server`, then its `secondary`); 1 for most.
    public let endpointsPerAttempt: Int
    package let outputs: OutputModel
    /// Every number and behaviour above with its source, for the Spec.
    package let facts: [Fact]
    /// The reaction of every code the policy's registry tables know, resolved once.
    private let known: [Signal: [Int64: Reaction]]

    package init(
        name: String, dialect: Dialect, sdk: String, schedule: RetrySchedule, budget: RetryBudget = .unlimited,
        heartbeat: HeartbeatPolicy?, connectTimeoutMillis: Int64?, loginTimeoutMillis: Int64?,
        loginResponseTimeoutMillis: Int64? = nil,
        loginResends: Int = 0,
        route: RoutePolicy?, reconnectFlag: ReconnectFlag?, acceptCodes: [Int64], progressCodes: [Int64] = [],
        rules: [SignalRule], registry: RegistryScope, goaway: Reaction? = nil, backgroundClosesConnection: Bool = false,
        networkChangeResetsBackoff: Bool = false, wakeForcesReconnect: Bool = false,
        chatRoomRejoinWindowMillis: Int64? = nil,
        syncAfterLogin: Bool = false, backoffResetsOnLink: Bool = false, endpointsPerAttempt: Int = 1,
        outputs: OutputModel,
        facts: [Fact]
    ) {
        self.name = name
        self.dialect = dialect
        self.sdk = sdk
        self.schedule = schedule
        self.budget = budget
        self.heartbeat = heartbeat
        self.connectTimeoutMillis = connectTimeoutMillis
        self.loginTimeoutMillis = loginTimeoutMillis
        self.loginResponseTimeoutMillis = loginResponseTimeoutMillis
        self.loginResends = loginResends
        self.route = route
        self.reconnectFlag = reconnectFlag
        self.acceptCodes = acceptCodes
        self.progressCodes = progressCodes
        self.rules = rules
        self.registry = registry
        self.goaway = goaway
        self.backgroundClosesConnection = backgroundClosesConnection
        self.networkChangeResetsBackoff = networkChangeResetsBackoff
        self.wakeForcesReconnect = wakeForcesReconnect
        self.chatRoomRejoinWindowMillis = chatRoomRejoinWindowMillis
        self.syncAfterLogin = syncAfterLogin
        self.backoffResetsOnLink = backoffResetsOnLink
        self.endpointsPerAttempt = max(1, endpointsPerAttempt)
        self.outputs = outputs
        self.facts = facts
        var known: [Signal: [Int64: Reaction]] = [:]
        for signal in Signal.allCases {
            var table: [Int64: Reaction] = [:]
            for row in registry.rows(signal) where table[row.number] == nil {
                table[row.number] = Self.resolve(signal, row.number, rules: rules, registry: registry).reaction
            }
            for rule in rules where rule.signal == signal {
                for code in rule.codes ?? [] where table[code] == nil {
                    table[code] = Self.resolve(signal, code, rules: rules, registry: registry).reaction
                }
            }
            known[signal] = table
        }
        self.known = known
    }

    public var description: String { name }

    /// What the policy does when `code` arrives as `signal`: the first SDK rule that matches,
    /// else the registry's advice, else the default of the signal (a kick stops; anything
    /// else backs off and reconnects).
    public func reaction(_ signal: Signal, _ code: Int64?) -> Reaction {
        if let code, let reaction = known[signal]?[code] { return reaction }
        return explain(signal, code).reaction
    }

    /// The reaction with what it rests on: an SDK rule's source, registry rows, or the default.
    package func explain(_ signal: Signal, _ code: Int64?) -> (reaction: Reaction, basis: String) {
        Self.resolve(signal, code, rules: rules, registry: registry)
    }

    private static func resolve(_ signal: Signal, _ code: Int64?, rules: [SignalRule], registry scope: RegistryScope)
        -> (reaction: Reaction, basis: String)
    {
        if let rule = rules.first(where: { $0.matches(signal, code) }) {
            return (rule.reaction, "\(rule.source) (\(rule.confidence.rawValue))")
        }
        if let code, let found = scope.reaction(signal, code) {
            let (reaction, rows) = found
            let names = rows.map { "\($0.table) \($0.number)\($0.name.isEmpty ? "" : " \($0.name)")" }
            return (reaction, "registry: " + names.joined(separator: "; "))
        }
        return signal == .kick ? (.stop(.kicked), "default: a kick stops") : (.retry, "default: back off and reconnect")
    }

    /// The shortest wait before an automatic reconnect the policy itself ever asks for: the
    /// smallest positive delay of its schedule or of an SDK rule's fixed delay; 1 ms when it
    /// has none (it reconnects at once or never). A cycle of automatic reconnects faster than
    /// this is a storm (`no-zero-delay-reconnect-cycle`).
    package var shortestRetryDelayMillis: Int64 {
        var delays = (0...schedule.capIndex).map { schedule.boundsMillis($0).lowerBound }
        for rule in rules { if case .retryAfter(let delay) = rule.reaction { delays.append(delay) } }
        return delays.filter { $0 > 0 }.min() ?? 1
    }

    /// From this attempt count on the schedule and the budget give the same answer for every
    /// larger count: the exploration treats them as one, so the state space stays finite.
    package var attemptCeiling: Int { max(schedule.capIndex, budget.attempts ?? 0) + 1 }

    /// Codes worth trying for each signal: every code an SDK rule or an output condition names,
    /// the accept and progress codes of a login, and one code of the registry tables per
    /// reaction they lead to (the machine treats codes with the same reaction alike), plus one
    /// nobody knows when its reaction is new.
    package func interestingCodes(_ signal: Signal) -> [Int64] {
        var codes = Set(rules.filter { $0.signal == signal }.flatMap { $0.codes ?? [] })
        var seen: Set<Reaction> = Set(codes.map { reaction(signal, $0) })
        if signal == .login { codes.formUnion(acceptCodes + progressCodes) }
        // Codes an output depends on (LeanCloud JS: conflict for 4111, close for the others).
        for rule in outputs.rules {
            switch rule.condition {
            case .codeIn(let list), .codeNotIn(let list): codes.formUnion(list)
            default: break
            }
        }
        let known = registry.rows(signal)
        for number in Set(known.map(\.number)).sorted() + [999_999] where !codes.contains(number) {
            if seen.insert(reaction(signal, number)).inserted { codes.insert(number) }
        }
        return codes.sorted()
    }
}
