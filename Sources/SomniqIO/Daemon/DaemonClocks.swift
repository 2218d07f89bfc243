import FoundationEssentials

/// The daemon's two clocks. Intervals (the watchdog's pings, the metrics' minute, a stall,
/// the time left to stop) are measured on a monotonic clock, which a wall-clock step never
/// moves: a board without an RTC starts in 1970 or at its last shutdown and is stepped
/// when NTP first answers, by years or back by hours. Records, the metrics file and the
/// page are stamped with the wall clock. Both are injected, so a test can step one alone.
public struct DaemonClocks: Sendable {
    /// Time since an arbitrary origin; never goes back.
    public var monotonic: @Sendable () -> Duration
    /// Now, as the wall clock says; may step either way.
    public var wall: @Sendable () -> Date

    public init(monotonic: @escaping @Sendable () -> Duration, wall: @escaping @Sendable () -> Date) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// `ContinuousClock` (it runs on through a suspend, as a stall's length should) and `Date`.
    public static var system: DaemonClocks {
        let origin = ContinuousClock.now
        return DaemonClocks(monotonic: { .now - origin }, wall: { Date() })
    }
}

extension Duration {
    /// In seconds, for records and messages.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// Systemd's watchdog pings while audio arrives: one at the first block, then at most one
/// per `interval` of monotonic time.
struct WatchdogPacer {
    let interval: Duration
    private var last: Duration?

    init(interval: Duration) { self.interval = interval }

    /// Whether to ping at monotonic time `now`.
    mutating func due(at now: Duration) -> Bool {
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
