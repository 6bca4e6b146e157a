import IMWireCore

/// A timed list of events for `imwire reconnect simulate` and the golden traces: a JSON
/// document `{"seed": 1, "until": 60000, "events": [{"ms": 0, "event": "user-login"}, …]}`,
/// or JSONL with one event object per line (a line without `event` sets `seed`/`until`).
/// The format is documented in Spec/reconnect.md.
package struct EventFile: Sendable, Hashable {
    /// One line of the file: an event at a time.
    package struct Entry: Sendable, Hashable {
        /// When the event comes: milliseconds on the simulation's clock (the file's `ms`);
        /// never decreasing along the file.
        package let timeMillis: Int64
        /// The event.
        package let event: ReconnectEvent
        /// Replaces the simulator's drawn random input for this event.
        package let random: UInt32?

        /// `event` at `timeMillis`, with `random` replacing the drawn random input when given.
        package init(timeMillis: Int64, event: ReconnectEvent, random: UInt32? = nil) {
            self.timeMillis = timeMillis
            self.event = event
            self.random = random
        }
    }

    /// Seed of the random input (SplitMix64).
    package var seed: UInt64
    /// Keep firing timers until this time (ms on the clock, the file's `until`) after the last event.
    package var untilMillis: Int64?
    /// A policy name the file was written for (the command line's `--policy` wins).
    package var policy: String?
    /// The events, in time order.
    package var entries: [Entry]

    /// A file of `entries`; `untilMillis` keeps the timers firing after the last one.
    package init(seed: UInt64 = 0, untilMillis: Int64? = nil, policy: String? = nil, entries: [Entry]) {
        self.seed = seed
        self.untilMillis = untilMillis
        self.policy = policy
        self.entries = entries
    }

    /// Parses a JSON document (or a golden trace of `Fixtures/reconnect/`, whose events are under
    /// `input`) or JSONL text.
    package static func parse(_ text: String, limits: Limits = .default) throws(IMWireError) -> EventFile {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if trimmed.first == "{", let document = try? JSONParser.parse(String(trimmed), maxDepth: limits.maxJSONDepth),
            let object = document.objectValue, object["event"] == nil
        {
            if object["events"] != nil { return try parse(document: object) }
            if let input = object["input"]?.objectValue, input["events"] != nil {
                var file = try parse(document: input)
                file.policy = file.policy ?? object["policy"]?.stringValue
                return file
            }
            throw IMWireError(
                .reconnectEventFile,
                """
                a JSON document without events: expected {"events": \
                [...]}, a golden trace with input.events, or JSONL
                """)
        }
        var file = EventFile(entries: [])
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.trimmingSpaces
            guard !content.isEmpty else { continue }
            let value: JSONValue
            do { value = try JSONParser.parse(String(content), maxDepth: limits.maxJSONDepth) } catch {
                throw IMWireError(.reconnectEventFile, "\(error)", line: number + 1)
            }
            guard let object = value.objectValue else {
                throw IMWireError(.reconnectEventFile, "not a JSON object", line: number + 1)
            }
            if object["event"] == nil {
                try file.settings(object, where: "line \(number + 1)")
            } else {
                file.entries.append(
                    try entry(object, where: "line \(number + 1)", after: file.entries.last?.timeMillis))
            }
        }
        guard !file.entries.isEmpty else {
            throw IMWireError(.reconnectEventFile, "no events (expected a JSON document with events, or JSONL)")
        }
        return file
    }

    /// Parses the JSON document form.
    package static func parse(document object: JSONObject) throws(IMWireError) -> EventFile {
        var file = EventFile(entries: [])
        try file.settings(object, where: "document")
        guard let events = object["events"]?.arrayValue else {
            throw IMWireError(.reconnectEventFile, "events must be an array")
        }
        for (index, value) in events.enumerated() {
            guard let item = value.objectValue else {
                throw IMWireError(.reconnectEventFile, "events[\(index)]: not an object")
            }
            file.entries.append(try entry(item, where: "events[\(index)]", after: file.entries.last?.timeMillis))
        }
        return file
    }

    private mutating func settings(_ object: JSONObject, where place: String) throws(IMWireError) {
        if let value = object["seed"] {
            guard let seed = value.numberValue?.uint64Value else {
                throw IMWireError(.reconnectEventFile, "\(place): seed must be an integer ≥ 0")
            }
            self.seed = seed
        }
        if let value = object["until"] {
            guard let until = value.int64Value, until >= 0 else {
                throw IMWireError(.reconnectEventFile, "\(place): until must be an integer ≥ 0 (ms)")
            }
            self.untilMillis = until
        }
        if let value = object["policy"] {
            guard let name = value.stringValue else {
                throw IMWireError(.reconnectEventFile, "\(place): policy must be a string")
            }
            policy = name
        }
    }

    private static func entry(_ object: JSONObject, where place: String, after previous: Int64?) throws(IMWireError)
        -> Entry
    {
        guard let time = object["ms"]?.int64Value, time >= 0 else {
            throw IMWireError(.reconnectEventFile, "\(place): ms must be an integer ≥ 0")
        }
        if let previous, time < previous {
            throw IMWireError(.reconnectEventFile, "\(place): ms \(time) is before the previous event (\(previous))")
        }
        guard let name = object["event"]?.stringValue else {
            throw IMWireError(.reconnectEventFile, "\(place): event must be a string")
        }
        func integer(_ key: String) throws(IMWireError) -> Int64? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.int64Value else {
                throw IMWireError(.reconnectEventFile, "\(place): \(key) must be an integer")
            }
            return number
        }
        func required(_ key: String) throws(IMWireError) -> Int64 {
            guard let number = try integer(key) else {
                throw IMWireError(.reconnectEventFile, "\(place): \(name) needs \(key)")
            }
            return number
        }
        let event: ReconnectEvent
        switch name {
        case "user-login": event = .userLogin
        case "user-logout": event = .userLogout
        case "network-up": event = .networkUp
        case "network-down": event = .networkDown
        case "route-resolved": event = .routeResolved(ttlMillis: try integer("ttl_ms"))
        case "route-failed": event = .routeFailed(status: try integer("status"))
        case "transport-opened": event = .transportOpened
        case "transport-closed": event = .transportClosed(code: try integer("code"))
        case "transport-failed": event = .transportFailed
        case "login-response": event = .loginResponse(code: try required("code"), waitMillis: try integer("wait_ms"))
        case "login-acknowledged": event = .loginAcknowledged
        case "kicked": event = .kicked(code: try required("code"))
        case "goaway": event = .goaway
        case "sync-completed": event = .syncCompleted
        case "heartbeat-sent": event = .heartbeatSent
        case "heartbeat-answered": event = .heartbeatAnswered
        case "heartbeat-missed": event = .heartbeatMissed
        case "command-timeout": event = .commandTimeout
        case "app-background": event = .appBackground
        case "app-foreground": event = .appForeground
        case "system-wake": event = .systemWake
        case "timer-fired":
            guard let timer = object["timer"]?.stringValue.flatMap(TimerKind.init(rawValue:)) else {
                throw IMWireError(
                    .reconnectEventFile,
                    """
                    \(place): timer-fired needs timer, one of \
                    \(TimerKind.allCases.map(\.rawValue).joined(separator: ", "))
                    """)
            }
            event = .timerFired(timer)
        case "credentials-refreshed": event = .credentialsRefreshed
        case "credentials-refresh-failed": event = .credentialsRefreshFailed
        case "chat-room-joined": event = .chatRoomJoined
        case "chat-room-left": event = .chatRoomLeft
        default:
            throw IMWireError(
                .reconnectEventFile,
                "\(place): unknown event \(name); known: \(ReconnectEvent.names.joined(separator: ", "))")
        }
        var random: UInt32?
        if let value = try integer("random") {
            guard let exact = UInt32(exactly: value) else {
                throw IMWireError(.reconnectEventFile, "\(place): random must be 0…4294967295")
            }
            random = exact
        }
        return Entry(timeMillis: time, event: event, random: random)
    }

    /// The most steps one run takes, timers included (the golden traces take at most
    /// 29): `until`, or an event, years past the others would fire heartbeats without end.
    package static let maxSteps = 100_000

    /// Runs the file through a simulator of `policy`: every step, timers included, and the
    /// events that did not fit the state they met. Throws when the run passes `maxSteps`, with
    /// where it stopped.
    package func run(_ policy: ReconnectPolicy, maxSteps: Int = EventFile.maxSteps) throws(IMWireError)
        -> ReconnectSimulation
    {
        var simulator = ReconnectSimulator(policy: policy, seed: seed)
        simulator.stepLimit = maxSteps
        var steps: [TraceStep] = []
        func check(before time: Int64) throws(IMWireError) {
            guard simulator.stoppedAtLimit else { return }
            throw IMWireError(
                .reconnectStepLimit,
                """
                the simulation reached \(maxSteps) steps before ms \(time): the timers of \(policy.name) keep \
                firing that far ahead (at ms \(steps.last?.timeMillis ?? 0)); bring until or the event times closer
                """)
        }
        for entry in entries {
            steps += simulator.feed(entry.event, atMillis: entry.timeMillis, random: entry.random)
            try check(before: entry.timeMillis)
        }
        if let untilMillis {
            steps += simulator.advance(toMillis: untilMillis)
            try check(before: untilMillis)
        }
        return ReconnectSimulation(steps: steps, misfits: simulator.misfits, simulator: simulator)
    }

    /// The file as a JSON document (the fixtures' `input`).
    package var json: JSONValue {
        var object = JSONObject()
        if let policy { object.append("policy", .string(policy)) }
        object.append("seed", .number(JSONNumber(seed)))
        if let untilMillis { object.append("until", .number(JSONNumber(untilMillis))) }
        object.append("events", .array(entries.map(\.json)))
        return .object(object)
    }
}

