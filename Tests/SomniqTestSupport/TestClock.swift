// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
@testable import SomniqSupport
import Synchronization

/// A clock the test moves by hand (`advance`, `stepWall`): the code under test reads it for
/// its deadlines and back-offs, and a thread waiting on it for a deadline wakes when the
/// test moves it past. Nothing waits on real time but `waitForWaiters` and
/// `waitForSleepers`, which wait for an event (a thread or a task has begun waiting on the
/// clock), with a generous bound in case it never comes. A thread whose deadline the clock passes stops counting as waiting at once, in
/// `advance`: so a test can step the clock, then wait for the thread's next wait.
package final class TestClock: IOClock {
    private struct State {
        package var now: ContinuousClock.Instant
        package var unix: Double
        /// The conditions threads wait on, by a number of their own, with their deadlines.
        package var waiting: [Int: (deadline: ContinuousClock.Instant, condition: PosixCondition)] = [:]
        package var waits = 0
        /// The tasks asleep on the clock, by a number of their own, with their deadlines.
        package var sleeping: [Int: (deadline: ContinuousClock.Instant, wake: CheckedContinuation<Void, any Error>)] = [:]
        package var sleeps = 0
        /// A wait for an arrival timed out: the test has failed, and every wait and sleep
        /// on the clock, now or later, ends at once so that the run ends rather than hangs.
        package var gaveUp = false
    }
    private let state: Mutex<State>
    /// Signalled whenever a thread begins waiting, for `waitForWaiters`.
    private let arrivals = PosixCondition()

    package init(unix: Double = 1_750_000_000) {
        state = Mutex(State(now: .now, unix: unix))
    }

    package var now: ContinuousClock.Instant { state.withLock { $0.now } }
    package var unix: Double { state.withLock { $0.unix } }

    package func wait(_ condition: PosixCondition, until deadline: ContinuousClock.Instant) -> Bool {
        let number: Int? = state.withLock { s in
            guard s.now < deadline, !s.gaveUp else { return nil }
            s.waits += 1
            s.waiting[s.waits] = (deadline, condition)
            return s.waits
        }
        guard let number else { return false }
        arrivals.lock(); arrivals.broadcast(); arrivals.unlock()
        condition.wait()
        return state.withLock { s in
            s.waiting.removeValue(forKey: number)
            return s.now < deadline && !s.gaveUp
        }
    }

    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let number = state.withLock { s in
            s.sleeps += 1
            return s.sleeps
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                // Decided once, under the lock: a sleep that is registered is resumed by
                // `advance` or by the cancellation handler, never here as well.
                let ended: Bool? = state.withLock { s in
                    if s.now >= deadline { return true }
                    if Task.isCancelled || s.gaveUp { return false }
                    s.sleeping[number] = (deadline, wake)
                    return nil
                }
                switch ended {
                case true?: wake.resume()
                case false?: wake.resume(throwing: CancellationError())
                case nil: break
                }
                arrivals.lock(); arrivals.broadcast(); arrivals.unlock()
            }
        } onCancel: {
            state.withLock { $0.sleeping.removeValue(forKey: number) }?.wake.resume(throwing: CancellationError())
        }
    }

    /// Moves both clocks on by `d`, waking every thread and every task whose deadline it
    /// passes (they no longer count as waiting or asleep).
    package func advance(_ d: Duration) {
        let (waiting, woken) = state.withLock { s in
            s.now += d
            s.unix += d.inSeconds
            let now = s.now
            let passed = s.waiting.filter { $0.value.deadline <= now }
            for k in passed.keys { s.waiting.removeValue(forKey: k) }
            let ended = s.sleeping.filter { $0.value.deadline <= now }
            for k in ended.keys { s.sleeping.removeValue(forKey: k) }
            return (passed.values.map(\.condition), ended.values.map(\.wake))
        }
        for c in waiting { c.lock(); c.broadcast(); c.unlock() }
        for w in woken { w.resume() }
    }

    /// Ends every wait and sleep on the clock, and every one to come: a sleep throws
    /// `CancellationError`, a wait returns as if its deadline had passed. Called when an
    /// arrival the test waited for never came, so that code still asleep on the clock (a
    /// stream the test reads with `for try await`, say) ends and the test fails, instead of
    /// waiting for a step that nobody will take (a run on a machine so busy that the test's
    /// stepping thread gave up).
    private func giveUp() {
        let (waiting, woken) = state.withLock { s in
            s.gaveUp = true
            let waiting = s.waiting.values.map(\.condition)
            let woken = s.sleeping.values.map(\.wake)
            s.waiting.removeAll()
            s.sleeping.removeAll()
            return (waiting, woken)
        }
        for c in waiting { c.lock(); c.broadcast(); c.unlock() }
        for w in woken { w.resume(throwing: CancellationError()) }
    }

    /// How many tasks sleep on the clock now.
    package var sleepers: Int { state.withLock { $0.sleeping.count } }

    /// Waits until at least `n` tasks sleep on the clock; false if none came within `bound`
    /// of real time (the code under test never got there).
    package func waitForSleepers(_ n: Int = 1, bound: Duration = .seconds(30)) -> Bool {
        waitForCount(n, bound) { $0.sleeping.count }
    }

    /// Steps the wall clock alone (NTP's first answer); the monotonic clock stays.
    package func stepWall(_ seconds: Double) { state.withLock { $0.unix += seconds } }

    /// How many threads wait on the clock now.
    package var waiters: Int { state.withLock { $0.waiting.count } }

    /// Waits until at least `n` threads wait on the clock; false if none came within `bound`
    /// of real time (the code under test never got there).
    package func waitForWaiters(_ n: Int = 1, bound: Duration = .seconds(30)) -> Bool {
        waitForCount(n, bound) { $0.waiting.count }
    }

    /// Waits until `count` of the state is at least `n`, woken at each arrival; false after
    /// `bound` of real time.
    private func waitForCount(_ n: Int, _ bound: Duration, _ count: (State) -> Int) -> Bool {
        let end = ContinuousClock.now + bound
        arrivals.lock()
        defer { arrivals.unlock() }
        func enough() -> Bool { state.withLock { count($0) } >= n }
        while !enough() {
            if !arrivals.wait(until: end) && !enough() {
                giveUp()
                return false
            }
        }
        return true
    }
}

/// `body` run on a thread of its own, for code under test that waits on a `TestClock`
/// while the test moves it; `value` waits for what it returned (an event, not a time).
// @unchecked: `result` is written once, before `done` is signalled, and read after.
package final class OnItsOwnThread<T>: @unchecked Sendable {
    private let done = PosixCondition()
    private var result: T?

    package init(_ body: @escaping () -> T) {
        PosixThread.start(name: "somniq-test") { [self] in
            let r = body()
            done.lock()
            result = r
            done.broadcast()
            done.unlock()
        }
    }

    /// Whether `body` has returned.
    package var finished: Bool {
        done.lock()
        defer { done.unlock() }
        return result != nil
    }

    package var value: T {
        done.lock()
        defer { done.unlock() }
        while result == nil { done.wait() }
        return result!
    }
}
#endif
