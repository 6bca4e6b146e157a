import IMWireCore
import IMWireReconnect
import IMWireRegistry

enum ReconnectFuzzing {
    /// Steps per run here: enough for every golden trace (29 at most), small enough that a run
    /// whose timers fire without end costs little.
    static let maxSteps = 2_000

    /// An event file (`imwire reconnect simulate --events`): parsing is deterministic; a parsed
    /// file has times ≥ 0 that never decrease and survives its own JSON document; run through
    /// its policy, it either stops at the step limit with an `IMWireError`
    /// or gives steps in time order, never more than the limit plus the events, the same twice.
    static func events(_ input: FuzzInput) -> [String] {
        let text = String(decoding: input.payload, as: UTF8.self)
        let first = Result { () throws(IMWireError) in try EventFile.parse(text, limits: input.limits) }
        let second = Result { () throws(IMWireError) in try EventFile.parse(text, limits: input.limits) }
        guard first == second else { return ["the file parses differently twice"] }
        guard case .success(let file) = first else { return [] }
        var violations: [String] = []
        if zip(file.entries, file.entries.dropFirst()).contains(where: { $0.timeMillis > $1.timeMillis })
            || file.entries.contains(where: { $0.timeMillis < 0 })
        {
            violations.append("event times decrease or are negative")
        }
        let written = JSONWriter.string(file.json)
        switch Result(catching: { () throws(IMWireError) in try EventFile.parse(written) }) {
        case .success(let again) where again == file: break
        case .success: violations.append("`\(written.prefix(200))` parses to another file")
        case .failure(let error): violations.append("`\(written.prefix(200))` does not parse: \(error)")
        }
        // The policy the file names (as `imwire reconnect simulate` takes it), else the option bits'.
        let policies = ReconnectPolicies.all
        let policy =
            file.policy.flatMap(ReconnectPolicies.named)
            ?? policies[(input.extra << 2 | input.variant) % policies.count]
        let run = Result { () throws(IMWireError) in try file.run(policy, maxSteps: maxSteps).steps }
        let rerun = Result { () throws(IMWireError) in try file.run(policy, maxSteps: maxSteps).steps }
        if run != rerun { violations.append("two runs of \(policy.name) differ") }
        if case .success(let steps) = run {
            if steps.count > maxSteps + file.entries.count { violations.append("\(steps.count) steps pass the limit") }
            if zip(steps, steps.dropFirst()).contains(where: { $0.timeMillis > $1.timeMillis }) {
                violations.append("steps out of time order")
            }
        }
        return violations
    }
}