extension EventFile.Entry {
    var json: JSONValue {
        var object = JSONObject()
        object.append("ms", .number(JSONNumber(timeMillis)))
        object.append("event", .string(event.name))
        switch event {
        case .routeResolved(let ttl): if let ttl { object.append("ttl_ms", .number(JSONNumber(ttl))) }
        case .routeFailed(let status): if let status { object.append("status", .number(JSONNumber(status))) }
        case .transportClosed(let code): if let code { object.append("code", .number(JSONNumber(code))) }
        case .loginResponse(let code, let wait):
            object.append("code", .number(JSONNumber(code)))
            if let wait { object.append("wait_ms", .number(JSONNumber(wait))) }
        case .kicked(let code): object.append("code", .number(JSONNumber(code)))
        case .timerFired(let kind): object.append("timer", .string(kind.rawValue))
        default: break
        }
        if let random { object.append("random", .number(JSONNumber(Int64(random)))) }
        return .object(object)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

extension IMWireError.Code {
    /// An event file of `imwire reconnect simulate` that cannot be read: a line that is not an
    /// event (`line`: its number in JSONL), a time that goes backwards, an unknown event.
    public static let reconnectEventFile = Self("reconnect.event-file")
    /// An event file whose simulation passes its step limit: timers that fire that far ahead.
    public static let reconnectStepLimit = Self("reconnect.step-limit")
}
