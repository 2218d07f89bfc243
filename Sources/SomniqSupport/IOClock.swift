import FoundationEssentials

/// Time as the I/O layer reads it: a monotonic clock for intervals (a deadline, a retry's
/// back-off, a stall) and the wall clock for what a person reads. Passed in, never read
/// directly: `SystemClock` in production; a test steps a clock of its own by hand, and a
/// thread waiting on it for a deadline wakes when the test moves it past.
public protocol IOClock: Sendable {
    /// Monotonic: never goes back, and a wall-clock step never moves it.
    var now: ContinuousClock.Instant { get }
    /// The wall clock, in Unix seconds: may step either way.
    var unix: Double { get }
    /// With `condition` locked: waits for a signal until `deadline` on this clock. False
    /// once the deadline has passed; true when signalled before (the caller looks again).
    func wait(_ condition: PosixCondition, until deadline: ContinuousClock.Instant) -> Bool
    /// A task's wait until `deadline` on this clock (the daemon's ticks); throws
    /// `CancellationError` when the task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

/// The machine's clocks: `ContinuousClock` (it runs on through a suspend, as a stall's
/// length should) and the system's wall clock.
public struct SystemClock: IOClock {
    public init() {}
    public var now: ContinuousClock.Instant { .now }
    public var unix: Double { Date().timeIntervalSince1970 }
    public func wait(_ condition: PosixCondition, until deadline: ContinuousClock.Instant) -> Bool {
        condition.wait(until: deadline)
    }
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}

extension Duration {
    /// In seconds, for records and messages.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
