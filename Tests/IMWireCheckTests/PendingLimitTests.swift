import IMWire
import Testing

/// `Limits.maxPendingRequests` reaches every dialect's session tracker through its connection,
/// so the checker (and `imwire proxy`) bounds what a peer that never answers can make it hold.
@Suite struct PendingLimitTests {
    @Test func everyDialectsTrackerTakesTheLimit() {
        let context = DialectContext(limits: Limits(maxPendingRequests: 3))
        #expect(LeanCloudConnection(context).tracker.maxTracked == 3)
        #expect(NIMConnection(context).tracker.maxTracked == 3)
        #expect(JMessageConnection(context).tracker.maxTracked == 3)
        #expect(Yun2winConnection(context).tracker.maxTracked == 3)
        #expect(LeanCloudConnection(DialectContext()).tracker.maxTracked == Limits.default.maxPendingRequests)
    }
}
