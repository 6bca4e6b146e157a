#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LiveCheck {
    /// Microseconds since the epoch: the times a live check of real traffic gives its
    /// messages (`imwire proxy`'s `now`).
    @Sendable package static func wallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
