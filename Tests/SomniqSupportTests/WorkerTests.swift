import Foundation
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing

/// The worker building block: jobs run in order, the backlog keeps its bound by the
/// caller's policy, `drain` waits for the work (to a deadline on the worker's clock), and
/// `stop` runs nothing more. No test sleeps: a job that must be under way holds a gate.
struct WorkerTests {
    /// A door a job waits at until the test opens it.
    final class Gate: Sendable {
        private let condition = PosixCondition()
        private let state = Mutex(false)
        func open() { condition.lock(); state.withLock { $0 = true }; condition.broadcast(); condition.unlock() }
        func pass() {
            condition.lock()
            while !state.withLock({ $0 }) { condition.wait() }
            condition.unlock()
        }
    }

    /// A value threads share.
    final class Locked<T: Sendable>: Sendable {
        private let m: Mutex<T>
        init(_ value: T) { m = Mutex(value) }
        var value: T { m.withLock { $0 } }
        func update(_ body: (inout T) -> Void) { m.withLock { body(&$0) } }
    }

    enum Job: Sendable, Equatable {
        case hold(Int)
        case note(Int)
    }

    /// A worker whose jobs note their number (`hold` first waits at `gate`, having said so at `started`).
    final class Rig: Sendable {
        let ran = Locked<[Int]>([])
        let started = Gate(), gate = Gate()
        let worker: Worker<Job>
        init(capacity: Int, whenFull: Worker<Job>.WhenFull, bound: Worker<Job>.Bound = .waiting, clock: any IOClock = SystemClock()) {
            let ran = ran, started = started, gate = gate
            worker = Worker(name: "test-worker", capacity: capacity, whenFull: whenFull, bound: bound, clock: clock)
            worker.start { job in
                switch job {
                case .hold(let n): started.open(); gate.pass(); ran.update { $0.append(n) }
                case .note(let n): ran.update { $0.append(n) }
                }
            }
        }
        /// Offers a job that holds the thread, and waits until it does.
        func hold(_ n: Int) { worker.offer(.hold(n)); started.pass() }
        var far: ContinuousClock.Instant { .now + .seconds(60) }
    }

    @Test func jobsRunInTheOrderOffered() {
        let rig = Rig(capacity: 8, whenFull: .block)
        for n in 0..<200 { rig.worker.offer(.note(n)) }
        #expect(rig.worker.drain(until: rig.far))
        #expect(rig.ran.value == Array(0..<200))
        rig.worker.stop()
    }

