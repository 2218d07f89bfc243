import FoundationEssentials
import Synchronization

/// A thread of its own that runs jobs one at a time, in the order they were offered, from
/// a backlog of at most `capacity` (`Bound`: waiting, or with the job under way). What
/// happens when the backlog is full is the caller's policy (`WhenFull`). `drain` waits, to
/// a deadline on the worker's clock, until everything offered has run or been given up;
/// `stop` ends the thread after the job under way. The backlog is a ring allocated once:
/// offering a job allocates nothing.
///
/// A job that takes long (a delivery retried with back-off) can be given up while it runs
/// (`giveUp`, or a full backlog that counts it): it sees so in `Status.underWayGivenUp`.
/// An owner whose state goes with the worker's (counts, flags) keeps it under the worker's
/// lock, through the closures `offer`, `locked`, `giveUp`, `nudge` and `wait` run with it held.
///
/// The clips, the night audio, the sinks and the web page's reads each run on one.
///
/// Its state is in a `Mutex`, taken only with `condition`'s lock held (Synchronization has
/// no condition variable): the lock an owner's closures run under is `condition`'s.
public final class Worker<Job: Sendable>: Sendable {
    /// What `offer` does with a job that finds the backlog full.
    public enum WhenFull: Sendable {
        /// The oldest job waiting gives way (`offer` returns it, and `dropped` counts it).
        case dropOldest
        /// The new job is refused (`offer` returns `.refused`).
        case refuse
        /// `offer` waits for room (or for `stop`).
        case block
    }

    public enum Offered: Sendable {
        case queued
        /// Queued, and `oldest` gave way to it.
        case queuedDropping(oldest: Job)
        /// Queued, and the job under way, the oldest, was given up for it (`Bound.withUnderWay`).
        case queuedGivingUpUnderWay
        /// Not queued: the backlog was full, or the worker is stopping.
        case refused
    }

    /// What `capacity` counts.
    public enum Bound: Sendable {
        /// The jobs waiting.
        case waiting
        /// The jobs waiting and the one under way (unless it was given up): with
        /// `dropOldest`, a full backlog gives up the job under way when it is the oldest.
        case withUnderWay
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
    private let bound: Bound
    private let clock: any IOClock
    private let condition = PosixCondition()
    private struct State {
        var ring: [Job?]
        var head = 0, count = 0
        var running = false
        /// The job under way was given up.
        var givenUp = false
        var stopping = false
        var exited = false
        var droppedCount = 0
    }
    private let state: Mutex<State>

    /// A worker whose thread, `name`, begins at `start`; jobs offered before wait for it.
    public init(name: String, capacity: Int, whenFull: WhenFull, bound: Bound = .waiting, clock: any IOClock = SystemClock()) {
        precondition(capacity > 0, "a worker needs room for one job")
        self.name = name
        self.capacity = capacity
        self.whenFull = whenFull
        self.bound = bound
        self.clock = clock
        state = Mutex(State(ring: Array(repeating: nil, count: capacity)))
    }

    /// The state, with `condition`'s lock held.
    private func with<R: Sendable>(_ body: (inout State) -> R) -> R {
        state.withLock { s in body(&s) }
    }

