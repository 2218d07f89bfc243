import Foundation
import Logging
@testable import SomniqAudio
@testable import SomniqConfig
@testable import SomniqDaemon
import SomniqLog
@testable import SomniqReports
@testable import SomniqSinks
import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing

/// The daemon measures intervals on a monotonic clock: a wall clock stepped back (a board
/// without an RTC when NTP first answers) must not stop the watchdog's pings, which would
/// have systemd kill a daemon that hears the room.
struct DaemonClocksTests {
    @Test func theWatchdogIsPingedThroughAWallClockStepBack() {
        let clock = TestClock()
        let interval = try! #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "2000000"]).watchdogInterval)
        #expect(interval == .seconds(1))
        var pacer = WatchdogPacer(interval: interval, clocks: DaemonClocks(clock))
        var pings: [Int] = []
        // A block of audio every 0.5 s for 20 s; 10 s in, the wall clock steps an hour back.
        for block in 0..<40 {
            if block == 20 { clock.stepWall(-3600) }
            if pacer.due() { pings.append(block) }
            clock.advance(.milliseconds(500))
        }
        #expect(pings == Array(stride(from: 0, to: 40, by: 2)))
    }

    /// Off the journal, a line of the daemon's own is stamped with its clock's wall time
    /// (UTC); in the journal, with its priority alone (the journal stamps it).
    @Test func theDaemonsOwnLinesAreStampedByItsClock() {
        let clock = TestClock(unix: 1_750_000_000.25)
        let event = LogEvent(level: .notice, message: "a line\nforged", metadata: nil, source: nil, file: #fileID, function: #function, line: #line)
        #expect(JournalLogHandler(journal: false, clock: clock).line(event) == "2025-06-15T15:06:40.250Z notice somniq: a line\\nforged\n")
        clock.stepWall(-3600)
        #expect(JournalLogHandler(journal: false, clock: clock).line(event) == "2025-06-15T14:06:40.250Z notice somniq: a line\\nforged\n")
        #expect(JournalLogHandler(journal: true, clock: clock).line(event) == "<5>a line\\nforged\n")
    }

    @Test func aWatchdogIntervalIsHalfWhatSystemdAsks() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "100000"]).watchdogInterval == .milliseconds(50))
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }
}

