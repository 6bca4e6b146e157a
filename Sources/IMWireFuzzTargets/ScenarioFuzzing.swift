import IMWireCore
import IMWireServe

enum ScenarioFuzzing {
    /// A scenario file (`imwire serve --scenario-file`, `Fixtures/serve/`).
    ///
    /// Invariants: never traps; parsing is deterministic; an error names the file; a parsed
    /// scenario's numbers are within the ranges `Spec/serve.md` §3 gives (connections from 1, a
    /// close code a WebSocket one, `afterMs` up to an hour); written back out as JSON, it parses to
    /// the same scenario.
    static func parse(_ input: FuzzInput) -> [String] {
        let parse = { (bytes: [UInt8]) in
            Result { () throws(IMWireError) in try Scenario.parse(bytes, name: "fuzz", file: "fuzz.json") }
        }
        let first = parse(input.payload)
        guard first == parse(input.payload) else { return ["the scenario parses differently twice"] }
        switch first {
        case .failure(let error): return error.path == "fuzz.json" ? [] : ["the error names \(error.path ?? "no file")"]
        case .success(let scenario):
            var violations: [String] = []
            for action in scenario.actions {
                if action.connections?.contains(where: { $0 < 1 }) == true {
                    violations.append("a connection number below 1")
                }
                if action.act == .close, let code = action.code, !(1000...4999).contains(code) {
                    violations.append("close code \(code)")
                }
                if !(0...3_600_000).contains(action.afterMs) { violations.append("afterMs \(action.afterMs)") }
                if action.on == .accept, action.act != .drop { violations.append("\(action.act) on accept") }
            }
            let written = Array(JSONWriter.string(json(scenario)).utf8)
            switch parse(written) {
            case .success(let again) where again == scenario: break
            case .success: violations.append("written back out, it parses to another scenario")
            case .failure(let error): violations.append("written back out, it does not parse: \(error)")
            }
            return violations
        }
    }

    /// The scenario as its file writes it.
    static func json(_ scenario: Scenario) -> JSONValue {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
        }
        let actions: [JSONValue] = scenario.actions.map { action in
            var members: [(String, JSONValue)] = [
                ("on", .string(action.on.rawValue)), ("do", .string(action.act.rawValue)),
            ]
            if let connections = action.connections { members.append(("connections", .array(connections.map(number)))) }
            members.append(("occurrence", action.occurrence.map(number) ?? .null))
            members.append(("afterMs", number(action.afterMs)))
            if let code = action.code { members.append(("code", number(code))) }
            if let reason = action.reason { members.append(("reason", .string(reason))) }
            return object(members)
        }
        let expect = object([
            ("reconnect", scenario.expectation.reconnect.map(JSONValue.bool) ?? .null),
            ("waive", .array(scenario.expectation.waivedRules.map { .string($0.rawValue) })),
        ])
        return object([
            ("dialect", .string(scenario.dialect.rawValue)), ("summary", .string(scenario.summary)),
            ("actions", .array(actions)),
            ("expect", expect),
        ])
    }
}