    /// Starts the thread (once); `handle` runs each job on it, and touches only what is
    /// its own; `first` runs on it before the first job, `last` after the last. The thread
    /// holds the worker, and what the closures hold, until it ends.
    public func start(first: @escaping () -> Void = {}, last: @escaping () -> Void = {}, _ handle: @escaping (Job) -> Void) {
        PosixThread.start(name: name) { [self] in
            first()
            run(handle)
            last()
            // Ended only now, `last` with it: a sink's `last` disconnects and joins its
            // client's network thread, and a process that went on to exit while that ran
            // tore the TLS library down under it (SIGABRT at the end of a replay told of a
            // wrong MQTT password, on a busy machine).
            condition.lock()
            with { $0.exited = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queues `job` to run after those already waiting; a full backlog as `whenFull` says.
    /// `then` runs with the lock held, told what became of the job.
    @discardableResult
    public func offer(_ job: Job, then: (Offered, Status) -> Void = { _, _ in }) -> Offered {
        condition.lock()
        defer { condition.unlock() }
        let result = place(job)
        then(result, status)
        return result
    }

    /// `offer`'s work, with the lock held.
    private func place(_ job: Job) -> Offered {
        if whenFull == .block { while status.held == capacity && !with({ $0.stopping }) { condition.wait() } }
        let result: Offered? = with { s in
            guard !s.stopping else { return nil }
            var result = Offered.queued
            if held(s) == capacity {
                guard whenFull == .dropOldest else { return nil }
                s.droppedCount += 1
                if bound == .withUnderWay, s.running, !s.givenUp {
                    s.givenUp = true
                    result = .queuedGivingUpUnderWay
                } else {
                    result = .queuedDropping(oldest: take(&s)!)
                }
            }
            s.ring[(s.head + s.count) % capacity] = job
            s.count += 1
            return result
        }
        guard let result else { return .refused }
        condition.broadcast()
        return result
    }

    /// Jobs waiting, not counting the one under way.
    public var backlog: Int {
        condition.lock()
        defer { condition.unlock() }
        return with { $0.count }
    }

    /// What the worker holds now, for an owner's closures (run with the worker's lock held).
    public struct Status: Sendable {
        /// What `capacity` bounds: the jobs waiting, and with `Bound.withUnderWay` the one
        /// under way unless it was given up.
        public var held: Int
        /// A job is under way, and it was given up.
        public var underWayGivenUp: Bool
        public var stopping: Bool
    }

    private var status: Status {
        with { s in Status(held: held(s), underWayGivenUp: s.running && s.givenUp, stopping: s.stopping) }
    }

    /// What `capacity` bounds, in `s`.
    private func held(_ s: State) -> Int {
        s.count + (bound == .withUnderWay && s.running && !s.givenUp ? 1 : 0)
    }

    /// Runs `body` with the worker's lock held: an owner's state that `body` touches is
    /// guarded by it, and reads the worker's status in the same instant.
    public func locked<R>(_ body: (Status) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(status)
    }

    /// Takes out the jobs waiting, not run, and gives up the one under way; `then` runs with
    /// the lock held, told how many were taken out and what is left.
    public func giveUp(then: (_ takenOut: Int, Status) -> Void = { _, _ in }) {
        condition.lock()
        defer { condition.unlock() }
        let n = with { s in
            if s.running { s.givenUp = true }
            var n = 0
            while take(&s) != nil { n += 1 }
            return n
        }
        condition.broadcast()
        then(n, status)
    }

    /// Runs `body` with the lock held, then wakes every `pause` and `wait` to look again.
    public func nudge(_ body: () -> Void = {}) {
        condition.lock()
        body()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits on the worker's clock until `deadline` while `keepWaiting` (asked with the lock
    /// held, after each `nudge`) says so; a pause (the job under way waiting to retry) ends
    /// at `stop` as well.
    public func wait(until deadline: ContinuousClock.Instant, while keepWaiting: (Status) -> Bool) {
        condition.lock()
        while keepWaiting(status), clock.wait(condition, until: deadline) {}
        condition.unlock()
    }

    /// For the job under way: waits until `deadline`, `stop`, or `keepWaiting` says no.
    public func pause(until deadline: ContinuousClock.Instant, while keepWaiting: (Status) -> Bool) {
        wait(until: deadline) { !$0.stopping && keepWaiting($0) }
    }

    /// Jobs a full backlog pushed out (`WhenFull.dropOldest`), the one under way included.
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return with { $0.droppedCount }
    }

    /// Waits until every job offered so far has run, or `deadline` passed on the worker's
    /// clock; whether they all ran. The worker goes on taking jobs.
    @discardableResult
    public func drain(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        func busy(_ s: State) -> Bool { s.count > 0 || (s.running && !s.givenUp) }
        while with({ busy($0) && !$0.exited }), clock.wait(condition, until: deadline) {}
        return !with { busy($0) }
    }

    /// Refuses jobs from now on; the thread ends after the job under way and, with `.run`,
    /// the jobs waiting. With `.giveBack` those are returned, not run. Does not wait
    /// (`waitStopped`).
    @discardableResult
    public func stop(_ rest: Rest = .giveBack) -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        defer { condition.broadcast() }
        return with { s in
            s.stopping = true
            guard rest == .giveBack else { return [] }
            var left: [Job] = []
            left.reserveCapacity(s.count)
            while let job = take(&s) { left.append(job) }
            return left
        }
    }

    /// Waits until `deadline` (on the worker's clock) for the thread to end after `stop`,
    /// its `last` run; whether it has.
    @discardableResult
    public func waitStopped(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !with({ $0.exited }), clock.wait(condition, until: deadline) {}
        return with { $0.exited }
    }

    /// The oldest job waiting, taken out of the ring.
    private func take(_ s: inout State) -> Job? {
        guard s.count > 0 else { return nil }
        let job = s.ring[s.head]
        s.ring[s.head] = nil
        s.head = (s.head + 1) % capacity
        s.count -= 1
        return job
    }

    private func run(_ handle: (Job) -> Void) {
        while true {
            condition.lock()
            while with({ $0.count == 0 && !$0.stopping }) { condition.wait() }
            let job: Job? = with { s in
                guard let job = take(&s) else { return nil }
                s.running = true
                s.givenUp = false
                return job
            }
            condition.broadcast()
            condition.unlock()
            guard let job else { return }
            handle(job)
            condition.lock()
            with { s in
                s.running = false
                s.givenUp = false
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