/// A stall is measured on the daemon's monotonic clock: a test clock stands still until the
/// test moves it, so the stall is said at `stallSeconds` exactly, and a wall clock stepped
/// back meanwhile changes nothing.
@Suite(.serialized) final class DaemonStallClockTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// How far the service has read the device: the number of its last `next`, and a stream
    /// that yields once the service asks for its third read (and ends then).
    final class Reads: Sendable {
        let count = Mutex(0)
        let (third, asked) = AsyncStream<Void>.makeStream()
    }

    /// A device that is heard once (a block of silence), then sends nothing until the task
    /// ends. Its third read is asked for once the service has taken the block whole.
    struct StallingDevice: DeviceSource {
        nonisolated(unsafe) static let silence: UnsafeMutableBufferPointer<Float> = {   // written once, then only read
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: 1600)
            b.initialize(repeating: 0)
            return b
        }()
        let reads: Reads
        var source: LogRecord.SessionStart.Source { .device(name: "stalling") }
        func close() {}
        func makeAsyncIterator() -> Iterator { Iterator(reads: reads) }

        struct Iterator: AsyncIteratorProtocol {
            let reads: Reads
            var step = 0
            mutating func next() async throws -> AudioEvent? {
                step += 1
                let n = step
                reads.count.withLock { $0 = n }
                if n == 3 { reads.asked.finish() }
                switch n {
                case 1: return .listening
                case 2: return .samples(AudioBlock(UnsafeBufferPointer(StallingDevice.silence)))
                default:
                    // Nothing more: a stream that never yields ends when the task is cancelled.
                    for await _ in AsyncStream<Int> { _ in } {}
                    return nil
                }
            }
        }
    }

    /// The service and the test run on a thread of their own (`ThreadExecutor`), not on the
    /// cooperative pool, which the suites that replay audio may keep busy for minutes.
    /// (The time limits, here and below, only end a service that never reads.)
    @Test(.timeLimit(.minutes(2))) func aStallIsSaidAtStallSecondsOfTheMonotonicClockThroughAWallStepBack() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.daemon) { try await stall() }
    }

    /// Every thread of the cooperative pool held by a task that blocks it, until `release`
    /// (or, should the code under test wait for the pool, a watchdog's `bound` of real
    /// time: then `starved`, and the test fails instead of hanging the run).
    final class HeldPool: Sendable {
        private let condition = PosixCondition()
        private let state = Mutex((holding: 0, released: false, starved: false))
        let width = ProcessInfo.processInfo.activeProcessorCount

        /// Holds the pool's threads; false if they were not all held within `bound` (an
        /// event's wait: other tests may have them).
        func hold(bound: Duration = .seconds(600)) -> Bool {
            for _ in 0..<width {
                Task.detached { [self] in
                    condition.lock()
                    state.withLock { $0.holding += 1 }
                    condition.broadcast()
                    while !state.withLock({ $0.released }) { condition.wait() }
                    condition.unlock()
                }
            }
            let end = ContinuousClock.now + bound
            condition.lock()
            defer { condition.unlock() }
            while state.withLock({ $0.holding }) < width { if !condition.wait(until: end) && state.withLock({ $0.holding }) < width { return false } }
            return true
        }

        /// Lets the threads go after `bound` of real time unless `release`d before.
        func watch(bound: Duration) {
            PosixThread.start(name: "somniq-test-wd") { [self] in
                let end = ContinuousClock.now + bound
                condition.lock()
                while !state.withLock({ $0.released }), condition.wait(until: end) {}
                let starved = state.withLock { s in
                    defer { s.released = true }
                    return !s.released
                }
                if starved { state.withLock { $0.starved = true } }
                condition.broadcast()
                condition.unlock()
            }
        }

        func release() {
            condition.lock()
            state.withLock { $0.released = true }
            condition.broadcast()
            condition.unlock()
        }

        var starved: Bool { state.withLock { $0.starved } }
    }

    /// The service starts, is heard, stalls and stops with every thread of the cooperative
    /// pool held: nothing of it waits for the pool, only for its own executor. (Its time
    /// limit: the pool's 10 min to be held and 1 min held, and the service's 2 min.)
    @Test(.timeLimit(.minutes(13))) func theServiceStartsStallsAndStopsWithThePoolHeld() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.daemon) {
            let pool = HeldPool()
            defer { pool.release() }
            try #require(pool.hold(), "the pool's \(pool.width) threads were not all held")
            pool.watch(bound: .seconds(60))
            try await stall()
            pool.release()
            #expect(!pool.starved, "the service waited for the cooperative pool (let go after 60 s)")
        }
    }

    /// The service on `clock`, listening and heard once: its device's third read asked for.
    func listening(on clock: TestClock) async throws -> (SessionService, Task<Void, any Error>, LiveState) {
        let config = try DaemonConfig.parse(#"{"room": "nursery", "log": "\#(dir)/events.jsonl", "silence_s": 3}"#, file: "config.json")
        var options = SessionService.Options(config: config, configPath: nil)
        options.clocks = DaemonClocks(clock)
        options.profileDirectory = dir
        let live = LiveState(device: "stalling")
        let reads = Reads()
        options.live = live
        let service = try SessionService(options: options, source: StallingDevice(reads: reads), controls: AsyncStream { $0.finish() },
                                         logger: JournalLines().logger)
        let running = Task(executorPreference: ThreadExecutor.daemon) { try await service.run() }
        // The block taken whole (its time is the last audio's): the device's third read is
        // asked for. On its own thread the service reads within milliseconds; one that never
        // reads is ended by the test's time limit, which cancels this wait.
        for await _ in reads.third {}
        try #require(reads.count.withLock { $0 } >= 3, "the service never read past the block")
        return (service, running, live)
    }

    func stall() async throws {
        let clock = TestClock()
        let (service, running, live) = try await listening(on: clock)
        #expect(live.snapshot.listening)
        clock.advance(.milliseconds(2900))
        clock.stepWall(-3600)
        await service.checkStall()
        #expect(!live.snapshot.stalled)
        clock.advance(.milliseconds(100))
        await service.checkStall()
        #expect(live.snapshot.stalled)
        running.cancel()
        _ = try? await running.value
        let stalls = records(dir + "/events.jsonl").filter { $0["status"]?.stringValue == "capture_stalled" }
        #expect(stalls.count == 1)
        #expect(stalls.first?["seconds"]?.numberValue == 3)
    }

    /// A stall that lasts to the end is counted until the session ends, on the daemon's
    /// clock: said at 3 s, the service stopped 4 s later, the night has the room unheard for
    /// 7 s (the 3 before it was said and the 4 after).
    @Test(.timeLimit(.minutes(2))) func aStallThatLastsToTheEndIsCountedUntilTheSessionEnds() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.daemon) {
            let clock = TestClock()
            let (service, running, live) = try await listening(on: clock)
            clock.advance(.seconds(3))
            await service.checkStall()
            #expect(live.snapshot.stalled)
            clock.advance(.seconds(4))
            running.cancel()
            _ = try? await running.value
            let log = records(dir + "/events.jsonl")
            #expect(kinds(log).filter { $0 == "status:capture_stalled" }.count == 1)
            var night = NightBuilder()
            for r in log { _ = night.add(try LogRecord(json: r)) }
            #expect(night.finish()?.unheard == 7)
        }
    }

    /// The daemon's seconds are its clock's: its three ticks (the stall check, the daily
    /// learning, the morning summary) sleep on it, so the stall is said by its own check
    /// when the test clock passes `stall_s`, and not a second before.
    @Test(.timeLimit(.minutes(2))) func theDaemonsTicksAreSecondsOfItsClock() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.daemon) {
            let clock = TestClock()
            let (_, running, live) = try await listening(on: clock)
            // Each tick done and asleep again on the clock (they run on this thread: a
            // yield lets them). The bound ends the wait for ticks that never sleep on it.
            let end = ContinuousClock.now + .seconds(60)
            func ticked() async throws {
                while clock.sleepers < 3 {
                    try #require(ContinuousClock.now < end, "the daemon's ticks do not sleep on its clock")
                    await Task.yield()
                }
            }
            try await ticked()
            for second in 1...3 {
                clock.advance(.seconds(1))
                try await ticked()
                #expect(live.snapshot.stalled == (second == 3), "at \(second) s")
            }
            running.cancel()
            _ = try? await running.value
            #expect(clock.sleepers == 0, "a cancelled tick is woken")
            let stalls = records(dir + "/events.jsonl").filter { $0["status"]?.stringValue == "capture_stalled" }
            #expect(stalls.map { $0["seconds"]?.numberValue } == [3])
        }
    }
}
