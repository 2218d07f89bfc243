// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
@testable import SomniqSupport
import Synchronization

/// A clock the test moves by hand (`advance`, `stepWall`): the code under test reads it for
/// its deadlines and back-offs, and a thread waiting on it for a deadline wakes when the
/// test moves it past. Nothing waits on real time but `waitForWaiters`, which waits for an
/// event (a thread has begun waiting on the clock), with a generous bound in case it never
/// comes.
package final class TestClock: IOClock {
    private struct State {
        package var now: ContinuousClock.Instant
        package var unix: Double
        /// The conditions threads wait on, one entry per waiting thread.
        package var waiting: [PosixCondition] = []
        /// The tasks asleep on the clock, by a number of their own, with their deadlines.
        package var sleeping: [Int: (deadline: ContinuousClock.Instant, wake: CheckedContinuation<Void, any Error>)] = [:]
        package var sleeps = 0
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
        let passed = state.withLock { s in
            guard s.now < deadline else { return true }
            s.waiting.append(condition)
            return false
        }
        guard !passed else { return false }
        arrivals.lock(); arrivals.broadcast(); arrivals.unlock()
        condition.wait()
        return state.withLock { s in
            if let k = s.waiting.firstIndex(where: { $0 === condition }) { s.waiting.remove(at: k) }
            return s.now < deadline
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
                    if Task.isCancelled { return false }
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

    /// Moves both clocks on by `d`, waking every thread waiting on the clock and every task
    /// whose sleep has ended.
    package func advance(_ d: Duration) {
        let (waiting, woken) = state.withLock { s in
            s.now += d
            s.unix += d.inSeconds
            let now = s.now
            let ended = s.sleeping.filter { $0.value.deadline <= now }
            for k in ended.keys { s.sleeping.removeValue(forKey: k) }
            return (s.waiting, ended.values.map(\.wake))
        }
        for c in waiting { c.lock(); c.broadcast(); c.unlock() }
        for w in woken { w.resume() }
    }

    /// How many tasks sleep on the clock now.
    package var sleepers: Int { state.withLock { $0.sleeping.count } }

    /// Steps the wall clock alone (NTP's first answer); the monotonic clock stays.
    package func stepWall(_ seconds: Double) { state.withLock { $0.unix += seconds } }

    /// How many threads wait on the clock now.
    package var waiters: Int { state.withLock { $0.waiting.count } }

    /// Waits until at least `n` threads wait on the clock; false if none came within `bound`
    /// of real time (the code under test never got there).
    package func waitForWaiters(_ n: Int = 1, bound: Duration = .seconds(30)) -> Bool {
        let end = ContinuousClock.now + bound
        arrivals.lock()
        defer { arrivals.unlock() }
        while waiters < n { if !arrivals.wait(until: end) && waiters < n { return false } }
        return true
    }
}
#endif
