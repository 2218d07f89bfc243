import Foundation
import Logging
import SomniqConfig
import SomniqCore
@testable import SomniqSinks
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing

/// A sink's retries on the test clock: a failed delivery is tried again after 1, 2, 4 …
/// 60 s, and a drain tries at once and starts the back-off again. The far end is what is
/// outside the machine, so it is a stand-in that fails as told; nothing here sleeps.
struct SinkBackoffTests {
    /// An endpoint that fails its first `failures` deliveries and notes when (on the clock)
    /// each attempt came.
    final class Flaky: SinkEndpoint {
        private let clock: TestClock
        private let state: Mutex<(failures: Int, attempts: [Duration])>
        private let origin: ContinuousClock.Instant
        private let arrivals = PosixCondition()

        init(clock: TestClock, failures: Int) {
            self.clock = clock
            origin = clock.now
            state = Mutex((failures, []))
        }

        func start(wake: @escaping @Sendable () -> Void) {}
        func stop() {}
        func takes(_ kind: SinkMessage.Kind) -> Bool { true }

        func deliver(_ message: SinkMessage, until deadline: ContinuousClock.Instant?) throws(SinkFailure) {
            let failing = state.withLock { s in
                s.attempts.append(origin.duration(to: clock.now))
                s.failures -= 1
                return s.failures >= 0
            }
            arrivals.lock(); arrivals.broadcast(); arrivals.unlock()
            if failing { throw SinkFailure("refused", unsent: true) }
        }

        /// The attempts so far, as offsets from the start.
        var attempts: [Duration] { state.withLock { $0.attempts } }

        /// Waits (for the event, bounded in real time) until `n` attempts were made.
        func waitForAttempts(_ n: Int) -> Bool {
            let end = ContinuousClock.now + .seconds(30)
            arrivals.lock()
            defer { arrivals.unlock() }
            while attempts.count < n { if !arrivals.wait(until: end) && attempts.count < n { return false } }
            return true
        }
    }

    func worker(_ endpoint: Flaky, clock: TestClock) -> SinkWorker {
        let w = SinkWorker(name: "flaky", endpoint: endpoint, capacity: 4, logger: Logger(label: "test"), clock: clock)
        w.start()
        return w
    }

    /// A test notification through the sinks of `config` (a configuration's text), sent on a
    /// thread of its own while the test moves `clock`: the answers wait up to `timeout` of it.
    func sendingATest(_ config: String, timeout: Duration, clock: TestClock) throws -> OnItsOwnThread<[SinkHub.TestResult]> {
        let sinks = try DaemonConfig.parse(config, file: "config.json").sinks
        return OnItsOwnThread {
            SinkHub.sendTest(sinks, room: "nursery", profile: .balanced, version: "test", time: "2026-11-29T04:00:00.000Z",
                             timeout: timeout, logger: Logger(label: "test"), clock: clock)
        }
    }

    @Test func aFailedDeliveryIsRetriedAfterOneTwoFourSeconds() throws {
        let clock = TestClock()
        let endpoint = Flaky(clock: clock, failures: 3)
        let w = worker(endpoint, clock: clock)
        w.offer(.test(room: "bedroom", time: "2026-11-29T04:00:00Z"))
        try #require(endpoint.waitForAttempts(1))
        for (step, wait) in [(2, 1), (3, 2), (4, 4)] {
            try #require(clock.waitForWaiters(1))
            // Short of the back-off by a second: no attempt yet.
            if wait > 1 {
                clock.advance(.seconds(wait - 1))
                try #require(clock.waitForWaiters(1))
                #expect(endpoint.attempts.count == step - 1)
                clock.advance(.seconds(1))
            } else {
                clock.advance(.seconds(wait))
            }
            try #require(endpoint.waitForAttempts(step))
        }
        #expect(endpoint.attempts == [.zero, .seconds(1), .seconds(3), .seconds(7)])
        w.waitDrained(until: clock.now + .seconds(10))   // the delivery counted
        let counts = w.snapshot
        #expect(counts.delivered == 1)
        #expect(counts.failures == 3)
        #expect(counts.lastError == "refused")
        w.requestStop()
        w.waitStopped(until: clock.now + .seconds(1))
    }

    @Test func aDrainRetriesAtOnceAndStartsTheBackoffAgain() throws {
        let clock = TestClock()
        let endpoint = Flaky(clock: clock, failures: 4)
        let w = worker(endpoint, clock: clock)
        w.offer(.test(room: "bedroom", time: "2026-11-29T04:00:00Z"))
        try #require(endpoint.waitForAttempts(1))
        for (step, wait) in [(2, 1), (3, 2)] {
            try #require(clock.waitForWaiters(1))
            clock.advance(.seconds(wait))
            try #require(endpoint.waitForAttempts(step))
        }
        // Failing with 4 s to wait: the drain tries at once, then after 1 s.
        try #require(clock.waitForWaiters(1))
        w.startDrain()
        try #require(endpoint.waitForAttempts(4))
        try #require(clock.waitForWaiters(1))
        clock.advance(.seconds(1))
        try #require(endpoint.waitForAttempts(5))
        #expect(endpoint.attempts == [.zero, .seconds(1), .seconds(3), .seconds(3), .seconds(4)])
        w.waitDrained(until: clock.now + .seconds(10))
        #expect(w.snapshot.delivered == 1)
        #expect(w.snapshot.dropped == 0)
        w.requestStop()
        w.waitStopped(until: clock.now + .seconds(1))
    }