    @Test func aFullBacklogRefusesTheNewJob() {
        let rig = Rig(capacity: 3, whenFull: .refuse)
        rig.hold(0)
        let offered = (1...5).map { rig.worker.offer(.note($0)) }
        #expect(offered.map { if case .queued = $0 { "queued" } else { "refused" } }
                == ["queued", "queued", "queued", "refused", "refused"])
        #expect(rig.worker.backlog == 3)
        rig.gate.open()
        #expect(rig.worker.drain(until: rig.far))
        #expect(rig.ran.value == [0, 1, 2, 3])
        #expect(rig.worker.dropped == 0)
        rig.worker.stop()
    }

    @Test func aFullBacklogDropsItsOldestCounted() {
        let rig = Rig(capacity: 3, whenFull: .dropOldest)
        rig.hold(0)
        var gaveWay: [Job] = []
        for n in 1...5 {
            if case .queuedDropping(let oldest) = rig.worker.offer(.note(n)) { gaveWay.append(oldest) }
        }
        #expect(gaveWay == [.note(1), .note(2)])
        #expect(rig.worker.dropped == 2)
        #expect(rig.worker.backlog == 3)
        rig.gate.open()
        #expect(rig.worker.drain(until: rig.far))
        #expect(rig.ran.value == [0, 3, 4, 5])
        rig.worker.stop()
    }

    @Test func aBoundWithTheJobUnderWayGivesItUpFirst() {
        let rig = Rig(capacity: 2, whenFull: .dropOldest, bound: .withUnderWay)
        rig.hold(0)
        var outcomes: [String] = []
        for n in 1...3 {
            switch rig.worker.offer(.note(n)) {
            case .queued: outcomes.append("queued")
            case .queuedGivingUpUnderWay: outcomes.append("gave up the one under way")
            case .queuedDropping(let oldest): outcomes.append("dropped \(oldest)")
            case .refused: outcomes.append("refused")
            }
        }
        #expect(outcomes == ["queued", "gave up the one under way", "dropped note(1)"])
        #expect(rig.worker.locked { $0.underWayGivenUp && $0.held == 2 })
        rig.gate.open()
        #expect(rig.worker.drain(until: rig.far))
        #expect(rig.ran.value == [0, 2, 3])
        #expect(rig.worker.dropped == 2)
        rig.worker.stop()
    }

    @Test func givingUpTakesOutWhatWaitsAndDrainNoLongerWaitsForTheJobUnderWay() {
        let rig = Rig(capacity: 4, whenFull: .refuse)
        rig.hold(0)
        rig.worker.offer(.note(1))
        rig.worker.offer(.note(2))
        var seen: (Int, Bool)?
        rig.worker.giveUp { takenOut, status in seen = (takenOut, status.underWayGivenUp) }
        #expect(seen?.0 == 2 && seen?.1 == true)
        // Nothing left to wait for, though job 0 still holds the thread.
        #expect(rig.worker.drain(until: rig.far))
        rig.gate.open()
        rig.worker.stop()
        #expect(rig.worker.waitStopped(until: rig.far))
        #expect(rig.ran.value == [0])
    }

    @Test func aFullBacklogMakesTheOffererWaitForRoom() {
        let rig = Rig(capacity: 1, whenFull: .block)
        rig.hold(0)
        rig.worker.offer(.note(1))
        let offered = Gate()
        let events = Locked<[String]>([])
        let offerer = Thread {
            rig.worker.offer(.note(2))
            events.update { $0.append("offered") }
            offered.open()
        }
        offerer.start()
        // Room comes only when the held job ends and the worker takes the next.
        events.update { $0.append("released") }
        rig.gate.open()
        offered.pass()
        #expect(rig.worker.drain(until: rig.far))
        #expect(events.value == ["released", "offered"])
        #expect(rig.ran.value == [0, 1, 2])
        rig.worker.stop()
    }

    @Test func drainWaitsForTheJobUnderWayUntilItsDeadline() throws {
        let clock = TestClock()
        let rig = Rig(capacity: 4, whenFull: .refuse, clock: clock)
        rig.hold(0)
        rig.worker.offer(.note(1))
        let result = Locked<Bool?>(nil)
        let done = Gate()
        let drainer = Thread {
            let drained = rig.worker.drain(until: clock.now + .seconds(2))
            result.update { $0 = drained }
            done.open()
        }
        drainer.start()
        try #require(clock.waitForWaiters(1))
        clock.advance(.seconds(1))
        try #require(clock.waitForWaiters(1))
        #expect(result.value == nil)
        clock.advance(.seconds(1))
        done.pass()
        #expect(result.value == false)
        #expect(rig.ran.value == [])
        rig.gate.open()
        #expect(rig.worker.drain(until: clock.now + .seconds(1)))
        #expect(rig.ran.value == [0, 1])
        rig.worker.stop()
    }

    @Test func stopAfterDrainLosesNothing() {
        let rig = Rig(capacity: 16, whenFull: .refuse)
        for n in 0..<10 { rig.worker.offer(.note(n)) }
        #expect(rig.worker.drain(until: rig.far))
        #expect(rig.worker.stop().isEmpty)
        #expect(rig.worker.waitStopped(until: rig.far))
        #expect(rig.ran.value == Array(0..<10))
    }

    @Test func nothingRunsAfterStop() {
        let rig = Rig(capacity: 8, whenFull: .refuse)
        rig.hold(0)
        for n in 1...3 { rig.worker.offer(.note(n)) }
        #expect(rig.worker.stop() == [.note(1), .note(2), .note(3)])
        if case .refused = rig.worker.offer(.note(4)) {} else { Issue.record("a job was taken after stop") }
        rig.gate.open()
        #expect(rig.worker.waitStopped(until: rig.far))
        #expect(rig.ran.value == [0])
        #expect(rig.worker.backlog == 0)
    }

    @Test func stopCanRunWhatIsWaitingFirst() {
        let rig = Rig(capacity: 8, whenFull: .refuse)
        rig.hold(0)
        for n in 1...3 { rig.worker.offer(.note(n)) }
        #expect(rig.worker.stop(.run).isEmpty)
        if case .refused = rig.worker.offer(.note(4)) {} else { Issue.record("a job was taken after stop") }
        rig.gate.open()
        #expect(rig.worker.waitStopped(until: rig.far))
        #expect(rig.ran.value == [0, 1, 2, 3])
    }

    @Test func theThreadHasEndedOnlyOnceItsLastHasRun() {
        // A sink's `last` disconnects its client and joins its network thread: until that
        // is over, the worker has not stopped, and a process must not exit under it.
        let started = Gate(), gate = Gate(), lastRan = Locked(false)
        let worker = Worker<Job>(name: "test-worker", capacity: 4, whenFull: .refuse)
        worker.start(last: { started.open(); gate.pass(); lastRan.update { $0 = true } }) { _ in }
        worker.stop()
        started.pass()
        #expect(!worker.waitStopped(until: .now + .milliseconds(200)))
        gate.open()
        #expect(worker.waitStopped(until: .now + .seconds(60)))
        #expect(lastRan.value)
    }
}
