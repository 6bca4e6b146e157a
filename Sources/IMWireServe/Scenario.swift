import IMWireCore
import IMWireIO

/// One situation `imwire serve` puts a client in (a file of `Fixtures/serve/`, `Spec/serve.md`):
/// what the server does and when, and what a client following its vendor's policy does then.
public struct Scenario: Sendable, Hashable {
    /// The file's name without `.json`, as `--scenario` names it.
    public var name: String
    /// The dialect it is written for.
    public var dialect: Dialect
    /// One sentence: what the server does.
    public var summary: String
    public var actions: [ScenarioAction]
    public var expectation: ScenarioExpectation

    public init(
        name: String, dialect: Dialect, summary: String, actions: [ScenarioAction], expectation: ScenarioExpectation
    ) {
        self.name = name
        self.dialect = dialect
        self.summary = summary
        self.actions = actions
        self.expectation = expectation
    }
}

/// Something the server does when a client does something (`on`), on some of a run's connections.
public struct ScenarioAction: Sendable, Hashable {
    /// What the client did.
    public enum Trigger: String, Sendable, Hashable, CaseIterable {
        /// A connection was accepted (before any byte).
        case accept
        /// Its login (LeanCloud `session/open`, NIM 2_3, JMessage `login`, yun2win CONNECT) was read.
        case login
        /// A message it sent (LeanCloud `direct`, NIM 7_1, JMessage `s_across_single_text` or
        /// `send_group_msg`, yun2win `sendMessage`) was read.
        case send
        /// A heartbeat it sent (LeanCloud `echo` or a WebSocket ping, NIM 1_2, an engine.io ping,
        /// yun2win PINGREQ) was read.
        case heartbeat
        /// A push the server sent to it was acknowledged (LeanCloud `ack`, JMessage `msg_recv_v2`,
        /// yun2win PUBACK; NIM's web link has no acknowledgement).
        case ack
    }

    /// What the server does.
    public enum Act: String, Sendable, Hashable, CaseIterable {
        /// Closes the TCP connection, without a WebSocket close frame (`accept`: at once, before
        /// the upgrade: a refused connection).
        case drop
        /// Sends a WebSocket close frame with `code` and `reason`, then closes when the client answers.
        case close
        /// Sends the vendor's kick (LeanCloud `session/closed` with `code`, 4111 by default; NIM
        /// 2_5 with reason `code`, 1 by default; JMessage `event_notification` with `event_type`
        /// `code`, 1 by default; yun2win `{"returnCode": code}`, 10 by default).
        case kick
        /// Sends LeanCloud's `goaway` (the client should reconnect through the router).
        case goaway
        /// Answers a login or a send with an error from the vendor's table (`code`, `reason`)
        /// instead of its reply: LeanCloud `session/closed` (4102) or an `ack` with the code
        /// (4401), NIM the 2_3 or 7_1 response (302, 414), JMessage the `login` or send response
        /// (801004, 803003), yun2win a CONNACK refusal (5) or an ack's `returnCode` (26).
        case error
        /// Does not answer the trigger at all.
        case withhold
        /// Answers the trigger `afterMs` late (the other acts wait `afterMs` before acting).
        case delay
        /// Pushes a message to the client from the peer `imwire`, which it must acknowledge.
        case push
    }

    public var on: Trigger
    public var act: Act
    /// The run's connections it applies to, counted from 1 in the order they were accepted (nil: all).
    public var connections: [Int]?
    /// Which time the trigger happens on the connection, from 1 (nil: every time).
    public var occurrence: Int?
    /// Milliseconds after the trigger.
    public var afterMs: Int
    public var code: Int?
    public var reason: String?

    public init(
        on: Trigger, act: Act, connections: [Int]? = nil, occurrence: Int? = 1, afterMs: Int = 0, code: Int? = nil,
        reason: String? = nil
    ) {
        self.on = on
        self.act = act
        self.connections = connections
        self.occurrence = occurrence
        self.afterMs = afterMs
        self.code = code
        self.reason = reason
    }

    /// Whether it applies to the `count`-th `trigger` on the `connection`-th connection.
    func matches(_ trigger: Trigger, connection: Int, count: Int) -> Bool {
        on == trigger && (connections?.contains(connection) ?? true) && (occurrence.map { $0 == count } ?? true)
    }

    /// Whether the act ends the connection (a fault the client may answer by reconnecting).
    var endsConnection: Bool {
        switch act {
        case .drop, .close, .kick, .goaway: true
        case .error: on == .login
        // Unanswered heartbeats: the client must give the link up (its policy's heartbeat timeout).
        case .withhold: on == .heartbeat
        case .delay, .push: false
        }
    }
}

/// What a client that follows its vendor's policy does in the scenario, beyond what IMWire's
/// checker judges on every connection (protocol rules, and the reconnect judge with the
/// vendor's policy).
public struct ScenarioExpectation: Sendable, Hashable {
    /// After the server ends a connection: must the client log in again (true), must it not
    /// (false: a kick or a fatal code), or either (nil).
    public var reconnect: Bool?
    /// Rules the server's own act makes appear (a dropped connection has no close frame): shown
    /// in the report, not held against the client.
    public var waivedRules: [RuleID]

