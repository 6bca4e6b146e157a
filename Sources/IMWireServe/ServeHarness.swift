import IMWireCheck
import IMWireCore
import NIOCore

/// A server's connections without a socket: each channel given to `connect` (an
/// `EmbeddedChannel`, say) gets the handlers an accepted connection gets, on one cloud playing
/// `scenario`, its bytes checked by a live check. For a harness that feeds a server a client's
/// bytes and reads what it answers (the `Serve` fuzz target). Refusals (`accept` → `drop`)
/// are not played; the case-switching requests are answered 404. Used on one thread.
package final class ServeHarness {
    private let cloud: any ServedCloud
    private let live: LiveCheck
    private let limits: ServeLimits
    private var accepted = 0

    /// `clock`: the milliseconds the cloud stamps (fixed: the same bytes get the same answers).
    package init(
        scenario: Scenario, limits: ServeLimits = ServeLimits(),
        clock: @escaping @Sendable () -> Int64 = { 1_795_000_000_000 }
    )
        throws(IMWireError)
    {
        var options = CheckOptions()
        options.dialect = scenario.dialect
        live = try LiveCheck(options: options, now: { clock() * 1000 })
        let configuration = ServeConfiguration(listenPort: 0, scenario: scenario, limits: limits)
        guard let cloud = ServeServer.cloud(for: configuration, clock: clock, log: ServeLog()) else {
            throw IMWireError(.serveNoCloud, ServeServer.noCloud(scenario))
        }
        self.cloud = cloud
        self.limits = limits
    }

    /// Installs a new connection's handlers on `channel`, before it becomes active.
    package func connect(_ channel: Channel) throws {
        accepted += 1
        let id = accepted
        let number = cloud.scenario.accepted()
        let live = self.live
        let tap = ServeTap(
            live: live,
            open: { live.open(client: ([127, 0, 0, 1], UInt16(40_000 + id % 20_000)), server: ([127, 0, 0, 1], 80)) },
            ended: {})
        try channel.pipeline.syncOperations.addHandler(tap)
        try channel.pipeline.syncOperations.addHandler(
            HTTPOpening(id: id, number: number, cloud: cloud, limits: limits, tap: tap, control: { _, _ in nil }))
    }

    /// Ends the check: the report of every connection's bytes both ways.
    package func finish() throws(IMWireError) -> CheckReport {
        try live.finish(source: "ServeHarness")
    }
}
