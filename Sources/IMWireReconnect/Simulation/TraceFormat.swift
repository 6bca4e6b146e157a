import IMWireCore

/// Traces as text for people and as JSON for the golden files and other implementations.
package enum TraceFormat {
    /// One line per step:
    ///
    ///        1600 ms  timer-fired(retry)  waiting → resolving  resolve-route … | AVIMClientStatus=4 …
    package static func text(_ steps: [TraceStep], policy: ReconnectPolicy) -> String {
        var lines = ["policy \(policy.name) (\(policy.dialect.rawValue)): \(policy.sdk)"]
        let initial = ReconnectMachine.initialOutputs(policy: policy).map(\.description)
        if !initial.isEmpty { lines.append("initial: " + initial.joined(separator: "; ")) }
        for step in steps {
            var line = """
                \(pad(step.timeMillis)) ms  \(step.event.summary)  \
                \(step.from.rawValue) → \(step.state.phase.rawValue)
                """
            let commands = step.commands.map(\.description)
            if !commands.isEmpty { line += "  " + commands.joined(separator: ", ") }
            let outputs = step.outputs.map(\.description)
            if !outputs.isEmpty { line += "  | " + outputs.joined(separator: "; ") }
            lines.append(line)
        }
        if let last = steps.last { lines.append("final: \(last.state.summary)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ time: Int64) -> String {
        let text = String(time)
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    /// `{"policy", "initial"?: [outputs], "steps": [{ms, event, from, to, actions, outputs}], "final": {…}}`;
    /// `initial` (what the SDK shows before any event) only when the SDK shows something then.
    package static func json(_ steps: [TraceStep], policy: ReconnectPolicy) -> JSONValue {
        var object = JSONObject()
        object.append("policy", .string(policy.name))
        let initial = ReconnectMachine.initialOutputs(policy: policy)
        if !initial.isEmpty { object.append("initial", .array(initial.map(json))) }
        object.append("steps", .array(steps.map(json)))
        if let last = steps.last { object.append("final", json(last.state)) }
        return .object(object)
    }

    /// A run's trace (`json(_:policy:)` of its steps) with `"misfits": [misfit…]` after it,
    /// empty when every event fitted: what `imwire reconnect simulate --format json` prints.
    package static func json(_ simulation: ReconnectSimulation, policy: ReconnectPolicy) -> JSONValue {
        guard case .object(var object) = json(simulation.steps, policy: policy) else { return .null }
        object.append("misfits", .array(simulation.misfits.map(json)))
        return .object(object)
    }

    /// `{"event_index", "step", "ms", "event": {"event", fields…}, "state": {…}, "reason", "fits"?,
    /// "timer"?, "clock_ms"?, "message"}`.
    package static func json(_ misfit: ReconnectSimulation.Misfit) -> JSONValue {
        var object = JSONObject()
        object.append("event_index", .number(JSONNumber(Int64(misfit.eventIndex))))
        object.append("step", .number(JSONNumber(Int64(misfit.stepIndex))))
        object.append("ms", .number(JSONNumber(misfit.timeMillis)))
        object.append("event", json(misfit.event))
        object.append("state", json(misfit.state))
        object.append("reason", .string(misfit.reason.name))
        switch misfit.reason {
        case .phase(let phases): object.append("fits", .array(phases.map { .string($0.rawValue) }))
        case .timerNotArmed(let kind): object.append("timer", .string(kind.rawValue))
        case .clockWentBack(let clock): object.append("clock_ms", .number(JSONNumber(clock)))
        default: break
        }
        object.append("message", .string(misfit.description))
        return .object(object)
    }

    /// An event with its fields, as in event files without the time: `{"event": "login-response", "code": 0}`.
    package static func json(_ event: ReconnectEvent) -> JSONValue {
        guard case .object(var object) = EventFile.Entry(timeMillis: 0, event: event).json else { return .null }
        object.members.removeAll { $0.key == "ms" }
        return .object(object)
    }

    /// One step: `{"ms", "event": {…}, "from", "to", "actions": [...], "outputs": [...]}`.
    package static func json(_ step: TraceStep) -> JSONValue {
        var object = JSONObject()
        object.append("ms", .number(JSONNumber(step.timeMillis)))
        object.append("event", json(step.event))
        object.append("from", .string(step.from.rawValue))
        object.append("to", .string(step.state.phase.rawValue))
        object.append("actions", .array(step.commands.map(json)))
        object.append("outputs", .array(step.outputs.map(json)))
        return .object(object)
    }

    /// An action as `{"do", fields…}` (the outputs, `emit`, as `json(_: VendorOutput)`).
    package static func json(_ action: ReconnectAction) -> JSONValue {
        var object = JSONObject()
        func put(_ key: String, _ value: JSONValue) { object.append(key, value) }
        switch action {
        case .resolveRoute(let clear):
            put("do", "resolve-route")
            put("clear_cache", .bool(clear))
        case .openTransport: put("do", "open-transport")
        case .closeTransport: put("do", "close-transport")
        case .sendLogin(let flag):
            put("do", "send-login")
            put("reconnect_flag", flag.map { .string($0) } ?? .null)
        case .scheduleTimer(let kind, let delay):
            put("do", "schedule-timer")
            put("timer", .string(kind.rawValue))
            put("delay_ms", .number(JSONNumber(delay)))
        case .cancelTimer(let kind):
            put("do", "cancel-timer")
            put("timer", .string(kind.rawValue))
        case .sendHeartbeat: put("do", "send-heartbeat")
        case .refreshCredentials: put("do", "refresh-credentials")
        case .rejoinChatRoom: put("do", "rejoin-chat-room")
        case .emit(let output): return json(output)
        case .stop(let cause, let code):
            put("do", "stop")
            put("cause", .string(cause.rawValue))
            put("code", code.map { .number(JSONNumber($0)) } ?? .null)
        }
        return .object(object)
    }

    /// An output as `{"kind", "table", "value"?, "name", "code"?, "detail"?}`.
    package static func json(_ output: VendorOutput) -> JSONValue {
        var object = JSONObject()
        object.append("kind", .string(output.kind.rawValue))
        object.append("table", .string(output.table))
        if let value = output.value { object.append("value", .number(JSONNumber(value))) }
        object.append("name", .string(output.name))
        if let code = output.code { object.append("code", .number(JSONNumber(code))) }
        if let detail = output.detail { object.append("detail", .string(detail)) }
        return .object(object)
    }

    /// A state as `{"phase", "attempt", "had_session", "timers", "chat_room", "stop"?}`.
    package static func json(_ state: ReconnectState) -> JSONValue {
        var object = JSONObject()
        object.append("phase", .string(state.phase.rawValue))
        object.append("attempt", .number(JSONNumber(state.attempt)))
        object.append("had_session", .bool(state.hadSession))
        object.append("timers", .array(state.timers.map { .string($0.rawValue) }))
        object.append("chat_room", .string(state.chatRoom.rawValue))
        if let stop = state.stop {
            object.append(
                "stop",
                .object(
                    JSONObject([
                        "cause": .string(stop.cause.rawValue),
                        "code": stop.code.map { .number(JSONNumber($0)) } ?? .null,
                    ])))
        }
        return .object(object)
    }
}