    public init(reconnect: Bool? = nil, waivedRules: [RuleID] = []) {
        self.reconnect = reconnect
        self.waivedRules = waivedRules
    }
}

extension IMWireError.Code {
    /// A scenario file that cannot be used: `path` is the file, the reason says where in it and
    /// why (`"actions[0].do": expected one of ...`).
    public static let serveScenario = Self("serve.scenario")
    /// A name no shipped scenario has (`field`: the name).
    public static let serveNoSuchScenario = Self("serve.no-such-scenario")
    /// A name several dialects ship a scenario of, given without a dialect (`field`: the name).
    public static let serveScenarioAmbiguous = Self("serve.scenario-ambiguous")
    /// Scenarios of another dialect than the one asked for, or of several where one is needed
    /// (`field`: the scenario's name, when it is one).
    package static let serveScenarioDialect = Self("serve.scenario-dialect")
    /// A shipped scenario asked for outside the IMWire package (no `Fixtures/serve/`).
    package static let serveNoFixtures = Self("serve.no-fixtures")
}

extension Scenario {
    /// Reads a scenario from its JSON (`Spec/serve.md` §3). `name`: the file's name without `.json`.
    public static func parse(_ bytes: [UInt8], name: String, file: String) throws(IMWireError) -> Scenario {
        func fail(_ reason: String) -> IMWireError { IMWireError(.serveScenario, reason, path: file) }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw fail(error.description) }
        guard let object = root.objectValue else { throw fail("expected an object, found \(root.typeName)") }
        try known(object, ["dialect", "summary", "actions", "expect"], at: "the scenario", fail)
        guard let dialectName = object["dialect"]?.stringValue else { throw fail("\"dialect\": expected a string") }
        let dialect = Dialect(dialectName)
        guard ServeServer.clouds.contains(where: { $0.dialect == dialect }) else {
            throw fail("\"dialect\": unknown dialect \(dialectName)")
        }
        guard let summary = object["summary"]?.stringValue else { throw fail("\"summary\": expected a string") }
        var actions: [ScenarioAction] = []
        if let list = object["actions"], list.arrayValue == nil { throw fail("\"actions\": expected an array") }
        for (index, item) in (object["actions"]?.arrayValue ?? []).enumerated() {
            let parsed = try action(item, at: "actions[\(index)]", fail)
            if parsed.act == .goaway, dialect != .leancloud {
                throw fail("actions[\(index)].do: goaway is LeanCloud's; \(dialectName) has none")
            }
            actions.append(parsed)
        }
        var expectation = ScenarioExpectation()
        if let expect = object["expect"] {
            guard let members = expect.objectValue else { throw fail("\"expect\": expected an object") }
            try known(members, ["reconnect", "waive"], at: "\"expect\"", fail)
            if let reconnect = members["reconnect"], !reconnect.isNull {
                guard let value = reconnect.boolValue else {
                    throw fail("\"expect.reconnect\": expected true, false or null")
                }
                expectation.reconnect = value
            }
            if let list = members["waive"], list.arrayValue == nil { throw fail("\"expect.waive\": expected an array") }
            for rule in members["waive"]?.arrayValue ?? [] {
                guard let id = rule.stringValue else { throw fail("\"expect.waive\": expected rule ids") }
                expectation.waivedRules.append(RuleID(id))
            }
        }
        return Scenario(name: name, dialect: dialect, summary: summary, actions: actions, expectation: expectation)
    }

    private static func action(_ item: JSONValue, at path: String, _ fail: (String) -> IMWireError)
        throws(IMWireError) -> ScenarioAction
    {
        guard let object = item.objectValue else { throw fail("\(path): expected an object") }
        try known(object, ["on", "do", "connections", "occurrence", "afterMs", "code", "reason"], at: path, fail)
        guard let on = object["on"]?.stringValue.flatMap(ScenarioAction.Trigger.init(rawValue:)) else {
            throw fail(
                "\(path).on: expected one of \(ScenarioAction.Trigger.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard let act = object["do"]?.stringValue.flatMap(ScenarioAction.Act.init(rawValue:)) else {
            throw fail(
                "\(path).do: expected one of \(ScenarioAction.Act.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func integer(_ key: String, _ range: ClosedRange<Int64>) throws(IMWireError) -> Int? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.int64Value, range.contains(number) else {
                throw fail("\(path).\(key): expected an integer in \(range)")
            }
            return Int(number)
        }
        var connections: [Int]?
        if let list = object["connections"], !list.isNull {
            guard let items = list.arrayValue, !items.isEmpty else {
                throw fail("\(path).connections: expected a non-empty array")
            }
            connections = []
            for value in items {
                guard let number = value.int64Value, number >= 1, number <= 1_000 else {
                    throw fail("\(path).connections: expected connection numbers from 1")
                }
                connections?.append(Int(number))
            }
        }
        if on == .accept, act != .drop { throw fail("\(path).do: on accept, only drop (a refused connection)") }
        if let reason = object["reason"], reason.stringValue == nil { throw fail("\(path).reason: expected a string") }
        let occurrence: Int? =
            object["occurrence"]?.isNull == true ? nil : try integer("occurrence", 1...1_000_000) ?? 1
        // A close frame's code is a WebSocket close code (RFC 6455 §7.4); other codes are the vendor's (32-bit).
        let code = try integer("code", act == .close ? 1000...4999 : 0...2_147_483_647)
        return ScenarioAction(
            on: on, act: act, connections: connections, occurrence: occurrence,
            afterMs: try integer("afterMs", 0...3_600_000) ?? 0,
            code: code, reason: object["reason"]?.stringValue)
    }

    private static func known(
        _ object: JSONObject, _ keys: Set<String>, at path: String, _ fail: (String) -> IMWireError
    ) throws(IMWireError) {
        if let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw fail("\(path): unknown member \"\(unknown)\" (known: \(keys.sorted().joined(separator: ", ")))")
        }
    }
}