    /// A test notification's pauses between attempts are on its clock, the one its sinks
    /// measure their timeouts on: a webhook nothing listens for (on loopback) is tried at
    /// 0, 0.5 and 1.5 s of it, and the result says the 1.5 s it took, exactly.
    @Test func aTestNotificationsRetriesAreOnItsClock() throws {
        let closed = try freePort()
        let clock = TestClock()
        let test = try sendingATest(#"{"sinks": [{"type": "webhook", "name": "dead", "url": "http://127.0.0.1:\#(closed)/"}]}"#,
                                    timeout: .seconds(3), clock: clock)
        // The wait for the answers, and the sink's pause after its first attempt.
        try #require(clock.waitForWaiters(2))
        clock.advance(.milliseconds(499))
        try #require(clock.waitForWaiters(2))
        #expect(!test.finished)
        clock.advance(.milliseconds(1))     // the second attempt, then a pause of 1 s
        try #require(clock.waitForWaiters(2))
        #expect(!test.finished)
        clock.advance(.seconds(1))          // the third, the last
        let results = test.value
        #expect(results.map(\.seconds) == [1.5])
        #expect(results.first?.failure?.contains("127.0.0.1:\(closed)") == true, "\(results)")
    }

    /// A sink still busy `grace` past a test notification's timeout is answered for then, on
    /// its clock: a webhook that never answers (its libcurl timeout is what is left of the
    /// 300 s, real time) is said not to have answered at 302 s of the clock, not 1 ms sooner.
    @Test func aSinkStillBusyAfterTheTimeoutAndGraceIsAnsweredFor() throws {
        let port = try freePort()
        let hung = try startHangingServer(port: port)
        defer { hung.stop() }
        let clock = TestClock()
        let test = try sendingATest(#"{"sinks": [{"type": "webhook", "name": "hung", "url": "http://127.0.0.1:\#(port)/", "timeout_s": 300}]}"#,
                                    timeout: .seconds(300), clock: clock)
        try #require(clock.waitForWaiters(1))   // the wait for the answers
        clock.advance(.seconds(302) - .milliseconds(1))
        try #require(clock.waitForWaiters(1))
        #expect(!test.finished)
        clock.advance(.milliseconds(1))
        let results = test.value
        #expect(results.map(\.failure) == ["no answer within 302 s"] && results.map(\.seconds) == [302], "\(results)")
    }

    /// An exec program's timeout and its kill grace are waits on the sink's clock, with no
    /// poll: a program that ignores SIGTERM, and the child it started, run on 1 ms short of
    /// `timeout_s` and 1 ms short of the 0.5 s grace after it, and are gone at its end.
    @Test func anExecProgramsTimeoutAndKillGraceAreOnItsClock() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pids = dir + "/pids", program = dir + "/hang.sh"
        try "#!/bin/sh\ntrap '' TERM\nsleep 300 &\necho $$ $! > \(pids)\nwait\n".write(toFile: program, atomically: true, encoding: .utf8)
        #expect(chmod(program, 0o755) == 0)
        let clock = TestClock()
        let test = try sendingATest(#"{"sinks": [{"type": "exec", "name": "hang", "command": ["\#(program)"], "timeout_s": 300}]}"#,
                                    timeout: .seconds(300), clock: clock)
        // The wait for the answers, and the sink's for its program.
        try #require(clock.waitForWaiters(2))
        try waitUntil(timeout: 60) { ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").hasSuffix("\n") }
        let both = try String(contentsOfFile: pids, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        try #require(both.count == 2)
        func alive(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
        clock.advance(.seconds(300) - .milliseconds(1))
        #expect(clock.waiters == 2 && !test.finished)
        #expect(both.allSatisfy(alive), "stopped before its timeout")
        clock.advance(.milliseconds(1))     // SIGTERM, ignored; then the grace
        try #require(clock.waitForWaiters(2))
        clock.advance(.milliseconds(499))
        #expect(clock.waiters == 2 && !test.finished)
        #expect(both.allSatisfy(alive), "killed before the grace ended")
        clock.advance(.milliseconds(1))     // SIGKILL to the group
        let results = test.value
        #expect(results.first?.failure == "\(program) did not finish within 300 s and was stopped", "\(results)")
        try waitUntil(timeout: 60) { !both.contains(where: alive) }
    }
}
