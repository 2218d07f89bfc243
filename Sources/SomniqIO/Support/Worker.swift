import FoundationEssentials
import Glibc

/// A thread of its own that runs jobs one at a time, in the order they were offered, from
/// a backlog of at most `capacity` waiting. What happens when the backlog is full is the
/// caller's policy (`WhenFull`). `drain` waits, to a deadline on the worker's clock, until
/// everything offered has run; `stop` ends the thread after the job under way. The backlog
/// is a ring allocated once: offering a job allocates nothing.
///
/// The clips, the night audio, the sinks and the web page's reads each run on one.
// @unchecked: Synchronization has no condition variable; the state is guarded by `condition`.
public final class Worker<Job: Sendable>: @unchecked Sendable {
    /// What `offer` does with a job that finds the backlog full.
    public enum WhenFull: Sendable {
        /// The oldest job waiting gives way (`offer` returns it, and `dropped` counts it).
        case dropOldest
        /// The new job is refused (`offer` returns `.refused`).
        case refuse
        /// `offer` waits for room (or for `stop`).
        case block
    }

    public enum Offered {
        case queued
        /// Queued, and `oldest` gave way to it.
        case queuedDropping(oldest: Job)
        /// Not queued: the backlog was full, or the worker is stopping.
        case refused
    }

    /// What `stop` does with the jobs still waiting.
    public enum Rest: Sendable {
        /// They are taken out, not run, and `stop` returns them.
        case giveBack
        /// The thread runs them, then ends.
        case run
    }

    public let name: String
    public let capacity: Int
    private let whenFull: WhenFull
    private let clock: any IOClock
    private let condition = PosixCondition()
    private var ring: [Job?]
    private var head = 0, count = 0
    private var running = false
    private var stopping = false
    private var exited = false
    private var droppedCount = 0

    /// A worker whose thread, `name`, begins at `start`; jobs offered before wait for it.
    public init(name: String, capacity: Int, whenFull: WhenFull, clock: any IOClock = SystemClock()) {
        precondition(capacity > 0, "a worker needs room for one job")
        self.name = name
        self.capacity = capacity
        self.whenFull = whenFull
        self.clock = clock
        ring = Array(repeating: nil, count: capacity)
    }

    /// Starts the thread (once); `handle` runs each job on it, and touches only what is
    /// its own. The thread holds the worker, and what `handle` holds, until it ends.
    public func start(_ handle: @escaping (Job) -> Void) {
        PosixThread.start(name: name) { [self] in run(handle) }
    }

    /// Queues `job` to run after those already waiting; a full backlog as `whenFull` says.
    @discardableResult
    public func offer(_ job: Job) -> Offered {
        condition.lock()
        defer { condition.unlock() }
        if whenFull == .block { while count == capacity && !stopping { condition.wait() } }
        guard !stopping else { return .refused }
        var result = Offered.queued
        if count == capacity {
            guard whenFull == .dropOldest, let oldest = take() else { return .refused }
            droppedCount += 1
            result = .queuedDropping(oldest: oldest)
        }
        ring[(head + count) % capacity] = job
        count += 1
        condition.broadcast()
        return result
    }

    /// Jobs waiting, not counting the one under way.
    public var backlog: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Jobs that gave way to newer ones (`WhenFull.dropOldest`).
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }

    /// Waits until every job offered so far has run, or `deadline` passed on the worker's
    /// clock; whether they all ran. The worker goes on taking jobs.
    @discardableResult
    public func drain(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while (count > 0 || running) && !exited, clock.wait(condition, until: deadline) {}
        return count == 0 && !running
    }

    /// Refuses jobs from now on; the thread ends after the job under way and, with `.run`,
    /// the jobs waiting. With `.giveBack` those are returned, not run. Does not wait
    /// (`waitStopped`).
    @discardableResult
    public func stop(_ rest: Rest = .giveBack) -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        guard rest == .giveBack else { return [] }
        var left: [Job] = []
        left.reserveCapacity(count)
        while let job = take() { left.append(job) }
        return left
    }

    /// Waits until `deadline` (on the worker's clock) for the thread to end after `stop`;
    /// whether it has.
    @discardableResult
    public func waitStopped(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !exited, clock.wait(condition, until: deadline) {}
        return exited
    }

    /// The oldest job waiting, taken out of the ring. Call with the lock held.
    private func take() -> Job? {
        guard count > 0 else { return nil }
        let job = ring[head]
        ring[head] = nil
        head = (head + 1) % capacity
        count -= 1
        return job
    }

    private func run(_ handle: (Job) -> Void) {
        while true {
            condition.lock()
            while count == 0 && !stopping { condition.wait() }
            guard let job = take() else {
                exited = true
                condition.broadcast()
                condition.unlock()
                return
            }
            running = true
            condition.broadcast()
            condition.unlock()
            handle(job)
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
