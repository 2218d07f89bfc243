import FoundationEssentials
import SomniqSupport

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
    /// The clock handed to the I/O the daemon starts (its log's retries, its sinks'
    /// deadlines and back-offs): the one `monotonic` and `wall` are read from when made from
    /// one (`init(_:)`), else the machine's.
    public var io: any IOClock

    public init(monotonic: @escaping @Sendable () -> Duration, wall: @escaping @Sendable () -> Date, io: any IOClock = SystemClock()) {
        self.monotonic = monotonic
        self.wall = wall
        self.io = io
    }

    /// All read from `clock`, the monotonic one counted from now.
    public init(_ clock: any IOClock) {
        let origin = clock.now
        self.init(monotonic: { clock.now - origin }, wall: { Date(timeIntervalSince1970: clock.unix) }, io: clock)
    }

    /// The machine's (`SystemClock`).
    public static var system: DaemonClocks { DaemonClocks(SystemClock()) }
}

/// Systemd's watchdog pings while audio arrives: one at the first block, then at most one
/// per `interval` of the monotonic clock it reads.
struct WatchdogPacer {
    let interval: Duration
    private let clocks: DaemonClocks
    private var last: Duration?

    init(interval: Duration, clocks: DaemonClocks) {
        self.interval = interval
        self.clocks = clocks
    }

    /// Whether to ping now.
    mutating func due() -> Bool {
        let now = clocks.monotonic()
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