extension Scenario {
    /// The scenarios shipped in `Fixtures/serve/<dialect>/` of the package at `root`, as
    /// `dialect/name`, sorted.
    package static func shipped(root: String) -> [String] {
        Directory.files(under: root + "/Fixtures/serve", suffix: ".json").compactMap { path in
            let parts = path.split(separator: "/").suffix(2)
            guard parts.count == 2 else { return nil }
            return "\(parts.first!)/\(parts.last!.dropLast(5))"
        }.sorted()
    }

    /// The shipped scenarios `--scenarios` names: `all`, every one of `dialect` (every one when
    /// nil), or NAME,NAME,… in that order.
    package static func shipped(_ names: String, dialect: Dialect?, root: String) -> [String] {
        guard names == "all" else {
            return names.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return shipped(root: root).filter { name in dialect.map { name.hasPrefix($0.rawValue + "/") } ?? true }
    }

    /// The file of the shipped scenario `name` (`drop`, or `jmessage/drop`), of `dialect` when
    /// given; a name more than one dialect ships needs the dialect (`serveScenarioAmbiguous`),
    /// one none ships is `serveNoSuchScenario`.
    package static func shippedPath(_ name: String, dialect: Dialect?, root: String) throws(IMWireError) -> String {
        let all = shipped(root: root)
        let matches = all.filter { entry in
            name.contains("/")
                ? entry == name
                : entry.hasSuffix("/" + name) && (dialect.map { entry.hasPrefix($0.rawValue + "/") } ?? true)
        }
        guard matches.count == 1, let match = matches.first else {
            guard !matches.isEmpty else { throw IMWireError(.serveNoSuchScenario, "no such scenario", field: name) }
            let dialects = matches.map { String($0.split(separator: "/")[0]) }.joined(separator: ", ")
            throw IMWireError(.serveScenarioAmbiguous, "shipped for \(dialects): name the dialect", field: name)
        }
        return "\(root)/Fixtures/serve/\(match).json"
    }

    /// The scenario a run plays: the shipped one called `name` in the package at `root`, or else
    /// the file at `path`; one written for `dialect` when that is given.
    package static func resolve(
        name: String?, path: String?, dialect: Dialect?, root: String?
    ) throws(IMWireError) -> Scenario {
        var file = path ?? ""
        if let name {
            guard let root else { throw IMWireError(.serveNoFixtures, "Fixtures/serve/ not found", field: name) }
            file = try shippedPath(name, dialect: dialect, root: root)
        }
        let scenario = try load(path: file)
        if let dialect, dialect != scenario.dialect {
            throw IMWireError(
                .serveScenarioDialect, "written for \(scenario.dialect.rawValue), not \(dialect.rawValue)",
                field: scenario.name)
        }
        return scenario
    }

    /// The shipped scenarios a suite plays, in order (`names` as `shipped(_:dialect:root:)` takes
    /// them), loaded; all written for one dialect (`dialect`, when given).
    package static func suite(_ names: String, dialect: Dialect?, root: String) throws(IMWireError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for name in shipped(names, dialect: dialect, root: root) {
            scenarios.append(try resolve(name: name, path: nil, dialect: dialect, root: root))
        }
        let dialects = Set(scenarios.map(\.dialect.rawValue)).sorted()
        guard dialects.count == 1 else {
            throw IMWireError(
                .serveScenarioDialect,
                "one dialect's scenarios (these are written for \(dialects.joined(separator: ", ")))")
        }
        return scenarios
    }

    /// Reads a scenario file (its name is the file's, without `.json`).
    public static func load(path: String) throws(IMWireError) -> Scenario {
        let bytes: [UInt8]
        do { bytes = try FileByteSource.readAll(path: path, limit: 1 << 20) } catch {
            throw IMWireError(error.code, error.reason, path: path)
        }
        var name = String(path.split(separator: "/").last ?? "")
        if name.hasSuffix(".json") { name.removeLast(5) }
        return try parse(bytes, name: name, file: path)
    }
}
