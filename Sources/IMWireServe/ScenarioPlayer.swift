import Dispatch

/// Counts a run's connections and each connection's triggers, and answers which of the
/// scenario's actions apply now. Used on the server's event loop only.
final class ScenarioPlayer {
    let scenario: Scenario
    private var connections = 0
    private var counts: [Int: [ScenarioAction.Trigger: Int]] = [:]

    init(_ scenario: Scenario) {
        self.scenario = scenario
    }

    /// A connection was accepted: its number in the run, from 1.
    func accepted() -> Int {
        connections += 1
        counts[connections] = [.accept: 1]
        return connections
    }

    /// The connection turned out to be a router request, not a link: its number is given back
    /// (when no later connection took the next one), so that the first link is connection 1
    /// whether the client asked the router first or not.
    func release(_ number: Int) {
        guard number == connections else { return }
        connections -= 1
        counts[number] = nil
    }

    /// The actions for a trigger that just happened on `connection` (counted here; `accept`
    /// was counted by `accepted`).
    func actions(_ trigger: ScenarioAction.Trigger, connection: Int) -> [ScenarioAction] {
        var count = counts[connection, default: [:]][trigger, default: 0]
        if trigger != .accept {
            count += 1
            counts[connection, default: [:]][trigger] = count
        }
        return scenario.actions.filter { $0.matches(trigger, connection: connection, count: count) }
    }
}

/// What the server did, in order: the facts grading needs beside the checker's report.
/// `connection` counts every connection accepted, from 1 (a router request's too, unlike the
/// scenario's link numbers).
public enum ServeEvent: Sendable, Hashable {
    /// Connection `connection` accepted from the client address `client` (`host:port`).
    case accepted(connection: Int, client: String, timeMs: Int64)
    /// A login read on it: the user, and whether it carried the reconnect flag (LeanCloud `r`).
    case login(connection: Int, user: String, reconnect: Bool, timeMs: Int64)
    /// The scenario's act done on it, for its trigger.
    case acted(connection: Int, act: ScenarioAction.Act, trigger: ScenarioAction.Trigger, timeMs: Int64)
    /// It asked the router (it is no link: its client logs in on a later connection).
    case routed(connection: Int, timeMs: Int64)
    /// It closed.
    case closed(connection: Int, timeMs: Int64)
    /// The checker names it `name` rather than by its addresses (NIM: its socket.io session).
    case named(connection: Int, name: String)

    public var connection: Int {
        switch self {
        case .accepted(let connection, _, _), .login(let connection, _, _, _), .acted(let connection, _, _, _),
            .routed(let connection, _),
            .closed(let connection, _), .named(let connection, _):
            connection
        }
    }
}

/// The server's events so far: appended on the event loop, read from any thread (after the
/// server stopped too).
final class ServeLog: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var list: [ServeEvent] = []

    private var forgotten: Set<Int> = []

    func append(_ event: ServeEvent) {
        lock.wait()
        if !forgotten.contains(event.connection) { list.append(event) }
        lock.signal()
    }

    /// Drops every event of `connection`, and those to come (a control request's, which is no client's).
    func forget(connection: Int) {
        lock.wait()
        forgotten.insert(connection)
        list.removeAll { $0.connection == connection }
        lock.signal()
    }

    var events: [ServeEvent] {
        lock.wait()
        defer { lock.signal() }
        return list
    }

    /// The newest event (without copying the others).
    var last: ServeEvent? {
        lock.wait()
        defer { lock.signal() }
        return list.last
    }
}
